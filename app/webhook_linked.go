package app

import (
	"context"
	"errors"
	"time"

	"calendar/app/calendar"
)

// An event may start or stop matching a subscription's filter while the
// event itself does not change: a venue moved, hidden or shown (geo_bounds,
// near), a category reparented or renamed (categories= reads a term's
// descendants, by slug), an organizer or a tag that the filter names made
// unreadable or renamed. So a change of a venue, an organizer, a category
// or a tag makes a filtered subscription check its filter again for the
// events linking to that item (a category's: to it or to a term below it),
// right after the item's own delivery, in the feed's order: an event its
// receiver holds (marked) that no longer matches is delivered once more as
// updated, its new state, changed naming the link ("venue", "organizer",
// "categories", "tags"), and unmarked; one that matches now and is not held
// is delivered as created, and marked. Each has the change's webhook-id
// with the event's ID (linkedMessageID). The marks make this idempotent:
// checking an event again delivers nothing it delivered already.
//
// The events linking to the item are found in the index (every status, in
// publication order), their match by the filter's own query (matching); an
// event written after the change is left to its own entry of the feed, one
// the owner may not read to the entry that made it so, and an item written
// again since to its later entry. A turn checks at most recheckBatches
// batches of WebhookSettings.RecheckBatch events of a change (1,000 by
// default), and starts no batch after recheckTime, nor once the turn made
// maxTurn deliveries; the rest waits for the subscription's next turn (the
// others' turns come between), from a position kept in memory, the cursor
// staying just before the change until every one of its events was checked.
// A restart, or a list of linked events that moved meanwhile (one before the
// position left it), checks the change again from its first event, which
// delivers nothing twice (the marks); after a restart the item's own
// delivery is repeated, under its same webhook-id.

// Bounds of the events a change of a linked item checks per turn.
const (
	recheckBatches = 4
	recheckTime    = time.Second
)

// recheck is the checking of the events linking to a changed item, for one
// subscription: where it stands.
type recheck struct {
	seq     int64  // the item's change
	replays int    // the subscription's, when it began
	filter  string // the filter it checks
	kind    string // venue, organizer, category or tag
	item    int64
	// offset is how many of the linked events, in publication order, were
	// checked; last the ID of the last of them.
	offset int
	last   int64
}

// errNotDelivered: a delivery failed; it is retried on the subscription's
// schedule, the check of the change going on from where it stood.
var errNotDelivered = errors.New("a delivery failed")

// keptRecheck is the check of change c's linked events that goes on from an
// earlier turn (its item's own delivery made), or nil.
func (d *dispatcher) keptRecheck(w *calendar.Webhook, c calendar.Change) *recheck {
	d.mu.Lock()
	defer d.mu.Unlock()
	rc := d.rechecks[w.ID]
	if rc == nil || rc.seq != c.Seq || rc.replays != w.Replays || rc.filter != w.Filter {
		delete(d.rechecks, w.ID)
		return nil
	}
	return rc
}

// keepRecheck keeps where a check stands for the next turn; nil forgets it.
func (d *dispatcher) keepRecheck(w *calendar.Webhook, rc *recheck) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if rc == nil {
		delete(d.rechecks, w.ID)
		return
	}
	d.rechecks[w.ID] = rc
}

// startRecheck is the check that change c asks of a filtered subscription:
// nil when it is not a change of a venue, an organizer, a category or a
// tag that could change what an event matches.
func (d *dispatcher) startRecheck(ctx context.Context, w *calendar.Webhook, c calendar.Change) (*recheck, error) {
	if w.Filter == "" {
		return nil, nil
	}
	kind := kindOf(c.Kind)
	if !c.Deleted {
		var typ string
		var seq, created int64
		var changed []string
		var err error
		switch c.Collection {
		case calendar.CollectionPosts:
			var p *calendar.Post
			if p, err = d.store.Posts().Get(ctx, c.ID); err == nil {
				typ, seq, created, changed = p.Type, p.Seq, p.CreatedSeq, p.ChangedSince(c.Seq-1)
			}
		case calendar.CollectionTerms:
			var t *calendar.Term
			if t, err = d.store.Terms().Get(ctx, c.ID); err == nil {
				typ, seq, created, changed = t.Taxonomy, t.Seq, t.CreatedSeq, t.ChangedSince(c.Seq-1)
			}
		default:
			return nil, nil
		}
		if err != nil || seq > c.Seq || created == c.Seq || len(changed) == 0 {
			// Gone or written since (a later entry checks); just made (no
			// event linked to it before); or a write of bookkeeping.
			return nil, ignoreMissing(err)
		}
		kind = kindOf(typ)
	}
	switch kind {
	case calendar.PostTypeVenue, calendar.PostTypeOrganizer, "category", "tag":
		return &recheck{seq: c.Seq, replays: w.Replays, filter: w.Filter, kind: kind, item: c.ID}, nil
	}
	return nil, nil
}

// linkField is the field of an event that links it to an item of the kind.
func linkField(kind string) string {
	switch kind {
	case "category":
		return "categories"
	case "tag":
		return "tags"
	}
	return kind
}

// linking narrows q to the events linking to the item: a category's, to it
// or to a term below it (a filter's category matches its descendants' events).
func (d *dispatcher) linking(ctx context.Context, rc *recheck, q *calendar.PostQuery) error {
	var err error
	switch rc.kind {
	case calendar.PostTypeVenue:
		q.Venues = []int64{rc.item}
	case calendar.PostTypeOrganizer:
		q.Organizers = []int64{rc.item}
	case "category":
		q.Categories, err = d.terms[calendar.TaxonomyCategory].withDescendants(ctx, []int64{rc.item})
	case "tag":
		q.Tags = []int64{rc.item}
	}
	return err
}

// recheck checks the filter again for the events linking to the changed
// item, from where rc stands, within a turn's bounds, delivering what
// changed for the receiver: done once every one was checked; else where it
// stands is kept for the next turn.
func (d *dispatcher) recheck(ctx context.Context, w *calendar.Webhook, owner *calendar.User, p *progress, c calendar.Change, rc *recheck, sent *int) (done bool, err error) {
	defer func() {
		if done {
			rc = nil
		}
		d.keepRecheck(w, rc)
	}()
	if err := d.sync.catchUpTo(ctx, c.Seq); err != nil {
		return false, err
	}
	filter, valid, err := d.filterOf(ctx, w, owner)
	if err != nil {
		return false, err
	}
	batch, start := d.settings.RecheckBatch, time.Now()
	for batches := 0; batches < recheckBatches && time.Since(start) < recheckTime && *sent < maxTurn; {
		if !w.Active || w.Disabled != "" {
			return false, errNotDelivered // paused or disabled meanwhile
		}
		q := calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: calendar.PostStatuses, Reader: calendar.ReadEverything,
			Order: calendar.OrderPublished, Offset: rc.offset, Limit: batch}
		if err := d.linking(ctx, rc, &q); err != nil {
			return false, err
		}
		if rc.offset > 0 { // the last one checked first: whether the list moved
			q.Offset, q.Limit = q.Offset-1, q.Limit+1
		}
		page, err := d.index.SearchPosts(ctx, q)
		if err != nil {
			return false, err
		}
		ids := page.IDs
		if rc.offset > 0 {
			if len(ids) == 0 || ids[0] != rc.last {
				rc.offset, rc.last = 0, 0 // one before it left: again from the first
				continue
			}
			ids = ids[1:]
		}
		if len(ids) > 0 {
			found := map[int64]bool{}
			if valid {
				if found, err = d.matching(ctx, filter, ids); err != nil {
					return false, err
				}
			}
			if err := d.deliverRechecked(ctx, w, owner, p, c, rc, ids, found, sent); err != nil {
				return false, err
			}
			rc.offset, rc.last = rc.offset+len(ids), ids[len(ids)-1]
		}
		batches++
		if len(ids) < batch {
			return true, nil
		}
	}
	return false, nil
}

// filterOf is the subscription's filter as its owner's list reads it now;
// not valid when a term or venue it names is gone (nothing matches).
func (d *dispatcher) filterOf(ctx context.Context, w *calendar.Webhook, owner *calendar.User) (calendar.PostQuery, bool, error) {
	q, err := d.filterQuery(ctx, owner, w.Filter)
	if err != nil {
		if calendar.AsError(err).Kind == calendar.KindInvalid {
			return q, false, nil
		}
		return q, false, err
	}
	return q, true, nil
}

// deliverRechecked delivers, in order, what checking these events again
// changed for the receiver: found are those that match.
func (d *dispatcher) deliverRechecked(ctx context.Context, w *calendar.Webhook, owner *calendar.User, p *progress, c calendar.Change, rc *recheck,
	ids []int64, found map[int64]bool, sent *int) error {
	events, err := d.store.Posts().GetMany(ctx, ids)
	if err != nil {
		return err
	}
	for _, e := range events {
		if e.Type != calendar.PostTypeEvent || e.Seq > c.Seq || !calendar.CanRead(owner, e) {
			continue // written since, or not the owner's to read: that write's entry tells
		}
		marked, err := d.marked(ctx, w, e.ID)
		if err != nil {
			return err
		}
		action, changed := ActionCreated, []string{}
		switch match := found[e.ID]; {
		case match && !marked:
		case !match && marked:
			action, changed = ActionUpdated, []string{linkField(rc.kind)}
		default:
			continue
		}
		typ := "event." + action
		if !wants(w, typ) {
			if err := d.mark(ctx, w, &message{itemID: e.ID, mark: !marked, unmark: marked}); err != nil {
				return err
			}
			continue
		}
		msg, err := d.cachedMessage(w, owner, c.Seq, e.ID, typ, time.Time{}, changed, !marked, marked, func() (any, error) {
			return d.items.post(ctx, d.ownerCaller(owner), e)
		})
		if err != nil {
			return err
		}
		msg.id, msg.upTo = linkedMessageID(w, c.Seq, e.ID), c.Seq-1
		if ok, err := d.send(ctx, w, p, msg, false); err != nil {
			return err
		} else if !ok {
			return errNotDelivered
		}
		*sent++
	}
	return nil
}
