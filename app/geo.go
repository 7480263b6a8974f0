package app

import (
	"math"

	"calendar/app/calendar"
)

// kmPer converts a unit to kilometres.
var kmPer = map[string]float64{"km": 1, "mi": 1.609344}

// nearMe is a checked point and radius, with the unit distances are shown in.
type nearMe struct {
	calendar.GeoNear
	unit string
}

// publicPosition is where a venue's events are found by "near me": its
// position when anyone may read it whole (published, without a password),
// none otherwise. An event's position is its venue's, shown to callers who
// may not read the venue; so those of a draft, private or protected venue
// have none, and no radius, order or distance tells where it is.
func publicPosition(venue *calendar.Post) *calendar.Geo {
	if venue == nil || venue.Status != calendar.StatusPublish || venue.Password != "" {
		return nil
	}
	return venue.Geo
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
