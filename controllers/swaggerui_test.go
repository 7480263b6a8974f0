package controllers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var pageLink = regexp.MustCompile(`(?:href|src|data-document|data-admin-document)="([^"]+)"`)

func TestTheSwaggerUIPageLoadsItsFilesAndTheDocument(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for _, prefix := range []string{"", "/fr"} {
		t.Run("under "+prefix+"/", func(t *testing.T) {
			page := s.URL + prefix + "/vendor/events/v1/doc/ui"
			res := s.do("GET", prefix+"/vendor/events/v1/doc/ui")
			res.expectStatus(t, http.StatusOK)
			if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=UTF-8" {
				t.Fatalf("page Content-Type = %q", ct)
			}
			csp := res.Header.Get("Content-Security-Policy")
			if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self';") {
				t.Fatalf("Content-Security-Policy = %q", csp)
			}
			// What the page links, by where it leads: its files, itself (the
			// events' document, ?admin the administration's), both documents.
			want := map[string]string{
				"/vendor/events/v1/doc/ui/swagger-ui.css": "text/css; charset=UTF-8", "/vendor/events/v1/doc/ui/swagger-ui-bundle.js": "text/javascript; charset=UTF-8",
				"/vendor/events/v1/doc/ui/init.js": "text/javascript; charset=UTF-8", "/vendor/events/v1/doc/ui/favicon-32x32.png": "image/png",
				"/vendor/events/v1/doc/ui": "text/html; charset=UTF-8", "/vendor/events/v1/doc/ui?admin": "text/html; charset=UTF-8",
				"/vendor/events/v1/doc": "application/json; charset=UTF-8", "/vendor/admin/v1/doc": "application/json; charset=UTF-8",
			}
			links := pageLink.FindAllStringSubmatch(string(res.Body), -1)
			if len(links) != len(want) {
				t.Fatalf("the page links %d files, want %d:\n%s", len(links), len(want), res.Body)
			}
			base, _ := url.Parse(page)
			for _, link := range links {
				ref, err := url.Parse(link[1])
				if err != nil || strings.HasPrefix(link[1], "/") || ref.IsAbs() {
					t.Fatalf("%s is not relative: behind a proxy or a language segment it breaks", link[1])
				}
				target := base.ResolveReference(ref)
				where, ok := strings.CutPrefix(target.String(), s.URL+prefix)
				if !ok || want[where] == "" {
					t.Fatalf("%s resolves to %s", link[1], target)
				}
				file := s.do("GET", strings.TrimPrefix(target.String(), s.URL))
				file.expectStatus(t, http.StatusOK)
				if ct := file.Header.Get("Content-Type"); ct != want[where] || len(file.Body) == 0 {
					t.Fatalf("%s: Content-Type %q, want %q; %d bytes", target, ct, want[where], len(file.Body))
				}
				if namespace, ok := strings.CutSuffix(where, "/doc"); ok {
					if server := firstServer(file.object(t)); server != s.URL+prefix+namespace+"/" {
						t.Fatalf("the page points at %s, whose server is %q", target, server)
					}
				}
			}
		})
	}
}

func TestTheSwaggerUIServesNothingElse(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for _, path := range []string{"README.md", "LICENSE", "index.html", "swagger-ui.css.map", "..%2Fdoc"} {
		s.do("GET", "/vendor/events/v1/doc/ui/"+path).expectError(t, http.StatusNotFound, "rest_no_route")
	}
	s.do("POST", "/vendor/events/v1/doc/ui").expectError(t, http.StatusNotFound, "rest_no_route")
	for _, namespace := range []string{"/vendor/events/v1", "/vendor/admin/v1"} {
		doc := s.do("GET", namespace+"/doc").object(t)
		for path := range doc["paths"].(map[string]any) {
			if strings.Contains(path, "/doc/ui") || path == "/metrics" {
				t.Fatalf("%s is in the OpenAPI document", path)
			}
		}
	}
}

func TestTheSwaggerUIPageWithATrailingSlashRedirectsRelatively(t *testing.T) {
	t.Parallel()
	s := startService(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(s.URL + "/fr/vendor/events/v1/doc/ui/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	location := res.Header.Get("Location")
	if res.StatusCode != http.StatusMovedPermanently || strings.HasPrefix(location, "/") {
		t.Fatalf("%d to %q, want 301 to a relative URL", res.StatusCode, location)
	}
	if got := res.Request.URL.ResolveReference(&url.URL{Path: location}).String(); got != s.URL+"/fr/vendor/events/v1/doc/ui" {
		t.Fatalf("redirects to %s", got)
	}
}
