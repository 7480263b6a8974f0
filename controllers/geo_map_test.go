package controllers_test

import (
	"slices"
	"strings"
	"testing"
)

// A map's lists (geo_bounds, the grid of clusters, near= a place) are
// app's (app/geo_map_test.go); how their parameters are read,
// events_alone_test.go and linked_alone_test.go.

// The map's parameters are in the OpenAPI document, described with an
// example in words, and with no example value: Swagger UI would send it
// (controllers/swaggerui_examples_test.go).
func TestTheDocShowsTheMapParameters(t *testing.T) {
	t.Parallel()
	s := startService(t)
	paths := s.do("GET", "/vendor/events/v1/doc").object(t)["paths"].(map[string]any)
	for _, c := range []struct{ path, name, example string }{
		{"/events", "near", "Köln"}, {"/events", "geo_bounds", "-20,170,0,-170"}, {"/events", "geo_precision", "5 about 5 km"},
		{"/venues", "near", "Köln"}, {"/venues", "geo_bounds", "-20,170,0,-170"},
	} {
		p := findParam(paths, c.path, "get", c.name)
		if description, _ := p["description"].(string); p == nil || p["example"] != nil || !strings.Contains(description, c.example) {
			t.Errorf("GET %s %s: %v", c.path, c.name, p)
		}
	}
	facets := findParam(paths, "/events", "get", "facets")
	items, _ := facets["schema"].(map[string]any)["items"].(map[string]any)
	enum, _ := items["enum"].([]any)
	if anyOf, _ := items["anyOf"].([]any); len(anyOf) > 0 { // the values, or cf.<key>
		enum, _ = anyOf[0].(map[string]any)["enum"].([]any)
	}
	if !slices.Contains(enum, any("geo_grid")) {
		enum, _ = facets["schema"].(map[string]any)["enum"].([]any)
	}
	if !slices.Contains(enum, any("geo_grid")) {
		t.Errorf("facets does not list geo_grid: %v", facets)
	}
}
