package controllers_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestFieldsKeepsOnlyTheNamedKeysInOrder(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall", "city", "Lyon")
	event := s.event(map[string]any{"title": "Gala", "start_date": "2030-05-01 20:00", "end_date": "2030-05-01 22:00", "venue": venue["id"]})
	s.do("POST", "/vendor/events/v1/categories", asAdmin(), form("name", "Jazz")).expectStatus(t, http.StatusCreated)
	cases := []struct {
		name, path string
		opts       []option
		want       string // the answer, with the keys in the order they come
	}{
		{"item, nested and in any order", eventsPath + "/" + idOf(event) + "?_fields=venue.venue,title,id",
			nil, `{"id":` + idOf(event) + `,"title":"Gala","venue":{"venue":"Hall"}}`},
		{"a parent wins over its children", eventsPath + "/" + idOf(event) + "?_fields=venue.city,venue,id",
			nil, ""},
		{"names separated by spaces or repeated", "/vendor/events/v1/venues/" + idOf(venue) + "?_fields=venue%20city&_fields=nothing",
			nil, `{"venue":"Hall","city":"Lyon"}`},
		{"list items, the wrapper kept", eventsPath + "?start_date=2030-05-01&end_date=2030-05-02&_fields=id,venue.city",
			nil, `[{"id":` + idOf(event) + `,"venue":{"city":"Lyon"}}]`},
		{"term list items", "/vendor/events/v1/categories?hide_empty=false&_fields=name",
			nil, `{"rest_url":"` + s.URL + `/vendor/events/v1/categories/?hide_empty=false","total":1,"total_pages":1,"categories":[{"name":"Jazz"}]}`},
		{"a JSON array, each item", "/vendor/admin/v1/users?_fields=login",
			[]option{asAdmin()}, `[{"login":"admin"}]`},
		{"errors are left alone", "/vendor/events/v1/venues/999?_fields=id", nil, ""},
		{"an empty list of names changes nothing", "/vendor/events/v1/venues/" + idOf(venue) + "?_fields=", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := s.do("GET", c.path, c.opts...)
			switch c.name {
			case "a parent wins over its children":
				res.expectStatus(t, http.StatusOK)
				if keys := strings.Join(keyOrder(t, res.Body), " "); keys != "id venue" {
					t.Fatalf("keys %s", keys)
				}
				if v := res.object(t)["venue"].(map[string]any); v["venue"] != "Hall" || v["city"] != "Lyon" {
					t.Fatalf("venue not whole: %v", v)
				}
			case "list items, the wrapper kept":
				res.expectStatus(t, http.StatusOK)
				if keys := strings.Join(keyOrder(t, res.Body), " "); keys != "events rest_url total total_pages" {
					t.Fatalf("wrapper keys %s", keys)
				}
				var wrapper map[string]json.RawMessage
				if err := json.Unmarshal(res.Body, &wrapper); err != nil || string(wrapper["events"]) != c.want {
					t.Fatalf("events %s, want %s", wrapper["events"], c.want)
				}
			case "errors are left alone":
				res.expectError(t, http.StatusBadRequest, "rest_invalid_param")
			case "an empty list of names changes nothing":
				if whole := s.do("GET", "/vendor/events/v1/venues/"+idOf(venue)); string(whole.Body) != string(res.Body) {
					t.Fatalf("got %s", res.Body)
				}
			default:
				res.expectStatus(t, http.StatusOK)
				if got := strings.TrimSpace(string(res.Body)); got != c.want {
					t.Fatalf("got  %s\nwant %s", got, c.want)
				}
			}
		})
	}
}

func TestEnvelopeWrapsStatusHeadersAndBody(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall")
	type envelope struct {
		Body    json.RawMessage `json:"body"`
		Status  int             `json:"status"`
		Headers json.RawMessage `json:"headers"`
	}
	cases := []struct {
		name, method, path string
		opts               []option
		status             int
		headers            string
		body               string // a key of the body and its value
	}{
		{"an item", "GET", "/vendor/events/v1/venues/" + idOf(venue) + "?_envelope", nil, 200, `[]`, "venue=Hall"},
		{"a list", "GET", "/vendor/events/v1/venues?_envelope=1", nil, 200,
			`{"X-WP-Total":1,"X-WP-TotalPages":1,"X-TEC-Total":1,"X-TEC-TotalPages":1}`, "total=1"},
		{"an error", "GET", "/vendor/events/v1/venues/999?_envelope", nil, 400, `[]`, "code=rest_invalid_param"},
		{"no route", "GET", "/vendor/events/v1/nothing?_envelope", nil, 404, `[]`, "code=rest_no_route"},
		{"a creation", "POST", "/vendor/events/v1/categories?_envelope", []option{asAdmin(), form("name", "Jazz")}, 201,
			`{"Location":"` + s.URL + `/vendor/events/v1/categories/1"}`, "name=Jazz"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := s.do(c.method, c.path, c.opts...)
			res.expectStatus(t, http.StatusOK)
			if keys := strings.Join(keyOrder(t, res.Body), " "); keys != "body status headers" {
				t.Fatalf("envelope keys %q", keys)
			}
			var e envelope
			if err := json.Unmarshal(res.Body, &e); err != nil {
				t.Fatal(err)
			}
			if e.Status != c.status || string(e.Headers) != c.headers {
				t.Fatalf("status %d headers %s, want %d %s", e.Status, e.Headers, c.status, c.headers)
			}
			var inner map[string]any
			if err := json.Unmarshal(e.Body, &inner); err != nil {
				t.Fatal(err)
			}
			key, value, _ := strings.Cut(c.body, "=")
			if got := inner[key]; got != value && !(value == "1" && got == float64(1)) {
				t.Fatalf("body %s = %v, want %s", key, got, value)
			}
			if res.Header.Get("X-WP-Total") != "" || res.Header.Get("Location") != "" {
				t.Fatalf("the enveloped headers are still outside: %v", res.Header)
			}
		})
	}
}

func TestMethodOverrideTurnsAPostIntoAnotherMethod(t *testing.T) {
	t.Parallel()
	s := startService(t)
	cases := []struct {
		name string
		path string // after the venue's URL
		opts []option
	}{
		{"query _method", "?_method=DELETE", []option{asAdmin()}},
		{"lower-case query _method", "?_method=delete", []option{asAdmin()}},
		{"header", "", []option{asAdmin(), header("X-HTTP-Method-Override", "DELETE")}},
		{"JSON body _method", "", []option{asAdmin(), jsonBody(map[string]string{"_method": "DELETE"})}},
		{"form body _method", "", []option{asAdmin(), form("_method", "DELETE")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			venue := s.create("venue", asAdmin(), "venue", "Hall "+c.name)
			res := s.do("POST", "/vendor/events/v1/venues/"+idOf(venue)+c.path, c.opts...)
			res.expectStatus(t, http.StatusOK)
			if got := res.object(t)["status"]; got != "trash" {
				t.Fatalf("status %v, want trash (a DELETE)", got)
			}
		})
	}
	t.Run("the body still reaches the handler", func(t *testing.T) {
		venue := s.create("venue", asAdmin(), "venue", "Kept")
		res := s.do("POST", "/vendor/events/v1/venues/"+idOf(venue), asAdmin(), form("_method", "PUT", "city", "Paris"))
		res.expectStatus(t, http.StatusOK)
		if got := res.object(t)["city"]; got != "Paris" {
			t.Fatalf("city %v", got)
		}
	})
	t.Run("only from POST", func(t *testing.T) {
		venue := s.create("venue", asAdmin(), "venue", "Safe")
		res := s.do("GET", "/vendor/events/v1/venues/"+idOf(venue)+"?_method=DELETE", asAdmin(), header("X-HTTP-Method-Override", "DELETE"))
		res.expectStatus(t, http.StatusOK)
		if got := res.object(t)["status"]; got != "publish" {
			t.Fatalf("a GET deleted: status %v", got)
		}
	})
	t.Run("a method no route has", func(t *testing.T) {
		s.do("POST", "/vendor/events/v1/venues?_method=DELETE", asAdmin()).expectError(t, http.StatusNotFound, "rest_no_route")
	})
}

func TestHeadAnswersEveryReadLikeGetWithoutABody(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall")
	organizer := s.create("organizer", asAdmin(), "organizer", "Ann")
	event := s.event(map[string]any{"title": "Gala", "start_date": "2030-05-01 20:00", "end_date": "2030-05-01 22:00"})
	category := s.do("POST", "/vendor/events/v1/categories", asAdmin(), form("name", "Jazz")).object(t)
	tag := s.do("POST", "/vendor/events/v1/tags", asAdmin(), form("name", "Free")).object(t)
	items := map[string]map[string]any{"events": event, "venues": venue, "organizers": organizer,
		"categories": category, "tags": tag, "users": {"id": float64(1), "slug": "admin"}, "webhooks": {"id": float64(1)}, "synonyms": {"id": float64(1)}, "imports": {"id": float64(1)}, "fields": {"key": "age_min"}, "media": s.upload("a.jpg", photo(t, 40, 30))}
	s.do("POST", "/vendor/admin/v1/fields", asAdmin(), jsonBody(map[string]any{"key": "age_min", "label": "Minimum age", "type": "number", "public": true})).expectStatus(t, http.StatusCreated)
	var paths []string
	for _, ns := range []string{"vendor/events/v1", "vendor/admin/v1"} {
		for pattern, rt := range routesOf(t, s, ns) {
			if !contains(toStrings(rt["methods"]), "GET") {
				continue
			}
			resource := strings.Split(strings.TrimPrefix(pattern, "/"+ns), "/")
			item := items[resource[len(resource)-1]]
			if len(resource) > 1 {
				item = items[resource[1]]
			}
			path := wpParam.ReplaceAllStringFunc(pattern, func(m string) string {
				name := wpParam.FindStringSubmatch(m)[1]
				switch name {
				case "id":
					return idOf(item)
				case "relation":
					return "occurrences"
				case "facet":
					return "venue"
				}
				return item[name].(string)
			})
			paths = append(paths, path, path+"?_envelope", path+"?_fields=id")
		}
	}
	paths = append(paths, "/healthz", "/readyz", "/fr/vendor/events/v1/events", "/vendor/events/v1/nothing")
	if len(paths) < 3*12 {
		t.Fatalf("only %d paths from the namespace indexes", len(paths))
	}
	for _, path := range paths {
		for _, who := range []struct {
			name string
			opts []option
		}{{"anonymous", nil}, {"admin", []option{asAdmin()}}} {
			get, head := s.do("GET", path, who.opts...), s.do("HEAD", path, who.opts...)
			if len(head.Body) != 0 {
				t.Fatalf("HEAD %s (%s): a body", path, who.name)
			}
			get.Header.Del("Date")
			head.Header.Del("Date")
			get.Header.Del("X-Request-Id") // a new one per request
			head.Header.Del("X-Request-Id")
			for _, h := range []http.Header{get.Header, head.Header} { // a backup's name carries the second it was asked
				if cd := h.Get("Content-Disposition"); backupFileName.MatchString(cd) {
					h.Set("Content-Disposition", "the backup's")
				}
			}
			if get.Status != head.Status || !reflect.DeepEqual(get.Header, head.Header) {
				t.Fatalf("HEAD %s (%s) differs from GET:\n GET  %d %v\n HEAD %d %v", path, who.name, get.Status, get.Header, head.Status, head.Header)
			}
			if etag := get.Header.Get("ETag"); etag != "" {
				s.do("HEAD", path, append(who.opts, header("If-None-Match", etag))...).expectStatus(t, http.StatusNotModified)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
