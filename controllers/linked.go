package controllers

import (
	"net/http"

	"github.com/go-fuego/fuego"

	"calendar/app"
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

// mountLinked registers the routes of venues or organizers: the list, create,
// and read, update and delete by ID and by slug.
func mountLinked[V any](api *API, plural string, svc *app.LinkedPosts[V], listDoc any) {
	base := "/" + plural
	postType, meta := svc.PostType(), svc.MetaFields()
	listArgs := linkedListArgs(postType)
	handle(api, EventsNamespace, []string{http.MethodGet}, base, listArgs, func(r *Request) (object, error) {
		f, err := readLinkedFilter(r.Values)
		if err != nil {
			return nil, err
		}
		page, err := svc.List(r.Context(), r.Caller, f)
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
			return svc.Delete(r.Context(), r.Caller, postRef(r), force)
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
