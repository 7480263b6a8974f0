package controllers

import (
	"context"
	"net/http"
	"net/url"
	"slices"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// webhookService is what the webhook routes ask of the domain (app.Webhooks).
type webhookService interface {
	List(ctx context.Context, caller app.Caller) ([]app.WebhookView, error)
	Create(ctx context.Context, caller app.Caller, in app.WebhookInput) (*app.WebhookView, error)
	Get(ctx context.Context, caller app.Caller, id int64) (*app.WebhookView, error)
	Update(ctx context.Context, caller app.Caller, id int64, in app.WebhookInput) (*app.WebhookView, error)
	Delete(ctx context.Context, caller app.Caller, id int64) (*app.DeletedWebhook, error)
	RotateSecret(ctx context.Context, caller app.Caller, id int64) (*app.WebhookView, error)
	Deliveries(ctx context.Context, caller app.Caller, id int64) ([]app.WebhookAttemptView, error)
	Ping(ctx context.Context, caller app.Caller, id int64) (*app.WebhookAttemptView, error)
	Replay(ctx context.Context, caller app.Caller, id, since int64) (*app.WebhookView, error)
	UseRoutes(app.WebhookRoutes)
}

// mountWebhooks registers the subscriptions to the change feed under
// {base_url}/vendor/admin/v1/webhooks, and lends the service what its
// deliveries need of the routes: the events list's reader of a filter, and
// the API root objects are rendered at.
func mountWebhooks(api *API, hooks webhookService) {
	hooks.UseRoutes(app.WebhookRoutes{ReadFilter: readEventFilterQuery, APIRoot: api.apiRoot(via{}, EventsNamespace)})
	const who = " Authors, editors and administrators; one's own, every one's for an administrator."
	handle(api, AdminNamespace, []string{http.MethodGet}, "/webhooks", nil, func(r *Request) ([]app.WebhookView, error) {
		return hooks.List(r.Context(), r.Caller)
	}, fuego.OptionSummary("List webhooks"), fuego.OptionDescription("Subscriptions to the change feed, without their secrets."+who))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/webhooks", webhookArgs(true), func(r *Request) (*app.WebhookView, error) {
		w, err := hooks.Create(r.Context(), r.Caller, readWebhookInput(r.Values))
		if err == nil {
			r.SetStatus(http.StatusCreated)
		}
		return w, err
	}, fuego.OptionSummary("Subscribe a URL to the change feed"),
		fuego.OptionDescription("Changes from now on are POSTed to url as Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), in order. The secret that signs them is in this answer only. At most "+
			calendar.Thousands(calendar.DefaultWebhooksPerUser)+" a user and "+calendar.Thousands(calendar.DefaultWebhooksTotal)+" in all by default."+who),
		fuego.OptionAddResponse(http.StatusCreated, "The subscription, with its secret", fuego.Response{Type: app.WebhookView{}}))

	handle(api, AdminNamespace, []string{http.MethodGet}, "/webhooks/{id}", webhookIDArgs, func(r *Request) (*app.WebhookView, error) {
		id, _ := r.Values.Int("id")
		return hooks.Get(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("Read a webhook"), fuego.OptionDescription("Without its secret."+who))

	handle(api, AdminNamespace, editable, "/webhooks/{id}", append(slices.Clone(webhookIDArgs), webhookArgs(false)...), func(r *Request) (*app.WebhookView, error) {
		id, _ := r.Values.Int("id")
		return hooks.Update(r.Context(), r.Caller, id, readWebhookInput(r.Values))
	}, fuego.OptionSummary("Change a webhook"),
		fuego.OptionDescription("The fields sent. active=true on a disabled one resumes its deliveries where they stopped."+who))

	handle(api, AdminNamespace, []string{http.MethodDelete}, "/webhooks/{id}", webhookIDArgs, func(r *Request) (*app.DeletedWebhook, error) {
		id, _ := r.Values.Int("id")
		return hooks.Delete(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("Delete a webhook"), fuego.OptionDescription("Nothing more is delivered to it."+who))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/webhooks/{id}/rotate-secret", webhookIDArgs, func(r *Request) (*app.WebhookView, error) {
		id, _ := r.Values.Int("id")
		return hooks.RotateSecret(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("Give a webhook a new secret"),
		fuego.OptionDescription("The new secret is in this answer only; the old one signs deliveries beside it for 24 hours."+who))

	handle(api, AdminNamespace, []string{http.MethodGet}, "/webhooks/{id}/deliveries", webhookIDArgs, func(r *Request) ([]app.WebhookAttemptView, error) {
		id, _ := r.Values.Int("id")
		return hooks.Deliveries(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("A webhook's latest deliveries"),
		fuego.OptionDescription("The latest "+calendar.Thousands(calendar.MaxWebhookAttemptsKept)+" attempts, newest first: the change, the outcome (delivered, failed, refused, disabled), the receiver's status, the duration, the error and when it is tried again."+who))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/webhooks/{id}/ping", webhookIDArgs, func(r *Request) (*app.WebhookAttemptView, error) {
		id, _ := r.Values.Int("id")
		return hooks.Ping(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("Send a webhook a test delivery"),
		fuego.OptionDescription("A signed delivery of type "+app.PingType+" now, whatever the webhook's state; the answer says how it went."+who))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/webhooks/{id}/replay", append(slices.Clone(webhookIDArgs), webhookSinceArg), func(r *Request) (*app.WebhookView, error) {
		id, _ := r.Values.Int("id")
		since, _ := r.Values.Int("since")
		return hooks.Replay(r.Context(), r.Caller, id, since)
	}, fuego.OptionSummary("Deliver a webhook's changes again from a point of the feed"),
		fuego.OptionDescription("Every change after since is delivered again, in order, from its present state, under new webhook-ids; a since older than the feed's retention is 410 rest_sync_expired."+who), mayAnswer(calendar.KindGone))
}

var webhookSinceArg = Arg{Name: "since", Type: TypeInteger, Required: true, Min: bound(0), Example: 1200,
	Description: "The sequence of the change feed to deliver again from (a last_seq of {api}/changes, a seq of a delivery): the changes after it."}

var webhookIDArgs = []Arg{{Name: "id", Type: TypeInteger, Required: true, Description: "Unique identifier of the webhook."}}

// webhookArgs are the parameters of a subscription's create (url required)
// or update.
func webhookArgs(create bool) []Arg {
	return []Arg{
		{Name: "url", Type: TypeString, Required: create, MaxBytes: calendar.MaxURLBytes, Example: "https://example.org/hooks/calendar",
			Description: "Where deliveries are POSTed: an absolute http(s) URL, on a public address (or in CALENDAR_OUTBOUND_ALLOWED_NETWORKS)."},
		{Name: "types", Type: TypeArray, Items: TypeString, Enum: app.WebhookTypes(), MaxItems: len(app.WebhookTypes()), Default: []any{"*"}, Example: []any{"event.created", "event.updated"},
			Description: "The changes delivered: <kind>.<action>, kind event, venue, organizer, category, tag or media, action created, updated, trashed or deleted; * for all."},
		{Name: "filter", Type: TypeString, MaxBytes: calendar.MaxWebhookFilterBytes, Example: "categories=jazz&geo_bounds=48.8,2.2,48.9,2.5&status=publish",
			Description: "Only the events the events list would list with this query string, read and checked as that list reads it (without its default window of dates; paging, order, facets, highlight and password do not filter). An event that stops matching is delivered once more, with its new state; one that starts matching is delivered as created."},
		{Name: "active", Type: TypeBoolean, Default: true, Description: "false pauses deliveries; true resumes them where they stopped."},
		{Name: "description", Type: TypeString, MaxBytes: calendar.MaxWebhookDescriptionBytes, Description: "What the subscription is for."},
	}
}

func readWebhookInput(v Values) app.WebhookInput {
	return app.WebhookInput{URL: stringParam(v, "url"), Types: stringsParam(v, "types"), Filter: stringParam(v, "filter"),
		Active: boolParam(v, "active"), Description: stringParam(v, "description")}
}

// readEventFilterQuery reads a subscription's filter as the events list
// reads its query string: its parameters' contract (CheckArgs), then its
// reader. A parameter the list does not have is refused, since a filter
// that mistyped one would match every event.
func readEventFilterQuery(raw string) (app.EventFilter, error) {
	query, err := url.ParseQuery(raw)
	if err != nil {
		return app.EventFilter{}, calendar.ErrInvalidParam("filter", "the filter is not a query string: "+err.Error())
	}
	values := Values(phpForm(query, arrayNames(eventListArgs)))
	var bad calendar.InvalidParams
	for name := range values {
		if !slices.ContainsFunc(eventListArgs, func(a Arg) bool { return a.Name == name }) {
			bad.Add(name, "the events list has no parameter "+name+".", nil)
		}
	}
	if err := bad.Err(); err != nil {
		return app.EventFilter{}, err
	}
	if err := CheckArgs(values, eventListArgs); err != nil {
		return app.EventFilter{}, err
	}
	return readEventFilter(values)
}
