package app

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/gazetteer"
)

// kmPer converts a unit to kilometres.
var kmPer = map[string]float64{"mi": 1.609344, "km": 1}

// GeoUnits are the units of a radius and of distances (geoloc_unit);
// DefaultGeoUnit is the one when none is sent.
var GeoUnits = []string{"mi", "km"}

const DefaultGeoUnit = "mi"

// nearMe is a checked point and radius, with the unit distances are shown in.
type nearMe struct {
	calendar.GeoNear
	unit string
}

// placeEvents gives each event among posts its venue's public position
// (calendar.PublicPosition) as the store holds the venue now, with one read
// for all their venues: where the index finds the event, and what a
// distance is measured from. Nothing keeps it with the event: a venue
// hidden since would otherwise go on being found through its events.
func placeEvents(ctx context.Context, store calendar.Repo[*calendar.Post], posts []*calendar.Post) error {
	var venues []int64
	seen := map[int64]bool{}
	for _, p := range posts {
		if p.Type != calendar.PostTypeEvent {
			continue
		}
		p.VenueGeo = nil
		if p.Venue != 0 && !seen[p.Venue] {
			seen[p.Venue] = true
			venues = append(venues, p.Venue)
		}
	}
	if len(venues) == 0 {
		return nil
	}
	found, err := store.GetMany(ctx, venues)
	if err != nil {
		return err
	}
	at := make(map[int64]*calendar.Geo, len(found))
	for _, v := range found {
		at[v.ID] = calendar.PublicPosition(v)
	}
	for _, p := range posts {
		if p.Type == calendar.PostTypeEvent && p.Venue != 0 {
			p.VenueGeo = at[p.Venue]
		}
	}
	return nil
}

// PlaceEvents is placeEvents for those who compare the index with the
// store (calendar verify): the events as the index should hold them.
func PlaceEvents(ctx context.Context, store calendar.Store, posts []*calendar.Post) error {
	if err := (&Fields{store: store, now: time.Now}).forIndex(ctx, posts); err != nil {
		return err
	}
	return placeEvents(ctx, store.Posts(), posts)
}

// distance is the great-circle distance from the point to g in the request's
// unit, to two decimals; nil without a position.
func (n *nearMe) distance(g *calendar.Geo) *float64 {
	if n == nil || g == nil {
		return nil
	}
	d := math.Round(haversineKm(n.Lat, n.Lng, g.Lat, g.Lng)/kmPer[n.unit]*100) / 100
	return &d
}

// earthRadiusKm is the mean radius of the Earth.
const earthRadiusKm = 6371.0088

// haversineKm is the great-circle distance between two points.
func haversineKm(lat1, lng1, lat2, lng2 float64) float64 {
	rad := math.Pi / 180
	dLat, dLng := (lat2-lat1)*rad, (lng2-lng1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(a)))
}

// findPlace is where the gazetteer finds a place written as people write it
// (near=): a city, then perhaps its state, then perhaps its country.
func findPlace(name string, bad *calendar.InvalidParams) (lat, lng float64, ok bool) {
	switch {
	case strings.TrimSpace(name) == "":
		bad.Add("near", "near must name a place.", nil)
	default:
		if lat, lng, ok = gazetteer.Find(name); ok {
			return lat, lng, true
		}
		message := fmt.Sprintf("No place is known as %q: name a city, perhaps with its country (Köln; Paris, France).", name)
		bad.Add("near", message, map[string]any{"code": "rest_unknown_place", "message": message, "data": map[string]any{"param": "near"}})
	}
	return 0, 0, false
}

// readBounds checks geo_bounds, "south,west,north,east" in degrees (a west
// east of the east crosses the antimeridian); nil when not sent. Its length
// is the route's to bound (calendar.MaxPlaceBytes).
func readBounds(raw *string, bad *calendar.InvalidParams) *calendar.GeoBox {
	if raw == nil {
		return nil
	}
	shape := "geo_bounds must be four numbers: south,west,north,east."
	parts := strings.SplitN(*raw, ",", 5)
	if len(parts) != 4 {
		bad.Add("geo_bounds", shape, nil)
		return nil
	}
	var v [4]float64
	for i, part := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			bad.Add("geo_bounds", shape, nil)
			return nil
		}
		v[i] = f
	}
	b := calendar.GeoBox{South: v[0], West: v[1], North: v[2], East: v[3]}
	switch {
	case math.Abs(b.South) > calendar.MaxLatitude || math.Abs(b.North) > calendar.MaxLatitude:
		bad.Add("geo_bounds", fmt.Sprintf("geo_bounds' latitudes (south, north) must be from -%d to %d.", calendar.MaxLatitude, calendar.MaxLatitude), nil)
	case math.Abs(b.West) > calendar.MaxLongitude || math.Abs(b.East) > calendar.MaxLongitude:
		bad.Add("geo_bounds", fmt.Sprintf("geo_bounds' longitudes (west, east) must be from -%d to %d.", calendar.MaxLongitude, calendar.MaxLongitude), nil)
	case b.South > b.North:
		bad.Add("geo_bounds", "geo_bounds' south must not be north of its north.", nil)
	default:
		return &b
	}
	return nil
}

// DefaultGeoPrecision is the length of a grid's geohash cells when
// geo_precision is not sent: 5, cells of about 5 by 5 km, a city's districts.
const DefaultGeoPrecision = 5

// readGrid reads facets=geo_grid and geo_precision (which the route bounds:
// 1 to calendar.MaxGeoPrecision).
func readGrid(f EventFilter, q *calendar.PostQuery) {
	precision := int64(DefaultGeoPrecision)
	if f.GeoPrecision != nil {
		precision = *f.GeoPrecision
	}
	if f.Facets != nil && slices.Contains(*f.Facets, calendar.FacetGeoGrid) {
		q.GeoGrid = int(precision)
	}
}

// GeoGrid is a map's clusters: the matching events that have a position,
// counted per geohash cell, the cells holding the most first (then by
// geohash), at most calendar.MaxGeoCells; the others are counted in
// OmittedCells and OmittedEvents.
type GeoGrid struct {
	Precision     int       `json:"precision"`
	Cells         []GeoCell `json:"cells"`
	OmittedCells  int       `json:"omitted_cells"`
	OmittedEvents int       `json:"omitted_events"`
}

// GeoCell is one cell of a grid: its geohash, its events, their mean
// position (where to draw the cluster) and the cell's edges.
type GeoCell struct {
	Geohash  string    `json:"geohash"`
	Count    int       `json:"count"`
	Centroid LatLng    `json:"centroid"`
	Bounds   GeoBounds `json:"bounds"`
}

// LatLng is a point.
type LatLng struct {
	Lat float64 `json:"lat"`
	Lng float64 `json:"lng"`
}

// GeoBounds is a box as geo_bounds gives it.
type GeoBounds struct {
	South float64 `json:"south"`
	West  float64 `json:"west"`
	North float64 `json:"north"`
	East  float64 `json:"east"`
}

func newGeoGrid(precision int, g *calendar.GeoGrid) *GeoGrid {
	out := &GeoGrid{Precision: precision, Cells: make([]GeoCell, 0, len(g.Cells)), OmittedCells: g.Omitted, OmittedEvents: g.OmittedPosts}
	for _, c := range g.Cells {
		box := geohashBox(c.Geohash)
		// Six decimals (about 10 cm), kept within the cell when rounding
		// would take a point on its edge across it.
		at := func(x, low, high float64) float64 { return min(max(math.Round(x*1e6)/1e6, low), high) }
		out.Cells = append(out.Cells, GeoCell{Geohash: c.Geohash, Count: c.Count,
			Centroid: LatLng{Lat: at(c.Lat, box.South, box.North), Lng: at(c.Lng, box.West, box.East)},
			Bounds:   GeoBounds{South: box.South, West: box.West, North: box.North, East: box.East}})
	}
	return out
}

const geohashAlphabet = "0123456789bcdefghjkmnpqrstuvwxyz"

// geohashBox is the cell a geohash names: each character halves the cell
// five times, longitude first, then latitude, and so on.
func geohashBox(hash string) calendar.GeoBox {
	b := calendar.GeoBox{South: -90, West: -180, North: 90, East: 180}
	longitude := true
	for i := 0; i < len(hash); i++ {
		v := strings.IndexByte(geohashAlphabet, hash[i])
		for bit := 4; bit >= 0; bit-- {
			upper := v>>bit&1 == 1
			if longitude {
				if mid := (b.West + b.East) / 2; upper {
					b.West = mid
				} else {
					b.East = mid
				}
			} else {
				if mid := (b.South + b.North) / 2; upper {
					b.South = mid
				} else {
					b.North = mid
				}
			}
			longitude = !longitude
		}
	}
	return b
}
