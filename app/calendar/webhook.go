package calendar

import (
	"strconv"
	"time"
)

// Webhook is a subscription to the change feed, delivered by HTTP POST to
// URL as the Standard Webhooks specification has it. It belongs to the user
// who made it (Owner) and delivers only what they may read. Beside what its
// owner chose, it keeps how far it has delivered the feed (Cursor), the
// change that is failing and when it is tried again (Failing), the latest
// attempts (Attempts) and the lease of the replica delivering it: every
// write of it, its owner's and the dispatcher's, is a compare-and-swap.
type Webhook struct {
	ID    int64  `bson:"_id"`
	Seq   int64  `bson:"seq"`
	Owner int64  `bson:"owner"`
	URL   string `bson:"url"`
	// Types are the changes delivered ("event.created", "venue.deleted"...,
	// "*" for all).
	Types []string `bson:"types"`
	// Filter is the query string of the events list that the events
	// delivered match ("" every one).
	Filter      string `bson:"filter,omitempty"`
	Active      bool   `bson:"active"`
	Description string `bson:"description,omitempty"`
	// Secrets sign deliveries: the current one first, then the one it
	// replaced until its Until.
	Secrets  []WebhookSecret `bson:"secrets"`
	Created  time.Time       `bson:"created"`
	Modified time.Time       `bson:"modified"`

	// Cursor is the sequence of the change feed delivered up to: every
	// change at or below it was delivered or is not this subscription's.
	Cursor int64 `bson:"cursor"`
	// Baseline is the cursor when the subscription last had nothing left
	// to deliver. The feed keeps one entry per item, at its latest write,
	// so while deliveries are behind, an item's entry may pass the cursor
	// before the subscription heard of it: an item made after the baseline
	// is new to the receiver (created), and the fields changed since it
	// are those the receiver may not have (changed).
	Baseline int64 `bson:"baseline"`
	// Disabled says why the service turned the subscription off (its
	// retries ran out, the receiver answered 410, its owner may no longer
	// subscribe); "" when it did not.
	Disabled string `bson:"disabled,omitempty"`
	// Failing is the change whose delivery failed and when it is tried
	// again; nil when the last one went through.
	Failing *WebhookFailure `bson:"failing,omitempty"`
	// Attempts are the latest deliveries tried, newest first.
	Attempts []WebhookAttempt `bson:"attempts,omitempty"`
	// Replays counts the replays asked for: a replayed change gets another
	// webhook-id than its first delivery, so a receiver that drops repeats
	// takes it.
	Replays int `bson:"replays,omitempty"`
	// Lease is held by the replica delivering it.
	Lease *Lease `bson:"lease,omitempty"`
}

// WebhookSecret is a key deliveries are signed with; Until, when set, is
// when a replaced key stops signing.
type WebhookSecret struct {
	Key   string    `bson:"key"`
	Until time.Time `bson:"until,omitempty"`
}

// WebhookFailure is the change being retried: how often it failed and when
// it is tried next.
type WebhookFailure struct {
	Seq      int64     `bson:"seq"`
	Failures int       `bson:"failures"`
	Next     time.Time `bson:"next"`
}

// WebhookAttempt is one delivery tried.
type WebhookAttempt struct {
	// MessageID is its webhook-id; Seq the change (0 for a ping); Type
	// what it said ("event.updated", "ping").
	MessageID string    `bson:"message_id"`
	Seq       int64     `bson:"seq"`
	Type      string    `bson:"type"`
	At        time.Time `bson:"at"`
	// Outcome is delivered, failed, refused (the egress policy would not
	// connect) or disabled (the failure that turned it off).
	Outcome  string        `bson:"outcome"`
	Code     int           `bson:"code,omitempty"`
	Duration time.Duration `bson:"duration"`
	Error    string        `bson:"error,omitempty"`
	// Next is when the change is tried again after this failure.
	Next time.Time `bson:"next,omitempty"`
}

func (w *Webhook) DocID() int64      { return w.ID }
func (w *Webhook) SetDocID(id int64) { w.ID = id }
func (w *Webhook) SetSeq(seq int64)  { w.Seq = seq }
func (w *Webhook) DocSeq() int64     { return w.Seq }

// UniqueKeys: none; an owner may subscribe one URL several times.
func (w *Webhook) UniqueKeys() map[string][]string { return nil }

// WebhookMark says that a filtered subscription's receiver holds an event:
// it was last delivered while it matched the filter. An event that stops
// matching is delivered once more to those that mark it (and unmarked); one
// that starts matching is delivered as created (and marked). One record per
// subscription and event, found by both.
type WebhookMark struct {
	ID      int64 `bson:"_id"`
	Seq     int64 `bson:"seq"`
	Webhook int64 `bson:"webhook"`
	Item    int64 `bson:"item"`
}

func (m *WebhookMark) DocID() int64      { return m.ID }
func (m *WebhookMark) SetDocID(id int64) { m.ID = id }
func (m *WebhookMark) SetSeq(seq int64)  { m.Seq = seq }
func (m *WebhookMark) DocSeq() int64     { return m.Seq }

// UniqueKeys: one mark per subscription and item.
func (m *WebhookMark) UniqueKeys() map[string][]string {
	return map[string][]string{WebhookMarkKey: {WebhookMarkOf(m.Webhook, m.Item)}}
}

// WebhookMarkKey is the unique key marks are found by, WebhookMarkOf its value.
const WebhookMarkKey = "webhook_item"

func WebhookMarkOf(webhook, item int64) string {
	return strconv.FormatInt(webhook, 10) + "/" + strconv.FormatInt(item, 10)
}
