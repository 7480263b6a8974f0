package app_test

import (
	"math"
	"strings"
	"testing"

	"calendar/app"
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

func (w *world) venueAt(name string, p [2]float64) app.VenueView {
	return w.venue(name, app.LinkedInput{GeoLat: &p[0], GeoLng: &p[1]})
}

// nearPoint is a point and a radius in a unit ("" for the default).
func nearPoint(p [2]float64, radius float64, unit string) app.NearInput {
	n := app.NearInput{Lat: &p[0], Lng: &p[1], Unit: unit}
	if radius != 0 {
		n.Radius = &radius
	}
	return n
}

func (w *world) venueNames(f app.LinkedFilter) string {
	w.t.Helper()
	page, err := w.app.Venues.List(w.ctx, visitor, f)
	w.must(err)
	var out []string
	for _, v := range page.Items {
		out = append(out, v.Venue)
	}
	return strings.Join(out, ",")
}

func sortedNames(s string) string {
	parts := strings.Split(s, ",")
	for i := range parts {
		for j := i + 1; j < len(parts); j++ {
			if parts[j] < parts[i] {
				parts[i], parts[j] = parts[j], parts[i]
			}
		}
	}
	return strings.Join(parts, ",")
}

func TestNearMeRadiusBoundaryAntimeridianAndPole(t *testing.T) {
	w := newWorld(t)
	in, out := w.venueAt("in", north(lyon, 24)), w.venueAt("out", north(lyon, 26))
	w.venueAt("suva", suva)
	w.venueAt("apia", apia)
	w.venueAt("pole far side", [2]float64{89.9, 120})
	for _, v := range []app.VenueView{in, out} {
		w.event("at "+v.Venue, "2030-01-01", app.EventInput{Venue: &app.LinkRef{ID: v.ID}})
	}
	fiji := referenceKm(suva, apia)
	cases := []struct {
		name   string
		near   app.NearInput
		venues string
	}{
		{"24 km is in at 25 km, 26 km is out", nearPoint(lyon, 25, "km"), "in"},
		{"25 miles reach both", nearPoint(lyon, 25, "mi"), "in,out"},
		{"the default is 25 miles", nearPoint(lyon, 0, ""), "in,out"},
		{"23 km reach none", nearPoint(lyon, 23, "km"), ""},
		{"Apia from Suva across the antimeridian", nearPoint(suva, fiji+20, "km"), "apia,suva"},
		{"just short of Apia", nearPoint(suva, fiji-20, "km"), "suva"},
		{"across the North Pole", nearPoint([2]float64{89.9, -60}, 25, "km"), "pole far side"},
		{"not quite across the pole", nearPoint([2]float64{89.9, -60}, 20, "km"), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := sortedNames(w.venueNames(app.LinkedFilter{Near: c.near})); got != c.venues {
				t.Fatalf("venues %q, want %q", got, c.venues)
			}
		})
	}
	t.Run("events follow their venue's position", func(t *testing.T) {
		f := app.EventFilter{Dates: app.Dates{"start_date": "2029-12-01", "end_date": "2030-02-01"}, Near: nearPoint(lyon, 25, "km")}
		if got := w.titles(visitor, f); got != "at in" {
			t.Fatalf("events %q", got)
		}
	})
}

func TestNearMeDistancesUnitsAndOrder(t *testing.T) {
	w := newWorld(t)
	far, mid, close := north(lyon, 20), north(lyon, 10), north(lyon, 3)
	for name, p := range map[string][2]float64{"far": far, "mid": mid, "close": close} {
		v := w.venueAt(name, p)
		w.event("late at "+name, "2030-01-02", app.EventInput{Venue: &app.LinkRef{ID: v.ID}})
		w.event("early at "+name, "2030-01-01", app.EventInput{Venue: &app.LinkRef{ID: v.ID}})
	}
	w.event("nowhere", "", between("2030-01-01 09:00", "2030-01-01 11:00"))
	window := app.Dates{"start_date": "2029-12-01", "end_date": "2030-02-01"}
	page, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: window, Near: nearPoint(lyon, 50, "km"), OrderBy: "distance"})
	w.must(err)
	var titles []string
	for _, e := range page.Items {
		titles = append(titles, e.Title)
		want := map[string][2]float64{"close": close, "mid": mid, "far": far}[strings.Fields(e.Title)[2]]
		if ref := referenceKm(lyon, want); math.Abs(*e.Distance-ref)/ref > 0.001 {
			t.Fatalf("%s: distance %v km, reference %v km", e.Title, *e.Distance, ref)
		}
	}
	if got := strings.Join(titles, ","); got != "early at close,late at close,early at mid,late at mid,early at far,late at far" {
		t.Fatalf("nearest first, then by start: %q", got)
	}
	venues, err := w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{Near: nearPoint(lyon, 50, "mi"), ByDistance: true})
	w.must(err)
	if len(venues.Items) != 3 || venues.Items[0].Venue != "close" {
		t.Fatalf("venues by distance: %+v", venues.Items)
	}
	if got, ref := *venues.Items[2].Distance, referenceKm(lyon, far)/1.609344; math.Abs(got-ref)/ref > 0.001 {
		t.Fatalf("distance in miles %v, reference %v", got, ref)
	}
	if got := w.titles(visitor, app.EventFilter{Dates: window, HasGeo: ptr(false)}); got != "nowhere" {
		t.Fatalf("geoloc=false: %q", got)
	}
	geolocated, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: window, HasGeo: ptr(true)})
	w.must(err)
	if geolocated.Total != 6 {
		t.Fatalf("geoloc=true: %v events", geolocated.Total)
	}
	plain, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: window})
	w.must(err)
	if plain.Items[0].Distance != nil {
		t.Fatal("distance without a point")
	}
}

// TestDistanceNeedsAPoint: a point's shape (its degrees, its two halves, the
// radius, the unit) is the route's to check (controllers' declared
// parameters); ordering by distance from no point is the domain's refusal.
func TestDistanceNeedsAPoint(t *testing.T) {
	w := newWorld(t)
	_, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{OrderBy: "distance"})
	invalid(t, err)
	_, err = w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{ByDistance: true})
	invalid(t, err)
}

func TestAVenueWithOnlyACityIsPlacedByTheGazetteer(t *testing.T) {
	w := newWorld(t)
	inCity := func(city string) map[string]string { return map[string]string{"city": city, "country": "France"} }
	v := w.venue("Somewhere in Lyon", app.LinkedInput{Meta: inCity("Lyon")})
	if v.GeoSource != "city" || math.Abs(*v.GeoLat-lyon[0]) > 0.05 {
		t.Fatalf("venue: %+v", v)
	}
	if got := w.venueNames(app.LinkedFilter{Near: nearPoint(lyon, 10, "km")}); got != "Somewhere in Lyon" {
		t.Fatalf("10 km around Lyon: %q", got)
	}
	lat, lng := 45.7, 4.8
	exact := w.venue("Exact", app.LinkedInput{Meta: inCity("Lyon"), GeoLat: &lat, GeoLng: &lng})
	if exact.GeoSource != "exact" || *exact.GeoLat != 45.7 {
		t.Fatalf("exact coordinates: %+v", exact)
	}
	if unknown := w.venue("Unknown", app.LinkedInput{Meta: inCity("Atlantis")}); unknown.GeoLat != nil {
		t.Fatalf("an unknown city got coordinates: %+v", unknown)
	}
	moved, err := w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: v.ID}, app.LinkedInput{Meta: map[string]string{"city": "Paris"}})
	w.must(err)
	if moved.GeoSource != "city" || math.Abs(*moved.GeoLat-48.85) > 0.05 {
		t.Fatalf("after moving to Paris: %+v", moved)
	}
}

// Places as people write them: without a state, the most populous city of
// the name; with a state or a province, the one there; names in their own
// language and short forms too.
func TestVenuesArePlacedWherePeopleMeanThem(t *testing.T) {
	w := newWorld(t)
	for _, c := range []struct {
		meta     map[string]string
		lat, lng float64
	}{
		{map[string]string{"city": "Portland", "country": "USA"}, 45.52, -122.68},
		{map[string]string{"city": "Portland", "country": "USA", "state": "ME"}, 43.66, -70.26},
		{map[string]string{"city": "Springfield", "country": "United States"}, 37.22, -93.30},
		{map[string]string{"city": "Frankfurt", "country": "Germany", "province": "Brandenburg"}, 52.34, 14.55},
		{map[string]string{"city": "Köln", "country": "Deutschland"}, 50.94, 6.96},
		{map[string]string{"city": "München", "country": "Germany"}, 48.14, 11.58},
		{map[string]string{"city": "NYC", "country": "US"}, 40.71, -74.01},
		{map[string]string{"city": "Genève", "country": "Suisse"}, 46.20, 6.15},
	} {
		v := w.venue(c.meta["city"]+" "+c.meta["state"]+c.meta["province"], app.LinkedInput{Meta: c.meta})
		if v.GeoLat == nil || math.Abs(*v.GeoLat-c.lat) > 0.3 || math.Abs(*v.GeoLng-c.lng) > 0.3 {
			t.Errorf("%v: placed at %v, %v; want near %v, %v", c.meta, deref(v.GeoLat), deref(v.GeoLng), c.lat, c.lng)
		}
	}
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

func TestEventsMoveWithTheirVenue(t *testing.T) {
	w := newWorld(t)
	v := w.venueAt("mobile", lyon)
	w.event("e", "2030-01-01", app.EventInput{Venue: &app.LinkRef{ID: v.ID}})
	f := app.EventFilter{Dates: app.Dates{"start_date": "2029-12-01", "end_date": "2030-02-01"}, Near: nearPoint(suva, 10, "km")}
	if got := w.titles(visitor, f); got != "" {
		t.Fatalf("before the move: %q", got)
	}
	_, err := w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: v.ID}, app.LinkedInput{GeoLat: &suva[0], GeoLng: &suva[1]})
	w.must(err)
	if got := w.titles(visitor, f); got != "e" {
		t.Fatalf("after the move: %q", got)
	}
}
