package controllers_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestWPJSONIsAnAliasOfTheAPIRootWhoseAnswersKeepItInAPIURLsButNotInPermalinks(t *testing.T) {
	t.Parallel()
	s := startService(t)
	created := s.event(at("Gala", "2030-05-01 20:00:00", "2030-05-01 23:00:00"))
	id := idOf(created)
	permalink := created["url"].(string)
	if !strings.HasPrefix(permalink, s.URL+"/event/") {
		t.Fatalf("url = %s", permalink)
	}

	got := s.do("GET", "/wp-json"+eventsPath+"/"+id)
	got.expectStatus(t, http.StatusOK)
	event := got.object(t)
	if event["url"] != permalink {
		t.Fatalf("through /wp-json/, url = %v, want the permalink %s", event["url"], permalink)
	}
	if want := s.URL + "/wp-json" + eventsPath + "/" + id; event["rest_url"] != want {
		t.Fatalf("through /wp-json/, rest_url = %v, want %s", event["rest_url"], want)
	}
	list := s.do("GET", "/wp-json"+eventsPath+"?per_page=1&start_date=2030-01-01&end_date=2031-01-01").object(t)
	if rest, _ := list["rest_url"].(string); !strings.HasPrefix(rest, s.URL+"/wp-json"+eventsPath+"/") {
		t.Fatalf("list rest_url = %v", list["rest_url"])
	}

	// With a language segment before it: both kinds of URL keep the language.
	fr := s.do("GET", "/fr/wp-json"+eventsPath+"/"+id)
	fr.expectStatus(t, http.StatusOK)
	if url := fr.object(t)["url"]; url != strings.Replace(permalink, s.URL, s.URL+"/fr", 1) {
		t.Fatalf("through /fr/wp-json/, url = %v", url)
	}
	if rest := fr.object(t)["rest_url"]; rest != s.URL+"/fr/wp-json"+eventsPath+"/"+id {
		t.Fatalf("through /fr/wp-json/, rest_url = %v", rest)
	}
	s.do("GET", "/wp-json/vendor/admin/v1/users", asAdmin()).expectStatus(t, http.StatusOK)

	// wp-json is never a language: not after the prefix, not in another case.
	for _, path := range []string{"/wp-json/fr" + eventsPath, "/WP-JSON" + eventsPath, "/wp_json" + eventsPath, "/wp-json/wp-json" + eventsPath} {
		s.do("GET", path).expectError(t, http.StatusNotFound, "rest_no_route")
	}
	// Nor are the probes routes of the REST API.
	s.do("GET", "/wp-json/healthz").expectError(t, http.StatusNotFound, "rest_no_route")

	// The namespace index points up to the site index, which answers.
	index := s.do("GET", "/wp-json/vendor/events/v1").object(t)
	up := index["_links"].(map[string]any)["up"].([]any)[0].(map[string]any)["href"]
	if up != s.URL+"/wp-json/" {
		t.Fatalf("_links.up = %v", up)
	}
	self := index["routes"].(map[string]any)["/vendor/events/v1/doc"].(map[string]any)["_links"].(map[string]any)["self"].([]any)[0].(map[string]any)["href"]
	if self != s.URL+"/wp-json/vendor/events/v1/doc" {
		t.Fatalf("a route's self through /wp-json/ = %v", self)
	}
	s.do("GET", strings.TrimPrefix(up.(string), s.URL)).expectStatus(t, http.StatusOK)
}

// The site index answers where WordPress has it, and at the home page,
// which here has no page of its own to answer.
func TestTheSiteIndexAnswersAtWPJSONAtRestRouteSlashAndAtTheHomePage(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for _, path := range []string{"/wp-json/", "/wp-json", "/?rest_route=/", "/index.php?rest_route=%2F", "/"} {
		res := s.do("GET", path)
		res.expectStatus(t, http.StatusOK)
		if link := res.Header.Get("Link"); link != "<"+s.URL+`/wp-json/>; rel="https://api.w.org/"` {
			t.Fatalf("%s: Link = %q", path, link)
		}
		want := []string{"name", "description", "url", "home", "gmt_offset", "timezone_string", "namespaces", "authentication", "routes", "_links"}
		if keys := keyOrder(t, res.Body); !slices.Equal(keys, want) {
			t.Fatalf("%s: keys %v, want %v", path, keys, want)
		}
		index := res.object(t)
		if index["url"] != s.URL || index["home"] != s.URL || index["gmt_offset"] != float64(0) || index["name"] != "127.0.0.1" {
			t.Fatalf("%s: site %v %v %v %v", path, index["url"], index["home"], index["gmt_offset"], index["name"])
		}
		namespaces := index["namespaces"].([]any)
		if !slices.Contains(namespaces, any("vendor/events/v1")) || !slices.Contains(namespaces, any("vendor/admin/v1")) {
			t.Fatalf("%s: namespaces %v", path, namespaces)
		}
		routes := index["routes"].(map[string]any)
		for route, href := range map[string]string{"/": "/wp-json/", "/vendor/events/v1": "/vendor/events/v1", "/vendor/admin/v1": "/vendor/admin/v1"} {
			described, _ := routes[route].(map[string]any)
			if described == nil {
				t.Fatalf("%s: no route %s in %v", path, route, routes)
			}
			self := described["_links"].(map[string]any)["self"].([]any)[0].(map[string]any)["href"].(string)
			if !strings.HasSuffix(self, href) {
				t.Fatalf("%s: route %s links to %s", path, route, self)
			}
		}
		if routes["/vendor/events/v1/events/(?P<id>\\d+)"] == nil {
			t.Fatalf("%s: the events' item route is missing", path)
		}
	}
	s.do("POST", "/wp-json/", asAdmin()).expectError(t, http.StatusNotFound, "rest_no_route")
	s.do("POST", "/", asAdmin()).expectError(t, http.StatusNotFound, "rest_no_route")
	// Every answer of the API says where the index is, the enveloped ones outside the envelope.
	res := s.do("GET", "/vendor/events/v1/nothing?_envelope")
	if link := res.Header.Get("Link"); link != "<"+s.URL+`/wp-json/>; rel="https://api.w.org/"` || bytes.Contains(res.Body, []byte("api.w.org")) {
		t.Fatalf("Link = %q, body %s", link, res.Body)
	}
}

func TestRestRouteCallsTheRouteItNamesWithTheOtherParameters(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.event(at("One", "2030-05-01 20:00:00", "2030-05-01 23:00:00"))
	s.event(at("Two", "2030-05-02 20:00:00", "2030-05-02 23:00:00"))
	direct := s.do("GET", eventsPath+"?per_page=1&start_date=2030-01-01&end_date=2031-01-01")
	direct.expectStatus(t, http.StatusOK)
	routed := s.do("GET", "/?rest_route="+eventsPath+"&per_page=1&start_date=2030-01-01&end_date=2031-01-01")
	routed.expectStatus(t, http.StatusOK)
	if !bytes.Equal(direct.Body, routed.Body) {
		t.Fatalf("?rest_route= answered\n%s\nthe route answered\n%s", routed.Body, direct.Body)
	}
	if routed.Header.Get("X-WP-Total") != "2" {
		t.Fatalf("X-WP-Total = %q", routed.Header.Get("X-WP-Total"))
	}
	if next := routed.object(t)["next_rest_url"].(string); strings.Contains(next, "rest_route") {
		t.Fatalf("next_rest_url = %s", next)
	}
	s.do("GET", "/?rest_route=/vendor/admin/v1/users", asAdmin()).expectStatus(t, http.StatusOK)
	// The route is the whole route: no language, no prefix, no probe.
	for _, route := range []string{"/fr" + eventsPath, "/wp-json" + eventsPath, "/healthz"} {
		s.do("GET", "/?rest_route="+route).expectError(t, http.StatusNotFound, "rest_no_route")
	}
}

func TestJSONPWrapsTheAnswerAsWordPressDoes(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.event(at("One", "2030-05-01 20:00:00", "2030-05-01 23:00:00"))
	callback := func(t *testing.T, res *response, name string) []byte {
		t.Helper()
		if ct := res.Header.Get("Content-Type"); ct != "application/javascript; charset=UTF-8" {
			t.Fatalf("Content-Type = %q", ct)
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatal("no nosniff")
		}
		if !bytes.HasPrefix(res.Body, []byte("/**/"+name+"(")) || !bytes.HasSuffix(res.Body, []byte(")")) {
			t.Fatalf("body %s", res.Body)
		}
		inner := res.Body[len("/**/"+name+"(") : len(res.Body)-1]
		if !json.Valid(inner) {
			t.Fatalf("not JSON inside the call: %s", inner)
		}
		return inner
	}

	res := s.do("GET", eventsPath+"?start_date=2030-01-01&end_date=2031-01-01&_jsonp=cb")
	res.expectStatus(t, http.StatusOK)
	callback(t, res, "cb")
	if res.Header.Get("Link") == "" || !strings.HasPrefix(res.Header.Get("Cache-Control"), "public") {
		t.Fatalf("headers %v", res.Header)
	}
	// With _fields, then _envelope, as WordPress applies them.
	res = s.do("GET", eventsPath+"?start_date=2030-01-01&end_date=2031-01-01&_fields=id,title&_envelope&_jsonp=my.cb_1")
	res.expectStatus(t, http.StatusOK)
	var enveloped struct {
		Body    map[string]any `json:"body"`
		Status  int            `json:"status"`
		Headers map[string]any `json:"headers"`
	}
	if err := json.Unmarshal(callback(t, res, "my.cb_1"), &enveloped); err != nil {
		t.Fatal(err)
	}
	events, _ := enveloped.Body["events"].([]any)
	if len(events) != 1 || len(events[0].(map[string]any)) != 2 || enveloped.Status != 200 || enveloped.Headers["X-WP-Total"] != float64(1) {
		t.Fatalf("enveloped %+v", enveloped)
	}
	// An error is wrapped too, with its status.
	res = s.do("GET", "/vendor/events/v1/nothing?_jsonp=cb")
	res.expectStatus(t, http.StatusNotFound)
	if !bytes.Contains(callback(t, res, "cb"), []byte(`"rest_no_route"`)) {
		t.Fatalf("body %s", res.Body)
	}
	// An authenticated answer is never kept by a shared cache.
	res = s.do("GET", "/vendor/admin/v1/users?_jsonp=cb", asAdmin())
	res.expectStatus(t, http.StatusOK)
	callback(t, res, "cb")
	if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") || !strings.Contains(cc, "private") {
		t.Fatalf("Cache-Control = %q", cc)
	}
	// An empty callback is none.
	res = s.do("GET", eventsPath+"?_jsonp=")
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || !json.Valid(res.Body) {
		t.Fatalf("_jsonp= answered %s %s", res.Header.Get("Content-Type"), res.Body)
	}
}

func TestAJSONPCallbackWordPressRefusesIsA400BeforeAnythingElse(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for _, query := range []string{"_jsonp=alert(1)", "_jsonp=a-b", "_jsonp=cb%3Bx", "_jsonp=a%5B0%5D", "_jsonp=caf%C3%A9", "_jsonp[]=cb", "_jsonp=ok&_jsonp=not+ok"} {
		s.do("GET", eventsPath+"?"+query).expectError(t, http.StatusBadRequest, "rest_callback_invalid")
	}
	// Checked before the credentials and the route, as WordPress does.
	s.do("GET", "/vendor/events/v1/nothing?_jsonp=a-b", basic("admin", "wrong")).expectError(t, http.StatusBadRequest, "rest_callback_invalid")
}
