package controllers

import (
	"calendar/app"
	"calendar/app/calendar"
)

// The declared parameters that several routes share: what the namespace
// index, OPTIONS and the OpenAPI document show, and what CheckArgs enforces
// before any permission check. Each resource declares its own beside its
// routes (events.go, linked.go, terms.go, media.go, changes.go, users.go),
// with the readers that turn them into the app's typed requests. A new
// parameter is added there, in one Arg: its type, enum, requirement, bounds
// (named from app/calendar/bounds.go), pairs and default are its whole
// contract; the checker, the index and the document read them, and the
// README's Limits table is checked against them (bounds_walk_test.go).

var pageArgs = []Arg{
	{Name: "page", Type: TypeInteger, Default: 1, Min: bound(1), Max: bound(calendar.MaxPage), Description: "The page of results, from 1."},
	{Name: "per_page", Type: TypeInteger, Min: bound(1), Clamp: calendar.MaxPerPage,
		Description: "Results per page; a larger number is read as the maximum (as the plugin reads it), not refused; the site default otherwise."},
}

var modifiedAfterArg = Arg{Name: "modified_after", Type: TypeString, MaxBytes: calendar.MaxDateBytes,
	Description: "Only items modified after this instant (zone-less values are UTC); the list then runs from the oldest change, then by ID, and an event list has no default date window."}

var nearArgs = []Arg{
	{Name: "geoloc_lat", Type: TypeNumber, Min: bound(-calendar.MaxLatitude), Max: bound(calendar.MaxLatitude), Needs: "geoloc_lng",
		Description: "Latitude of the point, in degrees; with geoloc_lng."},
	{Name: "geoloc_lng", Type: TypeNumber, Min: bound(-calendar.MaxLongitude), Max: bound(calendar.MaxLongitude), Needs: "geoloc_lat",
		Description: "Longitude of the point, in degrees; with geoloc_lat."},
	{Name: "geoloc_radius", Type: TypeNumber, Default: calendar.DefaultGeoRadius, Min: bound(0), ExclusiveMin: true, Max: bound(calendar.MaxGeoRadius),
		Description: "Great-circle radius around the point, in geoloc_unit."},
	{Name: "geoloc_unit", Type: TypeString, Default: app.DefaultGeoUnit, Enum: app.GeoUnits, Description: "Unit of the radius and of distance."},
	{Name: "near", Type: TypeString, MaxBytes: calendar.MaxPlaceBytes, Excludes: []string{"geoloc_lat", "geoloc_lng"},
		Description: "The point as a place's name instead of geoloc_lat and geoloc_lng: a city, perhaps with its state and country (Köln, Koeln, Paris, France, Paris, US, Portland, ME, USA); without a country, the most populous place of that name. An unknown place is a 400 (details.near.code rest_unknown_place)."},
	{Name: "geo_bounds", Type: TypeString, MaxBytes: calendar.MaxPlaceBytes,
		Description: "Only what lies in this box: south,west,north,east in degrees (latitudes and longitudes within geoloc_lat's and geoloc_lng's bounds, the south not north of the north). A west greater than the east crosses the antimeridian (-20,170,0,-170: Fiji and Samoa)."},
}

var (
	idArg   = Arg{Name: "id", Type: TypeInteger, Required: true, Description: "Unique identifier of the item."}
	slugArg = Arg{Name: "slug", Type: TypeString, Required: true, Description: "The item's slug."}
)

// deleteArgs are the parameters of a delete.
var deleteArgs = []Arg{{Name: "force", Type: TypeBoolean, Default: false, Description: "Delete permanently instead of moving to the trash."}}

// readArgs are the parameters of a single read.
var readArgs = []Arg{{Name: "password", Type: TypeString, Description: "The post's password, to see protected fields."}}
