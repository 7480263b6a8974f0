package controllers_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"calendar/app"
)

// linkEntry is one `<url>; rel="name"` of a Link header.
var linkEntry = regexp.MustCompile(`<([^>]*)>;\s*rel="([^"]*)"`)

// pageLinksOf reads the Link header of a list page as a client does: rel to
// URL. WordPress writes every link of a page into one header line.
func pageLinksOf(t *testing.T, res *response) map[string]string {
	t.Helper()
	if lines := res.Header.Values("Link"); len(lines) > 1 {
		t.Fatalf("the links came in %d header lines, WordPress writes one: %q", len(lines), lines)
	}
	links := map[string]string{}
	for _, entry := range strings.Split(res.Header.Get("Link"), ", ") {
		if m := linkEntry.FindStringSubmatch(entry); m != nil {
			links[m[2]] = m[1]
		}
	}
	return links
}

// A client that knows only WordPress' conventions pages every list by the
// Link header's rel="next" until there is none, and sees every item once;
// each link is the URL the body's next_rest_url and previous_rest_url give.
func TestAClientPagesEveryListByItsLinkHeaders(t *testing.T) {
	t.Parallel()
	s := startService(t)
	const n = 5
	soon := time.Now().UTC().AddDate(0, 1, 0)
	jpg := photo(t, 30, 20)
	for i := 0; i < n; i++ {
		start := soon.Add(time.Duration(i) * time.Hour)
		s.event(at(fmt.Sprintf("Event %d", i), start.Format(app.DateFormat), start.Add(30*time.Minute).Format(app.DateFormat)))
		s.create("venue", asAdmin(), "venue", fmt.Sprintf("Venue %d", i))
		s.create("organizer", asAdmin(), "organizer", fmt.Sprintf("Organizer %d", i))
		s.term("categories", "name", fmt.Sprintf("Category %d", i))
		s.term("tags", "name", fmt.Sprintf("Tag %d", i))
		s.upload(fmt.Sprintf("photo-%d.jpg", i), jpg)
	}
	for _, list := range []struct{ path, key string }{
		{"events", "events"}, {"venues", "venues"}, {"organizers", "organizers"},
		{"categories?hide_empty=false", "categories"}, {"tags?hide_empty=false", "tags"}, {"media", ""},
	} {
		t.Run(list.path, func(t *testing.T) {
			sep := "?"
			if strings.Contains(list.path, "?") {
				sep = "&"
			}
			next := s.URL + "/vendor/events/v1/" + list.path + sep + "per_page=2"
			seen := map[float64]int{}
			pages := 0
			for next != "" {
				if pages++; pages > n {
					t.Fatalf("more than %d pages: the links go round", n)
				}
				if !strings.HasPrefix(next, s.URL) {
					t.Fatalf("a link off the service: %s", next)
				}
				res := s.do("GET", strings.TrimPrefix(next, s.URL))
				res.expectStatus(t, http.StatusOK)
				links := pageLinksOf(t, res)
				var items []any
				if list.key == "" { // the media library is WordPress' bare array
					for _, item := range res.list(t) {
						items = append(items, item)
					}
				} else {
					body := res.object(t)
					items = body[list.key].([]any)
					if want, _ := body["next_rest_url"].(string); links["next"] != want {
						t.Fatalf("page %d: Link next %q, body next_rest_url %q", pages, links["next"], want)
					}
					if want, _ := body["previous_rest_url"].(string); links["prev"] != want {
						t.Fatalf("page %d: Link prev %q, body previous_rest_url %q", pages, links["prev"], want)
					}
				}
				if pages > 1 && links["prev"] == "" {
					t.Fatalf("page %d has no rel=\"prev\": %q", pages, res.Header.Get("Link"))
				}
				if pages == 1 && links["prev"] != "" {
					t.Fatalf("the first page has a rel=\"prev\": %q", res.Header.Get("Link"))
				}
				for _, item := range items {
					seen[item.(map[string]any)["id"].(float64)]++
				}
				next = links["next"]
			}
			if pages != 3 {
				t.Errorf("%d pages of 2 for %d items, want 3", pages, n)
			}
			if len(seen) != n {
				t.Errorf("saw %d items, want %d: %v", len(seen), n, seen)
			}
			for id, times := range seen {
				if times != 1 {
					t.Errorf("item %v seen %d times", id, times)
				}
			}
		})
	}
	// The site index's link is every answer's (wpjson_test.go); WordPress'
	// page links replace it, since PHP's header() replaces a Link sent before.
	siteIndex := `<` + s.URL + `/wp-json/>; rel="https://api.w.org/"`
	t.Run("a single page links to the site index alone", func(t *testing.T) {
		if res := s.do("GET", "/vendor/events/v1/venues"); res.Header.Get("Link") != siteIndex {
			t.Fatalf("Link on the only page: %q, want %q", res.Header.Get("Link"), siteIndex)
		}
	})
	t.Run("_envelope", func(t *testing.T) {
		res := s.do("GET", "/vendor/events/v1/venues?per_page=2&page=2&_envelope")
		res.expectStatus(t, http.StatusOK)
		headers, _ := res.object(t)["headers"].(map[string]any)
		link, _ := headers["Link"].(string)
		if !strings.Contains(link, `rel="prev"`) || !strings.Contains(link, `rel="next"`) {
			t.Fatalf("_envelope's headers: %v", headers)
		}
		if res.Header.Get("Link") != siteIndex {
			t.Fatalf("outside the envelope: Link %q, want the site index's alone", res.Header.Get("Link"))
		}
	})
}
