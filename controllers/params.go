package controllers

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"calendar/app"
	"calendar/app/calendar"
)

// The readers that turn a request's checked parameters (CheckArgs has run
// with the route's declarations) into the app's typed requests. What the
// plugin's validators check of a parameter's shape is checked here; what
// needs the domain (dates, existing terms and posts, permissions) the app
// checks.

func stringParam(v Values, name string) *string {
	if s, ok := v.String(name); ok {
		return &s
	}
	return nil
}

func intParam(v Values, name string) *int64 {
	if i, ok := v.Int(name); ok {
		return &i
	}
	return nil
}

func boolParam(v Values, name string) *bool {
	if b, ok := v.Bool(name); ok {
		return &b
	}
	return nil
}

func numberParam(v Values, name string) *float64 {
	if f, ok := v[name].(float64); ok {
		return &f
	}
	return nil
}

func stringsParam(v Values, name string) *[]string {
	if l, ok := v.Strings(name); ok {
		return &l
	}
	return nil
}

func intsParam(v Values, name string) *[]int64 {
	if l, ok := v.Ints(name); ok {
		return &l
	}
	return nil
}

// readPage reads page and per_page: positive integers (per_page is capped by
// the app at 50).
func readPage(v Values, bad *calendar.InvalidParams) app.PageRequest {
	var p app.PageRequest
	if page, ok := v.Int("page"); ok {
		if page < 1 || page > 1<<30 {
			bad.Add("page", "page must be a positive integer.", nil)
		}
		p.Page = int(page)
	}
	if perPage, ok := v.Int("per_page"); ok {
		if perPage < 1 {
			bad.Add("per_page", "per_page must be a positive integer.", nil)
		}
		p.PerPage = int(min(perPage, app.MaxPerPage))
	}
	return p
}

func readNear(v Values) app.NearInput {
	n := app.NearInput{Lat: numberParam(v, "geoloc_lat"), Lng: numberParam(v, "geoloc_lng"), Radius: numberParam(v, "geoloc_radius")}
	n.Unit, _ = v.String("geoloc_unit")
	return n
}

// nonEmpty: the plugin's "non-empty string" validator (PHP's empty(): "" and
// "0" are empty).
func nonEmpty(v Values, name string, bad *calendar.InvalidParams) {
	if s, ok := v.String(name); ok && (s == "" || s == "0") {
		bad.Add(name, name+" must be a non-empty string.", nil)
	}
}

// readEventFilter reads the parameters of the event list and the feed.
func readEventFilter(v Values) (app.EventFilter, error) {
	var bad calendar.InvalidParams
	f := app.EventFilter{
		Page: readPage(v, &bad), Search: stringParam(v, "search"), Categories: stringsParam(v, "categories"),
		Tags: stringsParam(v, "tags"), Venues: intsParam(v, "venue"), Organizers: intsParam(v, "organizer"),
		Featured: boolParam(v, "featured"), HasGeo: boolParam(v, "geoloc"), Statuses: stringsParam(v, "status"),
		Parent: intParam(v, "post_parent"), Include: intsParam(v, "include"), Near: readNear(v),
		Facets: stringsParam(v, "facets"), ModifiedAfter: stringParam(v, "modified_after"), Dates: app.Dates{},
	}
	// The plugin registers no orderby: a value of WordPress' (title, date...)
	// is ignored as it ignores it; only this service's own orders apply.
	if orderBy, _ := v.String("orderby"); orderBy == "distance" || orderBy == "relevance" {
		f.OrderBy = orderBy
	}
	f.Password, _ = v.String("password")
	for _, name := range app.DateParams() {
		if raw, ok := v.String(name); ok {
			f.Dates[name] = raw
		}
	}
	if ticketed, _ := v.Bool("ticketed"); ticketed {
		bad.Add("ticketed", "ticketing is not enabled", nil)
	}
	nonEmpty(v, "strict_dates", &bad)
	nonEmpty(v, "password", &bad)
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

// imageParam reads an image sent as an attachment ID (a number or digits) or
// a URL; another shape is kept as text, which the service refuses by name.
func imageParam(v Values) *string {
	switch raw := v["image"].(type) {
	case nil:
		return nil
	case string:
		return &raw
	default:
		s := fmt.Sprint(raw)
		return &s
	}
}

// readPostFields reads the fields every post write takes; titleParam names the
// title (title, venue or organizer).
func readPostFields(v Values, titleParam string) app.PostFields {
	f := app.PostFields{Title: stringParam(v, titleParam), Description: stringParam(v, "description"),
		Excerpt: stringParam(v, "excerpt"), Password: stringParam(v, "password"), Image: imageParam(v),
		Author: intParam(v, "author"), Date: stringParam(v, "date"), DateUTC: stringParam(v, "date_utc")}
	f.Status, _ = v.String("status")
	return f
}

// readEventInput reads an event write; a venue or organizer sent as an object
// is read with the venue's or organizer's own create parameters.
func readEventInput(v Values, venueMeta, organizerMeta []string) (app.EventInput, error) {
	in := app.EventInput{PostFields: readPostFields(v, "title"), Slug: stringParam(v, "slug"),
		Website: stringParam(v, "website"), Timezone: stringParam(v, "timezone"), AllDay: boolParam(v, "all_day"),
		StartDate: stringParam(v, "start_date"), EndDate: stringParam(v, "end_date"),
		Categories: stringsParam(v, "categories"), Tags: stringsParam(v, "tags"), Flags: map[string]bool{},
		Parent: intParam(v, "post_parent")}
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
			if !ok || len(x) > MaxListLength {
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
	if len(items) > calendar.MaxOrganizers {
		return nil, fmt.Errorf("an event has at most %d organizers", calendar.MaxOrganizers)
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

// readLinkedInput reads a venue or organizer write.
func readLinkedInput(v Values, postType string, meta []string) app.LinkedInput {
	in := app.LinkedInput{PostFields: readPostFields(v, postType), Meta: map[string]string{},
		ShowMap: boolParam(v, "show_map"), ShowMapLink: boolParam(v, "show_map_link"),
		GeoLat: numberParam(v, "geo_lat"), GeoLng: numberParam(v, "geo_lng")}
	for _, m := range meta {
		if s, ok := v.String(m); ok {
			in.Meta[m] = s
		}
	}
	return in
}

// readLinkedFilter reads the parameters of a venue or organizer list.
func readLinkedFilter(v Values) (app.LinkedFilter, error) {
	var bad calendar.InvalidParams
	f := app.LinkedFilter{Page: readPage(v, &bad), Search: stringParam(v, "search"), Statuses: stringsParam(v, "status"),
		Event: intParam(v, "event"), Near: readNear(v), ModifiedAfter: stringParam(v, "modified_after")}
	if v.Has("has_events") {
		has, _ := truthyBool.read(v["has_events"])
		f.HasEvents = &has
	}
	f.OnlyWithUpcoming, _ = truthyBool.read(v["only_with_upcoming"])
	orderBy, _ := v.String("orderby")
	f.ByDistance = orderBy == "distance"
	return f, bad.Err()
}

// readTermInput reads a term write; a parent sent to a taxonomy without
// parents is kept, for the app to refuse.
func readTermInput(v Values) app.TermInput {
	in := app.TermInput{Name: stringParam(v, "name"), Description: stringParam(v, "description"), Slug: stringParam(v, "slug")}
	if parent, ok := v.Int("parent"); ok {
		in.Parent = &parent
	} else if v.Has("parent") { // undeclared (tags): kept as sent, for the app to refuse
		parent, _ = ToInt(v["parent"])
		in.Parent = &parent
	}
	return in
}

// readTermFilter reads the parameters of a term list; event wins over post.
func readTermFilter(v Values) (app.TermFilter, error) {
	var bad calendar.InvalidParams
	f := app.TermFilter{Page: readPage(v, &bad), Search: stringParam(v, "search"), Slug: stringParam(v, "slug"),
		Include: stringsParam(v, "include"), Exclude: stringsParam(v, "exclude"), HideEmpty: boolParam(v, "hide_empty"),
		Parent: intParam(v, "parent")}
	f.Order, f.OrderBy = stringParam(v, "order"), stringParam(v, "orderby")
	for _, name := range []string{"post", "event"} {
		if id := intParam(v, name); id != nil {
			f.Event, f.EventParam = id, name
		}
	}
	return f, bad.Err()
}

// readChanges reads the parameters of the change feed.
func readChanges(v Values) app.ChangesRequest {
	since, _ := v.Int("since")
	return app.ChangesRequest{Since: since, PerPage: intParam(v, "per_page")}
}
