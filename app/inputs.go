package app

import "calendar/app/calendar"

// The typed requests the services take. The HTTP layer reads the parameters
// into them (their names are the API's); a nil pointer or a nil slice is a
// parameter that was not sent, an empty string or slice one sent empty.

// Caller is who asks: a user (nil for anonymous callers), from which address
// (the throttle counts wrong passwords by it), through which root of the API
// ("{api}/") and which home URL (Site, "" for the settings'): both carry the
// language segment the request came in with, which every URL the service
// writes keeps. Expect is what a conditional write expects of the item it
// names (If-Match, If-Unmodified-Since).
type Caller struct {
	User   *calendar.User
	Client string
	Root   string
	Site   string
	// Language is the language segment of the address the request came
	// through (fr, pt-br), "" when none.
	Language string
	Expect   Precondition
}

// Can reports whether the caller holds the capability; anonymous callers hold none.
func (c Caller) Can(capability calendar.Capability) bool { return c.User.Can(capability) }

// PageRequest is a page of a list: Page from 1, PerPage 0 for the site's default.
type PageRequest struct {
	Page, PerPage int
}

// PostFields are the fields every post write takes (the name of a venue or
// an organizer is its Title).
type PostFields struct {
	Title, Description, Excerpt, Password, Image *string
	// Status "" was not sent.
	Status string
	Author *int64
	// Date is read in the post's zone (its wall time there is the site's),
	// DateUTC in UTC; sent together, each is kept as sent.
	Date, DateUTC *string
	// CustomFields are the custom field values sent, by key (nil: none
	// sent; a nil or "" value clears its field).
	CustomFields map[string]any
}

// EventInput is an event create or update.
type EventInput struct {
	PostFields
	Slug, Website, Timezone *string
	AllDay                  *bool
	StartDate, EndDate      *string
	Cost                    *[]string
	// The flags, by their API names (show_map, show_map_link,
	// hide_from_listings, sticky, featured): those sent.
	Flags map[string]bool
	// Venue: nil was not sent; a zero LinkRef unlinks.
	Venue            *LinkRef
	Organizers       *[]LinkRef
	Categories, Tags *[]string // IDs, slugs or names
	// Recurrence: RFC 5545 content lines (RRULE, RDATE, EXDATE); an empty
	// list ends the series. Parent moves the event into a series (as an
	// occurrence edited on its own) or, 0, out of its series.
	Recurrence *[]string
	Parent     *int64
	// EventStatus (calendar.EventStatuses) and its reason, AttendanceMode
	// (calendar.AttendanceModes) and the link to join online: "" resets
	// each to its default.
	EventStatus, EventStatusReason *string
	AttendanceMode, OnlineURL      *string
	// importedAs is what an import creates the event from (Post.Imported);
	// no request sets it.
	importedAs *calendar.ImportedAs
}

// LinkRef names a venue or an organizer: an existing one by ID, or the fields
// of a new one (an existing one of the same name is reused).
type LinkRef struct {
	ID int64
	// FromObject: the ID came as {"id": N}, whose wrong type the plugin
	// answers with invalid-linked-post-id.
	FromObject bool
	New        *LinkedInput
}

// LinkedInput is a venue or organizer create or update.
type LinkedInput struct {
	PostFields
	// Meta holds the text fields sent (address, city, phone, email...) by
	// their API names; "" clears one.
	Meta                 map[string]string
	ShowMap, ShowMapLink *bool
	GeoLat, GeoLng       *float64
}

// TermInput is a category or tag create or update.
type TermInput struct {
	Name, Description, Slug *string
	Parent                  *int64
}

// Dates are the date bounds of an event list, as sent, by name (start_date,
// end_date, starts_before, starts_after, ends_before, ends_after).
type Dates map[string]string

// NearInput is where on the map a list looks: near a point (both
// coordinates, or a place's name, or none) and within a box.
type NearInput struct {
	Lat, Lng *float64
	// Place is a place as people write it ("Köln", "Paris, France"), which
	// the gazetteer finds; instead of Lat and Lng.
	Place  *string
	Radius *float64 // nil: 25
	Unit   string   // mi (default) or km
	// Bounds is a box as sent: "south,west,north,east".
	Bounds *string
}

// EventFilter is an event list (and the iCalendar feed).
type EventFilter struct {
	Page   PageRequest
	Search *string
	// OrderBy: "" or start_date, distance, relevance, cf.<key>.
	OrderBy            string
	Categories, Tags   *[]string // IDs or slugs
	Venues, Organizers *[]int64
	Featured, HasGeo   *bool
	// EventStatuses keeps the events of these statuses (any of them); nil: all.
	EventStatuses *[]string
	Statuses      *[]string // nil: the caller's default statuses
	Parent        *int64
	Include       *[]int64
	Dates         Dates
	StrictDates   bool
	Near          NearInput
	// Password unmasks the events it protects.
	Password      string
	Facets        *[]string
	ModifiedAfter *string
	// GeoPrecision is the length of the geohash cells of facets=geo_grid.
	GeoPrecision *int64
	// DaysZone names the zone whose days facets=days counts (tz: an IANA
	// name); nil: the events' own wall-clock days, as the list bounds them.
	DaysZone *string
	// Highlight asks for each event's highlight of the search's words.
	Highlight bool
	// HideSubsequentRecurrences shows each series once, as its first
	// occurrence within the window that the caller may read
	// (calendar.PostQuery.OncePerSeries).
	HideSubsequentRecurrences bool
	// AllDates leaves out the list's default window (yesterday to two
	// years ahead): a subscription's filter bounds only the dates it names.
	AllDates bool
	// Expand writes a feed's series as their occurrences, each a VEVENT of
	// its own without rules (for importers that cannot read rules).
	Expand bool
	// Custom are the filters by custom fields (cf[<key>]), by key.
	Custom map[string]CustomParam
}

// LinkedFilter is a venue or organizer list.
type LinkedFilter struct {
	Page     PageRequest
	Search   *string
	Statuses *[]string
	// Event keeps those this event links; HasEvents those events link (or
	// not); OnlyWithUpcoming those upcoming events link.
	Event            *int64
	HasEvents        *bool
	OnlyWithUpcoming bool
	Near             NearInput // venues only
	ByDistance       bool
	ModifiedAfter    *string
}

// TermFilter is a category or tag list.
type TermFilter struct {
	Page             PageRequest
	Search, Slug     *string
	Include, Exclude *[]string // IDs or slugs
	Order            *string   // asc or desc, any case
	OrderBy          *string
	// HideEmpty: nil is the default (true).
	HideEmpty *bool
	// Event keeps the terms of this event, named so by EventParam (event,
	// or post) in an error.
	Event      *int64
	EventParam string
	Parent     *int64
}

// ChangesRequest is a page of the change feed.
type ChangesRequest struct {
	Since   int64
	PerPage *int64 // nil: the default
	// EmbedObject puts in each entry the item as its route answers the
	// caller (embed=object): one request a page, not one per change.
	EmbedObject bool
}

// UserInput is a user creation.
type UserInput struct {
	Login string
	Role  calendar.Role
}
