package controllers

// The declared parameters that several routes share: what the namespace
// index, OPTIONS and the OpenAPI document show, and what CheckArgs enforces
// before any permission check. Each resource declares its own beside its
// routes (events.go, linked.go, terms.go, media.go, changes.go, users.go),
// with the readers that turn them into the app's typed requests.

var pageArgs = []Arg{
	{Name: "page", Type: TypeInteger, Default: 1, Description: "The page of results, from 1."},
	{Name: "per_page", Type: TypeInteger, Description: "Results per page, at most 50; the site default otherwise."},
}

var modifiedAfterArg = Arg{Name: "modified_after", Type: TypeString,
	Description: "Only items modified after this instant (zone-less values are UTC); the list then runs from the oldest change, then by ID, and an event list has no default date window."}

var nearArgs = []Arg{
	{Name: "geoloc_lat", Type: TypeNumber, Description: "Latitude of the point, -90 to 90; with geoloc_lng."},
	{Name: "geoloc_lng", Type: TypeNumber, Description: "Longitude of the point, -180 to 180; with geoloc_lat."},
	{Name: "geoloc_radius", Type: TypeNumber, Default: 25, Description: "Great-circle radius around the point: more than 0, at most 20000."},
	{Name: "geoloc_unit", Type: TypeString, Default: "mi", Enum: []string{"mi", "km"}, Description: "Unit of the radius and of distance."},
	{Name: "near", Type: TypeString, Example: "Köln",
		Description: "The point as a place's name instead of geoloc_lat and geoloc_lng: a city, perhaps with its state and country (Köln, Koeln, Paris, France, Paris, US, Portland, ME, USA), at most 200 bytes; without a country, the most populous place of that name. An unknown place is a 400 (details.near.code rest_unknown_place)."},
	{Name: "geo_bounds", Type: TypeString, Example: "50.6,6.7,51.3,7.2",
		Description: "Only what lies in this box: south,west,north,east in degrees (latitudes -90 to 90, south not north of north; longitudes -180 to 180). A west greater than the east crosses the antimeridian (-20,170,0,-170: Fiji and Samoa)."},
}

var (
	idArg   = Arg{Name: "id", Type: TypeInteger, Required: true, Description: "Unique identifier of the item."}
	slugArg = Arg{Name: "slug", Type: TypeString, Required: true, Description: "The item's slug."}
)

// deleteArgs are the parameters of a delete.
var deleteArgs = []Arg{{Name: "force", Type: TypeBoolean, Default: false, Description: "Delete permanently instead of moving to the trash."}}

// readArgs are the parameters of a single read.
var readArgs = []Arg{{Name: "password", Type: TypeString, Description: "The post's password, to see protected fields."}}
