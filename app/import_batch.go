package app

import (
	"context"
	"errors"

	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// A run creates the events of its new items together: each is checked,
// permitted and linked as a create through the events service is
// (newEvent), then held; a batch of them (ImportLimits.BatchItems and
// BatchBytes) is stored in one write of the store and indexed in one batch
// (Events.insertEvents), and their items in one more write. Every other
// write of the run (an event that creates a venue, an organizer, a term or
// occurrences, or sideloads an image, written alone; an update; on_removed)
// writes the held batch first, so the store's writes, and the change feed,
// come in the order of the source's items, as they would one by one.
//
// An event is stored with its origin (Post.Imported): should the run stop
// between storing a batch's events and their items, the next run (one
// after a run that failed) finds each such event by its item's slugs and
// takes it as that item's (adopt) instead of creating it again.

// heldCreate is a new item's event, checked and waiting for its batch.
type heldCreate struct {
	it   importItem
	post *calendar.Post
	base string
}

// outcomeHeld is one's answer for an item whose event waits in the batch:
// its outcome is noted once the batch is written.
const outcomeHeld = "held"

// batched is whether an item's event may wait for a batch: one whose
// write makes nothing else (newEvent tells the rest).
func (r *reconciler) batched(it *importItem) bool {
	return r.settings.Limits.BatchItems > 1 && it.Image == "" && it.Series == "" && len(it.Recurrence) == 0
}

// hold checks an item's event as its create would and holds it for the
// batch, written once full; errWouldCreate when it must be written alone.
func (r *reconciler) hold(ctx context.Context, it *importItem, in EventInput) error {
	p, base, err := r.events.newEvent(ctx, r.caller, in, false)
	if err != nil {
		return err
	}
	r.held = append(r.held, heldCreate{it: *it, post: p, base: base})
	r.heldBytes += len(p.Title) + len(p.Content) + len(p.Excerpt)
	if len(r.held) >= r.settings.Limits.BatchItems || r.heldBytes >= r.settings.Limits.BatchBytes {
		return r.flush(ctx)
	}
	return nil
}

// flush writes the held events, then their items, and notes them created.
// Once events are stored their items are written whatever becomes of the
// run (its end, its deadline); events stored without their items (the
// store failed between) are found by the next run (adopt).
func (r *reconciler) flush(ctx context.Context) error {
	if err := r.writeHeld(ctx); err != nil {
		return batchError{err}
	}
	return nil
}

// batchError is a batch's write failing: the run's error, not one item's
// (the batch holds many).
type batchError struct{ err error }

func (e batchError) Error() string { return "writing a batch of events: " + e.err.Error() }

func (r *reconciler) writeHeld(ctx context.Context) error {
	held := r.held
	r.held, r.heldBytes = nil, 0
	if len(held) == 0 {
		return nil
	}
	posts, bases := make([]*calendar.Post, len(held)), make([]string, len(held))
	for i, h := range held {
		posts[i], bases[i] = h.post, h.base
	}
	stored := r.events.insertEvents(ctx, posts, bases)
	done := context.WithoutCancel(ctx)
	var items []*calendar.ImportItem
	var written []heldCreate
	for _, h := range held {
		if h.post.ID != 0 {
			items = append(items, &calendar.ImportItem{Source: r.src.ID, Kind: calendar.PostTypeEvent, Key: h.it.Key,
				Post: h.post.ID, Version: h.it.Version, Hash: h.post.Imported.Hash, Revisions: h.post.Revisions})
			written = append(written, h)
		}
	}
	if len(items) == 0 {
		return stored
	}
	if err := r.store.ImportItems().InsertMany(done, items); err != nil {
		return errors.Join(stored, err)
	}
	for _, h := range written {
		if err := r.linked(done, &h.it, h.post); err != nil {
			return errors.Join(stored, err)
		}
		r.result.note(OutcomeCreated, &h.it, "")
	}
	return stored
}

// adopt finds the event an earlier run stored for an item without writing
// its item (the run stopped between): among the events holding the slugs
// the item's title gives (its slug, then -2, -3... up to the first free),
// the one made from this item. It writes the item's record for it and
// answers that (nil: there is none).
func (r *reconciler) adopt(ctx context.Context, it *importItem) (*calendar.ImportItem, error) {
	key := calendar.ImportItemOf(r.src.ID, calendar.PostTypeEvent, it.Key)
	var found *calendar.Post
	_, _, err := wordpress.UniqueSlug(ctx, wordpress.SanitizeTitle(it.Title), 1, func(ctx context.Context, slug string) (bool, error) {
		p, err := r.store.Posts().FindByKey(ctx, "type_slug", calendar.PostTypeEvent+"/"+slug)
		switch {
		case errors.Is(err, calendar.ErrNotFound):
			return false, nil
		case err != nil:
			return false, err
		case p.Imported != nil && p.Imported.Item == key:
			found = p
			return false, nil
		}
		return true, nil
	})
	if err != nil || found == nil {
		return nil, err
	}
	item := &calendar.ImportItem{Source: r.src.ID, Kind: calendar.PostTypeEvent, Key: it.Key, Post: found.ID,
		Version: found.Imported.Version, Hash: found.Imported.Hash, Revisions: found.Revisions}
	if err := r.store.ImportItems().Insert(ctx, item); err != nil {
		return nil, err
	}
	return item, r.linked(ctx, it, found)
}
