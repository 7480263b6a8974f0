package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"calendar/app/calendar"
)

// reconciler brings what a source's items became here in step with the
// items a run read: what is new is created, what changed is updated, the
// unchanged is not written at all, what was edited here since its import
// is skipped (unless the source overwrites local edits), and what left the
// source follows its on_removed. Every event is written through the events
// service as the source's author (its checks, bounds, sanitising and
// permissions); a preview judges each item the same way and writes nothing.
type reconciler struct {
	*Imports
	src    *calendar.ImportSource
	caller Caller
	write  bool
	result *runResult
	// held are the new items' events waiting for their batch
	// (import_batch.go), heldBytes their text.
	held      []heldCreate
	heldBytes int
	// recovering: the source's last run failed, so events it stored may
	// lack their items (adopt).
	recovering bool
}

func (r *reconciler) reconcile(ctx context.Context, items []importItem) error {
	seen := map[string]bool{}
	for _, it := range sortedItems(items) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if it.Key != "" {
			if seen[it.Key] { // a feed that repeats an item: its first stands
				continue
			}
			seen[it.Key] = true
		}
		if it.failure != "" || it.Key == "" {
			r.result.note(OutcomeFailed, &it, cmpOr(it.failure, "the item has no identity at its source"))
			continue
		}
		outcome, reason, err := r.one(ctx, &it)
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			if !isItemError(err) {
				return err
			}
			outcome, reason = OutcomeFailed, calendar.AsError(err).Message+invalidDetail(err)
		}
		if outcome != outcomeHeld {
			r.result.note(outcome, &it, reason)
		}
	}
	if err := r.flush(ctx); err != nil {
		return err
	}
	return r.removed(ctx, seen)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// isItemError: the error is the item's (refused as a write would be), not
// the store's or the run's.
func isItemError(err error) bool {
	e := calendar.AsError(err)
	return e.Kind == calendar.KindInvalid || e.Kind == calendar.KindForbidden || e.Kind == calendar.KindConflict ||
		e.Kind == calendar.KindNotFound || e.Kind == calendar.KindTooLarge
}

// invalidDetail lists the parameters a write refused and why.
func invalidDetail(err error) string {
	e := calendar.AsError(err)
	params, ok := e.Data["params"].(map[string]string)
	if !ok {
		return ""
	}
	var parts []string
	for _, name := range slices.Sorted(mapsKeys(params)) {
		parts = append(parts, name+": "+params[name])
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// one brings one item in step and says what it did.
func (r *reconciler) one(ctx context.Context, it *importItem) (outcome, reason string, err error) {
	hash := it.hash()
	known, err := r.item(ctx, calendar.PostTypeEvent, it.Key)
	if err == nil && known == nil && r.write && r.recovering {
		known, err = r.adopt(ctx, it)
	}
	if err != nil {
		return "", "", err
	}
	if known == nil {
		if !r.write {
			return OutcomeCreated, "", nil
		}
		return r.create(ctx, it, hash)
	}
	post, err := r.store.Posts().Get(ctx, known.Post)
	switch {
	case errors.Is(err, calendar.ErrNotFound):
		return OutcomeSkipped, "deleted here since its import", nil
	case err != nil:
		return "", "", err
	case known.Hash == hash && !known.Removed:
		return OutcomeUnchanged, "", nil
	case post.Revisions != known.Revisions && !r.src.OverwriteLocalEdits:
		return OutcomeSkipped, "edited here since its import", nil
	case !r.write:
		return OutcomeUpdated, "", nil
	}
	if err := r.flush(ctx); err != nil {
		return "", "", err
	}
	return OutcomeUpdated, "", r.update(ctx, it, known, post, hash)
}

// item is what the source's item of that kind and key became (nil: none).
func (r *reconciler) item(ctx context.Context, kind, key string) (*calendar.ImportItem, error) {
	it, err := r.store.ImportItems().FindByKey(ctx, calendar.ImportItemKey, calendar.ImportItemOf(r.src.ID, kind, key))
	if errors.Is(err, calendar.ErrNotFound) {
		return nil, nil
	}
	return it, err
}

// create makes a new item's event: held for its batch when its write
// makes nothing else (outcomeHeld), else written alone after the batch.
func (r *reconciler) create(ctx context.Context, it *importItem, hash string) (outcome, reason string, err error) {
	in, err := r.input(ctx, it, true)
	if err != nil {
		return "", "", err
	}
	in.importedAs = &calendar.ImportedAs{Item: calendar.ImportItemOf(r.src.ID, calendar.PostTypeEvent, it.Key), Version: it.Version, Hash: hash}
	if r.batched(it) {
		err := r.hold(ctx, it, in)
		if !errors.Is(err, errWouldCreate) {
			return outcomeHeld, "", err
		}
	}
	if err := r.flush(ctx); err != nil {
		return "", "", err
	}
	view, err := r.events.Create(ctx, r.caller, in)
	if err != nil {
		return "", "", err
	}
	written, err := r.store.Posts().Get(ctx, view.ID)
	if err != nil {
		return "", "", err
	}
	if err := r.store.ImportItems().Insert(ctx, &calendar.ImportItem{Source: r.src.ID, Kind: calendar.PostTypeEvent, Key: it.Key,
		Post: view.ID, Version: it.Version, Hash: hash, Revisions: written.Revisions}); err != nil {
		return "", "", err
	}
	return OutcomeCreated, "", r.linked(ctx, it, written)
}

func (r *reconciler) update(ctx context.Context, it *importItem, known *calendar.ImportItem, post *calendar.Post, hash string) error {
	in, err := r.input(ctx, it, false)
	if err != nil {
		return err
	}
	if post.Status == calendar.StatusTrash { // trashed as it left the source: back as it was
		status := r.src.Status
		in.Status = status
	}
	if _, err := r.events.Update(ctx, r.caller, PostRef{ID: post.ID}, in); err != nil {
		return err
	}
	written, err := r.store.Posts().Get(ctx, post.ID)
	if err != nil {
		return err
	}
	if err := r.editImportItem(ctx, known, func(cur *calendar.ImportItem) error {
		cur.Version, cur.Hash, cur.Revisions, cur.Removed = it.Version, hash, written.Revisions, false
		return nil
	}); err != nil {
		return err
	}
	return r.linked(ctx, it, written)
}

// linked remembers the venue and organizers an item's write linked, by
// their identity at the source, so the next run names them by ID.
func (r *reconciler) linked(ctx context.Context, it *importItem, written *calendar.Post) error {
	remember := func(kind, key string, id int64) error {
		if key == "" || id == 0 {
			return nil
		}
		if known, err := r.item(ctx, kind, key); err != nil || known != nil {
			return err
		}
		err := r.store.ImportItems().Insert(ctx, &calendar.ImportItem{Source: r.src.ID, Kind: kind, Key: key, Post: id})
		if errors.Is(err, calendar.ErrConflict) {
			return nil
		}
		return err
	}
	if it.Venue != nil {
		if err := remember(calendar.PostTypeVenue, placeKey(it.Venue), written.Venue); err != nil {
			return err
		}
	}
	for i, o := range it.Organizers {
		if i < len(written.Organizers) {
			if err := remember(calendar.PostTypeOrganizer, placeKey(&o), written.Organizers[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// input is the events write an item makes: the source's defaults on a
// create (status, categories and tags beside the item's own).
func (r *reconciler) input(ctx context.Context, it *importItem, create bool) (EventInput, error) {
	description := filterForeignHTML(it.Description)
	in := EventInput{
		PostFields: PostFields{Title: &it.Title, Description: &description},
		StartDate:  &it.Start, EndDate: &it.End, Timezone: &it.Zone, AllDay: &it.AllDay,
	}
	if it.Excerpt != "" {
		excerpt := filterForeignHTML(it.Excerpt)
		in.Excerpt = &excerpt
	}
	if create {
		in.Status = r.src.Status
	}
	if it.URL != "" {
		in.Website = &it.URL
	}
	if it.Image != "" {
		in.Image = &it.Image
	}
	if it.Cost != "" {
		in.Cost = &[]string{it.Cost}
	}
	status := ""
	if it.Canceled {
		status = calendar.EventCanceled
	}
	in.EventStatus = &status
	categories := append(slices.Clone(r.src.Categories), it.Categories...)
	tags := append(slices.Clone(r.src.Tags), it.Tags...)
	in.Categories, in.Tags = &categories, &tags
	if it.Series != "" {
		series, err := r.item(ctx, calendar.PostTypeEvent, it.Series)
		if err != nil {
			return in, err
		}
		if series == nil {
			return in, calendar.ErrInvalidParam("post_parent", "the series this instance overrides was not imported.")
		}
		in.Parent = &series.Post
	} else {
		lines := slices.Clone(it.Recurrence)
		if lines == nil {
			lines = []string{}
		}
		in.Recurrence = &lines
	}
	if it.Venue != nil {
		ref, err := r.linkRef(ctx, calendar.PostTypeVenue, it.Venue)
		if err != nil {
			return in, err
		}
		in.Venue = &ref
	}
	if len(it.Organizers) > 0 {
		refs := make([]LinkRef, 0, len(it.Organizers))
		for _, o := range it.Organizers {
			ref, err := r.linkRef(ctx, calendar.PostTypeOrganizer, &o)
			if err != nil {
				return in, err
			}
			refs = append(refs, ref)
		}
		in.Organizers = &refs
	}
	return in, nil
}

// linkRef names a venue or an organizer: the one the source's identity of
// it became here, else its fields (the events write reuses one of that
// name, and, for a venue, of that city).
func (r *reconciler) linkRef(ctx context.Context, kind string, p *importPlace) (LinkRef, error) {
	if key := placeKey(p); key != "" {
		known, err := r.item(ctx, kind, key)
		if err != nil {
			return LinkRef{}, err
		}
		if known != nil {
			if post, err := r.store.Posts().Get(ctx, known.Post); err == nil && post.Status != calendar.StatusTrash {
				return LinkRef{ID: known.Post}, nil
			}
		}
	}
	if id, err := r.sameNameAndCity(ctx, kind, p); err != nil || id != 0 {
		return LinkRef{ID: id}, err
	}
	name := p.Name
	in := &LinkedInput{PostFields: PostFields{Title: &name}, Meta: p.Meta, GeoLat: p.Lat, GeoLng: p.Lng}
	return LinkRef{New: in}, nil
}

// sameNameAndCity is the venue of that name in that city the author may
// link (0: none, or the source names no city): among venues of one name,
// the one of the item's city is taken before the write's own rule (the
// first of that name) would take another.
func (r *reconciler) sameNameAndCity(ctx context.Context, kind string, p *importPlace) (int64, error) {
	city := calendar.FoldTitle(p.Meta["city"])
	if kind != calendar.PostTypeVenue || city == "" {
		return 0, nil
	}
	actor := r.caller.User
	found, err := r.events.index.SearchPosts(ctx, calendar.PostQuery{Type: kind, TitleKey: calendar.FoldTitle(p.Name),
		Statuses: calendar.OwnStatuses, Reader: calendar.ReadRuleOf(actor), Limit: 20})
	if err != nil || len(found.IDs) == 0 {
		return 0, err
	}
	candidates, err := r.store.Posts().GetMany(ctx, found.IDs)
	if err != nil {
		return 0, err
	}
	for _, c := range candidates {
		if calendar.FoldTitle(c.Meta["city"]) == city {
			return c.ID, nil
		}
	}
	return 0, nil
}

// placeKey is a venue's or an organizer's identity at the source: its own,
// else what the source says of it (a changed address is another key, so
// the write by name takes the new details).
func placeKey(p *importPlace) string {
	if p.Key != "" {
		return p.Key
	}
	key := "as:" + calendar.FoldTitle(p.Name)
	for _, name := range slices.Sorted(mapsKeys(p.Meta)) {
		key += "|" + name + "=" + p.Meta[name]
	}
	if p.Lat != nil && p.Lng != nil {
		key += fmt.Sprintf("|%g,%g", *p.Lat, *p.Lng)
	}
	return key
}

// removed applies on_removed to the items a run no longer found.
func (r *reconciler) removed(ctx context.Context, seen map[string]bool) error {
	return r.eachItem(ctx, r.src.ID, func(known *calendar.ImportItem) error {
		if known.Kind != calendar.PostTypeEvent || known.Removed || seen[known.Key] {
			return nil
		}
		it := &importItem{Key: known.Key}
		post, err := r.store.Posts().Get(ctx, known.Post)
		switch {
		case errors.Is(err, calendar.ErrNotFound):
			return nil
		case err != nil:
			return err
		}
		it.Title = post.Title
		if post.Revisions != known.Revisions && !r.src.OverwriteLocalEdits {
			r.result.note(OutcomeSkipped, it, "left the source, edited here since its import")
			return nil
		}
		if !r.write {
			r.result.note(OutcomeRemoved, it, r.src.OnRemoved)
			return nil
		}
		switch r.src.OnRemoved {
		case "trash":
			if post.Status != calendar.StatusTrash {
				_, err = r.events.Delete(ctx, r.caller, PostRef{ID: post.ID}, false)
			}
		case "cancel":
			canceled := calendar.EventCanceled
			_, err = r.events.Update(ctx, r.caller, PostRef{ID: post.ID}, EventInput{EventStatus: &canceled})
		}
		if err != nil {
			if !isItemError(err) {
				return err
			}
			r.result.note(OutcomeFailed, it, calendar.AsError(err).Message)
			return nil
		}
		written := post.Revisions
		if after, err := r.store.Posts().Get(ctx, post.ID); err == nil {
			written = after.Revisions
		}
		if err := r.editImportItem(ctx, known, func(cur *calendar.ImportItem) error {
			cur.Removed, cur.Hash, cur.Revisions = true, "", written
			return nil
		}); err != nil {
			return err
		}
		r.result.note(OutcomeRemoved, it, r.src.OnRemoved)
		return nil
	})
}
