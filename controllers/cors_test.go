package controllers_test

import (
	"mime"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
)

// browserPage calls the API as a page of another origin does through a
// browser's fetch with credentials, by the Fetch standard's CORS checks: a
// preflight first unless the request is simple, the answer's origin and
// credentials checked, and of the answer's headers only those a page may
// read (safelisted or exposed).
type browserPage struct {
	t      *testing.T
	s      *service
	origin string
}

// fetch sends the request as the browser would, failing where the browser
// would refuse it, and checks that the page can read each header of read.
func (p browserPage) fetch(method, path string, headers map[string]string, body option, read ...string) *response {
	p.t.Helper()
	if names := unsafeRequestHeaders(headers); method != "GET" && method != "HEAD" && method != "POST" || len(names) > 0 {
		pre := p.s.do("OPTIONS", path, header("Origin", p.origin), header("Access-Control-Request-Method", method),
			header("Access-Control-Request-Headers", strings.Join(names, ",")))
		if pre.Status/100 != 2 {
			p.t.Fatalf("%s %s: the preflight answered %d", method, path, pre.Status)
		}
		p.allowsOriginWithCredentials(pre, "the preflight of "+method+" "+path)
		if !slices.Contains(headerList(pre.Header.Get("Access-Control-Allow-Methods")), method) {
			p.t.Fatalf("%s %s: the preflight allows the methods %q", method, path, pre.Header.Get("Access-Control-Allow-Methods"))
		}
		allowed := headerList(strings.ToLower(pre.Header.Get("Access-Control-Allow-Headers")))
		for _, name := range names { // "*" would not cover them: credentials are sent
			if !slices.Contains(allowed, name) {
				p.t.Fatalf("%s %s: the preflight does not allow the header %s (it allows %q): the browser says \"Failed to fetch\"",
					method, path, name, pre.Header.Get("Access-Control-Allow-Headers"))
			}
		}
	}
	opts := []option{header("Origin", p.origin)}
	for name, value := range headers {
		opts = append(opts, header(name, value))
	}
	if body != nil {
		opts = append(opts, body)
	}
	res := p.s.do(method, path, opts...)
	p.allowsOriginWithCredentials(res, method+" "+path)
	exposed := headerList(strings.ToLower(res.Header.Get("Access-Control-Expose-Headers")))
	for _, name := range read {
		if res.Header.Get(name) == "" {
			p.t.Fatalf("%s %s: no %s in the answer %d", method, path, name, res.Status)
		}
		if !safelistedResponseHeader[strings.ToLower(name)] && !slices.Contains(exposed, strings.ToLower(name)) {
			p.t.Fatalf("%s %s: a page cannot read %s (exposed: %q)", method, path, name, res.Header.Get("Access-Control-Expose-Headers"))
		}
	}
	return res
}

func (p browserPage) allowsOriginWithCredentials(res *response, what string) {
	p.t.Helper()
	if res.Header.Get("Access-Control-Allow-Origin") != p.origin || res.Header.Get("Access-Control-Allow-Credentials") != "true" {
		p.t.Fatalf("%s: Access-Control-Allow-Origin %q, -Credentials %q", what,
			res.Header.Get("Access-Control-Allow-Origin"), res.Header.Get("Access-Control-Allow-Credentials"))
	}
}

// unsafeRequestHeaders are the names, lower-cased and sorted, of the
// headers that are not CORS-safelisted, which a preflight must allow.
func unsafeRequestHeaders(headers map[string]string) []string {
	var names []string
	for name, value := range headers {
		lower := strings.ToLower(name)
		switch lower {
		case "accept", "accept-language", "content-language":
			continue
		case "content-type":
			if mediaType, _, _ := mime.ParseMediaType(value); mediaType == "application/x-www-form-urlencoded" ||
				mediaType == "multipart/form-data" || mediaType == "text/plain" {
				continue
			}
		}
		names = append(names, lower)
	}
	sort.Strings(names)
	return names
}

var safelistedResponseHeader = map[string]bool{"cache-control": true, "content-language": true, "content-length": true,
	"content-type": true, "expires": true, "last-modified": true, "pragma": true}

func headerList(value string) []string {
	var out []string
	for _, v := range strings.Split(value, ",") {
		out = append(out, strings.TrimSpace(v))
	}
	return out
}

// A front-end on another origin uses the API's conventions: a conditional
// update with If-Match (its protection against lost updates) and a request
// ID, conditional reads, and the totals, links, ETags and sequences of the
// answers. Before, the preflight allowed only WordPress' own headers, so the
// first failed with "Failed to fetch" and X-Calendar-Last-Seq... were
// unreadable.
func TestAPageOnAnotherOriginUsesEveryConventionOfTheAPI(t *testing.T) {
	t.Parallel()
	s := startService(t)
	page := browserPage{t: t, s: s, origin: "https://front.example"}
	admin := "Basic " + strings.TrimPrefix(basicHeader("admin", adminPassword), "Authorization: Basic ")
	admin = strings.TrimSuffix(admin, "\r\n")
	venue := s.create("venue", asAdmin(), "venue", "Salle Pleyel")
	s.create("venue", asAdmin(), "venue", "Olympia")
	path := "/vendor/events/v1/venues/" + idOf(venue)

	read := page.fetch("GET", path, nil, nil, "ETag", "Last-Modified", "X-Request-ID")
	page.fetch("GET", path, map[string]string{"If-None-Match": read.Header.Get("ETag")}, nil).expectStatus(t, http.StatusNotModified)
	page.fetch("PUT", path, map[string]string{"Authorization": admin, "If-Match": read.Header.Get("ETag"),
		"X-Request-ID": "front-1234", "Content-Type": "application/json"}, body("application/json", `{"city":"Paris"}`),
		"ETag", "X-Request-ID").expectStatus(t, http.StatusOK)
	page.fetch("PATCH", path, map[string]string{"Authorization": admin, "If-Match": read.Header.Get("ETag"),
		"Content-Type": "application/json"}, body("application/json", `{"city":"Lyon"}`)).
		expectError(t, http.StatusPreconditionFailed, "rest_precondition_failed")
	page.fetch("POST", path, map[string]string{"Authorization": admin, "X-HTTP-Method-Override": "PATCH",
		"If-Unmodified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"}, nil).
		expectError(t, http.StatusPreconditionFailed, "rest_precondition_failed")

	page.fetch("GET", "/vendor/events/v1/venues?per_page=1", nil, nil,
		"X-WP-Total", "X-WP-TotalPages", "X-TEC-Total", "X-TEC-TotalPages", "Link", "ETag")
	page.fetch("GET", "/vendor/events/v1/changes", nil, nil, "X-Calendar-Last-Seq")
	page.fetch("POST", "/vendor/events/v1/categories", map[string]string{"Authorization": admin},
		form("name", "Jazz"), "Location").expectStatus(t, http.StatusCreated)
	exposed := strings.ToLower(read.Header.Get("Access-Control-Expose-Headers"))
	if !strings.Contains(exposed, "retry-after") { // what a 429 or a 503 says to wait
		t.Fatalf("Retry-After is not exposed: %q", exposed)
	}
}
