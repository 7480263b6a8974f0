package controllers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// The map's parameters over HTTP: geo_bounds (events and venues in a box,
// across the antimeridian too), facets=geo_grid (clusters) and near= (a
// place's name instead of coordinates), on real places.

// mapWorld is a service with events at venues of the Rhineland, Fiji and
// Samoa (either side of the antimeridian), one at a draft venue in Köln (so
// without a position: no map shows where a draft venue is) and one draft
// event in Köln (only those who may read it count it).
type mapWorld struct {
	*service
	titles map[string]string // event ID -> title
}

const mapWindow = "start_date=2029-12-01&end_date=2030-02-01"

func newMapWorld(t *testing.T) mapWorld {
	s := startService(t)
	w := mapWorld{service: s, titles: map[string]string{}}
	venue := func(name, lat, lng string, more ...string) any {
		return s.create("venue", asAdmin(), append([]string{"venue", name, "geo_lat", lat, "geo_lng", lng}, more...)...)["id"]
	}
	dom := venue("Dom", "50.9413", "6.9583")
	ehrenfeld := venue("Ehrenfeld", "50.9490", "6.9160")
	bonn := venue("Beethovenhalle", "50.7374", "7.0982")
	duesseldorf := venue("Tonhalle", "51.2277", "6.7735")
	suva := venue("Suva Civic Centre", "-18.1416", "178.4419")
	apia := venue("Apia Park", "-13.8333", "-171.7667")
	hidden := venue("Secret cellar", "50.9375", "6.9603", "status", "draft")
	for n, e := range []struct {
		title  string
		venue  any
		status string
	}{
		{"Dom concert", dom, ""}, {"Dom organ night", dom, ""}, {"Ehrenfeld jazz", ehrenfeld, ""}, {"Bonn symphony", bonn, ""},
		{"Düsseldorf choir", duesseldorf, ""}, {"Suva festival", suva, ""}, {"Apia dance", apia, ""},
		{"Cellar party", hidden, ""}, {"Dom rehearsal", dom, "draft"},
	} {
		fields := at(e.title, fmt.Sprintf("2030-01-%02d 10:00", n+1), fmt.Sprintf("2030-01-%02d 11:00", n+1))
		fields["venue"] = e.venue
		if e.status != "" {
			fields["status"] = e.status
		}
		w.titles[idOf(s.event(fields))] = e.title
	}
	return w
}

// eventTitles lists the titles of the events of the query, sorted.
func (w mapWorld) eventTitles(t *testing.T, query string, opts ...option) []string {
	t.Helper()
	res := w.do("GET", eventsPath+"?"+mapWindow+"&per_page=50&"+query, opts...)
	res.expectStatus(t, http.StatusOK)
	var titles []string
	for _, e := range res.object(t)["events"].([]any) {
		titles = append(titles, e.(map[string]any)["title"].(string))
	}
	slices.Sort(titles)
	return titles
}

func sorted(titles ...string) []string { return slices.Sorted(slices.Values(titles)) }

func TestGeoBoundsKeepWhatLiesInTheBox(t *testing.T) {
	t.Parallel()
	w := newMapWorld(t)
	rhineland := sorted("Dom concert", "Dom organ night", "Ehrenfeld jazz", "Bonn symphony", "Düsseldorf choir")
	cases := []struct {
		name, bounds string
		want         []string
	}{
		{"the Rhineland", "50.6,6.7,51.3,7.2", rhineland},
		{"Köln alone", "50.9,6.8,51.0,7.0", sorted("Dom concert", "Dom organ night", "Ehrenfeld jazz")},
		{"across the antimeridian: Fiji and Samoa", "-20,170,-10,-170", sorted("Suva festival", "Apia dance")},
		{"west of the antimeridian: Fiji", "-20,170,-10,180", []string{"Suva festival"}},
		{"the whole world", "-90,-180,90,180", sorted(append(slices.Clone(rhineland), "Suva festival", "Apia dance")...)},
		{"the open sea", "0,0,1,1", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := w.eventTitles(t, "geo_bounds="+c.bounds); !slices.Equal(got, c.want) {
				t.Fatalf("events in %s: %q; want %q", c.bounds, got, c.want)
			}
		})
	}
	t.Run("venues, as each caller may read them", func(t *testing.T) {
		for _, who := range []struct {
			name string
			cred []option
			want int
		}{{"visitor", nil, 4}, {"administrator (the draft venue too)", []option{asAdmin()}, 5}} {
			venues := w.do("GET", "/vendor/events/v1/venues?geo_bounds=50.6,6.7,51.3,7.2", who.cred...).object(t)["venues"].([]any)
			if len(venues) != who.want {
				t.Errorf("%s: %d venues in the Rhineland, want %d", who.name, len(venues), who.want)
			}
		}
		venues := w.do("GET", "/vendor/events/v1/venues?geo_bounds=-20,170,-10,-170").object(t)["venues"].([]any)
		if len(venues) != 2 {
			t.Errorf("%d venues across the antimeridian, want Suva's and Apia's", len(venues))
		}
	})
}

// grid asks for the map's clusters of the query and checks what holds of any
// grid: every cell's centroid within its bounds, the cells holding the most
// first; it returns the cells and the sum of their counts.
func (w mapWorld) grid(t *testing.T, query string, opts ...option) (cells []map[string]any, counted int, total string) {
	t.Helper()
	res := w.do("GET", eventsPath+"?"+mapWindow+"&facets=geo_grid&"+query, opts...)
	res.expectStatus(t, http.StatusOK)
	grid, ok := res.object(t)["geo_grid"].(map[string]any)
	if !ok {
		t.Fatalf("no geo_grid: %s", res.Body)
	}
	for n, raw := range grid["cells"].([]any) {
		c := raw.(map[string]any)
		cells = append(cells, c)
		counted += int(c["count"].(float64))
		centroid, bounds := c["centroid"].(map[string]any), c["bounds"].(map[string]any)
		lat, lng := centroid["lat"].(float64), centroid["lng"].(float64)
		if lat < bounds["south"].(float64) || lat > bounds["north"].(float64) || lng < bounds["west"].(float64) || lng > bounds["east"].(float64) {
			t.Errorf("cell %v: centroid outside its bounds", c)
		}
		if n > 0 && c["count"].(float64) > cells[n-1]["count"].(float64) {
			t.Errorf("cell %v after %v: the cells holding the most come first", c, cells[n-1])
		}
	}
	if grid["omitted_cells"] != 0.0 || grid["omitted_events"] != 0.0 {
		t.Errorf("cells omitted: %v", grid)
	}
	return cells, counted, res.Header.Get("X-WP-Total")
}

func TestGeoGridClustersTheMatchingEvents(t *testing.T) {
	t.Parallel()
	w := newMapWorld(t)
	t.Run("counts sum to the total of events with a position", func(t *testing.T) {
		for precision := 1; precision <= 12; precision++ {
			cells, counted, total := w.grid(t, fmt.Sprintf("geoloc=true&geo_precision=%d", precision))
			if fmt.Sprint(counted) != total || total != "7" {
				t.Errorf("precision %d: %d counted in %d cells, total %s; want 7", precision, counted, len(cells), total)
			}
		}
	})
	t.Run("a finer precision has more cells", func(t *testing.T) {
		coarse, _, _ := w.grid(t, "geo_precision=1")
		fine, _, _ := w.grid(t, "geo_precision=6")
		if len(coarse) != 3 || len(fine) <= len(coarse) {
			t.Errorf("%d cells at precision 1 (want 3: Germany, Fiji, Samoa), %d at 6", len(coarse), len(fine))
		}
		if coarse[0]["count"] != 5.0 || coarse[0]["geohash"] != "u" {
			t.Errorf("first cell %v; want the Rhineland's five in u", coarse[0])
		}
		for _, c := range fine {
			if len(c["geohash"].(string)) != 6 {
				t.Errorf("cell %v at precision 6", c)
			}
		}
	})
	t.Run("a cell's centroid is the mean of its events' positions", func(t *testing.T) {
		cells, _, _ := w.grid(t, "geo_precision=3&geo_bounds=50.9,6.8,51.0,7.0")
		// Two events at the Dom, one in Ehrenfeld.
		wantLat, wantLng := (2*50.9413+50.9490)/3, (2*6.9583+6.9160)/3
		c := cells[0]["centroid"].(map[string]any)
		if len(cells) != 1 || cells[0]["count"] != 3.0 || abs(c["lat"].(float64)-wantLat) > 1e-5 || abs(c["lng"].(float64)-wantLng) > 1e-5 {
			t.Errorf("Köln's cell %v; want 3 events around %v, %v", cells, wantLat, wantLng)
		}
	})
	t.Run("only what the caller may read, and no draft venue's position", func(t *testing.T) {
		// The cellar's event has no position for anyone (its venue is a
		// draft); the rehearsal is counted for those who may read it.
		for _, who := range []struct {
			name string
			cred []option
			want int
		}{{"visitor", nil, 7}, {"administrator", []option{asAdmin()}, 8}} {
			if _, counted, _ := w.grid(t, "geo_precision=2", who.cred...); counted != who.want {
				t.Errorf("%s: %d events in the cells, want %d", who.name, counted, who.want)
			}
		}
	})
	t.Run("absent unless asked for", func(t *testing.T) {
		if body := w.do("GET", eventsPath+"?"+mapWindow+"&geo_precision=4").object(t); body["geo_grid"] != nil {
			t.Errorf("geo_grid without facets=geo_grid: %v", body["geo_grid"])
		}
	})
}

func abs(x float64) float64 { return max(x, -x) }

func TestNearAPlaceByItsName(t *testing.T) {
	t.Parallel()
	w := newMapWorld(t)
	// Köln as the gazetteer has it (GeoNames' position, 3 decimals).
	byCoordinates := "geoloc_lat=50.933&geoloc_lng=6.95&geoloc_radius=10&geoloc_unit=km&orderby=distance"
	want := w.do("GET", eventsPath+"?"+mapWindow+"&"+byCoordinates)
	want.expectStatus(t, http.StatusOK)
	if got := w.eventTitles(t, byCoordinates); !slices.Equal(got, sorted("Dom concert", "Dom organ night", "Ehrenfeld jazz")) {
		t.Fatalf("events within 10 km of Köln: %q", got)
	}
	for _, place := range []string{"Köln", "Koeln", "Cologne", "köln, Deutschland", "Köln, DE"} {
		t.Run(place, func(t *testing.T) {
			byName := strings.Replace(byCoordinates, "geoloc_lat=50.933&geoloc_lng=6.95", "near="+url.QueryEscape(place), 1)
			got := w.do("GET", eventsPath+"?"+mapWindow+"&"+byName)
			got.expectStatus(t, http.StatusOK)
			if !slices.Equal(eventsAndDistances(t, got), eventsAndDistances(t, want)) {
				t.Errorf("near=%s: %s\nwant (by Köln's coordinates): %s", place, got.Body, want.Body)
			}
		})
	}
	for _, c := range []struct{ query, want string }{
		{"near=Suva&geoloc_radius=50&geoloc_unit=km", "Suva festival"},
		{"near=" + url.QueryEscape("Apia, Samoa") + "&geoloc_radius=50&geoloc_unit=km", "Apia dance"},
		{"near=Bonn&geoloc_radius=5&geoloc_unit=km", "Bonn symphony"},
	} {
		if got := w.eventTitles(t, c.query); !slices.Equal(got, []string{c.want}) {
			t.Errorf("%s: %q; want %q", c.query, got, c.want)
		}
	}
	venues := w.do("GET", "/vendor/events/v1/venues?near=Koeln&geoloc_radius=10&geoloc_unit=km&orderby=distance").object(t)["venues"].([]any)
	if len(venues) != 2 || venues[0].(map[string]any)["venue"] != "Dom" {
		t.Errorf("venues near Koeln: %v", venues)
	}
}

// eventsAndDistances are an answer's events as "title@distance", in order.
func eventsAndDistances(t *testing.T, res *response) []string {
	var out []string
	for _, e := range res.object(t)["events"].([]any) {
		m := e.(map[string]any)
		out = append(out, fmt.Sprint(m["title"], "@", m["distance"]))
	}
	return out
}

func TestMapParametersAreChecked(t *testing.T) {
	t.Parallel()
	s := startService(t)
	cases := []struct{ query, param string }{
		{"geo_bounds=50,6,51", "geo_bounds"},
		{"geo_bounds=50,6,51,7,8", "geo_bounds"},
		{"geo_bounds=south,6,51,7", "geo_bounds"},
		{"geo_bounds=NaN,6,51,7", "geo_bounds"},
		{"geo_bounds=-91,6,51,7", "geo_bounds"},
		{"geo_bounds=50,6,90.5,7", "geo_bounds"},
		{"geo_bounds=50,-181,51,7", "geo_bounds"},
		{"geo_bounds=50,6,51,180.1", "geo_bounds"},
		{"geo_bounds=51,6,50,7", "geo_bounds"},
		{"geo_bounds=" + strings.Repeat("1", 300) + ",6,51,7", "geo_bounds"},
		{"facets=geo_grid&geo_precision=0", "geo_precision"},
		{"facets=geo_grid&geo_precision=13", "geo_precision"},
		{"facets=geo_grid&geo_precision=fine", "geo_precision"},
		{"near=", "near"},
		{"near=%20", "near"},
		{"near=" + strings.Repeat("a", 201), "near"},
		{"near=K%C3%B6ln&geoloc_lat=50&geoloc_lng=7", "near"},
		{"near=K%C3%B6ln&geoloc_radius=0", "geoloc_radius"},
	}
	for _, path := range []string{eventsPath, "/vendor/events/v1/venues"} {
		for _, c := range cases {
			if strings.Contains(c.query, "geo_precision") && path != eventsPath {
				continue
			}
			t.Run(path+"?"+c.query, func(t *testing.T) {
				e := s.do("GET", path+"?"+c.query).expectError(t, http.StatusBadRequest, "rest_invalid_param")
				if params, _ := e["data"].(map[string]any)["params"].(map[string]any); params[c.param] == nil {
					t.Errorf("error does not name %s: %v", c.param, e)
				}
			})
		}
		t.Run(path+": an unknown place", func(t *testing.T) {
			e := s.do("GET", path+"?near=Xyzzyville").expectError(t, http.StatusBadRequest, "rest_invalid_param")
			data := e["data"].(map[string]any)
			message, _ := data["params"].(map[string]any)["near"].(string)
			detail, _ := data["details"].(map[string]any)["near"].(map[string]any)
			if !strings.Contains(message, `"Xyzzyville"`) || detail["code"] != "rest_unknown_place" {
				t.Errorf("unknown place: %v", e)
			}
		})
	}
}

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
