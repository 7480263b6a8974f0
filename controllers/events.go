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
	venueMeta, organizerMeta := api.app.Venues.MetaFields(), api.app.Organizers.MetaFields()
	readInput := func(r *Request) (app.EventInput, error) { return readEventInput(r.Values, venueMeta, organizerMeta) }
	handle(api, EventsNamespace, []string{http.MethodGet}, "/events", eventListArgs, func(r *Request) (any, error) {
		if wantsCalendar(r.HTTP.Header.Values("Accept")) {
			return eventFeedBody(api, r)
		}
		f, err := readEventFilter(r.Values)
		if err != nil {
			return nil, err
		}
		page, err := events.List(r.Context(), r.Caller, f)
		if err != nil {
			return nil, err
		}
		return withFacets(listAnswer(api, r, "events", "/events", eventListArgs, page), page.Facets), nil
	}, fuego.OptionSummary("List events (Accept: text/calendar gives the iCalendar feed of events.ics)"),
		fuego.OptionAddResponse(http.StatusOK, "One page of events", fuego.Response{Type: EventList{}}))
	mountEventFeed(api)

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
		handle(api, EventsNamespace, []string{http.MethodGet}, path, with(readArgs), func(r *Request) (*app.EventView, error) {
			password, _ := r.Values.String("password")
			return events.Get(r.Context(), r.Caller, postRef(r), password)
		}, fuego.OptionSummary("Read an event"))
		handle(api, EventsNamespace, []string{http.MethodDelete}, path, with(deleteArgs), func(r *Request) (any, error) {
			force, _ := r.Values.Bool("force")
			return events.Delete(r.Context(), r.Caller, postRef(r), force)
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
}
