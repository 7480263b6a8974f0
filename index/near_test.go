package index

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"
	"time"

	"calendar/app/calendar"
)

// TestEventsNearAPointAreThoseOfTheVenuesNearIt: near-me events are found
// through the venues within the radius (index/near.go) while there are at
// most maxNearVenues of them, and through the events' own positions beyond;
// both ways must select exactly the events whose venue lies within the
// great-circle radius and is published (the app gives an event the position
// of a published venue only), with or without a date bound.
func TestEventsNearAPointAreThoseOfTheVenuesNearIt(t *testing.T) {
	center := calendar.GeoNear{Lat: 45.764, Lng: 4.8357, Km: 10}
	for _, venues := range []int{40, maxNearVenues + 60} {
		t.Run(fmt.Sprintf("%d venues", venues), func(t *testing.T) {
			idx, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer idx.Close()
			ctx := context.Background()
			rng := rand.New(rand.NewSource(int64(venues)))
			start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
			var posts []*calendar.Post
			var events []*calendar.Post
			for v := 0; v < venues; v++ {
				// Within about 25 km of the center, so some are in, some out.
				geo := &calendar.Geo{Lat: center.Lat + rng.Float64()*0.4 - 0.2, Lng: center.Lng + rng.Float64()*0.6 - 0.3}
				status := []string{calendar.StatusPublish, calendar.StatusDraft, calendar.StatusPrivate}[v%3]
				venue := &calendar.Post{ID: int64(len(posts) + 1), Type: calendar.PostTypeVenue, Status: status, Title: "v", Geo: geo, Date: start}
				posts = append(posts, venue)
				position := geo
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
			posts = append(posts, &calendar.Post{ID: int64(len(posts) + 1), Type: calendar.PostTypeEvent, Status: calendar.StatusPublish,
				Title: "nowhere", Start: start, End: start.Add(time.Hour), Date: start})
			if err := idx.PutPosts(ctx, posts); err != nil {
				t.Fatal(err)
			}
			for _, from := range []*calendar.Bound{nil, {T: start.AddDate(0, 1, 0), Inclusive: true}} {
				var want []int64
				for _, e := range events {
					if e.VenueGeo != nil && distanceKm(center, e.VenueGeo) <= center.Km && (from == nil || !e.Start.Before(from.T)) {
						want = append(want, e.ID)
					}
				}
				page, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: []string{calendar.StatusPublish},
					Near: &center, StartAfter: from, Order: calendar.OrderStart, Limit: len(events)})
				if err != nil {
					t.Fatal(err)
				}
				got := slices.Clone(page.IDs)
				slices.Sort(got)
				if page.Total != len(want) || !slices.Equal(got, want) {
					t.Fatalf("from %v: total %d, %v; want %d, %v", from, page.Total, got, len(want), want)
				}
			}
		})
	}
}

func distanceKm(near calendar.GeoNear, g *calendar.Geo) float64 {
	rad := func(d float64) float64 { return d * math.Pi / 180 }
	dLat, dLng := rad(g.Lat-near.Lat), rad(g.Lng-near.Lng)
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(rad(near.Lat))*math.Cos(rad(g.Lat))*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * 6371.0088 * math.Asin(math.Sqrt(a))
}
