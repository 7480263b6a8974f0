package gazetteer

import (
	"math"
	"testing"
)

func TestLocate(t *testing.T) {
	cases := []struct {
		city, country, state string
		lat, lng             float64
		ok                   bool
	}{
		{"Lyon", "France", "", 45.7491, 4.8479, true},
		{"lyon", "FR", "", 45.7491, 4.8479, true},
		{"Lyon", "FRA", "", 45.7491, 4.8479, true},
		{"Zürich", "Switzerland", "", 47.3667, 8.55, true},
		{"Zurich", "CH", "", 47.3667, 8.55, true},
		{"Suva", "Fiji", "", -18.1368, 178.4253, true},
		{"Paris", "United States", "IL", 39.6112, -87.6961, true},
		{"Paris", "USA", "AR", 35.292, -93.7299, true},
		{"Lyon", "Atlantis", "", 0, 0, false},
		{"Nowhere-ville", "France", "", 0, 0, false},
	}
	for _, c := range cases {
		lat, lng, ok := Locate(c.city, c.country, c.state)
		if ok != c.ok || math.Abs(lat-c.lat) > 0.01 || math.Abs(lng-c.lng) > 0.01 {
			t.Errorf("Locate(%q, %q, %q) = %v, %v, %v; want %v, %v, %v", c.city, c.country, c.state, lat, lng, ok, c.lat, c.lng, c.ok)
		}
	}
}
