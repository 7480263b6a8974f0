package controllers

import "net/http"

// The narrow interfaces each resource's routes use, and the credentials',
// for tests that mount one resource's routes on a service of their own.
type (
	TermService          = termService
	EventService         = eventService
	LinkedService[V any] = linkedService[V]
	MediaService         = mediaService
	UploadGate           = uploadGate
	UserService          = userService
	ChangeFeed           = changeFeed
	ImportService        = importService
	Accounts             = accounts
)

// alone is the HTTP layer with the routes mount registers and nothing else:
// the small world of a resource's HTTP tests.
func alone(cfg Config, users Accounts, namespace string, mount func(api *API)) http.Handler {
	api := newAPI(cfg, users)
	api.mountRoot(namespace)
	mount(api)
	api.documented()
	return api
}

// NewTermsAlone is one taxonomy's routes (plural: "categories" or "tags")
// over svc.
func NewTermsAlone(cfg Config, users Accounts, plural string, svc TermService) http.Handler {
	return alone(cfg, users, EventsNamespace, func(api *API) { mountTerms(api, plural, svc, CategoryList{}) })
}

// NewEventsAlone is the event routes and the iCalendar feed over svc; a venue
// or an organizer written inside an event takes these text fields.
func NewEventsAlone(cfg Config, users Accounts, svc EventService, venueMeta, organizerMeta []string) http.Handler {
	return alone(cfg, users, EventsNamespace, func(api *API) { mountEvents(api, svc, venueMeta, organizerMeta) })
}

// NewLinkedAlone is the routes of venues or organizers (plural: "venues" or
// "organizers") over svc.
func NewLinkedAlone[V any](cfg Config, users Accounts, plural string, svc LinkedService[V]) http.Handler {
	return alone(cfg, users, EventsNamespace, func(api *API) { mountLinked(api, plural, svc, VenueList{}) })
}

// NewMediaAlone is the media library's routes and its files over svc, its
// uploads let in by gate.
func NewMediaAlone(cfg Config, users Accounts, svc MediaService, gate UploadGate) http.Handler {
	return alone(cfg, users, EventsNamespace, func(api *API) {
		api.uploads = gate
		mountMedia(api, svc)
	})
}

// NewUsersAlone is the user administration and application passwords over svc.
func NewUsersAlone(cfg Config, users Accounts, svc UserService) http.Handler {
	return alone(cfg, users, AdminNamespace, func(api *API) { mountUsers(api, svc) })
}

// NewChangesAlone is the change feed's route over feed.
func NewChangesAlone(cfg Config, users Accounts, feed ChangeFeed) http.Handler {
	return alone(cfg, users, EventsNamespace, func(api *API) { mountChanges(api, feed) })
}

// NewImportsAlone is the routes of import sources over svc, which also
// gates their bodies.
func NewImportsAlone(cfg Config, users Accounts, svc ImportService) http.Handler {
	return alone(cfg, users, AdminNamespace, func(api *API) { mountImports(api, svc) })
}
