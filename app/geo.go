package app

import "math"

// NearArgs are the "near me" parameters of the event and venue lists.
var NearArgs = []Arg{
	{Name: "geoloc_lat", Type: TypeNumber, Description: "Latitude of the point, -90 to 90; with geoloc_lng."},
	{Name: "geoloc_lng", Type: TypeNumber, Description: "Longitude of the point, -180 to 180; with geoloc_lat."},
	{Name: "geoloc_radius", Type: TypeNumber, Default: 25, Description: "Great-circle radius around the point: more than 0, at most 20000."},
	{Name: "geoloc_unit", Type: TypeString, Default: "mi", Enum: []string{"mi", "km"}, Description: "Unit of the radius and of distance."},
}

// kmPer converts a unit to kilometres.
var kmPer = map[string]float64{"km": 1, "mi": 1.609344}

// nearMe is a checked point and radius, with the unit distances are shown in.
type nearMe struct {
	GeoNear
	unit string
}

// readNear reads geoloc_lat, geoloc_lng, geoloc_radius and geoloc_unit; nil
// when no point is given.
func readNear(v Values, bad *InvalidParams) *nearMe {
	lat, hasLat := v["geoloc_lat"].(float64)
	lng, hasLng := v["geoloc_lng"].(float64)
	unit, ok := v.String("geoloc_unit")
	if !ok {
		unit = "mi"
	}
	radius, ok := v["geoloc_radius"].(float64)
	if !ok {
		radius = 25
	}
	switch {
	case hasLat != hasLng:
		bad.Add("geoloc_lat", "geoloc_lat and geoloc_lng go together.", nil)
	case hasLat && (lat < -90 || lat > 90):
		bad.Add("geoloc_lat", "geoloc_lat must be from -90 to 90.", nil)
	case hasLng && (lng < -180 || lng > 180):
		bad.Add("geoloc_lng", "geoloc_lng must be from -180 to 180.", nil)
	}
	if radius <= 0 || radius > 20000 {
		bad.Add("geoloc_radius", "geoloc_radius must be more than 0 and at most 20000.", nil)
	}
	if !hasLat || !hasLng {
		return nil
	}
	return &nearMe{GeoNear: GeoNear{Lat: lat, Lng: lng, Km: radius * kmPer[unit]}, unit: unit}
}

// distance is the great-circle distance from the point to g in the request's
// unit, to two decimals; nil without a position.
func (n *nearMe) distance(g *Geo) *float64 {
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
func readOrder(v Values, near *nearMe, bad *InvalidParams) bool {
	orderBy, _ := v.String("orderby")
	if orderBy == "distance" && near == nil {
		bad.Add("orderby", "orderby=distance needs geoloc_lat and geoloc_lng.", nil)
	}
	return orderBy == "distance"
}
