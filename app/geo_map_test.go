package app_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// A map's lists, without HTTP: geo_bounds (events and venues in a box,
// across the antimeridian too), the grid of clusters, and near= a place's
// name instead of coordinates, on real places. How their parameters are read
// is controllers' (events_alone_test.go, linked_alone_test.go).

// mapWorld has events at venues of the Rhineland, Fiji and Samoa (either
// side of the antimeridian), one at a draft venue in Köln (so without a
// position: no map shows where a draft venue is) and one draft event in Köln
// (only those who may read it count it).
func mapWorld(t *testing.T) *world {
	w := newWorld(t)
	venue := func(name string, lat, lng float64, status string) *app.LinkRef {
		v := w.venue(name, app.LinkedInput{PostFields: app.PostFields{Status: status}, GeoLat: &lat, GeoLng: &lng})
		return &app.LinkRef{ID: v.ID}
	}
	dom := venue("Dom", 50.9413, 6.9583, "")
	ehrenfeld := venue("Ehrenfeld", 50.9490, 6.9160, "")
	bonn := venue("Beethovenhalle", 50.7374, 7.0982, "")
	duesseldorf := venue("Tonhalle", 51.2277, 6.7735, "")
	suva := venue("Suva Civic Centre", -18.1416, 178.4419, "")
	apia := venue("Apia Park", -13.8333, -171.7667, "")
	hidden := venue("Secret cellar", 50.9375, 6.9603, calendar.StatusDraft)
	for n, e := range []struct {
		title  string
		venue  *app.LinkRef
		status string
	}{
		{"Dom concert", dom, ""}, {"Dom organ night", dom, ""}, {"Ehrenfeld jazz", ehrenfeld, ""}, {"Bonn symphony", bonn, ""},
		{"Düsseldorf choir", duesseldorf, ""}, {"Suva festival", suva, ""}, {"Apia dance", apia, ""},
		{"Cellar party", hidden, ""}, {"Dom rehearsal", dom, calendar.StatusDraft},
	} {
		w.event(e.title, fmt.Sprintf("2030-01-%02d", n+1), app.EventInput{Venue: e.venue, PostFields: app.PostFields{Status: e.status}})
	}
	return w
}

// onTheMap lists the titles of the events of January 2030 the filter keeps, sorted.
func (w *world) onTheMap(caller app.Caller, f app.EventFilter) []string {
	w.t.Helper()
	f.Dates, f.Page = month("2030-01"), app.PageRequest{PerPage: 50}
	page, err := w.app.Events.List(w.ctx, caller, f)
	w.must(err)
	var titles []string
	for _, e := range page.Items {
		titles = append(titles, e.Title)
	}
	slices.Sort(titles)
	return titles
}

func sorted(titles ...string) []string { return slices.Sorted(slices.Values(titles)) }

func TestGeoBoundsKeepWhatLiesInTheBox(t *testing.T) {
	t.Parallel()
	w := mapWorld(t)
	rhineland := sorted("Dom concert", "Dom organ night", "Ehrenfeld jazz", "Bonn symphony", "Düsseldorf choir")
	for _, c := range []struct {
		name, bounds string
		want         []string
	}{
		{"the Rhineland", "50.6,6.7,51.3,7.2", rhineland},
		{"Köln alone", "50.9,6.8,51.0,7.0", sorted("Dom concert", "Dom organ night", "Ehrenfeld jazz")},
		{"across the antimeridian: Fiji and Samoa", "-20,170,-10,-170", sorted("Suva festival", "Apia dance")},
		{"west of the antimeridian: Fiji", "-20,170,-10,180", []string{"Suva festival"}},
		{"the whole world", "-90,-180,90,180", sorted(append(slices.Clone(rhineland), "Suva festival", "Apia dance")...)},
		{"the open sea", "0,0,1,1", nil},
	} {
		if got := w.onTheMap(visitor, app.EventFilter{Near: app.NearInput{Bounds: &c.bounds}}); !slices.Equal(got, c.want) {
			t.Errorf("%s: events in %s: %q; want %q", c.name, c.bounds, got, c.want)
		}
	}
	for _, c := range []struct {
		name   string
		caller app.Caller
		bounds string
		want   int
	}{
		{"a visitor in the Rhineland", visitor, "50.6,6.7,51.3,7.2", 4},
		{"the administrator in the Rhineland (the draft venue too)", w.admin(), "50.6,6.7,51.3,7.2", 5},
		{"a visitor across the antimeridian", visitor, "-20,170,-10,-170", 2},
	} {
		page, err := w.app.Venues.List(w.ctx, c.caller, app.LinkedFilter{Near: app.NearInput{Bounds: &c.bounds}})
		w.must(err)
		if page.Total != c.want {
			t.Errorf("%s: %d venues, want %d", c.name, page.Total, c.want)
		}
	}
}

// grid is the map's clusters of January 2030's events the filter keeps,
// checked for what holds of any grid: every cell's centroid within its
// bounds, the cells holding the most first, none omitted.
func (w *world) grid(caller app.Caller, f app.EventFilter) (cells []app.GeoCell, counted, total int) {
	w.t.Helper()
	f.Dates, f.Facets = month("2030-01"), strs(calendar.FacetGeoGrid)
	page, err := w.app.Events.List(w.ctx, caller, f)
	w.must(err)
	if page.Grid == nil {
		w.t.Fatal("no grid")
	}
	for n, c := range page.Grid.Cells {
		counted += c.Count
		if c.Centroid.Lat < c.Bounds.South || c.Centroid.Lat > c.Bounds.North || c.Centroid.Lng < c.Bounds.West || c.Centroid.Lng > c.Bounds.East {
			w.t.Errorf("cell %+v: centroid outside its bounds", c)
		}
		if n > 0 && c.Count > page.Grid.Cells[n-1].Count {
			w.t.Errorf("cell %+v after %+v: the cells holding the most come first", c, page.Grid.Cells[n-1])
		}
	}
	if page.Grid.OmittedCells != 0 || page.Grid.OmittedEvents != 0 {
		w.t.Errorf("cells omitted: %+v", page.Grid)
	}
	return page.Grid.Cells, counted, page.Total
}

func TestGeoGridClustersTheMatchingEvents(t *testing.T) {
	t.Parallel()
	w := mapWorld(t)
	precision := func(p int64) app.EventFilter { return app.EventFilter{GeoPrecision: &p} }
	t.Run("counts sum to the total of events with a position", func(t *testing.T) {
		for p := int64(1); p <= 12; p++ {
			f := precision(p)
			f.HasGeo = ptr(true)
			if cells, counted, total := w.grid(visitor, f); counted != total || total != 7 {
				t.Errorf("precision %d: %d counted in %d cells, total %d; want 7", p, counted, len(cells), total)
			}
		}
	})
	t.Run("a finer precision has more cells", func(t *testing.T) {
		coarse, _, _ := w.grid(visitor, precision(1))
		fine, _, _ := w.grid(visitor, precision(6))
		if len(coarse) != 3 || len(fine) <= len(coarse) {
			t.Fatalf("%d cells at precision 1 (want 3: Germany, Fiji, Samoa), %d at 6", len(coarse), len(fine))
		}
		if coarse[0].Count != 5 || coarse[0].Geohash != "u" {
			t.Errorf("first cell %+v; want the Rhineland's five in u", coarse[0])
		}
		for _, c := range fine {
			if len(c.Geohash) != 6 {
				t.Errorf("cell %+v at precision 6", c)
			}
		}
	})
	t.Run("a cell's centroid is the mean of its events' positions", func(t *testing.T) {
		f := precision(3)
		f.Near.Bounds = ptr("50.9,6.8,51.0,7.0")
		cells, _, _ := w.grid(visitor, f)
		// Two events at the Dom, one in Ehrenfeld.
		wantLat, wantLng := (2*50.9413+50.9490)/3, (2*6.9583+6.9160)/3
		if len(cells) != 1 || cells[0].Count != 3 || math.Abs(cells[0].Centroid.Lat-wantLat) > 1e-5 || math.Abs(cells[0].Centroid.Lng-wantLng) > 1e-5 {
			t.Errorf("Köln's cell %+v; want 3 events around %v, %v", cells, wantLat, wantLng)
		}
	})
	t.Run("only what the caller may read, and no draft venue's position", func(t *testing.T) {
		// The cellar's event has no position for anyone (its venue is a
		// draft); the rehearsal is counted for those who may read it.
		for name, c := range map[string]struct {
			caller app.Caller
			want   int
		}{"a visitor": {visitor, 7}, "the administrator": {w.admin(), 8}} {
			if _, counted, _ := w.grid(c.caller, precision(2)); counted != c.want {
				t.Errorf("%s: %d events in the cells, want %d", name, counted, c.want)
			}
		}
	})
	t.Run("absent unless asked for", func(t *testing.T) {
		page, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: month("2030-01"), GeoPrecision: ptr(int64(4))})
		w.must(err)
		if page.Grid != nil {
			t.Errorf("a grid without facets=geo_grid: %+v", page.Grid)
		}
	})
}

func TestNearAPlaceByItsName(t *testing.T) {
	t.Parallel()
	w := mapWorld(t)
	// Köln as the gazetteer has it (GeoNames' position, 3 decimals).
	km := func(radius float64, n app.NearInput) app.EventFilter {
		n.Radius, n.Unit = &radius, "km"
		return app.EventFilter{Near: n, OrderBy: "distance", Dates: month("2030-01")}
	}
	byCoordinates := km(10, app.NearInput{Lat: ptr(50.933), Lng: ptr(6.95)})
	distances := func(f app.EventFilter) string {
		page, err := w.app.Events.List(w.ctx, visitor, f)
		w.must(err)
		var out []string
		for _, e := range page.Items {
			out = append(out, fmt.Sprint(e.Title, "@", *e.Distance))
		}
		return strings.Join(out, ", ")
	}
	want := distances(byCoordinates)
	if got := w.onTheMap(visitor, byCoordinates); !slices.Equal(got, sorted("Dom concert", "Dom organ night", "Ehrenfeld jazz")) {
		t.Fatalf("events within 10 km of Köln: %q", got)
	}
	for _, place := range []string{"Köln", "Koeln", "Cologne", "köln, Deutschland", "Köln, DE"} {
		if got := distances(km(10, app.NearInput{Place: &place})); got != want {
			t.Errorf("near %s: %s\nwant (by Köln's coordinates): %s", place, got, want)
		}
	}
	for _, c := range []struct{ place, want string }{{"Suva", "Suva festival"}, {"Apia, Samoa", "Apia dance"}, {"Bonn", "Bonn symphony"}} {
		radius := 50.0
		if c.place == "Bonn" {
			radius = 5
		}
		if got := w.onTheMap(visitor, km(radius, app.NearInput{Place: &c.place})); !slices.Equal(got, []string{c.want}) {
			t.Errorf("near %s: %q; want %q", c.place, got, c.want)
		}
	}
	page, err := w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{Near: app.NearInput{Place: ptr("Koeln"), Radius: ptr(10.0), Unit: "km"}, ByDistance: true})
	w.must(err)
	if len(page.Items) != 2 || page.Items[0].Venue != "Dom" {
		t.Errorf("venues near Koeln: %+v", page.Items)
	}
}

// What a box or a place means is the domain's to check; a parameter's own
// bounds and pairs (geo_precision, a place beside a point, a radius of 0)
// are its route's (controllers/bounds_walk_test.go).
func TestMapParametersAreChecked(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	bounds := func(b string) app.NearInput { return app.NearInput{Bounds: &b} }
	place := func(p string) app.NearInput { return app.NearInput{Place: &p} }
	cases := []struct {
		name  string
		near  app.NearInput
		grid  *int64
		param string
	}{
		{"three numbers", bounds("50,6,51"), nil, "geo_bounds"},
		{"five numbers", bounds("50,6,51,7,8"), nil, "geo_bounds"},
		{"a word", bounds("south,6,51,7"), nil, "geo_bounds"},
		{"NaN", bounds("NaN,6,51,7"), nil, "geo_bounds"},
		{"south of the pole", bounds("-91,6,51,7"), nil, "geo_bounds"},
		{"north of the pole", bounds("50,6,90.5,7"), nil, "geo_bounds"},
		{"west of -180", bounds("50,-181,51,7"), nil, "geo_bounds"},
		{"east of 180", bounds("50,6,51,180.1"), nil, "geo_bounds"},
		{"south north of north", bounds("51,6,50,7"), nil, "geo_bounds"},
		{"a long number", bounds(strings.Repeat("1", 300) + ",6,51,7"), nil, "geo_bounds"},
		{"no place", place(""), nil, "near"},
		{"a space", place(" "), nil, "near"},
		{"a long place", place(strings.Repeat("a", 201)), nil, "near"},
	}
	for _, c := range cases {
		f := app.EventFilter{Near: c.near}
		if c.grid != nil {
			f.Facets, f.GeoPrecision = strs(calendar.FacetGeoGrid), c.grid
		}
		_, err := w.app.Events.List(w.ctx, visitor, f)
		if _, named := paramsOf(err)[c.param]; !named {
			t.Errorf("events, %s: %v, want it to name %s", c.name, err, c.param)
		}
		if c.grid != nil {
			continue
		}
		_, err = w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{Near: c.near})
		if _, named := paramsOf(err)[c.param]; !named {
			t.Errorf("venues, %s: %v, want it to name %s", c.name, err, c.param)
		}
	}
	for name, err := range map[string]error{
		"events": get(w.app.Events.List(w.ctx, visitor, app.EventFilter{Near: place("Xyzzyville")})),
		"venues": get(w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{Near: place("Xyzzyville")})),
	} {
		invalid(t, err)
		details, _ := calendar.AsError(err).Data["details"].(map[string]any)
		if !strings.Contains(paramsOf(err)["near"], `"Xyzzyville"`) || !strings.Contains(fmt.Sprint(details["near"]), "code:rest_unknown_place") {
			t.Errorf("%s near an unknown place: %v (details %v)", name, err, details)
		}
	}
}
