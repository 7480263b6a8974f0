package controllers

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// EventList documents the event list wrapper.
type EventList struct {
	Events []app.EventView `json:"events"`
	listLinks
	// Facets is there when facets= asks for it: facet name -> values.
	Facets map[string][]app.FacetValue `json:"facets,omitempty"`
	// GeoGrid is there when facets=geo_grid asks for it.
	GeoGrid *app.GeoGrid `json:"geo_grid,omitempty"`
	// Days is there when facets=days asks for it: each day of the window.
	Days []app.DayCount `json:"days,omitempty"`
}

// eventService is what the event routes ask of the domain (app.Events).
type eventService interface {
	List(ctx context.Context, caller app.Caller, f app.EventFilter) (*app.Page[app.EventView], error)
	Create(ctx context.Context, caller app.Caller, in app.EventInput) (*app.EventView, error)
	Get(ctx context.Context, caller app.Caller, ref app.PostRef, password string) (*app.EventView, error)
	Update(ctx context.Context, caller app.Caller, ref app.PostRef, in app.EventInput) (*app.EventView, error)
	Delete(ctx context.Context, caller app.Caller, ref app.PostRef, force bool) (app.Removal[*app.EventView], error)
	Feed(ctx context.Context, caller app.Caller, f app.EventFilter) (*app.Feed, error)
	siteFeeds
	Occurrences(ctx context.Context, caller app.Caller, ref app.PostRef, f app.EventFilter) (*app.Page[app.EventView], error)
	FacetSearch(ctx context.Context, caller app.Caller, facet, prefix string, f app.EventFilter) ([]app.FacetValue, error)
	Suggest(ctx context.Context, caller app.Caller, typed string) ([]app.Suggestion, error)
}

// mountEvents registers the event routes: list and create, then read, update
// and delete by ID and by slug.
func mountEvents(api *API, events eventService, venueMeta, organizerMeta []string) {
	readInput := func(r *Request) (app.EventInput, error) { return readEventInput(r.Values, venueMeta, organizerMeta) }
	api.siteEvents = events
	handle(api, EventsNamespace, []string{http.MethodGet}, "/events", eventListArgs, func(r *Request) (any, error) {
		if wantsCalendar(r.HTTP.Header.Values("Accept")) {
			return eventFeedBody(api, events, r)
		}
		f, err := readEventFilter(r.Values)
		if err != nil {
			return nil, err
		}
		page, err := events.List(r.Context(), r.Caller, f)
		if err != nil {
			return nil, err
		}
		return withDays(withGrid(withFacets(listAnswer(api, r, "events", "/events", eventListArgs, page), page.Facets), page.Grid), page.Days), nil
	}, fuego.OptionSummary("List events (Accept: text/calendar gives the iCalendar feed of events.ics)"),
		fuego.OptionAddResponse(http.StatusOK, "One page of events", fuego.Response{Type: EventList{}}))
	mountEventFeed(api, events)
	mountOccurrences(api, events)
	mountFacetSearch(api, events)
	mountSuggest(api, events)

	handle(api, EventsNamespace, []string{http.MethodPost}, "/events", eventWriteArgs(true), func(r *Request) (*app.EventView, error) {
		in, err := readInput(r)
		if err != nil {
			return nil, err
		}
		e, err := events.Create(r.Context(), r.Caller, in)
		if err == nil {
			r.SetStatus(http.StatusCreated)
		}
		return e, err
	}, fuego.OptionSummary("Create an event"), fuego.OptionAddResponse(http.StatusCreated, "The new event", fuego.Response{Type: app.EventView{}}))

	for _, key := range []Arg{idArg, slugArg} {
		path := "/events/{id}"
		if key.Name == "slug" {
			path = "/events/by-slug/{slug}"
		}
		with := func(args []Arg) []Arg { return append([]Arg{key}, args...) }
		handle(api, EventsNamespace, []string{http.MethodGet}, path, with(readArgs), func(r *Request) (any, error) {
			password, _ := r.Values.String("password")
			if r.via.ics || wantsCalendar(r.HTTP.Header.Values("Accept")) {
				return eventFileBody(events, r, password)
			}
			return events.Get(r.Context(), r.Caller, postRef(r), password)
		}, fuego.OptionSummary("Read an event (Accept: text/calendar, or {api}/events/<id>.ics, gives it as an iCalendar file)"),
			fuego.OptionAddResponse(http.StatusOK, "The event", fuego.Response{Type: app.EventView{}}))
		handle(api, EventsNamespace, []string{http.MethodDelete}, path, with(deleteArgs), func(r *Request) (any, error) {
			force, _ := r.Values.Bool("force")
			return removalAnswer(events.Delete(r.Context(), r.Caller, postRef(r), force))
		}, fuego.OptionSummary("Trash an event, or delete it with force=true"),
			fuego.OptionAddResponse(http.StatusOK, "The event as trashed, or {deleted, previous}", fuego.Response{Type: app.EventView{}}))
		handle(api, EventsNamespace, editable, path, with(eventWriteArgs(false)), func(r *Request) (*app.EventView, error) {
			in, err := readInput(r)
			if err != nil {
				return nil, err
			}
			return events.Update(r.Context(), r.Caller, postRef(r), in)
		}, fuego.OptionSummary("Update the fields sent"))
	}
	// An event's iCalendar file: served by GET /events/{id} (readdress tells
	// it so), listed and documented as a route of its own.
	api.register(EventsNamespace, "/"+EventsNamespace+"/events/{id}.ics", []string{http.MethodGet}, append([]Arg{idArg}, readArgs...))
}

// occurrencesArgs are the parameters of GET /events/<id>/occurrences: the
// list's, but those that choose other events than the series'.
var occurrencesArgs = slices.DeleteFunc(slices.Clone(eventListArgs), func(a Arg) bool {
	return a.Name == "post_parent" || a.Name == "include" || a.Name == "hide_subsequent_recurrences"
})

// mountOccurrences registers GET /events/<id>/occurrences.
func mountOccurrences(api *API, events eventService) {
	path := "/events/{id}/{relation}"
	relation := Arg{Name: "relation", Type: TypeString, Required: true, Enum: []string{"occurrences"}, Description: "occurrences: the series' events."}
	handle(api, EventsNamespace, []string{http.MethodGet}, path, append([]Arg{idArg, relation}, occurrencesArgs...), func(r *Request) (any, error) {
		f, err := readEventFilter(r.Values)
		if err != nil {
			return nil, err
		}
		ref := postRef(r)
		page, err := events.Occurrences(r.Context(), r.Caller, ref, f)
		if err != nil {
			return nil, err
		}
		self := "/events/" + strconv.FormatInt(ref.ID, 10) + "/occurrences"
		return withDays(withGrid(withFacets(listAnswer(api, r, "events", self, occurrencesArgs, page), page.Facets), page.Grid), page.Days), nil
	}, fuego.OptionSummary("List one series' occurrences (the series first), with the event list's window, pages and filters; 404 for an event that is not a series"),
		fuego.OptionAddResponse(http.StatusOK, "One page of the series' events", fuego.Response{Type: EventList{}}))
}

// FacetSearchAnswer documents GET /events/facets/<facet>.
type FacetSearchAnswer struct {
	Facet  string           `json:"facet"`
	Values []app.FacetValue `json:"values"`
}

// facetSearchArgs are the parameters of GET /events/facets/<facet>: the
// list's filters (not what shapes its answer), and what was typed.
var facetSearchArgs = append(slices.DeleteFunc(slices.Clone(eventListArgs), func(a Arg) bool {
	return slices.Contains([]string{"page", "per_page", "facets", "geo_precision", "tz", "highlight"}, a.Name)
}), Arg{Name: "q", Type: TypeString, MaxBytes: calendar.MaxSearchLength,
	Description: "What the reader typed: the values whose name, a word of it or slug begins with it (accents and case aside), then those whose words begin one typo from it (five letters or more), among all the facet's values (at most " + calendar.Thousands(calendar.MaxFacetValues) + " answered, the most frequent first; what was typed may begin at most " + calendar.Thousands(calendar.MaxSearchTerms) + " indexed words and values, else a 400). Without it, the facet's most frequent values."})

// mountFacetSearch registers GET /events/facets/<facet>. Go's mux takes it
// beside /events/{id}/{relation}: its literal segment makes it the more
// specific.
func mountFacetSearch(api *API, events eventService) {
	facet := Arg{Name: "facet", Type: TypeString, Required: true, Enum: app.SearchableFacets, EnumPrefix: calendar.FacetCustomPrefix,
		Description: "The facet whose values to search: venue, organizer, categories, tags, or cf.<key>, a custom field the caller may facet by."}
	handle(api, EventsNamespace, []string{http.MethodGet}, "/events/facets/{facet}", append([]Arg{facet}, facetSearchArgs...), func(r *Request) (FacetSearchAnswer, error) {
		f, err := readEventFilter(r.Values)
		if err != nil {
			return FacetSearchAnswer{}, err
		}
		name, _ := r.Values.String("facet")
		typed, _ := r.Values.String("q")
		values, err := events.FacetSearch(r.Context(), r.Caller, name, typed, f)
		return FacetSearchAnswer{Facet: name, Values: values}, err
	}, fuego.OptionSummary("Search a facet's values (venue, organizer, categories, tags) by what the reader types, counted under the list's filters as facets= counts them"),
		fuego.OptionAddResponse(http.StatusOK, "The matching values with their counts", fuego.Response{Type: FacetSearchAnswer{}}))
}

// SuggestAnswer documents GET /suggest.
type SuggestAnswer struct {
	Suggestions []app.Suggestion `json:"suggestions"`
}

// mountSuggest registers GET /suggest.
func mountSuggest(api *API, events eventService) {
	typed := Arg{Name: "q", Type: TypeString, Required: true, NotEmpty: true, MaxBytes: calendar.MaxSearchLength, Example: "jaz",
		Description: "What the reader typed: the soonest events the search finds (as search= finds them, each series once), then the categories, tags, venues and cities of the most upcoming events whose names begin with it or are one typo from it (five letters or more)."}
	handle(api, EventsNamespace, []string{http.MethodGet}, "/suggest", []Arg{typed}, func(r *Request) (SuggestAnswer, error) {
		q, _ := r.Values.String("q")
		suggestions, err := events.Suggest(r.Context(), r.Caller, q)
		return SuggestAnswer{Suggestions: suggestions}, err
	}, fuego.OptionSummary("Complete what a reader types: upcoming events' titles, then categories, tags, venues and cities, with the matching words marked"),
		fuego.OptionAddResponse(http.StatusOK, "At most five events, then at most five other completions", fuego.Response{Type: SuggestAnswer{}}))
}

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
		return Arg{Name: name, Type: TypeString, MaxBytes: calendar.MaxDateBytes, Description: dateDescriptions[name] + " A date PHP's strtotime accepts, or a Unix timestamp."}
	}
	args := append(append([]Arg{}, pageArgs...), date("start_date"), date("end_date"),
		Arg{Name: "search", Type: TypeString, NotEmpty: true, MaxBytes: calendar.MaxSearchLength,
			Description: "Words that must all occur in the title, description or excerpt (at most 9 are looked for); in Chinese, Japanese, Korean, Thai and other scripts written without spaces, any part of a run of characters. In every order, an event also matches when each word matches as orderby=relevance matches it (whole, as a prefix, with one typo from five letters on, by its stem, or as one of its synonyms)."},
		Arg{Name: "categories", Type: TypeArray, Items: TypeString, Description: "Event category IDs or slugs (any of them): jazz,rock."},
		Arg{Name: "tags", Type: TypeArray, Items: TypeString, Description: "Tag IDs or slugs (any of them)."},
		Arg{Name: "venue", Type: TypeArray, Items: TypeInteger, Description: "Venue IDs (any of them)."},
		Arg{Name: "organizer", Type: TypeArray, Items: TypeInteger, Description: "Organizer IDs (any of them)."},
		Arg{Name: "featured", Type: TypeBoolean, Description: "Only featured events (true) or only the others (false)."},
		Arg{Name: "event_status", Type: TypeArray, Items: TypeString, Enum: calendar.EventStatuses,
			Description: "Only events of these event statuses (any of them): canceled,postponed. Lists show every status by default, so that front-ends can label them."},
		Arg{Name: "status", Type: TypeArray, Items: TypeString, Description: "Statuses to list; only publish for visitors who may not edit. Only the posts the caller may read are listed."},
		Arg{Name: "post_parent", Type: TypeInteger, Description: "Only the children of this event."},
		Arg{Name: "hide_subsequent_recurrences", Type: TypeBoolean, Default: false,
			Description: "true: each series once, as its first occurrence within the list's window (and its other filters) that the caller may read; totals, pages and facets count it once."},
		Arg{Name: "include", Type: TypeArray, Items: TypeInteger, Description: "Only these events; date filters are ignored."},
		date("starts_before"), date("starts_after"), date("ends_before"), date("ends_after"),
		Arg{Name: "strict_dates", Type: TypeString, Default: "false", NotEmpty: true, Description: "true: compare the dates as sent; otherwise whole days."},
		Arg{Name: "ticketed", Type: TypeBoolean, Description: "Ticketing is not enabled: true is a 400, false no filter."},
		Arg{Name: "password", Type: TypeString, NotEmpty: true, Description: "Shows the details of events protected by this password."},
		Arg{Name: "geoloc", Type: TypeBoolean, Description: "true: only events whose venue has coordinates; false: only the others."})
	args = append(args, nearArgs...)
	return append(args,
		Arg{Name: "orderby", Type: TypeString, Default: "start_date",
			Description: "start_date (then publication date, then ID), distance from the point, nearest first, relevance to search (best first, then start_date), or cf.<key>, a filterable custom field's value (then start_date; events without it last); relevance matches words, their prefixes, one typo in words of five letters or more, accents folded, and, in a language of the site (CALENDAR_LANGUAGES: the one of the address's language segment, /fr/..., else the site's first), words of the same stem, its stop words (le, der) being optional. Any other value keeps the default order, as the plugin, which has no orderby, ignores it."},
		Arg{Name: "highlight", Type: TypeBoolean, Default: false,
			Description: "With search: each event gets highlight {title, description}: its title and about 160 characters of its description's text from around the first match, matched words in <mark>...</mark>, everything else HTML-escaped."},
		customFiltersArg,
		Arg{Name: "facets", Type: TypeArray, Items: TypeString, Enum: append(slices.Clone(calendar.FacetNames), calendar.FacetGeoGrid, calendar.FacetDays), EnumPrefix: calendar.FacetCustomPrefix,
			Description: "Count the events per value of these fields, under facets, as a multi-select sidebar shows them: each value with every filter of the list but its own field's (with categories=jazz, the count beside Rock is that of categories=rock with the other filters). Categories, tags, venues and organizers come with their id, slug and name, featured with its value; only what the caller may read; at most 1,000 values a field. geo_grid: the map's clusters, under geo_grid (the matching events that have a position per geohash cell of geo_precision characters, with their count, mean position and the cell's bounds; at most 1,000 cells, the most populous). days: the dots of a month grid, under days (each day of the window from start_date to end_date, at most 93 days, with its matching events; an event counts on every day its local times cover, as the list bounds events by them)."},
		Arg{Name: "tz", Type: TypeString, MaxBytes: calendar.MaxShortBytes, NotEmpty: true,
			Description: "With facets=days only: the days are those of this zone (an IANA name, Europe/Berlin, or UTC; an unknown zone is a 400), a reader's own: each event counts on every day of that zone its times cover, across changes of daylight-saving time; an all-day event on its own dates whatever the zone. The events counted are still the list's (its window read as without tz)."},
		Arg{Name: "geo_precision", Type: TypeInteger, Default: app.DefaultGeoPrecision, Min: bound(1), Max: bound(calendar.MaxGeoPrecision),
			Description: "The length of geo_grid's geohash cells: 1 is about 5,000 km wide, 3 about 156 km, 5 about 5 km, 7 about 150 m."},
		modifiedAfterArg)
}()

// eventWriteArgs are the parameters of an event create (title and dates
// required) or update.
func eventWriteArgs(create bool) []Arg {
	return []Arg{
		{Name: "author", Type: TypeInteger, Description: "ID of the author; only editors may name someone else."},
		{Name: "date", Type: TypeString, MaxBytes: calendar.MaxDateBytes, Description: "Publication date, in the event's zone."},
		{Name: "date_utc", Type: TypeString, MaxBytes: calendar.MaxDateBytes, Description: "Publication date in UTC."},
		{Name: "title", Type: TypeString, Required: create, MaxBytes: calendar.MaxTitleBytes, Description: "The title, as plain text."},
		{Name: "description", Type: TypeString, MaxBytes: calendar.MaxDescriptionBytes, Description: "The description, HTML."},
		{Name: "slug", Type: TypeString, MaxBytes: calendar.MaxShortBytes, Description: "The slug; made unique."},
		{Name: "excerpt", Type: TypeString, MaxBytes: calendar.MaxExcerptBytes, Description: "A short description, HTML."},
		{Name: "status", Type: TypeString, Enum: calendar.PostStatuses, Description: "publish by default for those who may publish; contributors' posts wait as pending (or draft)."},
		{Name: "password", Type: TypeString, MaxBytes: calendar.MaxPasswordBytes, Description: "Protects the event's details; empty to remove."},
		{Name: "timezone", Type: TypeString, MaxBytes: calendar.MaxShortBytes, Description: "IANA zone name, UTC, or UTC+N / UTC-N; the site's zone by default."},
		{Name: "all_day", Type: TypeBoolean, Description: "All day: from 00:00:00 on the start's day to 23:59:59 on the end's."},
		{Name: "start_date", Type: TypeString, Required: create, MaxBytes: calendar.MaxDateBytes, Description: "A date PHP's strtotime accepts (2018-01-01 16:00, tomorrow 9am, next wednesday 4pm, +1 week), or a Unix timestamp."},
		{Name: "end_date", Type: TypeString, Required: create, MaxBytes: calendar.MaxDateBytes, Description: "As start_date; not before it."},
		{Name: "image", Type: TypeMixed, MaxBytes: calendar.MaxURLBytes, Description: "The featured image: the ID of an image of the media library (POST {api}/media), or an absolute http(s) URL (one of the library's files is that image; another is kept as given, or fetched into the library when the service sideloads); empty to remove."},
		{Name: "cost", Type: TypeMixed, Description: "A cost, a number, or a list of them (20$, [\"0$\", \"30$\"]); all of them together at most " + calendar.Thousands(calendar.MaxCostBytes) + " bytes."},
		{Name: "recurrence", Type: TypeMixed, Description: "Makes the event a series: a list of RFC 5545 content lines (or one string of them, a line each) (RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10, RDATE..., EXDATE...), local times in the event's timezone, start_date as DTSTART. Every further occurrence becomes an event of its own (post_parent: this one) up to two years ahead; an empty list ends the series."},
		{Name: "post_parent", Type: TypeInteger, Description: "The series (an event with recurrence) this event is an occurrence of, edited on its own; 0 takes it out of its series."},
		{Name: "website", Type: TypeString, MaxBytes: calendar.MaxURLBytes, Description: "URL with a scheme; the event's own page when absent."},
		{Name: "show_map", Type: TypeBoolean, Description: "Show the venue's map."},
		{Name: "show_map_link", Type: TypeBoolean, Description: "Show a link to the venue's map."},
		{Name: "hide_from_listings", Type: TypeBoolean, Description: "Leave the event out of every list (it stays readable by ID)."},
		{Name: "sticky", Type: TypeBoolean, Description: "Sticky; for those who may publish or edit others' events."},
		{Name: "featured", Type: TypeBoolean, Description: "Featured."},
		{Name: "event_status", Type: TypeString, Enum: calendar.EventStatuses, Description: "Whether the event takes place: scheduled (the default), canceled, postponed (no new date yet), rescheduled (moving the start of a rescheduled event keeps the start it had as previous_start_date), moved_online."},
		{Name: "event_status_reason", Type: TypeString, MaxBytes: calendar.MaxStatusReasonBytes, Description: "Why the event is canceled, postponed or moved, as plain text; empty to remove."},
		{Name: "attendance_mode", Type: TypeString, Enum: calendar.AttendanceModes, Description: "How one attends: offline (at the venue, the default), online (at online_url), mixed (both)."},
		{Name: "online_url", Type: TypeString, MaxBytes: calendar.MaxURLBytes, Description: "The link to join the event online, an http(s) URL; empty to remove."},
		{Name: "categories", Type: TypeArray, Items: TypeString, MaxItems: calendar.MaxEventTerms, Description: "IDs, slugs or names; unknown names are created for those who may manage categories."},
		{Name: "tags", Type: TypeArray, Items: TypeString, MaxItems: calendar.MaxEventTerms, Description: "IDs, slugs or names, as categories."},
		{Name: "venue", Type: TypeMixed, Example: map[string]any{"venue": "Salle Pleyel", "city": "Paris", "country": "France"}, Description: "A venue ID, an object of venue fields (or {id}), or a list of one of them; empty to unlink."},
		{Name: "organizer", Type: TypeMixed, MaxItems: calendar.MaxOrganizers, Example: []any{map[string]any{"organizer": "Le Duc des Lombards"}}, Description: "Organizer IDs or objects of organizer fields (or {id}), in order."},
		customFieldsArg,
	}
}

// readEventFilter reads the parameters of the event list and the feed.
func readEventFilter(v Values) (app.EventFilter, error) {
	var bad calendar.InvalidParams
	f := app.EventFilter{
		Page: readPage(v), Search: stringParam(v, "search"), Categories: stringsParam(v, "categories"),
		Tags: stringsParam(v, "tags"), Venues: intsParam(v, "venue"), Organizers: intsParam(v, "organizer"),
		Featured: boolParam(v, "featured"), HasGeo: boolParam(v, "geoloc"), Statuses: stringsParam(v, "status"), EventStatuses: stringsParam(v, "event_status"),
		Parent: intParam(v, "post_parent"), Include: intsParam(v, "include"), Near: readNear(v), GeoPrecision: intParam(v, "geo_precision"),
		DaysZone: stringParam(v, "tz"),
		Facets:   stringsParam(v, "facets"), ModifiedAfter: stringParam(v, "modified_after"), Dates: app.Dates{},
	}
	// The plugin registers no orderby: a value of WordPress' (title, date...)
	// is ignored as it ignores it; only this service's own orders apply.
	if orderBy, _ := v.String("orderby"); orderBy == "distance" || orderBy == "relevance" || strings.HasPrefix(orderBy, calendar.FacetCustomPrefix) {
		f.OrderBy = orderBy
	}
	f.Custom = readCustomFilters(v, &bad)
	f.Password, _ = v.String("password")
	f.Highlight, _ = v.Bool("highlight")
	f.HideSubsequentRecurrences, _ = v.Bool("hide_subsequent_recurrences")
	for _, name := range app.DateParams() {
		if raw, ok := v.String(name); ok {
			f.Dates[name] = raw
		}
	}
	if ticketed, _ := v.Bool("ticketed"); ticketed {
		bad.Add("ticketed", "ticketing is not enabled", nil)
	}
	strict, _ := v.String("strict_dates")
	f.StrictDates, _ = filterBool.read(strict)
	return f, bad.Err()
}

// recurrenceLines reads content lines sent as a list, or as one text of a
// line each (never split at commas, which BYDAY and RDATE use).
func recurrenceLines(raw any) ([]string, bool) {
	if text, ok := raw.(string); ok {
		return strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }), true
	}
	items, ok := ToList(raw)
	lines := make([]string, 0, len(items))
	for _, item := range items {
		line, isText := item.(string)
		if !isText {
			return nil, false
		}
		lines = append(lines, line)
	}
	return lines, ok
}

// readEventInput reads an event write; a venue or organizer sent as an object
// is read with the venue's or organizer's own create parameters.
func readEventInput(v Values, venueMeta, organizerMeta []string) (app.EventInput, error) {
	in := app.EventInput{PostFields: readPostFields(v, "title"), Slug: stringParam(v, "slug"),
		Website: stringParam(v, "website"), Timezone: stringParam(v, "timezone"), AllDay: boolParam(v, "all_day"),
		StartDate: stringParam(v, "start_date"), EndDate: stringParam(v, "end_date"),
		Categories: stringsParam(v, "categories"), Tags: stringsParam(v, "tags"), Flags: map[string]bool{},
		Parent: intParam(v, "post_parent"), EventStatus: stringParam(v, "event_status"),
		EventStatusReason: stringParam(v, "event_status_reason"), AttendanceMode: stringParam(v, "attendance_mode"), OnlineURL: stringParam(v, "online_url")}
	for _, f := range app.EventFlags {
		if b, ok := v.Bool(f); ok {
			in.Flags[f] = b
		}
	}
	var bad calendar.InvalidParams
	if v.Has("recurrence") {
		lines, ok := recurrenceLines(v["recurrence"])
		if !ok {
			bad.Add("recurrence", "recurrence must be a list of RRULE, RDATE and EXDATE lines.", nil)
		}
		in.Recurrence = &lines
	}
	if v.Has("cost") {
		cost, ok := costValues(v["cost"])
		if !ok {
			bad.Add("cost", "cost must be a string, a number or a list of them.", nil)
		}
		in.Cost = &cost
	}
	if v.Has("venue") {
		ref, err := readVenueRef(v["venue"], venueMeta)
		if err != nil {
			return in, linkError("venue", err, &bad)
		}
		in.Venue = ref
	}
	if v.Has("organizer") {
		refs, err := readOrganizerRefs(v["organizer"], organizerMeta)
		if err != nil {
			return in, linkError("organizer", err, &bad)
		}
		in.Organizers = &refs
	}
	return in, bad.Err()
}

// linkError: the fields of a new venue or organizer answer as their own
// create would; a shape the service does not take is the parameter's fault.
func linkError(param string, err error, bad *calendar.InvalidParams) error {
	var e *calendar.Error
	if errors.As(err, &e) {
		return e
	}
	bad.Add(param, err.Error(), nil)
	return bad.Err()
}

// costValues reads a cost sent as a string, a number or a list of them.
func costValues(raw any) ([]string, bool) {
	switch x := raw.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return []string{}, true
		}
		return []string{strings.TrimSpace(x)}, true
	case json.Number:
		return []string{x.String()}, true
	case []any:
		out := []string{}
		for _, item := range x {
			one, ok := costValues(item)
			if !ok || len(x) > calendar.MaxListItems {
				return nil, false
			}
			out = append(out, one...)
		}
		return out, true
	case map[string]any: // cost[0]=..&cost[1]=.. in a form
		list, ok := ToList(x)
		if !ok {
			return nil, false
		}
		return costValues(list)
	}
	return nil, false
}

var errLinkShape = errors.New("must be an ID, an object of fields, or a list of one of them")

// readVenueRef reads a venue as an ID, an object (fields or {id}), or a list
// of one of them; empty means no venue.
func readVenueRef(raw any, meta []string) (*app.LinkRef, error) {
	if list, ok := raw.([]any); ok {
		switch len(list) {
		case 0:
			return &app.LinkRef{}, nil
		case 1:
			return readVenueRef(list[0], meta)
		}
		return nil, errors.New("an event has one venue")
	}
	if s, ok := raw.(string); ok && (strings.TrimSpace(s) == "" || s == "0") {
		return &app.LinkRef{}, nil
	}
	ref, err := readLinkRef(raw, calendar.PostTypeVenue, meta)
	return &ref, err
}

// readOrganizerRefs reads organizers as an ID, "5,6", an object, or a list of
// IDs and objects, in order.
func readOrganizerRefs(raw any, meta []string) ([]app.LinkRef, error) {
	var items []any
	switch x := raw.(type) {
	case []any:
		items = x
	case map[string]any:
		if list, ok := ToList(x); ok && len(x) > 0 {
			items = list
		} else {
			items = []any{x}
		}
	default:
		list, ok := ToList(raw)
		if !ok {
			return nil, errLinkShape
		}
		items = list
	}
	if len(items) > calendar.MaxOrganizers { // sent as "5,6,..." or a form's organizer[0]...: CheckArgs counted a JSON list
		var bad calendar.InvalidParams
		bad.AddTooManyItems("organizer", calendar.MaxOrganizers)
		return nil, bad.Err()
	}
	refs := []app.LinkRef{}
	for _, item := range items {
		ref, err := readLinkRef(item, calendar.PostTypeOrganizer, meta)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// readLinkRef reads one venue or organizer: an ID, {"id": N}, or an object
// of the fields of a new one, checked as its own create checks them.
func readLinkRef(raw any, postType string, meta []string) (app.LinkRef, error) {
	if m, ok := raw.(map[string]any); ok {
		if idRaw, has := m["id"]; has && idRaw != nil {
			id, ok := ToInt(idRaw)
			if !ok || id <= 0 {
				return app.LinkRef{}, errors.New("id must be a positive integer")
			}
			return app.LinkRef{ID: id, FromObject: true}, nil
		}
		fields := Values{}
		for k, v := range m {
			fields[k] = v
		}
		if err := CheckArgs(fields, linkedWriteArgs(postType, meta, true)); err != nil {
			return app.LinkRef{}, err
		}
		in := readLinkedInput(fields, postType, meta)
		return app.LinkRef{New: &in}, nil
	}
	id, ok := ToInt(raw)
	if !ok || id <= 0 {
		return app.LinkRef{}, errLinkShape
	}
	return app.LinkRef{ID: id}, nil
}
