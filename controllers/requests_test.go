package controllers_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"calendar/controllers"
)

func TestUnknownPathsAndMethodsAreRestNoRoute(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for _, c := range []struct{ method, path string }{
		{"GET", "/vendor/events/v1/nope"},
		{"GET", "/nothing-here"},
		{"GET", "/fr/vendor/events/v1/nope"},
		{"DELETE", "/vendor/events/v1/doc"},
		{"POST", "/vendor/events/v1"},
		{"PUT", "/vendor/admin/v1/users"},
		{"GET", "/vendor/admin/v1/users/2"},
		{"DELETE", "/vendor/admin/v1/users/abc"},
		{"DELETE", "/vendor/admin/v1/users/-1"},
		{"DELETE", "/vendor/admin/v1/users/1.5"},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			s.do(c.method, c.path, asAdmin()).expectError(t, http.StatusNotFound, "rest_no_route")
		})
	}
}

func TestMalformedJSONIsRestInvalidJSON(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for name, content := range map[string]string{
		"syntax error":        `{"login": "x",`,
		"not an object":       `["login", "x"]`,
		"trailing data":       `{"login": "x"} {}`,
		"JSON with a charset": `{bad`,
	} {
		t.Run(name, func(t *testing.T) {
			ct := "application/json"
			if name == "JSON with a charset" {
				ct = "application/json; charset=UTF-8"
			}
			s.do("POST", "/vendor/admin/v1/users", asAdmin(), body(ct, content)).expectError(t, http.StatusBadRequest, "rest_invalid_json")
		})
	}
}

func TestABodyOverOneMebibyteIs413(t *testing.T) {
	t.Parallel()
	s := startService(t)
	big := `{"login":"` + bigBody(2<<20) + `","role":"editor"}`
	t.Run("with a Content-Length", func(t *testing.T) {
		s.do("POST", "/vendor/admin/v1/users", asAdmin(), body("application/json", big)).
			expectError(t, http.StatusRequestEntityTooLarge, "rest_body_too_large")
	})
	t.Run("chunked, no length announced", func(t *testing.T) {
		s.do("POST", "/vendor/admin/v1/users", asAdmin(), func(r *http.Request) {
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Body = io.NopCloser(io.MultiReader(strings.NewReader("login="), strings.NewReader(bigBody(2<<20))))
			r.ContentLength = -1
		}).expectError(t, http.StatusRequestEntityTooLarge, "rest_body_too_large")
	})
	t.Run("just under the limit is read", func(t *testing.T) {
		padded := `{"login":"under","role":"editor","pad":"` + bigBody(1<<20-100) + `"}`
		s.do("POST", "/vendor/admin/v1/users", asAdmin(), body("application/json", padded)).expectStatus(t, http.StatusCreated)
	})
}

func TestParametersArriveInEveryEncoding(t *testing.T) {
	t.Parallel()
	s := startService(t)
	multipartBody := func(login string) option {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		_ = w.WriteField("login", login)
		_ = w.WriteField("role", "author")
		_ = w.Close()
		return body(w.FormDataContentType(), buf.String())
	}
	cases := map[string][]option{
		"form with charset":       {body("application/x-www-form-urlencoded; charset=UTF-8", "login=form-user&role=author")},
		"form with latin charset": {body("application/x-www-form-urlencoded;charset=iso-8859-1", "login=form2&role=author")},
		"multipart":               {multipartBody("multi-user")},
		"JSON with charset":       {body("application/json; charset=utf-8", `{"login":"json-user","role":"author"}`)},
		"vendor JSON type":        {body("application/vnd.api+json", `{"login":"vnd-user","role":"author"}`)},
	}
	for name, opts := range cases {
		t.Run(name, func(t *testing.T) {
			s.do("POST", "/vendor/admin/v1/users", append(opts, asAdmin())...).expectStatus(t, http.StatusCreated)
		})
	}
	t.Run("query string", func(t *testing.T) {
		s.do("POST", "/vendor/admin/v1/users?login=query-user&role=author", asAdmin()).expectStatus(t, http.StatusCreated)
	})
	t.Run("JSON body wins over the query string", func(t *testing.T) {
		res := s.do("POST", "/vendor/admin/v1/users?login=from-query&role=subscriber", asAdmin(),
			jsonBody(map[string]string{"login": "from-json"}))
		res.expectStatus(t, http.StatusCreated)
		if m := res.object(t); m["login"] != "from-json" || m["role"] != "subscriber" {
			t.Fatalf("created %v, want login from JSON and role from the query", m)
		}
	})
	t.Run("unknown parameters are ignored", func(t *testing.T) {
		s.do("POST", "/vendor/admin/v1/users", asAdmin(),
			jsonBody(map[string]any{"login": "extra", "role": "editor", "whatever": map[string]any{"$gt": ""}})).
			expectStatus(t, http.StatusCreated)
	})
}

func TestTrailingSlashesAndCORS(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.do("GET", "/vendor/events/v1/doc/").expectStatus(t, http.StatusOK)
	s.do("GET", "/vendor/events/v1/").expectStatus(t, http.StatusOK)

	res := s.do("GET", "/vendor/events/v1", header("Origin", "https://front.example"))
	if res.Header.Get("Access-Control-Allow-Origin") != "https://front.example" ||
		res.Header.Get("Access-Control-Allow-Credentials") != "true" {
		t.Fatalf("CORS headers missing: %v", res.Header)
	}
	for _, h := range []string{"X-WP-Total", "X-WP-TotalPages", "X-TEC-Total", "X-TEC-TotalPages"} {
		if !strings.Contains(res.Header.Get("Access-Control-Expose-Headers"), h) {
			t.Fatalf("%s not exposed to browsers: %q", h, res.Header.Get("Access-Control-Expose-Headers"))
		}
	}

	opt := s.do("OPTIONS", "/vendor/admin/v1/users", header("Origin", "https://front.example"))
	opt.expectStatus(t, http.StatusOK)
	if m := opt.object(t); m["namespace"] != "vendor/admin/v1" || len(m["methods"].([]any)) != 2 {
		t.Fatalf("OPTIONS description = %s", opt.Body)
	}
	unknown := s.do("OPTIONS", "/vendor/events/v1/nope")
	unknown.expectStatus(t, http.StatusOK)
	if strings.TrimSpace(string(unknown.Body)) != "[]" {
		t.Fatalf("OPTIONS on an unknown path = %s, want []", unknown.Body)
	}
}

func TestCORSOriginsCanBeAnAllowList(t *testing.T) {
	t.Parallel()
	s := startServiceWith(t, func(c *controllers.Config) { c.CORSOrigins = []string{"https://front.example"} })
	for origin, allowed := range map[string]bool{"https://front.example": true, "https://FRONT.example": true, "https://evil.example": false} {
		for _, method := range []string{"GET", "OPTIONS"} {
			res := s.do(method, "/vendor/events/v1/events", header("Origin", origin))
			res.expectStatus(t, http.StatusOK)
			got := res.Header.Get("Access-Control-Allow-Origin")
			if (got == origin) != allowed || (!allowed && (got != "" || res.Header.Get("Access-Control-Allow-Credentials") != "")) {
				t.Errorf("%s from %s: Access-Control-Allow-Origin %q", method, origin, got)
			}
			if !strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Origin") {
				t.Errorf("%s from %s: no Vary: Origin", method, origin)
			}
		}
	}
}

func TestProbes(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.do("GET", "/healthz").expectStatus(t, http.StatusOK)
	s.do("GET", "/readyz").expectStatus(t, http.StatusOK)
	if err := s.store.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.do("GET", "/readyz").expectError(t, http.StatusServiceUnavailable, "not_ready")
	s.do("GET", "/healthz").expectStatus(t, http.StatusOK)
}
