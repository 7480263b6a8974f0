package controllers_test

import (
	"fmt"
	"net/http"
	"testing"
)

// The rules of "near me" are tested in app (geo_test.go); here, that its
// parameters are read, refused in their shape, and answered with distances.
func TestNearMeOverHTTP(t *testing.T) {
	t.Parallel()
	s := startService(t)
	v := s.create("venue", asAdmin(), "venue", "close", "geo_lat", "45.80", "geo_lng", "4.8357")
	s.event(map[string]any{"title": "near", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00", "venue": v["id"]})
	near := "geoloc_lat=45.7640&geoloc_lng=4.8357&geoloc_radius=10&geoloc_unit=km&orderby=distance"
	res := s.do("GET", eventsPath+"?start_date=2029-12-01&end_date=2030-02-01&"+near)
	events := res.object(t)["events"].([]any)
	if len(events) != 1 || events[0].(map[string]any)["distance"] == nil {
		t.Fatalf("events near a point: %s", res.Body)
	}
	venues := s.do("GET", "/vendor/events/v1/venues?"+near).object(t)["venues"].([]any)
	if len(venues) != 1 || fmt.Sprint(venues[0].(map[string]any)["distance"]) == "<nil>" {
		t.Fatalf("venues near a point: %v", venues)
	}
	for _, path := range []string{eventsPath, "/vendor/events/v1/venues"} {
		for _, bad := range []string{"geoloc_lat=45", "geoloc_lat=north&geoloc_lng=1", "geoloc_lat=1&geoloc_lng=1&geoloc_unit=ft",
			"geoloc_lat=1&geoloc_lng=1&geoloc_radius=0", "orderby=distance"} {
			t.Run(path+"?"+bad, func(t *testing.T) {
				s.do("GET", path+"?"+bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
			})
		}
	}
}
