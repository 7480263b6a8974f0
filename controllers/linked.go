package controllers

import (
	"net/http"

	"github.com/go-fuego/fuego"

	"calendar/app"
)

var (
	idArg   = app.Arg{Name: "id", Type: app.TypeInteger, Required: true, Description: "Unique identifier of the item."}
	slugArg = app.Arg{Name: "slug", Type: app.TypeString, Required: true, Description: "The item's slug."}
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
	listArgs := svc.ListArgs()
	handle(api, EventsNamespace, []string{http.MethodGet}, base, listArgs, func(r *Request) (object, error) {
		page, err := svc.List(r.Context(), r.Actor, r.Values)
		if err != nil {
			return nil, err
		}
		return listAnswer(api, r, plural, base, listArgs, page), nil
	}, fuego.OptionSummary("List "+plural), fuego.OptionAddResponse(http.StatusOK, "One page of "+plural, fuego.Response{Type: listDoc}))

	handle(api, EventsNamespace, []string{http.MethodPost}, base, svc.WriteArgs(true), func(r *Request) (V, error) {
		v, err := svc.Create(r.Context(), r.Actor, r.Values)
		if err == nil {
			r.SetStatus(http.StatusCreated)
		}
		return v, err
	}, fuego.OptionSummary("Create"), fuego.OptionAddResponse(http.StatusCreated, "Created, or the existing one of the same name", fuego.Response{Type: *new(V)}))

	for _, key := range []app.Arg{idArg, slugArg} {
		path := base + "/{id}"
		if key.Name == "slug" {
			path = base + "/by-slug/{slug}"
		}
		ref := func(r *Request) app.PostRef {
			id, _ := r.Values.Int("id")
			slug, _ := r.Values.String("slug")
			return app.PostRef{ID: id, Slug: slug}
		}
		with := func(args []app.Arg) []app.Arg { return append([]app.Arg{key}, args...) }
		handle(api, EventsNamespace, []string{http.MethodGet}, path, with(app.ReadArgs), func(r *Request) (V, error) {
			return svc.Get(r.Context(), r.Actor, ref(r), r.Values)
		}, fuego.OptionSummary("Read"))
		handle(api, EventsNamespace, []string{http.MethodDelete}, path, with(app.DeleteArgs), func(r *Request) (any, error) {
			return svc.Delete(r.Context(), r.Actor, ref(r), r.Values)
		}, fuego.OptionSummary("Trash, or delete with force=true"), fuego.OptionAddResponse(http.StatusOK, "The item as trashed, or {deleted, previous}", fuego.Response{Type: *new(V)}))
		handle(api, EventsNamespace, editable, path, with(svc.WriteArgs(false)), func(r *Request) (V, error) {
			return svc.Update(r.Context(), r.Actor, ref(r), r.Values)
		}, fuego.OptionSummary("Update the fields sent"))
	}
}
