package controllers_test

import (
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
)

// Real places.
var (
	lyon = [2]float64{45.7640, 4.8357}
	suva = [2]float64{-18.1416, 178.4419}  // Fiji, west of the antimeridian
	apia = [2]float64{-13.8333, -171.7667} // Samoa, east of it
)

// referenceKm is an independent haversine, the test's yardstick.
func referenceKm(a, b [2]float64) float64 {
	const r = 6371.0
	rad := math.Pi / 180
	dLat, dLng := (b[0]-a[0])*rad, (b[1]-a[1])*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(a[0]*rad)*math.Cos(b[0]*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}

// north is the point km kilometres due north of p.
func north(p [2]float64, km float64) [2]float64 {
	return [2]float64{p[0] + km/6371.0*180/math.Pi, p[1]}
}

func (s *service) venueAt(name string, p [2]float64) map[string]any {
	return s.create("venue", asAdmin(), "venue", name, "geo_lat", fmt.Sprint(p[0]), "geo_lng", fmt.Sprint(p[1]))
}

func near(p [2]float64, extra string) string {
	return fmt.Sprintf("geoloc_lat=%v&geoloc_lng=%v&%s", p[0], p[1], extra)
}

func TestNearMeRadiusBoundaryAntimeridianAndPole(t *testing.T) {
	s := startService(t)
	in, out := s.venueAt("in", north(lyon, 24)), s.venueAt("out", north(lyon, 26))
	s.venueAt("suva", suva)
	s.venueAt("apia", apia)
	s.venueAt("pole far side", [2]float64{89.9, 120})
	for _, v := range []map[string]any{in, out} {
		s.event(map[string]any{"title": "at " + v["venue"].(string), "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00", "venue": v["id"]})
	}
	fiji := referenceKm(suva, apia)
	cases := []struct {
		name, query, venues string
	}{
		{"24 km is in at 25 km, 26 km is out", near(lyon, "geoloc_radius=25&geoloc_unit=km"), "in"},
		{"25 miles reach both", near(lyon, "geoloc_radius=25&geoloc_unit=mi"), "in,out"},
		{"the default is 25 miles", near(lyon, ""), "in,out"},
		{"23 km reach none", near(lyon, "geoloc_radius=23&geoloc_unit=km"), ""},
		{"Apia from Suva across the antimeridian", near(suva, fmt.Sprintf("geoloc_radius=%v&geoloc_unit=km", fiji+20)), "apia,suva"},
		{"just short of Apia", near(suva, fmt.Sprintf("geoloc_radius=%v&geoloc_unit=km", fiji-20)), "suva"},
		{"across the North Pole", near([2]float64{89.9, -60}, "geoloc_radius=25&geoloc_unit=km"), "pole far side"},
		{"not quite across the pole", near([2]float64{89.9, -60}, "geoloc_radius=20&geoloc_unit=km"), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := listNames(t, s.do("GET", "/vendor/events/v1/venues?"+c.query), "venues", "venue"); got != c.venues {
				t.Fatalf("venues %q, want %q", got, c.venues)
			}
		})
	}
	t.Run("events follow their venue's position", func(t *testing.T) {
		res := s.do("GET", eventsPath+"?start_date=2029-12-01&end_date=2030-02-01&"+near(lyon, "geoloc_radius=25&geoloc_unit=km"))
		if got := titles(t, res); got != "at in" {
			t.Fatalf("events %q", got)
		}
	})
}

func TestNearMeDistancesUnitsAndOrder(t *testing.T) {
	s := startService(t)
	far, mid, close := north(lyon, 20), north(lyon, 10), north(lyon, 3)
	for name, p := range map[string][2]float64{"far": far, "mid": mid, "close": close} {
		v := s.venueAt(name, p)
		s.event(map[string]any{"title": "late at " + name, "start_date": "2030-01-02 10:00", "end_date": "2030-01-02 11:00", "venue": v["id"]})
		s.event(map[string]any{"title": "early at " + name, "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00", "venue": v["id"]})
	}
	s.event(map[string]any{"title": "nowhere", "start_date": "2030-01-01 09:00", "end_date": "2030-01-01 11:00"})
	window := "start_date=2029-12-01&end_date=2030-02-01&"
	res := s.do("GET", eventsPath+"?"+window+near(lyon, "geoloc_radius=50&geoloc_unit=km&orderby=distance"))
	if got := titles(t, res); got != "early at close,late at close,early at mid,late at mid,early at far,late at far" {
		t.Fatalf("nearest first, then by start: %q", got)
	}
	for _, e := range res.object(t)["events"].([]any) {
		m := e.(map[string]any)
		want := map[string][2]float64{"close": close, "mid": mid, "far": far}[strings.Fields(m["title"].(string))[2]]
		ref := referenceKm(lyon, want)
		if got := m["distance"].(float64); math.Abs(got-ref)/ref > 0.001 {
			t.Fatalf("%s: distance %v km, reference %v km", m["title"], got, ref)
		}
	}
	miles := s.do("GET", "/vendor/events/v1/venues?"+near(lyon, "geoloc_radius=50&geoloc_unit=mi&orderby=distance"))
	venues := miles.object(t)["venues"].([]any)
	if len(venues) != 3 || venues[0].(map[string]any)["venue"] != "close" {
		t.Fatalf("venues by distance: %s", miles.Body)
	}
	if got, ref := venues[2].(map[string]any)["distance"].(float64), referenceKm(lyon, far)/1.609344; math.Abs(got-ref)/ref > 0.001 {
		t.Fatalf("distance in miles %v, reference %v", got, ref)
	}
	if got := titles(t, s.do("GET", eventsPath+"?"+window+"geoloc=false")); got != "nowhere" {
		t.Fatalf("geoloc=false: %q", got)
	}
	if got := s.do("GET", eventsPath+"?"+window+"geoloc=true").object(t)["total"]; got != float64(6) {
		t.Fatalf("geoloc=true: %v events", got)
	}
	if _, has := s.do("GET", eventsPath+"?"+window).object(t)["events"].([]any)[0].(map[string]any)["distance"]; has {
		t.Fatal("distance without a point")
	}
}

func TestNearMeRejectsBadPoints(t *testing.T) {
	s := startService(t)
	for _, path := range []string{eventsPath, "/vendor/events/v1/venues"} {
		for _, bad := range []string{"geoloc_lat=45", "geoloc_lng=4", "geoloc_lat=91&geoloc_lng=0", "geoloc_lat=0&geoloc_lng=-181",
			"geoloc_lat=1&geoloc_lng=1&geoloc_radius=0", "geoloc_lat=1&geoloc_lng=1&geoloc_radius=20001", "geoloc_lat=1&geoloc_lng=1&geoloc_radius=-5",
			"geoloc_lat=1&geoloc_lng=1&geoloc_unit=ft", "geoloc_lat=north&geoloc_lng=1", "orderby=distance", "orderby=title"} {
			t.Run(path+"?"+bad, func(t *testing.T) {
				s.do("GET", path+"?"+bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
			})
		}
	}
}

func TestAVenueWithOnlyACityIsPlacedByTheGazetteer(t *testing.T) {
	s := startService(t)
	v := s.create("venue", asAdmin(), "venue", "Somewhere in Lyon", "city", "Lyon", "country", "France")
	if v["geo_source"] != "city" || math.Abs(v["geo_lat"].(float64)-lyon[0]) > 0.05 {
		t.Fatalf("venue: %v", v)
	}
	if got := listNames(t, s.do("GET", "/vendor/events/v1/venues?"+near(lyon, "geoloc_radius=10&geoloc_unit=km")), "venues", "venue"); got != "Somewhere in Lyon" {
		t.Fatalf("10 km around Lyon: %q", got)
	}
	exact := s.create("venue", asAdmin(), "venue", "Exact", "city", "Lyon", "country", "France", "geo_lat", "45.7", "geo_lng", "4.8")
	if exact["geo_source"] != "exact" || exact["geo_lat"] != 45.7 {
		t.Fatalf("exact coordinates: %v", exact)
	}
	unknown := s.create("venue", asAdmin(), "venue", "Unknown", "city", "Atlantis", "country", "France")
	if _, has := unknown["geo_lat"]; has {
		t.Fatalf("an unknown city got coordinates: %v", unknown)
	}
	moved := s.do("PATCH", "/vendor/events/v1/venues/"+idOf(v), asAdmin(), form("city", "Paris")).object(t)
	if moved["geo_source"] != "city" || math.Abs(moved["geo_lat"].(float64)-48.85) > 0.05 {
		t.Fatalf("after moving to Paris: %v", moved)
	}
}

func TestEventsMoveWithTheirVenue(t *testing.T) {
	s := startService(t)
	v := s.venueAt("mobile", lyon)
	s.event(map[string]any{"title": "e", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00", "venue": v["id"]})
	query := eventsPath + "?start_date=2029-12-01&end_date=2030-02-01&" + near(suva, "geoloc_radius=10&geoloc_unit=km")
	if got := titles(t, s.do("GET", query)); got != "" {
		t.Fatalf("before the move: %q", got)
	}
	s.do("PATCH", "/vendor/events/v1/venues/"+idOf(v), asAdmin(), form("geo_lat", fmt.Sprint(suva[0]), "geo_lng", fmt.Sprint(suva[1]))).expectStatus(t, 200)
	if got := titles(t, s.do("GET", query)); got != "e" {
		t.Fatalf("after the move: %q", got)
	}
}
