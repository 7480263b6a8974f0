package controllers

import (
	"context"
	"net/http"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// VenueList and OrganizerList document the list wrappers.
type VenueList struct {
	Venues []app.VenueView `json:"venues"`
	listLinks
}

type OrganizerList struct {
	Organizers []app.OrganizerView `json:"organizers"`
	listLinks
}

type listLinks struct {
	RestURL         string `json:"rest_url"`
	NextRestURL     string `json:"next_rest_url,omitempty"`
	PreviousRestURL string `json:"previous_rest_url,omitempty"`
	Total           int    `json:"total"`
	TotalPages      int    `json:"total_pages"`
}

// linkedService is what the routes of venues or organizers ask of the domain
// (app.LinkedPosts).
type linkedService[V any] interface {
	PostType() string
	MetaFields() []string
	List(ctx context.Context, caller app.Caller, f app.LinkedFilter) (*app.Page[V], error)
	Create(ctx context.Context, caller app.Caller, in app.LinkedInput) (V, error)
	Get(ctx context.Context, caller app.Caller, ref app.PostRef, password string) (V, error)
	Update(ctx context.Context, caller app.Caller, ref app.PostRef, in app.LinkedInput) (V, error)
	Delete(ctx context.Context, caller app.Caller, ref app.PostRef, force bool) (app.Removal[V], error)
}

// mountLinked registers the routes of venues or organizers: the list, create,
// and read, update and delete by ID and by slug.
func mountLinked[V any](api *API, plural string, svc linkedService[V], listDoc any) {
	base := "/" + plural
	postType, meta := svc.PostType(), svc.MetaFields()
	listArgs := linkedListArgs(postType)
	handle(api, EventsNamespace, []string{http.MethodGet}, base, listArgs, func(r *Request) (object, error) {
		page, err := svc.List(r.Context(), r.Caller, readLinkedFilter(r.Values))
		if err != nil {
			return nil, err
		}
		return listAnswer(api, r, plural, base, listArgs, page), nil
	}, fuego.OptionSummary("List "+plural), fuego.OptionAddResponse(http.StatusOK, "One page of "+plural, fuego.Response{Type: listDoc}))

	handle(api, EventsNamespace, []string{http.MethodPost}, base, linkedWriteArgs(postType, meta, true), func(r *Request) (V, error) {
		v, err := svc.Create(r.Context(), r.Caller, readLinkedInput(r.Values, postType, meta))
		if err == nil {
			r.SetStatus(http.StatusCreated)
		}
		return v, err
	}, fuego.OptionSummary("Create"), fuego.OptionAddResponse(http.StatusCreated, "Created, or the existing one of the same name", fuego.Response{Type: *new(V)}))

	for _, key := range []Arg{idArg, slugArg} {
		path := base + "/{id}"
		if key.Name == "slug" {
			path = base + "/by-slug/{slug}"
		}
		with := func(args []Arg) []Arg { return append([]Arg{key}, args...) }
		handle(api, EventsNamespace, []string{http.MethodGet}, path, with(readArgs), func(r *Request) (V, error) {
			password, _ := r.Values.String("password")
			return svc.Get(r.Context(), r.Caller, postRef(r), password)
		}, fuego.OptionSummary("Read"))
		handle(api, EventsNamespace, []string{http.MethodDelete}, path, with(deleteArgs), func(r *Request) (any, error) {
			force, _ := r.Values.Bool("force")
			return removalAnswer(svc.Delete(r.Context(), r.Caller, postRef(r), force))
		}, fuego.OptionSummary("Trash, or delete with force=true"), fuego.OptionAddResponse(http.StatusOK, "The item as trashed, or {deleted, previous}", fuego.Response{Type: *new(V)}))
		handle(api, EventsNamespace, editable, path, with(linkedWriteArgs(postType, meta, false)), func(r *Request) (V, error) {
			return svc.Update(r.Context(), r.Caller, postRef(r), readLinkedInput(r.Values, postType, meta))
		}, fuego.OptionSummary("Update the fields sent"))
	}
}

// postRef is the post a route's path names, by ID or by slug.
func postRef(r *Request) app.PostRef {
	id, _ := r.Values.Int("id")
	slug, _ := r.Values.String("slug")
	return app.PostRef{ID: id, Slug: slug}
}

// removalAnswer is what a delete of an event, a venue or an organizer
// answers: the post as trashed (with its ETag), or {deleted, previous}.
func removalAnswer[V any](r app.Removal[V], err error) (any, error) {
	switch {
	case err != nil:
		return nil, err
	case r.ForGood != nil:
		return *r.ForGood, nil
	}
	return r.Trashed, nil
}

// linkedListArgs are the parameters of GET /venues and /organizers; venues
// also take the "near me" ones.
func linkedListArgs(postType string) []Arg {
	args := append(append([]Arg{}, pageArgs...),
		Arg{Name: "search", Type: TypeString, NotEmpty: true, MaxBytes: calendar.MaxSearchLength, Description: "Words that must all occur in the name, description, excerpt or one of the text fields, in any order."},
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
		{Name: postType, Type: TypeString, Required: create, MaxBytes: calendar.MaxTitleBytes, Description: "The name, as plain text."},
		{Name: "author", Type: TypeInteger, Description: "ID of the author; only editors may name someone else."},
		{Name: "date", Type: TypeString, MaxBytes: calendar.MaxDateBytes, Description: "Publication date in the site's zone, or a Unix timestamp."},
		{Name: "date_utc", Type: TypeString, MaxBytes: calendar.MaxDateBytes, Description: "Publication date in UTC."},
		{Name: "description", Type: TypeString, MaxBytes: calendar.MaxDescriptionBytes, Description: "The description, HTML."},
		{Name: "excerpt", Type: TypeString, MaxBytes: calendar.MaxExcerptBytes, Description: "A short description, HTML."},
		{Name: "status", Type: TypeString, Enum: calendar.PostStatuses, Description: "publish by default for those who may publish; contributors' posts wait as pending (or draft)."},
		{Name: "password", Type: TypeString, MaxBytes: calendar.MaxPasswordBytes, Description: "Protects the fields other than the name; empty to remove."},
		{Name: "image", Type: TypeMixed, MaxBytes: calendar.MaxURLBytes, Description: "The featured image: the ID of an image of the media library (POST {api}/media), or an absolute http(s) URL (one of the library's files is that image; another is kept as given, or fetched into the library when the service sideloads); empty to remove."},
	}
	for _, m := range meta {
		args = append(args, Arg{Name: m, Type: TypeString, MaxBytes: app.TextBound(m), Description: metaDescriptions[m]})
	}
	args = append(args, customFieldsArg)
	if postType == calendar.PostTypeVenue {
		args = append(args,
			Arg{Name: "show_map", Type: TypeBoolean, Description: "Show the venue's map."},
			Arg{Name: "show_map_link", Type: TypeBoolean, Description: "Show a link to the venue's map."},
			Arg{Name: "geo_lat", Type: TypeNumber, Min: bound(-calendar.MaxLatitude), Max: bound(calendar.MaxLatitude), Needs: "geo_lng",
				Description: "Latitude, in degrees; with geo_lng."},
			Arg{Name: "geo_lng", Type: TypeNumber, Min: bound(-calendar.MaxLongitude), Max: bound(calendar.MaxLongitude), Needs: "geo_lat",
				Description: "Longitude, in degrees; with geo_lat."})
	}
	return args
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
func readLinkedFilter(v Values) app.LinkedFilter {
	f := app.LinkedFilter{Page: readPage(v), Search: stringParam(v, "search"), Statuses: stringsParam(v, "status"),
		Event: intParam(v, "event"), Near: readNear(v), ModifiedAfter: stringParam(v, "modified_after")}
	if v.Has("has_events") {
		has, _ := truthyBool.read(v["has_events"])
		f.HasEvents = &has
	}
	f.OnlyWithUpcoming, _ = truthyBool.read(v["only_with_upcoming"])
	orderBy, _ := v.String("orderby")
	f.ByDistance = orderBy == "distance"
	return f
}
