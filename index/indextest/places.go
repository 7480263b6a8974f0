package indextest

import (
	"context"
	"math"
	"testing"

	"calendar/app/calendar"
)

// runPlaces: near a point (a great-circle radius), in a box (across the
// antimeridian too), by distance, and a map's cells. Venues are where they
// are; events where their venue's public position is (calendar.PublicPosition),
// which a draft or protected venue does not have.
func runPlaces(t *testing.T, idx calendar.Index) {
	near := func(g *calendar.Geo, km float64) *calendar.GeoNear {
		return &calendar.GeoNear{Lat: g.Lat, Lng: g.Lng, Km: km}
	}
	venues := func(q calendar.PostQuery) calendar.PostQuery {
		q.Type = calendar.PostTypeVenue
		return q
	}
	antimeridian := &calendar.GeoBox{South: -20, West: 170, North: -10, East: -170}
	runPostCases(t, idx, []postCase{
		{"venues near a point; a password hides where one is", venues(calendar.PostQuery{Reader: calendar.ReadEverything, Near: near(paris, 10)}), []int64{salle}, -1},
		{"a draft venue, to who reads it", venues(calendar.PostQuery{Reader: calendar.ReadEverything, Near: near(lyon, 10)}), []int64{halle}, -1},
		{"a draft venue, to a visitor", venues(calendar.PostQuery{Near: near(lyon, 10)}), nil, -1},
		{"events near a point: their venue's", published(calendar.PostQuery{Near: near(paris, 10)}), []int64{pleyelJazz, lateJazz}, -1},
		{"an event of a draft venue is nowhere, whoever asks", everyEvent(calendar.PostQuery{Near: near(lyon, 10)}), nil, -1},
		{"nor one of a protected venue", everyEvent(calendar.PostQuery{Near: near(bast, 1)}), nil, -1},
		{"events in a box", published(calendar.PostQuery{Within: &calendar.GeoBox{South: 48.8, West: 2.2, North: 48.9, East: 2.4}}),
			[]int64{pleyelJazz, lateJazz}, -1},
		{"venues in a box across the antimeridian", venues(calendar.PostQuery{Within: antimeridian}), []int64{fiji, samoa}, -1},
		{"events in a box across the antimeridian", published(calendar.PostQuery{Within: antimeridian}), []int64{pacific, samoaDance}, -1},
		{"a box short of the antimeridian", published(calendar.PostQuery{Within: &calendar.GeoBox{South: -20, West: -170, North: 50, East: 170}}),
			[]int64{pleyelJazz, lateJazz}, -1},
		{"nearest first, then by start", published(calendar.PostQuery{Near: near(suva, 20000), Order: calendar.OrderDistance}),
			[]int64{pacific, samoaDance, pleyelJazz, lateJazz}, -1},
		{"events placed elsewhere than their venue now is", everyEvent(calendar.PostQuery{Venues: []int64{salle},
			NotPlacedAt: ptr(calendar.PositionKey(&calendar.Geo{Lat: 48.9, Lng: 2.3})), Order: calendar.OrderStart}), []int64{pleyelJazz, lateJazz}, -1},
		{"none placed where their venue is", everyEvent(calendar.PostQuery{Venues: []int64{salle}, NotPlacedAt: ptr(calendar.PositionKey(paris))}), nil, -1},
		{"events of a venue without a position, placed nowhere", everyEvent(calendar.PostQuery{Venues: []int64{nowhere},
			NotPlacedAt: ptr(calendar.PositionKey(paris)), Order: calendar.OrderStart}), []int64{series, occurrence}, -1},
		{"nor elsewhere than nowhere", everyEvent(calendar.PostQuery{Venues: []int64{nowhere}, NotPlacedAt: ptr(calendar.NoPosition)}), nil, -1},
	})

	t.Run("a map's cells: the located matches per geohash cell, the fullest first, then by geohash", func(t *testing.T) {
		page, err := idx.SearchPosts(context.Background(), published(calendar.PostQuery{GeoGrid: 1}))
		if err != nil {
			t.Fatal(err)
		}
		want := []calendar.GeoCell{{Geohash: "u", Count: 2, Lat: paris.Lat, Lng: paris.Lng},
			{Geohash: "2", Count: 1, Lat: apia.Lat, Lng: apia.Lng}, {Geohash: "r", Count: 1, Lat: suva.Lat, Lng: suva.Lng}}
		if page.Total != 10 || len(page.IDs) != 0 || page.Grid == nil || page.Grid.Omitted != 0 || page.Grid.OmittedPosts != 0 ||
			len(page.Grid.Cells) != len(want) {
			t.Fatalf("answers %+v, want a total of 10, no IDs, and the cells %+v", page, want)
		}
		for i, c := range page.Grid.Cells {
			w := want[i]
			if c.Geohash != w.Geohash || c.Count != w.Count || math.Abs(c.Lat-w.Lat) > 1e-4 || math.Abs(c.Lng-w.Lng) > 1e-4 {
				t.Fatalf("cells %+v, want %+v", page.Grid.Cells, want)
			}
		}
	})
}
