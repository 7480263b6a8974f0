package controllers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"calendar/app"
)

// A search finds the same events in every order as by relevance: a typo, a
// prefix and a stem, in date order, by distance, in a box and in a map's
// clusters (the rule is index's: index/indextest/posts.go).
func TestASearchFindsTheSameEventsInEveryOrderAsByRelevance(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, func(set *app.Settings) { set.Languages = []string{"en"} }, noConfig)
	venue := func(name string, lat, lng float64) any {
		res := s.do("POST", "/vendor/events/v1/venues", asAdmin(), jsonBody(map[string]any{"venue": name, "geo_lat": lat, "geo_lng": lng}))
		res.expectStatus(t, http.StatusCreated)
		return res.object(t)["id"]
	}
	dom, bonn := venue("Dom", 50.9413, 6.9583), venue("Beethovenhalle", 50.7374, 7.0982)
	s.event(onDay("Piano recital", 1, map[string]any{"venue": dom}))
	s.event(onDay("Pianos at dusk", 2, map[string]any{"venue": bonn}))
	s.event(onDay("Jazz night", 3, map[string]any{"venue": dom}))
	s.event(onDay("Piano on the moon", 4, nil))
	sortedTitles := func(res *response) string {
		got := strings.Split(titles(t, res), ",")
		slices.Sort(got)
		return strings.Join(got, ",")
	}
	grid := func(res *response) string {
		res.expectStatus(t, http.StatusOK)
		var cells []string
		for _, c := range res.object(t)["geo_grid"].(map[string]any)["cells"].([]any) {
			cell := c.(map[string]any)
			cells = append(cells, fmt.Sprint(cell["geohash"], "=", cell["count"]))
		}
		slices.Sort(cells)
		return strings.Join(cells, " ")
	}
	near := "geoloc_lat=50.94&geoloc_lng=6.96&geoloc_radius=100&"
	box := "geo_bounds=50.6,6.7,51.3,7.2&"
	for _, c := range []struct{ name, search, want, wantNear string }{
		{"a typo (pianos is two edits away)", "pianno", "Piano on the moon,Piano recital", "Piano recital"},
		{"a prefix", "pian", "Piano on the moon,Piano recital,Pianos at dusk", "Piano recital,Pianos at dusk"},
		{"a stem", "recitals", "Piano recital", "Piano recital"},
	} {
		t.Run(c.name, func(t *testing.T) {
			search := june + "search=" + url.QueryEscape(c.search) + "&"
			for _, q := range []struct{ name, query, want string }{
				{"by relevance", search + "orderby=relevance", c.want},
				{"by date", search, c.want},
				{"by distance", search + near + "orderby=distance", c.wantNear},
				{"by relevance, near", search + near + "orderby=relevance", c.wantNear},
				{"in a box", search + box, c.wantNear},
				{"in a box, by relevance", search + box + "orderby=relevance", c.wantNear},
			} {
				if got := sortedTitles(s.do("GET", eventsPath+"?"+q.query)); got != q.want {
					t.Errorf("%s: %q, want %q", q.name, got, q.want)
				}
			}
			byDate := grid(s.do("GET", eventsPath+"?"+search+"facets=geo_grid&geo_precision=5"))
			byRelevance := grid(s.do("GET", eventsPath+"?"+search+"orderby=relevance&facets=geo_grid&geo_precision=5"))
			if byDate == "" || byDate != byRelevance {
				t.Errorf("clusters by date %q, by relevance %q", byDate, byRelevance)
			}
		})
	}
}
