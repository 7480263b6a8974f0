package controllers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// Over HTTP, on the real store and index: a facet search counts under the
// list's filters, disjunctive; suggestions for an anonymous reader never
// name a draft, its venue or its category. The rules are app's
// (app/facet_search_test.go, app/suggest_test.go).
func TestFacetSearchAndSuggestionsOverHTTP(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := func(name, status string) any {
		res := s.do("POST", "/vendor/events/v1/venues", asAdmin(), jsonBody(map[string]any{"venue": name, "status": status}))
		res.expectStatus(t, http.StatusCreated)
		return res.object(t)["id"]
	}
	hall, cellar := venue("Berlin Philharmonie", "publish"), venue("Phantom cellar", "draft")
	day := func(n int) time.Time {
		return time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, n).Add(10 * time.Hour)
	}
	event := func(title string, n int, venue any, category, status string) {
		s.event(map[string]any{"title": title, "start_date": day(n).Format("2006-01-02 15:04:05"), "end_date": day(n).Add(time.Hour).Format("2006-01-02 15:04:05"),
			"venue": venue, "categories": []string{category}, "status": status})
	}
	event("Piano recital", 1, hall, "Classical", "publish")
	event("Piano draft", 2, cellar, "Phantasy", "draft")
	event("Jazz trio", 3, hall, "Jazz", "publish")
	window := "start_date=" + day(0).Format("2006-01-02") + "&end_date=" + day(5).Format("2006-01-02")
	facetValues := func(res *response) string {
		res.expectStatus(t, http.StatusOK)
		var out []string
		for _, v := range res.object(t)["values"].([]any) {
			value := v.(map[string]any)
			out = append(out, value["name"].(string)+"="+formatFloat(value["count"].(float64)))
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		name, path string
		admin      bool
		want       string
	}{
		{"a venue's word, under a filter", "/events/facets/venue?q=ph&categories=classical&" + window, false, "Berlin Philharmonie=1"},
		{"a draft venue for a visitor: none", "/events/facets/venue?q=pha&" + window, false, ""},
		{"for an administrator", "/events/facets/venue?q=ph&" + window, true, "Berlin Philharmonie=2 Phantom cellar=1"},
		{"disjunctive: the facet's own filter aside", "/events/facets/categories?q=ja&categories=classical&" + window, false, "Jazz=1"},
		{"a search filters too", "/events/facets/categories?search=recital&" + window, false, "Classical=1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts []option
			if c.admin {
				opts = append(opts, asAdmin())
			}
			if got := facetValues(s.do("GET", "/vendor/events/v1"+c.path, opts...)); got != c.want {
				t.Fatalf("%q, want %q", got, c.want)
			}
		})
	}
	t.Run("a facet search checks the list's filters", func(t *testing.T) {
		s.do("GET", "/vendor/events/v1/events/facets/venue?categories=nope&"+window).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	})
	t.Run("suggestions never name a draft to a visitor", func(t *testing.T) {
		res := s.do("GET", "/vendor/events/v1/suggest?q=p")
		res.expectStatus(t, http.StatusOK)
		body := string(res.Body)
		if !strings.Contains(body, "Piano recital") || !strings.Contains(body, "Philharmonie") {
			t.Fatalf("the visitor's suggestions miss the published: %s", body)
		}
		for _, secret := range []string{"Piano draft", "Phantom", "Phantasy"} {
			if strings.Contains(body, secret) {
				t.Errorf("a visitor is suggested %q: %s", secret, body)
			}
		}
		if admin := string(s.do("GET", "/vendor/events/v1/suggest?q=p", asAdmin()).Body); !strings.Contains(admin, "Piano draft") || !strings.Contains(admin, "Phantasy") {
			t.Errorf("an administrator is not suggested the draft: %s", admin)
		}
	})
}
