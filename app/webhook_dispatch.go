package app

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"calendar/app/calendar"
	"calendar/app/lru"
)

// The dispatcher: each subscription follows the change feed from its own
// cursor, kept in its record, so a restart, a crash or a SIGKILL loses
// nothing (what was in flight is delivered again, under the same
// webhook-id). One subscription's deliveries go one at a time, in sequence
// order; a failure holds that subscription alone until its retry, on the
// schedule, with jitter; after the last retry it is disabled, as at once by
// a 410. Several replicas sharing a store deliver each change once per
// subscription: a replica delivers a subscription only under its lease,
// taken and renewed by compare-and-swap writes of the subscription as a
// series' lease is (series_lease.go), and each delivery's progress is a
// compare-and-swap that fails once the lease is another's. The embedded
// store has one process (calendar.Exclusive): no lease is written there.
// Deliveries under way are bounded by a pool of workers; each subscription
// is one worker's at a time.

// Run delivers until ctx ends: at once after the service's own writes, and
// every Poll for other replicas' and for retries that came due.
func (s *Webhooks) Run(ctx context.Context) {
	if s.settings.Sender == nil {
		return
	}
	d := &dispatcher{Webhooks: s, token: newLeaseToken(), slots: make(chan struct{}, s.settings.Workers),
		busy: map[int64]bool{}, seen: map[int64]seen{}, pending: map[int64]*progress{}, rechecks: map[int64]*recheck{}, bodies: lru.NewCosted[bodyKey, []byte](bodyCacheBytes, func(b []byte) int { return len(b) })}
	_, d.exclusive = s.store.(calendar.Exclusive)
	var workers sync.WaitGroup
	defer d.flushAll(context.WithoutCancel(ctx)) // after the workers: what they delivered is written
	defer workers.Wait()
	tick := time.NewTicker(s.settings.Poll)
	defer tick.Stop()
	for {
		retry := d.pass(ctx, &workers)
		// Passes read every subscription: however often writes wake it,
		// at most one a passGap (a worker goes on with what comes meanwhile).
		gap := time.NewTimer(passGap)
		select {
		case <-ctx.Done():
			gap.Stop()
			return
		case <-gap.C:
		}
		due := time.NewTimer(time.Until(retry))
		select {
		case <-ctx.Done():
			due.Stop()
			return
		case <-s.wake:
		case <-tick.C:
		case <-due.C:
		}
		due.Stop()
	}
}

// passGap is the least time between two passes over the subscriptions.
const passGap = 10 * time.Millisecond

// Written tells the dispatcher that the service wrote to the store: what
// it wrote is delivered now rather than at the next poll.
func (s *Webhooks) Written() { s.nudge() }

type dispatcher struct {
	*Webhooks
	token     string // this replica's leases
	exclusive bool
	slots     chan struct{}
	mu        sync.Mutex
	busy      map[int64]bool      // subscriptions a worker has
	pending   map[int64]*progress // delivered, not yet written (the embedded store)
	seen      map[int64]seen      // how far each was read with nothing to deliver
	rechecks  map[int64]*recheck  // a change's linked events being checked, over turns (webhook_linked.go)
	stable    []observed          // LastSeq as observed, for a store whose writes commit out of order
	bodies    *lru.Cache[bodyKey, []byte]
}

// bodyCacheBytes bounds the bodies kept for the subscriptions that hear of
// a change after the first (webhook_message.go).
const bodyCacheBytes = 8 << 20

// seen is how far a subscription, at a revision, was read with nothing to
// deliver: the next pass reads from there.
type seen struct {
	revision, upTo int64
}

type observed struct {
	at  time.Time
	seq int64
}

// pass hands every subscription with something to deliver to a worker, in
// turn (waiting for a free worker when all are busy, so every subscription
// gets its turn in each pass), and answers when the next retry comes due
// (a poll away at most).
func (d *dispatcher) pass(ctx context.Context, workers *sync.WaitGroup) (nextRetry time.Time) {
	now := time.Now()
	nextRetry = now.Add(d.settings.Poll)
	upTo, err := d.stableSeq(ctx)
	if err != nil {
		return nextRetry // the store is away: the next poll tries again
	}
	var due []*calendar.Webhook
	_ = d.each(ctx, func(w *calendar.Webhook) {
		if w.Active && w.Failing != nil && w.Failing.Next.Before(nextRetry) {
			nextRetry = w.Failing.Next
		}
		cursor, flushDue := d.pendingOf(w)
		if !flushDue && (!w.Active || w.Disabled != "" || (w.Failing != nil && now.Before(w.Failing.Next)) || cursor >= upTo) {
			return
		}
		if !d.exclusive && leaseLive(w.Lease) && w.Lease.Holder != d.token {
			return // another replica's
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		if sn := d.seen[w.ID]; d.busy[w.ID] || (!flushDue && sn.revision == w.Seq && sn.upTo >= upTo && w.Failing == nil) {
			return
		}
		due = append(due, w)
	})
	for _, w := range due {
		select {
		case d.slots <- struct{}{}:
		case <-ctx.Done():
			return nextRetry
		}
		d.mu.Lock()
		if d.busy[w.ID] {
			d.mu.Unlock()
			<-d.slots
			continue
		}
		d.busy[w.ID] = true
		d.mu.Unlock()
		workers.Add(1)
		go func() {
			defer workers.Done()
			d.work(ctx, w, upTo)
			d.mu.Lock()
			delete(d.busy, w.ID)
			d.mu.Unlock()
			<-d.slots
		}()
	}
	return nextRetry
}

// stableSeq is how far the feed may be delivered: the store's last
// sequence, or, where a write takes its sequence before it commits
// (MongoDB), the last sequence observed Settle ago, so that a write in
// flight on another replica is not passed over.
func (d *dispatcher) stableSeq(ctx context.Context) (int64, error) {
	last, err := d.store.LastSeq(ctx)
	if err != nil || d.exclusive {
		return last, err
	}
	now := time.Now()
	d.stable = append(d.stable, observed{now, last})
	var upTo int64
	keep := d.stable[:0]
	for i, o := range d.stable {
		if now.Sub(o.at) >= d.settings.Settle {
			upTo = o.seq
			if i+1 < len(d.stable) && now.Sub(d.stable[i+1].at) >= d.settings.Settle {
				continue // an older observation than needed
			}
		}
		keep = append(keep, o)
	}
	d.stable = keep
	return upTo, nil
}

// feedBatch is how many changes a worker reads at a time.
const feedBatch = 100

// work delivers one subscription's changes from its cursor up to upTo, in
// order, until one fails or none is left. It takes the lease only once it
// finds a change of the calendar to read: its own writes (a lease's, a
// cursor's) are changes of the store too.
func (d *dispatcher) work(ctx context.Context, w *calendar.Webhook, upTo int64) {
	// As it is now: the pass read it before the last worker's writes.
	w, err := d.store.Webhooks().Get(ctx, w.ID)
	if err != nil {
		return
	}
	p := d.takeProgress(w)
	if d.exclusive {
		defer d.keepProgress(ctx, w, p)
	}
	if !w.Active || w.Disabled != "" || (w.Failing != nil && time.Now().Before(w.Failing.Next)) {
		return
	}
	from := max(w.Cursor, p.cursor)
	if sn := d.seenOf(w.ID); sn.revision == w.Seq && sn.upTo > from && w.Failing == nil {
		from = sn.upTo // a failing change is read again from the cursor
	}
	found, err := d.calendarChangeAfter(ctx, w, from, upTo)
	if err != nil || !found {
		return
	}
	if horizon, err := d.store.Horizon(ctx); err != nil {
		return
	} else if w.Cursor != 0 && w.Cursor < horizon { // deletes it would pass over are gone from the feed
		_ = d.disable(ctx, w, "It fell behind the change feed's retention (CALENDAR_CHANGES_RETENTION): replay it from 0 or from a point after "+itoa(horizon)+".")
		return
	}
	if !d.exclusive {
		if err := d.takeLease(ctx, w); err != nil {
			return
		}
		defer d.giveLease(ctx, w)
		defer d.keepProgress(ctx, w, p) // before the lease goes
		from = max(from, w.Cursor)      // another replica may have delivered meanwhile
	}
	owner, err := d.ownerOf(ctx, w)
	if err != nil || owner == nil {
		return
	}
	caughtUp := false
	defer func() {
		if caughtUp {
			d.caughtUp(ctx, w, p, upTo)
		}
	}()
	for sent := 0; ctx.Err() == nil; {
		if from >= upTo {
			caughtUp = true
			return
		}
		if sent >= maxTurn { // a long backlog: the others' turn, then more
			d.nudge()
			return
		}
		batch, err := d.store.Changes(ctx, from, feedBatch)
		if err != nil {
			return
		}
		if len(batch) == 0 {
			caughtUp = true
			return
		}
		for i, c := range batch {
			if c.Seq > upTo {
				from = upTo
				break
			}
			last := lastOfRun(batch[i+1:], len(batch) < feedBatch)
			if done, err := d.deliverChange(ctx, w, owner, p, c, last, &sent); err != nil || !done {
				if err == nil {
					d.nudge() // the rest of this change at its next turn, after the others'
				}
				return // to be retried, or disabled; the store is away, the lease is lost, or it was disabled or paused meanwhile
			}
			from = c.Seq
		}
		if len(batch) < feedBatch {
			from = max(from, upTo) // the feed's end
		}
	}
}

// deliverChange delivers what the subscription hears of one change: the
// change's own message, then, when it is a filtered subscription's and a
// change of an item events link to, what that changed of the events it
// matches (webhook_linked.go); not done when that goes on at the next turn.
func (d *dispatcher) deliverChange(ctx context.Context, w *calendar.Webhook, owner *calendar.User, p *progress, c calendar.Change, last bool, sent *int) (done bool, err error) {
	before := *sent
	rc := d.keptRecheck(w, c) // its own message delivered at an earlier turn
	if rc == nil {
		msg, err := d.prepare(ctx, w, owner, max(w.Baseline, p.baseline), c)
		if err != nil {
			return false, err
		}
		if !w.Active || w.Disabled != "" {
			return false, errNotDelivered // disabled or paused meanwhile
		}
		if rc, err = d.startRecheck(ctx, w, c); err != nil {
			return false, err
		}
		switch {
		case msg != nil:
			if rc != nil {
				msg.upTo = c.Seq - 1 // more of this change to come
			}
			if ok, err := d.send(ctx, w, p, msg, last && rc == nil); err != nil {
				return false, err
			} else if !ok {
				return false, errNotDelivered
			}
			*sent++
		case rc == nil:
			d.sawUpTo(w, c.Seq)
		}
		if rc == nil {
			return true, nil
		}
		d.keepRecheck(w, rc)
	}
	if done, err = d.recheck(ctx, w, owner, p, c, rc, sent); done {
		p.cursor = max(p.cursor, c.Seq)
		if last && *sent > before { // as send moves it with the last delivery of a run
			p.baseline = max(p.baseline, c.Seq)
		}
		d.sawUpTo(w, c.Seq)
	}
	return done, err
}

// maxTurn is how many deliveries a worker makes for one subscription
// before it gives its slot to another (the next pass goes on).
const maxTurn = 256

// lastOfRun reports whether no change of the calendar follows in the rest
// of a batch, and none after it (the batch was the feed's last: short):
// once this one is delivered, the receiver has heard of every item there is.
func lastOfRun(rest []calendar.Change, short bool) bool {
	return short && !slices.ContainsFunc(rest, ofCalendar)
}

// ofCalendar: a change of a post or a term (not of a user, a guard, a
// subscription).
func ofCalendar(c calendar.Change) bool {
	return c.Collection == calendar.CollectionPosts || c.Collection == calendar.CollectionTerms
}

// calendarChangeAfter reports whether the feed has a change of the
// calendar (a post's, a term's) in (from, upTo]; when it has none, the
// subscription is seen up to there.
func (d *dispatcher) calendarChangeAfter(ctx context.Context, w *calendar.Webhook, from, upTo int64) (bool, error) {
	for from < upTo {
		batch, err := d.store.Changes(ctx, from, feedBatch)
		if err != nil || len(batch) == 0 {
			return false, err
		}
		for _, c := range batch {
			if c.Seq > upTo {
				break
			}
			if ofCalendar(c) {
				return true, nil
			}
			from = c.Seq
		}
		if batch[len(batch)-1].Seq > upTo {
			break
		}
	}
	d.sawUpTo(w, upTo)
	return false, nil
}

// caughtUp writes that the subscription has nothing left to deliver up
// to upTo, with what the run delivered: its cursor moves there, so a
// restart does not read again what it passed over; and when the feed has no
// change of the calendar after it either (every item's entry is behind it:
// the receiver heard of them all), its baseline too.
func (d *dispatcher) caughtUp(ctx context.Context, w *calendar.Webhook, p *progress, upTo int64) {
	after, err := d.store.Changes(ctx, upTo, feedBatch)
	if err == nil && len(after) < feedBatch && !slices.ContainsFunc(after, ofCalendar) {
		p.baseline = max(p.baseline, upTo)
	}
	if err == nil {
		p.cursor, p.caught = max(p.cursor, upTo), true
	}
}

// takeProgress is what the replica delivered of the subscription and has
// not written yet (on the embedded store, a run's progress is kept in
// memory until it is worth a write: keepProgress); a replay since forgets
// its cursor.
func (d *dispatcher) takeProgress(w *calendar.Webhook) *progress {
	d.mu.Lock()
	defer d.mu.Unlock()
	p := d.pending[w.ID]
	delete(d.pending, w.ID)
	if p == nil {
		return &progress{written: time.Now(), replays: w.Replays}
	}
	if p.replays != w.Replays {
		p.cursor, p.baseline, p.caught, p.replays = 0, 0, false, w.Replays
	}
	return p
}

// keepProgress writes a run's progress when it is worth a write (flushEvery
// deliveries, flushAfter since the last, a failing state to clear), or on
// a store with replicas at once; else it is kept for the next run.
func (d *dispatcher) keepProgress(ctx context.Context, w *calendar.Webhook, p *progress) {
	if !d.exclusive || p.due(w) {
		if err := d.flush(ctx, w, p, nil); err == nil {
			p.cursor, p.baseline, p.caught = 0, 0, false
		}
	}
	if d.exclusive && (len(p.attempts) > 0 || p.cursor > w.Cursor || p.baseline > w.Baseline) {
		d.mu.Lock()
		d.pending[w.ID] = p
		d.mu.Unlock()
	}
}

// due: worth a write now.
func (p *progress) due(w *calendar.Webhook) bool {
	return len(p.attempts) >= flushEvery || (time.Since(p.written) >= flushAfter && (len(p.attempts) > 0 || p.cursor > w.Cursor || p.baseline > w.Baseline)) ||
		(p.caught && w.Failing != nil)
}

// pendingDue reports whether a subscription's progress kept in memory is
// due to be written, and the cursor it reached.
func (d *dispatcher) pendingOf(w *calendar.Webhook) (cursor int64, due bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	p := d.pending[w.ID]
	if p == nil {
		return w.Cursor, false
	}
	if p.replays == w.Replays {
		cursor = max(w.Cursor, p.cursor)
	}
	return max(cursor, w.Cursor), p.due(w)
}

// flushAll writes every progress kept in memory (the dispatcher stops).
func (d *dispatcher) flushAll(ctx context.Context) {
	d.mu.Lock()
	pending := d.pending
	d.pending = map[int64]*progress{}
	d.mu.Unlock()
	for id, p := range pending {
		if w, err := d.store.Webhooks().Get(ctx, id); err == nil {
			if p.replays != w.Replays {
				p.cursor, p.baseline = 0, 0
			}
			_ = d.flush(ctx, w, p, nil)
		}
	}
}

func (d *dispatcher) seenOf(id int64) seen {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.seen[id]
}

// sawUpTo remembers that the subscription, at its revision, had nothing to
// deliver up to seq; past a batch of such changes the cursor is written too,
// so a restart does not read them again.
func (d *dispatcher) sawUpTo(w *calendar.Webhook, seq int64) {
	d.mu.Lock()
	d.seen[w.ID] = seen{revision: w.Seq, upTo: seq}
	d.mu.Unlock()
}

// takeLease makes the subscription this replica's, unless another holds it.
func (d *dispatcher) takeLease(ctx context.Context, w *calendar.Webhook) error {
	return d.editWebhook(ctx, w, Precondition{}, func(cur *calendar.Webhook) error {
		if leaseLive(cur.Lease) && cur.Lease.Holder != d.token {
			return errLeaseTaken
		}
		cur.Lease = leaseFor(d.token)
		return nil
	})
}

// giveLease gives the lease back once the worker is done.
func (d *dispatcher) giveLease(ctx context.Context, w *calendar.Webhook) {
	_ = d.editWebhook(context.WithoutCancel(ctx), w, Precondition{}, func(cur *calendar.Webhook) error {
		if cur.Lease == nil || cur.Lease.Holder != d.token {
			return errUnchanged
		}
		cur.Lease = nil
		return nil
	})
}

// keepLease is the lease a delivery's write renews: this replica's, from
// now on; a write of a subscription whose lease another took is refused.
func (d *dispatcher) keepLease(cur *calendar.Webhook) error {
	if d.exclusive {
		return nil
	}
	if cur.Lease == nil || cur.Lease.Holder != d.token {
		return errLeaseTaken
	}
	cur.Lease = leaseFor(d.token)
	return nil
}

// progress is what a worker delivered since it last wrote the
// subscription: successes are written together, every flushEvery of them or
// flushAfter, at a failure and when the run ends, so a delivery costs no
// write of its own; a crash repeats at most those (under their webhook-ids).
type progress struct {
	attempts         []calendar.WebhookAttempt // oldest first
	cursor, baseline int64
	written          time.Time
	// replays is the subscription's count of replays when the run began: a
	// replay asked meanwhile keeps the cursor it set.
	replays int
	// caught: the run left nothing to deliver, nothing is failing.
	caught bool
}

const (
	flushEvery = 64
	flushAfter = 250 * time.Millisecond
)

// send posts one message and notes what came of it: on success the marks
// of a filter at once, the cursor past its change with the next write; on
// a failure, at once, the retry to come or the subscription disabled.
func (d *dispatcher) send(ctx context.Context, w *calendar.Webhook, p *progress, msg *message, last bool) (delivered bool, err error) {
	attempt := d.attempt(ctx, w, msg)
	if attempt.Outcome != outcomeDelivered && ctx.Err() != nil {
		return false, ctx.Err() // stopping: not the receiver's failure; delivered again at the next start
	}
	d.counts.count(attempt.Outcome)
	if attempt.Outcome == outcomeDelivered {
		if err := d.mark(ctx, w, msg); err != nil {
			return false, err
		}
		p.attempts, p.cursor = append(p.attempts, attempt), max(p.cursor, msg.upTo)
		if last { // nothing left: the baseline moves with the cursor
			p.baseline = max(p.baseline, msg.upTo)
		}
		if len(p.attempts) >= flushEvery || time.Since(p.written) >= flushAfter || msg.mark || msg.unmark {
			return true, d.flush(ctx, w, p, nil)
		}
		return true, nil
	}
	disabled := false
	err = d.flush(ctx, w, p, func(cur *calendar.Webhook) {
		a := attempt
		switch {
		case a.Code == 410:
			a.Outcome = outcomeDisabled
			cur.Active, cur.Disabled, cur.Failing = false, "The receiver answered 410 Gone.", nil
		default:
			failures := 1
			if cur.Failing != nil {
				failures = cur.Failing.Failures + 1
			}
			if failures > len(d.settings.RetrySchedule) {
				a.Outcome = outcomeDisabled
				cur.Active, cur.Failing = false, nil
				cur.Disabled = "Every retry failed; the last: " + failureOf(a)
				break
			}
			a.Next = time.Now().Add(jittered(d.settings.RetrySchedule[failures-1])).UTC()
			cur.Failing = &calendar.WebhookFailure{Seq: msg.seq, Failures: failures, Next: a.Next}
		}
		disabled = a.Outcome == outcomeDisabled
		cur.Attempts = keepAttempts(a, cur.Attempts)
	})
	if err == nil && disabled {
		d.counts.count(outcomeDisabled)
	}
	return false, err
}

// flush writes the progress noted (and then, when given, a failure), under
// the lease; a subscription another replica took meanwhile is not written.
func (d *dispatcher) flush(ctx context.Context, w *calendar.Webhook, p *progress, then func(*calendar.Webhook)) error {
	if len(p.attempts) == 0 && p.cursor <= w.Cursor && p.baseline <= w.Baseline && then == nil && !(p.caught && w.Failing != nil) {
		return nil
	}
	err := d.editWebhook(context.WithoutCancel(ctx), w, Precondition{}, func(cur *calendar.Webhook) error {
		if err := d.keepLease(cur); err != nil {
			return err
		}
		if cur.Replays == p.replays {
			cur.Cursor, cur.Baseline = max(cur.Cursor, p.cursor), max(cur.Baseline, p.baseline)
			if len(p.attempts) > 0 || p.caught {
				cur.Failing = nil
			}
		}
		for _, a := range p.attempts {
			cur.Attempts = keepAttempts(a, cur.Attempts)
		}
		if then != nil {
			then(cur)
		}
		return nil
	})
	p.attempts, p.written = nil, time.Now()
	return err
}

// jittered spreads a pause over ±20 %, so that receivers coming back are
// not all retried at once.
func jittered(d time.Duration) time.Duration {
	return d*4/5 + rand.N(d*2/5+1)
}

// keepAttempts puts a among the attempts, newest first (a ping may be
// written before deliveries made earlier), and keeps the latest
// MaxWebhookAttemptsKept.
func keepAttempts(a calendar.WebhookAttempt, kept []calendar.WebhookAttempt) []calendar.WebhookAttempt {
	at, _ := slices.BinarySearchFunc(kept, a, func(k, a calendar.WebhookAttempt) int { return a.At.Compare(k.At) })
	out := slices.Insert(slices.Clone(kept), at, a)
	if len(out) > calendar.MaxWebhookAttemptsKept {
		out = out[:calendar.MaxWebhookAttemptsKept]
	}
	return out
}

// mark records what a filtered subscription's receiver now holds.
func (d *dispatcher) mark(ctx context.Context, w *calendar.Webhook, msg *message) error {
	marks := d.store.WebhookMarks()
	switch {
	case msg.mark:
		err := marks.Insert(ctx, &calendar.WebhookMark{Webhook: w.ID, Item: msg.itemID})
		if errors.Is(err, calendar.ErrConflict) {
			return nil // marked already (a delivery repeated)
		}
		return err
	case msg.unmark:
		m, err := marks.FindByKey(ctx, calendar.WebhookMarkKey, calendar.WebhookMarkOf(w.ID, msg.itemID))
		if err == nil {
			err = marks.Delete(ctx, m.ID, m.Seq)
		}
		if errors.Is(err, calendar.ErrNotFound) || errors.Is(err, calendar.ErrStale) {
			return nil
		}
		return err
	}
	return nil
}
