package controllers_test

import (
	"fmt"
	"slices"
	"testing"
)

// A map's lists (geo_bounds, the grid of clusters, near= a place) are
// app's (app/geo_map_test.go); how their parameters are read,
// events_alone_test.go and linked_alone_test.go.

// The map's parameters are in the OpenAPI document, with examples.
func TestTheDocShowsTheMapParameters(t *testing.T) {
	t.Parallel()
	s := startService(t)
	paths := s.do("GET", "/vendor/events/v1/doc").object(t)["paths"].(map[string]any)
	for _, c := range []struct{ path, name, example string }{
		{"/events", "near", "Köln"}, {"/events", "geo_bounds", "50.6,6.7,51.3,7.2"}, {"/events", "geo_precision", "4"},
		{"/venues", "near", "Köln"}, {"/venues", "geo_bounds", "50.6,6.7,51.3,7.2"},
	} {
		p := findParam(paths, c.path, "get", c.name)
		if p == nil || fmt.Sprint(p["example"]) != c.example || p["description"] == "" {
			t.Errorf("GET %s %s: %v", c.path, c.name, p)
		}
	}
	facets := findParam(paths, "/events", "get", "facets")
	items, _ := facets["schema"].(map[string]any)["items"].(map[string]any)
	enum, _ := items["enum"].([]any)
	if !slices.Contains(enum, any("geo_grid")) {
		enum, _ = facets["schema"].(map[string]any)["enum"].([]any)
	}
	if !slices.Contains(enum, any("geo_grid")) {
		t.Errorf("facets does not list geo_grid: %v", facets)
	}
}
