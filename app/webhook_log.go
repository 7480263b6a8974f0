package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync/atomic"
	"time"

	"calendar/app/calendar"
)

// What a subscription's owner sees of its deliveries: the latest attempts,
// a test delivery (ping), a replay of the feed from a point; and what the
// service counts of them for /metrics.

// WebhookAttemptView is one delivery tried, as the deliveries log shows it.
type WebhookAttemptView struct {
	// ID is its webhook-id; Seq the change it carried (0: a ping).
	ID           string  `json:"id"`
	Seq          int64   `json:"seq"`
	Type         string  `json:"type"`
	At           string  `json:"at"`
	Outcome      string  `json:"outcome"`
	ResponseCode *int    `json:"response_code"`
	DurationMS   float64 `json:"duration_ms"`
	Error        *string `json:"error"`
	NextAttempt  *string `json:"next_attempt"`
}

func attemptView(a calendar.WebhookAttempt) WebhookAttemptView {
	v := WebhookAttemptView{ID: a.MessageID, Seq: a.Seq, Type: a.Type, At: a.At.UTC().Format(time.RFC3339Nano), Outcome: a.Outcome,
		DurationMS: float64(a.Duration.Microseconds()) / 1000}
	if a.Code != 0 {
		v.ResponseCode = &a.Code
	}
	if a.Error != "" {
		v.Error = &a.Error
	}
	if !a.Next.IsZero() {
		next := rfc3339(a.Next)
		v.NextAttempt = &next
	}
	return v
}

// Deliveries lists a subscription's latest attempts, newest first (at most
// calendar.MaxWebhookAttemptsKept).
func (s *Webhooks) Deliveries(ctx context.Context, caller Caller, id int64) ([]WebhookAttemptView, error) {
	w, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	out := []WebhookAttemptView{}
	for _, a := range w.Attempts {
		out = append(out, attemptView(a))
	}
	return out, nil
}

// PingType is the type of a test delivery.
const PingType = "webhook.ping"

// Ping sends a test delivery now, whatever the subscription's state (its
// data names the subscription), and answers how it went; it is logged
// among the attempts and counts toward nothing else.
func (s *Webhooks) Ping(ctx context.Context, caller Caller, id int64) (*WebhookAttemptView, error) {
	w, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, 8)
	_, _ = rand.Read(nonce) // crypto/rand never fails on supported platforms
	body, err := encodePayload(payload{Type: PingType, Timestamp: rfc3339(time.Now()), Data: payloadData{ID: w.ID, Changed: []string{}}})
	if err != nil {
		return nil, err
	}
	msg := &message{id: "msg_" + itoa(w.ID) + "_ping_" + hex.EncodeToString(nonce), typ: PingType, body: body}
	a := calendar.WebhookAttempt{MessageID: msg.id, Type: PingType, At: time.Now().UTC(), Outcome: outcomeRefused, Error: "the service delivers no webhooks"}
	if s.settings.Sender != nil {
		a = sendSigned(ctx, s, w, msg)
	}
	err = s.editWebhook(context.WithoutCancel(ctx), w, Precondition{}, func(cur *calendar.Webhook) error {
		cur.Attempts = keepAttempts(a, cur.Attempts)
		return nil
	})
	if err != nil {
		return nil, err
	}
	v := attemptView(a)
	return &v, nil
}

// Replay delivers the feed again from since on: every change after it the
// subscription is to hear of, with new webhook-ids (a receiver that drops
// repeats takes them), from its present state. It resumes a subscription
// that was failing; a paused or disabled one replays once resumed.
func (s *Webhooks) Replay(ctx context.Context, caller Caller, id, since int64) (*WebhookView, error) {
	w, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	last, err := s.store.LastSeq(ctx)
	if err != nil {
		return nil, err
	}
	if since < 0 || since > last {
		return nil, calendar.ErrInvalidParam("since", "since must be a sequence of the change feed, from 0 to "+itoa(last)+".")
	}
	if horizon, err := s.store.Horizon(ctx); err != nil {
		return nil, err
	} else if since != 0 && since < horizon {
		return nil, ErrSyncExpired(horizon)
	}
	err = s.editWebhook(ctx, w, caller.Expect, func(cur *calendar.Webhook) error {
		cur.Cursor, cur.Baseline, cur.Failing = since, since, nil
		cur.Replays++
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

// WebhookStats are what /metrics shows of webhooks: this process's
// deliveries by outcome, and how far behind each subscription is.
type WebhookStats struct {
	Deliveries map[string]int64
	Behind     []WebhookLag
}

// WebhookLag is how far a subscription is behind the feed: in changes of
// the store (the last sequence less its cursor) and in seconds (since the
// oldest change of a post it has not delivered was made; 0 when none).
type WebhookLag struct {
	ID      int64
	Status  string
	Changes int64
	Seconds float64
}

// counters are the deliveries this process made, by outcome.
type counters struct {
	delivered, failed, refused, disabled atomic.Int64
}

func (c *counters) count(outcome string) {
	switch outcome {
	case outcomeDelivered:
		c.delivered.Add(1)
	case outcomeFailed:
		c.failed.Add(1)
	case outcomeRefused:
		c.refused.Add(1)
	case outcomeDisabled:
		c.disabled.Add(1)
	}
}

// Stats reads the subscriptions' lag and this process's counts.
func (s *Webhooks) Stats(ctx context.Context) (WebhookStats, error) {
	st := WebhookStats{Deliveries: map[string]int64{outcomeDelivered: s.counts.delivered.Load(), outcomeFailed: s.counts.failed.Load(),
		outcomeRefused: s.counts.refused.Load(), outcomeDisabled: s.counts.disabled.Load()}}
	last, err := s.store.LastSeq(ctx)
	if err != nil {
		return st, err
	}
	var subs []*calendar.Webhook
	if err := s.each(ctx, func(w *calendar.Webhook) { subs = append(subs, w) }); err != nil {
		return st, err
	}
	for _, w := range subs {
		lag := WebhookLag{ID: w.ID, Status: s.view(w).Status, Changes: max(last-w.Cursor, 0)}
		if lag.Changes > 0 {
			if oldest, err := s.oldestUndelivered(ctx, w); err == nil && !oldest.IsZero() {
				lag.Seconds = max(time.Since(oldest).Seconds(), 0)
			}
		}
		st.Behind = append(st.Behind, lag)
	}
	return st, nil
}

// oldestUndelivered is when the first post changed after the cursor was
// written (its modification time; zero when none is in the next batch of
// the feed).
func (s *Webhooks) oldestUndelivered(ctx context.Context, w *calendar.Webhook) (time.Time, error) {
	batch, err := s.store.Changes(ctx, w.Cursor, feedBatch)
	if err != nil {
		return time.Time{}, err
	}
	for _, c := range batch {
		if c.Collection != calendar.CollectionPosts || c.Deleted {
			continue
		}
		p, err := s.store.Posts().Get(ctx, c.ID)
		if err != nil {
			continue
		}
		return p.Modified, nil
	}
	return time.Time{}, nil
}
