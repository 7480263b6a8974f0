package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"calendar/app/calendar"
)

// Webhooks push the change feed to the receivers its subscribers name
// (Standard Webhooks: signed POSTs, webhook_delivery.go), in order, once per
// subscription across replicas, never lost (webhook_dispatch.go). A
// subscription belongs to the user who made it: authors, editors and
// administrators may subscribe; each manages their own, an administrator
// everyone's. It delivers only what its owner may read, as its routes
// answer them, and of events only those its filter (the events list's
// query string) matches.

// Webhooks is the service of subscriptions and their deliveries.
type Webhooks struct {
	store calendar.Store
	// index finds what a filter matches: the live index while it is whole,
	// without the caches of lists (a delivery's query is asked once).
	index    calendar.Index
	sync     *indexSync
	events   *Events
	terms    map[string]*Terms // by taxonomy
	items    items
	settings WebhookSettings
	now      func() time.Time
	// routes is what the HTTP layer lends: the events list's reader of a
	// query string, and the API root the objects' URLs are written from.
	routes WebhookRoutes
	// wake hears of the service's own writes, so deliveries start at once.
	wake chan struct{}
	// counts are this process's deliveries by outcome.
	counts counters
}

// WebhookRoutes is what deliveries need of the HTTP layer, given to the
// service when the routes are mounted (controllers.New).
type WebhookRoutes struct {
	// ReadFilter reads a subscription's filter as the events list reads
	// its query string (its parameters' contract, then its reader).
	ReadFilter func(query string) (EventFilter, error)
	// APIRoot is "{site}/vendor/events/v1/": objects are rendered as their
	// routes answer at the root without a language segment.
	APIRoot string
}

// WebhookSettings configure subscriptions and their delivery.
type WebhookSettings struct {
	// Sender posts deliveries under the egress policy (nil: nothing is
	// delivered; subscriptions are kept).
	Sender WebhookSender
	// RetrySchedule is the pause before each retry of a failed delivery;
	// after the last one fails the subscription is disabled
	// (DefaultWebhookRetrySchedule when nil).
	RetrySchedule []time.Duration
	// Workers bounds the deliveries under way at once (DefaultWebhookWorkers when 0).
	Workers int
	// PerUser and Total bound the subscriptions of one user and of the
	// site (calendar.DefaultWebhooksPerUser, DefaultWebhooksTotal when 0).
	PerUser, Total int
	// Timeout bounds one delivery (DefaultWebhookTimeout when 0).
	Timeout time.Duration
	// Poll is how often the dispatcher looks for other replicas' writes
	// (DefaultWebhookPoll when 0); its own are delivered at once.
	Poll time.Duration
	// Settle is how long a change of a store whose feed may gain entries
	// below its last sequence (MongoDB: a write takes its number, then
	// commits) waits before it is delivered (DefaultWebhookSettle when 0).
	Settle time.Duration
	// RecheckBatch is how many events linking to a changed venue,
	// organizer, category or tag a filtered subscription checks at a time
	// (DefaultWebhookRecheckBatch when 0); a turn checks recheckBatches of
	// them at most (webhook_linked.go).
	RecheckBatch int
}

// Defaults of the webhook settings.
const (
	DefaultWebhookWorkers = 16
	DefaultWebhookTimeout = 10 * time.Second
	DefaultWebhookPoll    = time.Second
	DefaultWebhookSettle  = time.Second
	// DefaultWebhookRecheckBatch: 250 events a batch, 1,000 a turn.
	DefaultWebhookRecheckBatch = 250
	// webhookSecretOverlap is how long a replaced secret still signs.
	webhookSecretOverlap = 24 * time.Hour
	// guardOfWebhooks names the guard that creations take to count the
	// subscriptions against their bounds, on one replica or several.
	guardOfWebhooks = "webhooks"
	// webhookPage is how many subscriptions one read of the store brings.
	webhookPage = 1000
)

// DefaultWebhookRetrySchedule is the pause before each retry: 5s, 5m, 30m,
// 2h, 5h, 10h, 10h (about a day and a quarter in all), each with jitter.
var DefaultWebhookRetrySchedule = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute,
	2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour}

// The kinds of item a subscription may hear of and what happened to them:
// its types are "<kind>.<action>" ("event.created") or "*".
var (
	WebhookKinds   = []string{"event", "venue", "organizer", "category", "tag", "media"}
	WebhookActions = []string{ActionCreated, ActionUpdated, ActionTrashed, ActionDeleted}
)

// WebhookTypes are every type a subscription may name, "*" first.
func WebhookTypes() []string {
	out := []string{"*"}
	for _, k := range WebhookKinds {
		for _, a := range WebhookActions {
			out = append(out, k+"."+a)
		}
	}
	return out
}

func newWebhooks(store calendar.Store, index calendar.Index, a *App, settings WebhookSettings, now func() time.Time) *Webhooks {
	if settings.RetrySchedule == nil {
		settings.RetrySchedule = DefaultWebhookRetrySchedule
	}
	orDefault(&settings.Workers, DefaultWebhookWorkers)
	orDefault(&settings.PerUser, calendar.DefaultWebhooksPerUser)
	orDefault(&settings.Total, calendar.DefaultWebhooksTotal)
	orDefault(&settings.Timeout, DefaultWebhookTimeout)
	orDefault(&settings.Poll, DefaultWebhookPoll)
	orDefault(&settings.Settle, DefaultWebhookSettle)
	orDefault(&settings.RecheckBatch, DefaultWebhookRecheckBatch)
	return &Webhooks{store: store, index: wholeIndex{Index: index, rebuilds: a.reindex}, sync: a.sync, events: a.Events,
		terms: a.items.terms, items: a.items, settings: settings, now: now, wake: make(chan struct{}, 1)}
}

// UseRoutes lends the service the HTTP layer's reader of the events list
// and its API root (controllers.New does, when it mounts the routes).
func (s *Webhooks) UseRoutes(r WebhookRoutes) { s.routes = r }

// WebhookInput is a subscription's create or update: nil was not sent.
type WebhookInput struct {
	URL, Filter, Description *string
	Types                    *[]string
	Active                   *bool
}

// WebhookView is a subscription as its routes answer it; Secret only in
// the answers that made it (a create, a rotation).
type WebhookView struct {
	ID          int64    `json:"id"`
	URL         string   `json:"url"`
	Types       []string `json:"types"`
	Filter      string   `json:"filter"`
	Active      bool     `json:"active"`
	Description string   `json:"description"`
	Owner       int64    `json:"owner"`
	Created     string   `json:"created"`
	Modified    string   `json:"modified"`
	// Status is active, paused (its owner's choice), disabled (the
	// service's: DisabledReason says why) or retrying (Failing).
	Status         string  `json:"status"`
	DisabledReason *string `json:"disabled_reason"`
	// LastSeq is the change feed's sequence delivered up to.
	LastSeq int64               `json:"last_seq"`
	Failing *WebhookFailingView `json:"failing"`
	Secret  string              `json:"secret,omitempty"`
	// SecretsValid are how many secrets sign deliveries now (2 for a day
	// after a rotation).
	SecretsValid int `json:"secrets_valid"`
	revision     int64
}

// Revision is the subscription's revision: its ETag, and what If-Match names.
func (v *WebhookView) Revision() int64 { return v.revision }

// WebhookFailingView is the change being retried.
type WebhookFailingView struct {
	Seq         int64  `json:"seq"`
	Failures    int    `json:"failures"`
	NextAttempt string `json:"next_attempt"`
}

// DeletedWebhook is the answer to a delete.
type DeletedWebhook struct {
	Deleted  bool        `json:"deleted"`
	Previous WebhookView `json:"previous"`
}

// The statuses of a subscription.
const (
	WebhookActive   = "active"
	WebhookPaused   = "paused"
	WebhookDisabled = "disabled"
	WebhookRetrying = "retrying"
)

func (s *Webhooks) view(w *calendar.Webhook) WebhookView {
	v := WebhookView{ID: w.ID, URL: w.URL, Types: slices.Clone(w.Types), Filter: w.Filter, Active: w.Active,
		Description: w.Description, Owner: w.Owner, Created: rfc3339(w.Created), Modified: rfc3339(w.Modified),
		LastSeq: w.Cursor, SecretsValid: len(s.signingKeys(w)), revision: w.Seq, Status: WebhookActive}
	switch {
	case w.Disabled != "":
		v.Status, v.DisabledReason = WebhookDisabled, &w.Disabled
	case !w.Active:
		v.Status = WebhookPaused
	case w.Failing != nil:
		v.Status = WebhookRetrying
	}
	if f := w.Failing; f != nil {
		v.Failing = &WebhookFailingView{Seq: f.Seq, Failures: f.Failures, NextAttempt: rfc3339(f.Next)}
	}
	return v
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// signingKeys are the secrets that sign a delivery now: the current one,
// and the one it replaced for a day.
func (s *Webhooks) signingKeys(w *calendar.Webhook) []string {
	var keys []string
	for _, k := range w.Secrets {
		if k.Until.IsZero() || s.now().Before(k.Until) {
			keys = append(keys, k.Key)
		}
	}
	return keys
}

// newWebhookSecret is a secret in Standard Webhooks' form: whsec_ and 32
// random bytes in base64.
func newWebhookSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

func errCannotSubscribe(actor *calendar.User) *calendar.Error {
	return calendar.ForbiddenAs(actor, "rest_cannot_manage_webhooks", "Sorry, you are not allowed to manage webhooks.")
}

// mayManage answers a caller who may not subscribe (contributors,
// subscribers, visitors).
func mayManage(caller Caller) error {
	if !caller.Can(calendar.CapSubscribeWebhooks) {
		return errCannotSubscribe(caller.User)
	}
	return nil
}

// seesAll: an administrator sees and manages every subscription.
func seesAll(caller Caller) bool { return caller.Can(calendar.CapManageOptions) }

// load finds a subscription the caller may manage: their own, or any for
// an administrator; another's is answered as a missing one.
func (s *Webhooks) load(ctx context.Context, caller Caller, id int64) (*calendar.Webhook, error) {
	if err := mayManage(caller); err != nil {
		return nil, err
	}
	w, err := s.store.Webhooks().Get(ctx, id)
	switch {
	case errors.Is(err, calendar.ErrNotFound) || (err == nil && w.Owner != caller.User.ID && !seesAll(caller)):
		return nil, itemErrors.webhookMissing()
	case err != nil:
		return nil, err
	}
	return w, nil
}

// List answers the caller's subscriptions (every one for an administrator), by ID.
func (s *Webhooks) List(ctx context.Context, caller Caller) ([]WebhookView, error) {
	if err := mayManage(caller); err != nil {
		return nil, err
	}
	out := []WebhookView{}
	err := s.each(ctx, func(w *calendar.Webhook) {
		if w.Owner == caller.User.ID || seesAll(caller) {
			out = append(out, s.view(w))
		}
	})
	return out, err
}

// each reads every subscription in ID order, a page at a time.
func (s *Webhooks) each(ctx context.Context, visit func(*calendar.Webhook)) error {
	var after int64
	for {
		page, err := s.store.Webhooks().Scan(ctx, after, webhookPage)
		if err != nil || len(page) == 0 {
			return err
		}
		for _, w := range page {
			visit(w)
		}
		after = page[len(page)-1].ID
	}
}

// Get answers one subscription.
func (s *Webhooks) Get(ctx context.Context, caller Caller, id int64) (*WebhookView, error) {
	w, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	v := s.view(w)
	return &v, nil
}

// Create makes a subscription of the caller's, from the change feed's
// present on (nothing written before it is delivered), and answers it with
// its secret, the only time the secret is shown.
func (s *Webhooks) Create(ctx context.Context, caller Caller, in WebhookInput) (*WebhookView, error) {
	if err := mayManage(caller); err != nil {
		return nil, err
	}
	if in.URL == nil {
		return nil, calendar.ErrMissingParams([]string{"url"})
	}
	now := s.now().UTC().Truncate(time.Second)
	w := &calendar.Webhook{Owner: caller.User.ID, Types: []string{"*"}, Active: true, Created: now, Modified: now,
		Secrets: []calendar.WebhookSecret{{Key: newWebhookSecret()}}}
	if err := s.apply(ctx, caller, w, in); err != nil {
		return nil, err
	}
	guard := &guardHold{guards: s.store.Guards(), name: guardOfWebhooks, clock: leaseClock}
	defer guard.release(ctx)
	if err := guard.take(ctx); err != nil {
		return nil, err
	}
	if err := s.withinBounds(ctx, caller.User.ID); err != nil {
		return nil, err
	}
	cursor, err := s.store.LastSeq(ctx)
	if err != nil {
		return nil, err
	}
	w.Cursor, w.Baseline = cursor, cursor
	if err := guard.keep(ctx); err != nil {
		return nil, err
	}
	if err := s.store.Webhooks().Insert(ctx, w); err != nil {
		return nil, err
	}
	v := s.view(w)
	v.Secret = w.Secrets[0].Key
	return &v, nil
}

// withinBounds refuses a subscription more than an owner or the site may
// have; the caller holds the guard of webhooks, so no other creation
// counts at the same time.
func (s *Webhooks) withinBounds(ctx context.Context, owner int64) error {
	mine, all := 0, 0
	err := s.each(ctx, func(w *calendar.Webhook) {
		all++
		if w.Owner == owner {
			mine++
		}
	})
	switch {
	case err != nil:
		return err
	case mine >= s.settings.PerUser:
		return calendar.NewError(calendar.KindForbidden, "rest_webhooks_limit",
			fmt.Sprintf("A user may have at most %d webhooks; delete one first.", s.settings.PerUser))
	case all >= s.settings.Total:
		return calendar.NewError(calendar.KindForbidden, "rest_webhooks_limit",
			fmt.Sprintf("The site has %d webhooks, as many as it takes; delete one first.", s.settings.Total))
	}
	return nil
}

// Update changes what a subscription says (the fields sent). Making a
// disabled subscription active again resumes it where it stopped.
func (s *Webhooks) Update(ctx context.Context, caller Caller, id int64, in WebhookInput) (*WebhookView, error) {
	w, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	// Checked once, as the owner, before the write: the loop applies what
	// is checked to the subscription as it is at each attempt.
	checked := &calendar.Webhook{Owner: w.Owner, Types: w.Types}
	if err := s.apply(ctx, caller, checked, in); err != nil {
		return nil, err
	}
	err = s.editWebhook(ctx, w, caller.Expect, func(cur *calendar.Webhook) error {
		if in.URL != nil {
			cur.URL = checked.URL
		}
		if in.Types != nil {
			cur.Types = checked.Types
		}
		if in.Filter != nil {
			cur.Filter = checked.Filter
		}
		if in.Description != nil {
			cur.Description = checked.Description
		}
		if in.Active != nil {
			cur.Active = *in.Active
			if cur.Active { // resumed: from where it stopped, at once
				cur.Disabled, cur.Failing = "", nil
			}
		}
		cur.Modified = s.now().UTC().Truncate(time.Second)
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.nudge()
	v := s.view(w)
	return &v, nil
}

// Delete removes a subscription for good; nothing more is delivered.
func (s *Webhooks) Delete(ctx context.Context, caller Caller, id int64) (*DeletedWebhook, error) {
	w, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	w, err = s.discardWebhook(ctx, w, caller.Expect)
	if err != nil {
		return nil, err
	}
	return &DeletedWebhook{Deleted: true, Previous: s.view(w)}, nil
}

// RotateSecret gives a subscription a new secret, answered this once; the
// one it replaces signs deliveries beside it for a day, so a receiver can
// take the new one without missing one.
func (s *Webhooks) RotateSecret(ctx context.Context, caller Caller, id int64) (*WebhookView, error) {
	w, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	secret := newWebhookSecret()
	err = s.editWebhook(ctx, w, caller.Expect, func(cur *calendar.Webhook) error {
		now := s.now().UTC()
		kept := []calendar.WebhookSecret{{Key: secret}}
		if len(cur.Secrets) > 0 { // the current one, for a day; any older is dropped
			kept = append(kept, calendar.WebhookSecret{Key: cur.Secrets[0].Key, Until: now.Add(webhookSecretOverlap)})
		}
		cur.Secrets, cur.Modified = kept, now.Truncate(time.Second)
		return nil
	})
	if err != nil {
		return nil, err
	}
	v := s.view(w)
	v.Secret = secret
	return &v, nil
}

// apply checks the fields sent and sets them on w, as its owner (the
// filter is read as the owner's list would read it).
func (s *Webhooks) apply(ctx context.Context, caller Caller, w *calendar.Webhook, in WebhookInput) error {
	var bad calendar.InvalidParams
	if in.URL != nil {
		u := strings.TrimSpace(*in.URL)
		if reason := s.checkURL(u); reason != "" {
			bad.Add("url", reason, nil)
		}
		w.URL = u
	}
	if in.Types != nil {
		types, ok := webhookTypes(*in.Types)
		if !ok {
			bad.Add("types", "types must be some of "+strings.Join(WebhookTypes(), ", ")+".", nil)
		}
		w.Types = types
	}
	if in.Description != nil {
		d := strings.TrimSpace(*in.Description)
		if len(d) > calendar.MaxWebhookDescriptionBytes {
			bad.AddTooLong("description", calendar.MaxWebhookDescriptionBytes)
		} else if strings.ContainsFunc(d, isControl) || !utf8.ValidString(d) {
			bad.Add("description", "description must be text without control characters.", nil)
		}
		w.Description = d
	}
	if in.Filter != nil {
		filter := strings.TrimPrefix(strings.TrimSpace(*in.Filter), "?")
		if len(filter) > calendar.MaxWebhookFilterBytes {
			bad.AddTooLong("filter", calendar.MaxWebhookFilterBytes)
		} else if filter != "" {
			owner, err := s.ownerOf(ctx, caller, w.Owner)
			if err != nil {
				return err
			}
			if _, err := s.filterQuery(ctx, owner, filter); err != nil {
				if reason := invalidReason(err); reason != "" {
					bad.Add("filter", reason, nil)
				} else {
					return err
				}
			}
		}
		w.Filter = filter
	}
	if in.Active != nil {
		w.Active = *in.Active
	}
	return bad.Err()
}

// ownerOf is the user a subscription belongs to: the caller, or, for an
// administrator's edit of another's, the owner as stored.
func (s *Webhooks) ownerOf(ctx context.Context, caller Caller, owner int64) (*calendar.User, error) {
	if owner == 0 || owner == caller.User.ID {
		return caller.User, nil
	}
	return s.store.Users().Get(ctx, owner)
}

// checkURL is why a URL cannot be a receiver's ("" when it can): an
// absolute http(s) URL without credentials, within its bound, that the
// egress policy does not refuse outright.
func (s *Webhooks) checkURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case len(raw) > calendar.MaxURLBytes:
		return fmt.Sprintf("url must be at most %s bytes long.", calendar.Thousands(calendar.MaxURLBytes))
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "":
		return "url must be an absolute http or https URL without a fragment."
	case u.User != nil:
		return "url must not carry credentials: deliveries are signed."
	}
	if s.settings.Sender != nil {
		if err := s.settings.Sender.Check(raw); err != nil {
			return "url is not a destination the service may reach: " + err.Error()
		}
	}
	return ""
}

// webhookTypes reads the types sent: each known, each once, in the order
// of WebhookTypes; "*" stands for all.
func webhookTypes(sent []string) ([]string, bool) {
	all := WebhookTypes()
	seen := map[string]bool{}
	for _, t := range sent {
		t = strings.ToLower(strings.TrimSpace(t))
		if !slices.Contains(all, t) {
			return nil, false
		}
		seen[t] = true
	}
	if len(seen) == 0 {
		return nil, false
	}
	if seen["*"] {
		return []string{"*"}, true
	}
	var out []string
	for _, t := range all {
		if seen[t] {
			out = append(out, t)
		}
	}
	return out, true
}

// wants reports whether a subscription delivers a type.
func wants(w *calendar.Webhook, typ string) bool {
	return slices.Contains(w.Types, "*") || slices.Contains(w.Types, typ)
}

// invalidReason is the message of a refusal of a parameter (a filter read
// as the list reads it), "" for any other error.
func invalidReason(err error) string {
	e := calendar.AsError(err)
	if e.Kind != calendar.KindInvalid {
		return ""
	}
	reasons := []string{}
	if params, ok := e.Data["params"].(map[string]string); ok {
		for _, name := range slices.Sorted(maps.Keys(params)) {
			reasons = append(reasons, name+": "+params[name])
		}
	}
	if len(reasons) == 0 {
		reasons = append(reasons, e.Message)
	}
	return "filter: " + strings.Join(reasons, " ")
}

// nudge wakes the dispatcher: something may be delivered now.
func (s *Webhooks) nudge() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
