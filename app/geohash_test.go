package app

import (
	"math"
	"testing"

	"calendar/app/calendar"
)

// TestGeohashBoxIsTheCellItNames: the edges of geohash cells, as the
// published definition gives them (ezs42 is its worked example).
func TestGeohashBoxIsTheCellItNames(t *testing.T) {
	cases := []struct {
		hash string
		want calendar.GeoBox
	}{
		{"", calendar.GeoBox{South: -90, West: -180, North: 90, East: 180}},
		{"u", calendar.GeoBox{South: 45, West: 0, North: 90, East: 45}},
		{"0", calendar.GeoBox{South: -90, West: -180, North: -45, East: -135}},
		{"z", calendar.GeoBox{South: 45, West: 135, North: 90, East: 180}},
		{"ezs42", calendar.GeoBox{South: 42.5830078125, West: -5.625, North: 42.626953125, East: -5.5810546875}},
		{"u1hcy", calendar.GeoBox{South: 50.9326171875, West: 6.943359375, North: 50.9765625, East: 6.9873046875}}, // Köln cathedral
	}
	for _, c := range cases {
		got := geohashBox(c.hash)
		for _, edge := range [][2]float64{{got.South, c.want.South}, {got.West, c.want.West}, {got.North, c.want.North}, {got.East, c.want.East}} {
			if math.Abs(edge[0]-edge[1]) > 1e-9 {
				t.Errorf("geohashBox(%q) = %+v; want %+v", c.hash, got, c.want)
				break
			}
		}
	}
}
