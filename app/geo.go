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

// readNear checks a "near me" point (geoloc_lat, geoloc_lng, geoloc_radius,
// geoloc_unit); nil when no point is given.
func readNear(in NearInput, bad *calendar.InvalidParams) *nearMe {
	unit, radius := in.Unit, 25.0
	if unit == "" {
		unit = "mi"
	}
	if in.Radius != nil {
		radius = *in.Radius
	}
	switch {
	case (in.Lat == nil) != (in.Lng == nil):
		bad.Add("geoloc_lat", "geoloc_lat and geoloc_lng go together.", nil)
	case in.Lat != nil && (*in.Lat < -90 || *in.Lat > 90):
		bad.Add("geoloc_lat", "geoloc_lat must be from -90 to 90.", nil)
	case in.Lng != nil && (*in.Lng < -180 || *in.Lng > 180):
		bad.Add("geoloc_lng", "geoloc_lng must be from -180 to 180.", nil)
	}
	if radius <= 0 || radius > 20000 {
		bad.Add("geoloc_radius", "geoloc_radius must be more than 0 and at most 20000.", nil)
	}
	if _, known := kmPer[unit]; !known {
		bad.Add("geoloc_unit", "geoloc_unit is not one of mi, km.", nil)
	}
	if in.Lat == nil || in.Lng == nil {
		return nil
	}
	return &nearMe{GeoNear: calendar.GeoNear{Lat: *in.Lat, Lng: *in.Lng, Km: radius * kmPer[unit]}, unit: unit}
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

// readOrder reads orderby: the default order, or distance (which needs a point).
func readOrder(orderBy string, near *nearMe, bad *calendar.InvalidParams) bool {
	if orderBy == "distance" && near == nil {
		bad.Add("orderby", "orderby=distance needs geoloc_lat and geoloc_lng.", nil)
	}
	return orderBy == "distance"
}
