package controllers

import (
	"strings"

	"calendar/app"
	"calendar/app/calendar"
)

// The declared parameters of every route: what the namespace index, OPTIONS
// and the OpenAPI document show, and what CheckArgs enforces before any
// permission check. The readers of params.go turn them into the app's typed
// requests.

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
}

var (
	idArg   = Arg{Name: "id", Type: TypeInteger, Required: true, Description: "Unique identifier of the item."}
	slugArg = Arg{Name: "slug", Type: TypeString, Required: true, Description: "The item's slug."}
)

// deleteArgs are the parameters of a delete.
var deleteArgs = []Arg{{Name: "force", Type: TypeBoolean, Default: false, Description: "Delete permanently instead of moving to the trash."}}

// readArgs are the parameters of a single read.
var readArgs = []Arg{{Name: "password", Type: TypeString, Description: "The post's password, to see protected fields."}}

var dateDescriptions = map[string]string{
	"start_date":    "Events that start on or after this date (the whole day unless strict_dates).",
	"end_date":      "Events that end on or before this date (the whole day unless strict_dates).",
	"starts_before": "Events that start before this date (the whole day unless strict_dates).",
	"starts_after":  "Events that start after this date (after the whole day unless strict_dates).",
	"ends_before":   "Events that end before this date (the whole day unless strict_dates).",
	"ends_after":    "Events that end after this date (after the whole day unless strict_dates).",
}

// eventListArgs are the parameters of GET /events (and of the feed, but
// page), in the order the plugin's links write them.
var eventListArgs = func() []Arg {
	date := func(name string) Arg {
		return Arg{Name: name, Type: TypeString, Description: dateDescriptions[name] + " A date PHP's strtotime accepts, or a Unix timestamp."}
	}
	args := append(append([]Arg{}, pageArgs...), date("start_date"), date("end_date"),
		Arg{Name: "search", Type: TypeString, Description: "Words that must all occur in the title, description or excerpt (at most 9 are looked for)."},
		Arg{Name: "categories", Type: TypeArray, Items: TypeString, Description: "Event category IDs or slugs (any of them)."},
		Arg{Name: "tags", Type: TypeArray, Items: TypeString, Description: "Tag IDs or slugs (any of them)."},
		Arg{Name: "venue", Type: TypeArray, Items: TypeInteger, Description: "Venue IDs (any of them)."},
		Arg{Name: "organizer", Type: TypeArray, Items: TypeInteger, Description: "Organizer IDs (any of them)."},
		Arg{Name: "featured", Type: TypeBoolean, Description: "Only featured events (true) or only the others (false)."},
		Arg{Name: "status", Type: TypeArray, Items: TypeString, Description: "Statuses to list; only publish for visitors who may not edit. Only the posts the caller may read are listed."},
		Arg{Name: "post_parent", Type: TypeInteger, Description: "Only the children of this event."},
		Arg{Name: "include", Type: TypeArray, Items: TypeInteger, Description: "Only these events; date filters are ignored."},
		date("starts_before"), date("starts_after"), date("ends_before"), date("ends_after"),
		Arg{Name: "strict_dates", Type: TypeString, Default: "false", Description: "true: compare the dates as sent; otherwise whole days."},
		Arg{Name: "ticketed", Type: TypeBoolean, Description: "Ticketing is not enabled: true is a 400, false no filter."},
		Arg{Name: "password", Type: TypeString, Description: "Shows the details of events protected by this password."},
		Arg{Name: "geoloc", Type: TypeBoolean, Description: "true: only events whose venue has coordinates; false: only the others."})
	args = append(args, nearArgs...)
	return append(args,
		Arg{Name: "orderby", Type: TypeString, Default: "start_date",
			Description: "start_date (then publication date, then ID), distance from the point, nearest first, or relevance to search (best first, then start_date); relevance matches words, their prefixes, one typo in words of five letters or more, accents folded. Any other value keeps the default order, as the plugin, which has no orderby, ignores it."},
		Arg{Name: "facets", Type: TypeArray, Items: TypeString, Enum: calendar.FacetNames,
			Description: "Count the matching events per value of these fields, under facets."},
		modifiedAfterArg)
}()

// eventWriteArgs are the parameters of an event create (title and dates
// required) or update.
func eventWriteArgs(create bool) []Arg {
	return []Arg{
		{Name: "author", Type: TypeInteger, Description: "ID of the author; only editors may name someone else."},
		{Name: "date", Type: TypeString, Description: "Publication date, in the event's zone."},
		{Name: "date_utc", Type: TypeString, Description: "Publication date in UTC."},
		{Name: "title", Type: TypeString, Required: create, Description: "The title, as plain text."},
		{Name: "description", Type: TypeString, Description: "The description, HTML."},
		{Name: "slug", Type: TypeString, Description: "The slug; made unique."},
		{Name: "excerpt", Type: TypeString, Description: "A short description, HTML."},
		{Name: "status", Type: TypeString, Enum: calendar.PostStatuses, Description: "publish by default for those who may publish; contributors' posts wait as pending (or draft)."},
		{Name: "password", Type: TypeString, Description: "Protects the event's details; empty to remove."},
		{Name: "timezone", Type: TypeString, Description: "IANA zone name, UTC, or UTC+N / UTC-N; the site's zone by default."},
		{Name: "all_day", Type: TypeBoolean, Description: "All day: from 00:00:00 on the start's day to 23:59:59 on the end's."},
		{Name: "start_date", Type: TypeString, Required: create, Description: "A date PHP's strtotime accepts (2018-01-01 16:00, tomorrow 9am, next wednesday 4pm, +1 week), or a Unix timestamp."},
		{Name: "end_date", Type: TypeString, Required: create, Description: "As start_date; not before it."},
		{Name: "image", Type: TypeMixed, Description: "The featured image: the ID of an image of the media library (POST {api}/media), or an absolute http(s) URL (one of the library's files is that image; another is kept as given, or fetched into the library when the service sideloads); empty to remove."},
		{Name: "cost", Type: TypeMixed, Description: "A cost, a number, or a list of them (20$, [\"0$\", \"30$\"])."},
		{Name: "recurrence", Type: TypeMixed, Description: "Makes the event a series: a list of RFC 5545 content lines (or one string of them, a line each) (RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10, RDATE..., EXDATE...), local times in the event's timezone, start_date as DTSTART. Every further occurrence becomes an event of its own (post_parent: this one) up to two years ahead; an empty list ends the series."},
		{Name: "post_parent", Type: TypeInteger, Description: "The series (an event with recurrence) this event is an occurrence of, edited on its own; 0 takes it out of its series."},
		{Name: "website", Type: TypeString, Description: "URL with a scheme; the event's own page when absent."},
		{Name: "show_map", Type: TypeBoolean, Description: "Show the venue's map."},
		{Name: "show_map_link", Type: TypeBoolean, Description: "Show a link to the venue's map."},
		{Name: "hide_from_listings", Type: TypeBoolean, Description: "Leave the event out of every list (it stays readable by ID)."},
		{Name: "sticky", Type: TypeBoolean, Description: "Sticky; for those who may publish or edit others' events."},
		{Name: "featured", Type: TypeBoolean, Description: "Featured."},
		{Name: "categories", Type: TypeArray, Items: TypeString, Description: "IDs, slugs or names; unknown names are created for those who may manage categories."},
		{Name: "tags", Type: TypeArray, Items: TypeString, Description: "IDs, slugs or names, as categories."},
		{Name: "venue", Type: TypeMixed, Description: "A venue ID, an object of venue fields (or {id}), or a list of one of them; empty to unlink."},
		{Name: "organizer", Type: TypeMixed, Description: "Organizer IDs or objects of organizer fields (or {id}), in order."},
	}
}

// linkedListArgs are the parameters of GET /venues and /organizers; venues
// also take the "near me" ones.
func linkedListArgs(postType string) []Arg {
	args := append(append([]Arg{}, pageArgs...),
		Arg{Name: "search", Type: TypeString, Description: "Words that must all occur in the name, description, excerpt or one of the text fields, in any order."},
		Arg{Name: "status", Type: TypeArray, Items: TypeString, Description: "Statuses to list; only publish for visitors who may not edit. Only the posts the caller may read are listed."},
		Arg{Name: "event", Type: TypeInteger, Description: "Only those this event links to."},
		Arg{Name: "has_events", Type: TypeMixed, Description: "true: only those events link to (drafts and pending events aside); false: only the others."},
		Arg{Name: "only_with_upcoming", Type: TypeMixed, Default: false, Description: "true: only those upcoming events link to."},
		modifiedAfterArg,
	)
	if postType == calendar.PostTypeVenue {
		args = append(append(args, nearArgs...),
			Arg{Name: "orderby", Type: TypeString, Default: "date",
				Description: "date (newest first), or distance from the point, nearest first; any other value keeps the default order."})
	}
	return args
}

// metaDescriptions say what each venue and organizer text field holds.
var metaDescriptions = map[string]string{
	"address": "Street address.", "city": "City.", "country": "Country.", "province": "Province.", "state": "State.",
	"zip": "Postal code.", "phone": "Phone number.", "website": "URL with a scheme.", "stateprovince": "State or province.",
	"email": "E-mail address.",
}

// linkedWriteArgs are the parameters of a venue or organizer create (the
// name required) or update.
func linkedWriteArgs(postType string, meta []string, create bool) []Arg {
	args := []Arg{
		{Name: postType, Type: TypeString, Required: create, Description: "The name, as plain text."},
		{Name: "author", Type: TypeInteger, Description: "ID of the author; only editors may name someone else."},
		{Name: "date", Type: TypeString, Description: "Publication date in the site's zone, or a Unix timestamp."},
		{Name: "date_utc", Type: TypeString, Description: "Publication date in UTC."},
		{Name: "description", Type: TypeString, Description: "The description, HTML."},
		{Name: "excerpt", Type: TypeString, Description: "A short description, HTML."},
		{Name: "status", Type: TypeString, Enum: calendar.PostStatuses, Description: "publish by default for those who may publish; contributors' posts wait as pending (or draft)."},
		{Name: "password", Type: TypeString, Description: "Protects the fields other than the name; empty to remove."},
		{Name: "image", Type: TypeMixed, Description: "The featured image: the ID of an image of the media library (POST {api}/media), or an absolute http(s) URL (one of the library's files is that image; another is kept as given, or fetched into the library when the service sideloads); empty to remove."},
	}
	for _, m := range meta {
		args = append(args, Arg{Name: m, Type: TypeString, Description: metaDescriptions[m]})
	}
	if postType == calendar.PostTypeVenue {
		args = append(args,
			Arg{Name: "show_map", Type: TypeBoolean, Description: "Show the venue's map."},
			Arg{Name: "show_map_link", Type: TypeBoolean, Description: "Show a link to the venue's map."},
			Arg{Name: "geo_lat", Type: TypeNumber, Description: "Latitude, -90 to 90; with geo_lng."},
			Arg{Name: "geo_lng", Type: TypeNumber, Description: "Longitude, -180 to 180; with geo_lat."})
	}
	return args
}

// termListArgs are the parameters of GET /categories and /tags.
func termListArgs(hierarchical bool) []Arg {
	args := append(append([]Arg{}, pageArgs...),
		Arg{Name: "search", Type: TypeString, Description: "Part of the name or slug, any case."},
		Arg{Name: "exclude", Type: TypeArray, Items: TypeString, Description: "Terms to leave out, by ID or slug."},
		Arg{Name: "include", Type: TypeArray, Items: TypeString, Description: "Only these terms, by ID or slug."},
		Arg{Name: "order", Type: TypeString, Description: "asc or desc, any case."},
		Arg{Name: "orderby", Type: TypeString, Enum: app.TermOrderBy, Description: "The order: by " + strings.Join(app.TermOrderBy, ", ") + " (name by default)."},
		Arg{Name: "hide_empty", Type: TypeBoolean, Default: true, Description: "Leave out terms no published event carries."},
		Arg{Name: "post", Type: TypeInteger, Description: "Only the terms of this event."},
		Arg{Name: "event", Type: TypeInteger, Description: "Only the terms of this event (wins over post)."},
		Arg{Name: "slug", Type: TypeString, Description: "Only the term with this slug."},
	)
	if hierarchical {
		args = append(args, Arg{Name: "parent", Type: TypeInteger, Description: "Only the direct children of this category; 0 for top-level ones."})
	}
	return args
}

// termWriteArgs are the parameters of a term create (name required) or update.
func termWriteArgs(hierarchical, create bool) []Arg {
	args := []Arg{
		{Name: "name", Type: TypeString, Required: create, Description: "The name."},
		{Name: "description", Type: TypeString, Description: "The description."},
		{Name: "slug", Type: TypeString, Description: "The slug; from the name when absent."},
	}
	if hierarchical {
		args = append(args, Arg{Name: "parent", Type: TypeInteger, Description: "ID of the parent category, 0 for none."})
	}
	return args
}

// changesArgs are the parameters of GET /changes.
var changesArgs = []Arg{
	{Name: "since", Type: TypeInteger, Default: 0, Description: "The last_seq of the previous page; 0 to start from the beginning."},
	{Name: "per_page", Type: TypeInteger, Default: 100, Description: "Changes per page, 1 to 1000."},
}

// userCreateArgs are the parameters of POST /vendor/admin/v1/users.
var userCreateArgs = []Arg{
	{Name: "login", Type: TypeString, Required: true, Description: "The login name: 1 to 60 letters, digits, spaces or _ . @ -"},
	{Name: "role", Type: TypeString, Required: true, Description: "The user's role.",
		Enum: []string{"administrator", "editor", "author", "contributor", "subscriber"}},
}

var userIDArgs = []Arg{{Name: "id", Type: TypeInteger, Required: true, Description: "Unique identifier of the user."}}
