package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"calendar/app/calendar"
)

// What a subscription hears of a change: its owner's view of it. An item
// the owner may read is delivered as its route answers them (object); one
// they may no longer read, or deleted, with no object, as "deleted"; one
// they never could read (another author's draft), not at all, nor its
// delete. A filtered subscription hears of the events its filter matches,
// of the change that makes one stop matching (once more, with its new
// state), and of one that starts matching as created (webhook_filter.go),
// also when what makes it so is a change of an item it links to: a venue,
// an organizer, a category, a tag (webhook_linked.go).
// A write that changed nothing the owner sees (bookkeeping: a series'
// lease) is not delivered.

// message is one delivery: its webhook-id, the change, its type and body,
// what it does to a filtered subscription's marks once delivered, and where
// the subscription's cursor goes then: to its change, or just before it
// while more of that change is to come (webhook_linked.go).
type message struct {
	id           string
	seq          int64
	upTo         int64
	itemID       int64
	typ          string
	body         []byte
	mark, unmark bool
}

// payload is a delivery's body, as Standard Webhooks has it.
type payload struct {
	Type      string      `json:"type"`
	Timestamp string      `json:"timestamp"`
	Data      payloadData `json:"data"`
}

type payloadData struct {
	ID  int64 `json:"id"`
	Seq int64 `json:"seq"`
	// Object is the item as its route answers the owner; none when it is
	// deleted, or unreadable to them, or larger than a payload may be
	// (TooLarge: the receiver reads it from its route).
	Object   any      `json:"object,omitempty"`
	TooLarge bool     `json:"too_large,omitempty"`
	Changed  []string `json:"changed"`
}

// messageID is a delivery's webhook-id: the same for one change and one
// subscription, so a receiver drops a repeat; a replay gives another.
func messageID(w *calendar.Webhook, seq int64) string {
	if w.Replays > 0 {
		return fmt.Sprintf("msg_%d_%d_r%d", w.ID, seq, w.Replays)
	}
	return fmt.Sprintf("msg_%d_%d", w.ID, seq)
}

// linkedMessageID is the webhook-id of an event's delivery that a change
// of an item it links to makes (webhook_linked.go): the change's, with
// the event's ID, so each of one change's deliveries has its own, the same
// each time it is tried.
func linkedMessageID(w *calendar.Webhook, seq, event int64) string {
	if w.Replays > 0 {
		return fmt.Sprintf("msg_%d_%d_e%d_r%d", w.ID, seq, event, w.Replays)
	}
	return fmt.Sprintf("msg_%d_%d_e%d", w.ID, seq, event)
}

// kindOf is the kind a subscription names a post type or taxonomy by.
func kindOf(typ string) string {
	switch typ {
	case calendar.PostTypeEvent, calendar.PostTypeVenue, calendar.PostTypeOrganizer:
		return typ
	case calendar.PostTypeAttachment:
		return "media"
	case calendar.TaxonomyCategory:
		return "category"
	case calendar.TaxonomyTag:
		return "tag"
	}
	return ""
}

// ownerOf is the subscription's owner as stored, read once a worker's run
// (a role changed meanwhile holds from the next); a subscription whose
// owner is gone or may no longer subscribe is disabled (nil, nil).
func (d *dispatcher) ownerOf(ctx context.Context, w *calendar.Webhook) (*calendar.User, error) {
	owner, err := d.store.Users().Get(ctx, w.Owner)
	if errors.Is(err, calendar.ErrNotFound) || (err == nil && !owner.Can(calendar.CapSubscribeWebhooks)) {
		return nil, d.disable(ctx, w, "Its owner was deleted, or may no longer subscribe.")
	}
	return owner, err
}

// prepare decides what the subscription hears of one change of the feed:
// nil for nothing. baseline is the subscription's (as written, or as its
// worker moved it since).
func (d *dispatcher) prepare(ctx context.Context, w *calendar.Webhook, owner *calendar.User, baseline int64, c calendar.Change) (*message, error) {
	switch c.Collection {
	case calendar.CollectionPosts:
		return d.preparePost(ctx, w, owner, baseline, c)
	case calendar.CollectionTerms:
		return d.prepareTerm(ctx, w, owner, baseline, c)
	}
	return nil, nil // users, guards, subscriptions: not the calendar
}

// disable turns the subscription off for a reason of the service's.
func (d *dispatcher) disable(ctx context.Context, w *calendar.Webhook, why string) error {
	return d.editWebhook(context.WithoutCancel(ctx), w, Precondition{}, func(cur *calendar.Webhook) error {
		if err := d.keepLease(cur); err != nil {
			return err
		}
		cur.Active, cur.Disabled, cur.Failing = false, why, nil
		return nil
	})
}

func (d *dispatcher) preparePost(ctx context.Context, w *calendar.Webhook, owner *calendar.User, baseline int64, c calendar.Change) (*message, error) {
	prior := baseline // what the receiver may not have heard of
	if c.Deleted {    // gone (on MongoDB the tombstone comes first: it is going)
		return d.gone(ctx, w, owner, c, kindOf(c.Kind))
	}
	p, err := d.store.Posts().Get(ctx, c.ID)
	switch {
	case errors.Is(err, calendar.ErrNotFound), err == nil && p.Seq > c.Seq:
		return nil, nil // deleted or written since: a later entry of the feed tells
	case err != nil:
		return nil, err
	}
	kind := kindOf(p.Type)
	if kind == "" || (p.Type == calendar.PostTypeAttachment && p.Status != calendar.StatusInherit) {
		return nil, nil // an upload under way
	}
	readable := calendar.CanRead(owner, p)
	action := postAction(owner, p, prior)
	filtered := kind == "event" && w.Filter != ""
	var mark, unmark bool
	switch {
	case filtered:
		match := false
		if readable {
			if match, err = d.matchesFilter(ctx, w, owner, p); err != nil {
				return nil, err
			}
			// The index may hold a newer write than p already: then so does
			// the store, and the later entry of the feed tells.
			if now, err := d.store.Posts().Get(ctx, p.ID); err != nil || now.Seq != p.Seq {
				return nil, ignoreMissing(err)
			}
		}
		marked, err := d.marked(ctx, w, p.ID)
		if err != nil {
			return nil, err
		}
		switch {
		case match && !marked:
			action, mark = ActionCreated, true
		case !match && marked:
			unmark = true // once more, with its new state, and no more
		case !match:
			return nil, nil
		}
	default:
		// Readable to the owner at the baseline (as far as the post keeps
		// its past statuses and authors; when it does not, it may have been)
		// and now: updated; only now: created; only then: deleted; never:
		// nothing.
		status, author, existed, known := p.StandingAt(prior)
		before := existed && (!known || calendar.ReadRuleOf(owner).Allows(status, author))
		switch {
		case readable && !before:
			action = ActionCreated
		case !readable && !before:
			return nil, nil
		}
	}
	changed := []string{}
	if action == ActionUpdated || action == ActionTrashed {
		if changed = p.ChangedSince(prior); len(changed) == 0 && !unmark {
			return nil, nil // nothing the owner sees changed: bookkeeping
		}
	}
	typ := kind + "." + action
	if !wants(w, typ) {
		return nil, d.mark(ctx, w, &message{itemID: p.ID, unmark: unmark})
	}
	return d.cachedMessage(w, owner, c.Seq, p.ID, typ, p.Modified, changed, mark, unmark, func() (any, error) {
		if !readable {
			return nil, nil
		}
		return d.items.post(ctx, d.ownerCaller(owner), p)
	})
}

// gone is a tombstone: "deleted", to a filtered subscription only if its
// receiver holds the event, to another only if its owner could read the
// post once (toldGone: the tombstone keeps who could; a term's anyone).
func (d *dispatcher) gone(ctx context.Context, w *calendar.Webhook, owner *calendar.User, c calendar.Change, kind string) (*message, error) {
	filtered := kind == "event" && w.Filter != ""
	if kind == "" || (!filtered && !toldGone(calendar.ReadRuleOf(owner), c.Standing)) {
		return nil, nil
	}
	unmark := false
	if filtered {
		marked, err := d.marked(ctx, w, c.ID)
		if err != nil || !marked {
			return nil, err
		}
		unmark = true
	}
	typ := kind + "." + ActionDeleted
	if !wants(w, typ) {
		return nil, d.mark(ctx, w, &message{itemID: c.ID, unmark: unmark})
	}
	return d.message(w, c.Seq, c.ID, typ, time.Time{}, nil, []string{}, false, unmark)
}

func (d *dispatcher) prepareTerm(ctx context.Context, w *calendar.Webhook, owner *calendar.User, baseline int64, c calendar.Change) (*message, error) {
	if c.Deleted {
		return d.gone(ctx, w, owner, c, kindOf(c.Kind))
	}
	t, err := d.store.Terms().Get(ctx, c.ID)
	switch {
	case errors.Is(err, calendar.ErrNotFound), err == nil && t.Seq > c.Seq:
		return nil, nil
	case err != nil:
		return nil, err
	}
	terms := d.terms[t.Taxonomy]
	if terms == nil {
		return nil, nil
	}
	hidden, err := terms.hidden(ctx, owner)
	if err != nil || hidden(t) {
		return nil, err // a term only a draft the owner may not read carries
	}
	action, changed := ActionCreated, []string{}
	if t.CreatedSeq <= baseline {
		if action, changed = ActionUpdated, t.ChangedSince(baseline); len(changed) == 0 {
			return nil, nil
		}
	}
	typ := kindOf(t.Taxonomy) + "." + action
	if !wants(w, typ) {
		return nil, nil
	}
	return d.cachedMessage(w, owner, c.Seq, t.ID, typ, time.Time{}, changed, false, false, func() (any, error) {
		return d.items.term(ctx, d.ownerCaller(owner), t)
	})
}

// ownerCaller is the owner as the routes would have them call: at the API
// root without a language segment.
func (d *dispatcher) ownerCaller(owner *calendar.User) Caller {
	return Caller{User: owner, Root: d.routes.APIRoot}
}

// bodyKey names a delivery's body, which is the same for every
// subscription of one owner that hears of a change alike: rendered and
// encoded once for all of them.
type bodyKey struct {
	seq, owner, item int64
	typ              string
	changed          string
}

// cachedMessage is message with its body from the cache of bodies, the
// object rendered (object) only when the body is not there.
func (d *dispatcher) cachedMessage(w *calendar.Webhook, owner *calendar.User, seq, id int64, typ string, at time.Time, changed []string,
	mark, unmark bool, object func() (any, error)) (*message, error) {
	key := bodyKey{seq: seq, owner: owner.ID, item: id, typ: typ, changed: strings.Join(changed, ",")}
	if body, ok := d.bodies.Get(key); ok {
		return &message{id: messageID(w, seq), seq: seq, upTo: seq, itemID: id, typ: typ, body: body, mark: mark, unmark: unmark}, nil
	}
	o, err := object()
	if err != nil {
		return nil, err
	}
	msg, err := d.message(w, seq, id, typ, at, o, changed, mark, unmark)
	if err == nil {
		d.bodies.Put(key, msg.body)
	}
	return msg, err
}

// message encodes one delivery; an object that would make it larger than
// a payload may be is left out.
func (d *dispatcher) message(w *calendar.Webhook, seq, id int64, typ string, at time.Time, object any, changed []string, mark, unmark bool) (*message, error) {
	if at.IsZero() {
		at = time.Now()
	}
	p := payload{Type: typ, Timestamp: at.UTC().Format(time.RFC3339), Data: payloadData{ID: id, Seq: seq, Object: object, Changed: changed}}
	body, err := encodePayload(p)
	if err == nil && len(body) > calendar.MaxWebhookPayloadBytes {
		p.Data.Object, p.Data.TooLarge = nil, true
		body, err = encodePayload(p)
	}
	if err != nil {
		return nil, err
	}
	return &message{id: messageID(w, seq), seq: seq, upTo: seq, itemID: id, typ: typ, body: body, mark: mark, unmark: unmark}, nil
}

func encodePayload(p payload) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(p)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// marked reports whether the subscription's receiver holds the event.
func (d *dispatcher) marked(ctx context.Context, w *calendar.Webhook, id int64) (bool, error) {
	_, err := d.store.WebhookMarks().FindByKey(ctx, calendar.WebhookMarkKey, calendar.WebhookMarkOf(w.ID, id))
	if errors.Is(err, calendar.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// matchesFilter reports whether the filter, read as the owner's list
// reads it now, matches the event, once the index holds the change.
func (d *dispatcher) matchesFilter(ctx context.Context, w *calendar.Webhook, owner *calendar.User, p *calendar.Post) (bool, error) {
	if err := d.sync.catchUpTo(ctx, p.Seq); err != nil {
		return false, err
	}
	q, valid, err := d.filterOf(ctx, w, owner)
	if err != nil || !valid {
		return false, err
	}
	return d.matches(ctx, q, p.ID)
}

// Outcomes of an attempt.
const (
	outcomeDelivered = "delivered"
	outcomeFailed    = "failed"
	outcomeRefused   = "refused"
	outcomeDisabled  = "disabled"
)

// attempt posts a message once, signed with the subscription's keys.
func (d *dispatcher) attempt(ctx context.Context, w *calendar.Webhook, msg *message) calendar.WebhookAttempt {
	return sendSigned(ctx, d.Webhooks, w, msg)
}

// sendSigned posts a message once and tells how it went.
func sendSigned(ctx context.Context, s *Webhooks, w *calendar.Webhook, msg *message) calendar.WebhookAttempt {
	start := time.Now()
	a := calendar.WebhookAttempt{MessageID: msg.id, Seq: msg.seq, Type: msg.typ, At: start.UTC()}
	ctx, cancel := context.WithTimeout(ctx, s.settings.Timeout)
	defer cancel()
	status, answer, err := s.settings.Sender.Send(ctx, w.URL, signedHeaders(s.signingKeys(w), msg.id, start, msg.body), msg.body)
	a.Duration, a.Code = time.Since(start), status
	switch {
	case errors.Is(err, ErrFetchRefused):
		a.Outcome, a.Error = outcomeRefused, err.Error()
	case err != nil:
		a.Outcome, a.Error = outcomeFailed, err.Error()
	case status >= 200 && status <= 299:
		a.Outcome = outcomeDelivered
	default:
		a.Outcome, a.Error = outcomeFailed, fmt.Sprintf("answered %d: %s", status, clip(answer, 200))
	}
	return a
}

// failureOf says why an attempt failed, in a line.
func failureOf(a calendar.WebhookAttempt) string {
	if a.Error != "" {
		return a.Error
	}
	return fmt.Sprintf("answered %d", a.Code)
}

// clip cuts a text to n bytes at most, on a character boundary, on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
