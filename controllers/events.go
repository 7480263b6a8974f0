package controllers

import (
	"net/http"

	"github.com/go-fuego/fuego"

	"calendar/app"
)

// EventList documents the event list wrapper.
type EventList struct {
	Events []app.EventView `json:"events"`
	listLinks
	// Facets is there when facets= asks for it: facet name -> values.
	Facets map[string][]app.FacetValue `json:"facets,omitempty"`
}

// mountEvents registers the event routes: list and create, then read, update
// and delete by ID and by slug.
func (api *API) mountEvents() {
	events := api.app.Events
	root := func(r *Request) string { return api.apiRoot(r.lang, EventsNamespace) }
	handle(api, EventsNamespace, []string{http.MethodGet}, "/events", app.EventListArgs, func(r *Request) (any, error) {
		if wantsCalendar(r.HTTP.Header.Values("Accept")) {
			return eventFeedBody(api, r, root(r))
		}
		page, err := events.List(r.Context(), r.Actor, r.Values, root(r))
		if err != nil {
			return nil, err
		}
		return withFacets(listAnswer(api, r, "events", "/events", app.EventListArgs, page), page.Facets), nil
	}, fuego.OptionSummary("List events (Accept: text/calendar gives the iCalendar feed of events.ics)"),
		fuego.OptionAddResponse(http.StatusOK, "One page of events", fuego.Response{Type: EventList{}}))
	mountEventFeed(api, root)

	handle(api, EventsNamespace, []string{http.MethodPost}, "/events", app.EventWriteArgs(true), func(r *Request) (*app.EventView, error) {
		e, err := events.Create(r.Context(), r.Actor, r.Values, root(r))
		if err == nil {
			r.SetStatus(http.StatusCreated)
		}
		return e, err
	}, fuego.OptionSummary("Create an event"), fuego.OptionAddResponse(http.StatusCreated, "The new event", fuego.Response{Type: app.EventView{}}))

	for _, key := range []app.Arg{idArg, slugArg} {
		path := "/events/{id}"
		if key.Name == "slug" {
			path = "/events/by-slug/{slug}"
		}
		with := func(args []app.Arg) []app.Arg { return append([]app.Arg{key}, args...) }
		ref := func(r *Request) app.PostRef {
			id, _ := r.Values.Int("id")
			slug, _ := r.Values.String("slug")
			return app.PostRef{ID: id, Slug: slug}
		}
		handle(api, EventsNamespace, []string{http.MethodGet}, path, with(app.ReadArgs), func(r *Request) (*app.EventView, error) {
			return events.Get(r.Context(), r.Actor, ref(r), r.Values, root(r))
		}, fuego.OptionSummary("Read an event"))
		handle(api, EventsNamespace, []string{http.MethodDelete}, path, with(app.DeleteArgs), func(r *Request) (any, error) {
			return events.Delete(r.Context(), r.Actor, ref(r), r.Values, root(r))
		}, fuego.OptionSummary("Trash an event, or delete it with force=true"),
			fuego.OptionAddResponse(http.StatusOK, "The event as trashed, or {deleted, previous}", fuego.Response{Type: app.EventView{}}))
		handle(api, EventsNamespace, editable, path, with(app.EventWriteArgs(false)), func(r *Request) (*app.EventView, error) {
			return events.Update(r.Context(), r.Actor, ref(r), r.Values, root(r))
		}, fuego.OptionSummary("Update the fields sent"))
	}
}
