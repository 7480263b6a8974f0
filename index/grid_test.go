package index

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2/geo"

	"calendar/app/calendar"
)

// gridWorld indexes venues at random points of the box (half of them
// published) with two events each, the events of unpublished venues without
// a position (as the app gives them), and one event without a venue.
func gridWorld(t *testing.T, venues int, box calendar.GeoBox, seed int64) (*Live, []*calendar.Post) {
	t.Helper()
	idx, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	rng := rand.New(rand.NewSource(seed))
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	width := box.East - box.West
	if width < 0 {
		width += 360
	}
	var posts, events []*calendar.Post
	for v := 0; v < venues; v++ {
		lng := box.West + rng.Float64()*width
		if lng > 180 {
			lng -= 360
		}
		point := &calendar.Geo{Lat: box.South + rng.Float64()*(box.North-box.South), Lng: lng}
		status := []string{calendar.StatusPublish, calendar.StatusDraft}[v%2]
		venue := &calendar.Post{ID: int64(len(posts) + 1), Type: calendar.PostTypeVenue, Status: status, Title: "v", Geo: point, Date: start}
		posts = append(posts, venue)
		position := point
		if status != calendar.StatusPublish {
			position = nil
		}
		for e := 0; e < 2; e++ {
			at := start.Add(time.Duration(rng.Intn(90*24)) * time.Hour)
			event := &calendar.Post{ID: int64(len(posts) + 1), Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "e",
				Start: at, End: at.Add(time.Hour), Date: start, Venue: venue.ID, VenueGeo: position}
			posts, events = append(posts, event), append(events, event)
		}
	}
	nowhere := &calendar.Post{ID: int64(len(posts) + 1), Type: calendar.PostTypeEvent, Status: calendar.StatusPublish,
		Title: "nowhere", Start: start, End: start.Add(time.Hour), Date: start}
	posts, events = append(posts, nowhere), append(events, nowhere)
	if err := idx.PutPosts(context.Background(), posts); err != nil {
		t.Fatal(err)
	}
	return idx, events
}

// TestEventsInABoxAreThoseOfTheVenuesInIt: as near a point, events in a box
// are found through the venues in it while there are few, through their own
// positions beyond; both ways select exactly the events of published venues
// in the box, across the antimeridian too.
func TestEventsInABoxAreThoseOfTheVenuesInIt(t *testing.T) {
	world := calendar.GeoBox{South: -30, West: 160, North: 10, East: -160}
	boxes := map[string]calendar.GeoBox{
		"west of the antimeridian": {South: -20, West: 165, North: 0, East: 179},
		"across the antimeridian":  {South: -20, West: 170, North: 0, East: -170},
		"east of the antimeridian": {South: -25, West: -175, North: 5, East: -165},
	}
	for _, venues := range []int{40, maxNearVenues*2 + 100} {
		idx, events := gridWorld(t, venues, world, int64(venues))
		for name, box := range boxes {
			t.Run(fmt.Sprintf("%d venues, %s", venues, name), func(t *testing.T) {
				var want []int64
				for _, e := range events {
					if e.VenueGeo != nil && box.Contains(e.VenueGeo.Lat, e.VenueGeo.Lng) {
						want = append(want, e.ID)
					}
				}
				page, err := idx.SearchPosts(context.Background(), calendar.PostQuery{Type: calendar.PostTypeEvent,
					Statuses: []string{calendar.StatusPublish}, Within: &box, Order: calendar.OrderStart, Limit: len(events)})
				if err != nil {
					t.Fatal(err)
				}
				got := slices.Clone(page.IDs)
				slices.Sort(got)
				if len(want) == 0 || page.Total != len(want) || !slices.Equal(got, want) {
					t.Fatalf("total %d, %v; want %d, %v", page.Total, got, len(want), want)
				}
			})
		}
	}
}

// TestGeoGridCountsEveryLocatedMatchOnce: the cells of a grid hold every
// match that has a position once, in the cell its geohash names, with the
// mean of their positions; the matches without one are in none.
func TestGeoGridCountsEveryLocatedMatchOnce(t *testing.T) {
	idx, events := gridWorld(t, 300, calendar.GeoBox{South: 49, West: 5, North: 53, East: 9}, 1)
	for precision := 1; precision <= 5; precision++ {
		t.Run(fmt.Sprint("precision ", precision), func(t *testing.T) {
			type sums struct {
				count    int
				lat, lng float64
			}
			want := map[string]*sums{}
			for _, e := range events {
				if e.VenueGeo == nil {
					continue
				}
				cell := geo.EncodeGeoHash(e.VenueGeo.Lat, e.VenueGeo.Lng)[:precision]
				if want[cell] == nil {
					want[cell] = &sums{}
				}
				want[cell].count++
				want[cell].lat += e.VenueGeo.Lat
				want[cell].lng += e.VenueGeo.Lng
			}
			page, err := idx.SearchPosts(context.Background(), calendar.PostQuery{Type: calendar.PostTypeEvent,
				Statuses: []string{calendar.StatusPublish}, GeoGrid: precision, Order: calendar.OrderStart, Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			if page.Grid == nil || len(page.Grid.Cells) != len(want) || page.Grid.Omitted != 0 {
				t.Fatalf("grid %+v; want %d cells", page.Grid, len(want))
			}
			for n, c := range page.Grid.Cells {
				w := want[c.Geohash]
				if w == nil || c.Count != w.count || math.Abs(c.Lat-w.lat/float64(w.count)) > 1e-6 || math.Abs(c.Lng-w.lng/float64(w.count)) > 1e-6 {
					t.Errorf("cell %+v; want %+v", c, w)
				}
				if n > 0 && c.Count > page.Grid.Cells[n-1].Count {
					t.Errorf("cell %s (%d) after one of %d: the most populous come first", c.Geohash, c.Count, page.Grid.Cells[n-1].Count)
				}
			}
		})
	}
}

// TestGeoGridKeepsTheMostPopulousCells: beyond MaxGeoCells cells, those with
// the most matches are kept and the rest counted.
func TestGeoGridKeepsTheMostPopulousCells(t *testing.T) {
	idx, events := gridWorld(t, 2*calendar.MaxGeoCells+200, calendar.GeoBox{South: -60, West: -170, North: 60, East: 170}, 2)
	located, busy := 0, map[string]bool{}
	var more []*calendar.Post
	for _, e := range events {
		if e.VenueGeo == nil {
			continue
		}
		located++
		if cell := geo.EncodeGeoHash(e.VenueGeo.Lat, e.VenueGeo.Lng); len(busy) < 5 && !busy[cell] {
			busy[cell] = true // three more events at five venues
			for n := 0; n < 3; n++ {
				extra := *e
				extra.ID = int64(100000 + len(more))
				more = append(more, &extra)
			}
		}
	}
	if err := idx.PutPosts(context.Background(), more); err != nil {
		t.Fatal(err)
	}
	located += len(more)
	page, err := idx.SearchPosts(context.Background(), calendar.PostQuery{Type: calendar.PostTypeEvent,
		Statuses: []string{calendar.StatusPublish}, GeoGrid: calendar.MaxGeoPrecision, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	g := page.Grid
	counted := g.OmittedPosts
	for _, c := range g.Cells {
		counted += c.Count
	}
	if len(g.Cells) != calendar.MaxGeoCells || g.Omitted != (located-len(more))/2-calendar.MaxGeoCells || counted != located {
		t.Fatalf("%d cells, %d omitted holding %d; %d counted of %d", len(g.Cells), g.Omitted, g.OmittedPosts, counted, located)
	}
	for _, c := range g.Cells[:len(busy)] {
		if !busy[c.Geohash] || c.Count != 5 {
			t.Errorf("first cells %+v; want the five of five events", g.Cells[:len(busy)])
		}
	}
}
