package app

import (
	"context"
	"time"

	"calendar/app/calendar"
)

// The actions of the change feed.
const (
	ActionCreated = "created"
	ActionUpdated = "updated"
	ActionTrashed = "trashed"
	ActionDeleted = "deleted"
)

// ChangeView is one entry of the feed: the latest state of one item.
type ChangeView struct {
	Seq    int64  `json:"seq"`
	ID     int64  `json:"id"`
	Type   string `json:"type"`
	Action string `json:"action"`
	// Object is the item as its route answers the caller, with
	// embed=object; none for a deleted one.
	Object any `json:"object,omitempty"`
}

// ChangesPage is one page of the feed; LastSeq is the since of the next one.
type ChangesPage struct {
	Changes []ChangeView
	LastSeq int64
	More    bool
	// StoreSeq is the highest sequence of the store when the page was read.
	StoreSeq int64
	PerPage  int
}

// Changes answers the change feed from since on: one entry per event, venue,
// organizer, category or tag written after since, at its latest write, in
// sequence order (users are never listed). Each entry says what the caller
// should do with the item now:
//   - created: it did not exist at since; updated: it did; either way, fetch it;
//   - trashed: it is in the trash (only callers who read the trash see this);
//   - deleted: it is gone for good, or the caller may no longer read it
//     (unpublished, made private, trashed for a visitor). Removing it keeps a
//     mirror equal to what the caller can list; the price is that the caller
//     learns that an item it once could read changed. A post it never could
//     read (another author's draft) is not listed, live or deleted (toldGone).
func (a *App) Changes(ctx context.Context, caller Caller, req ChangesRequest) (*ChangesPage, error) {
	since := req.Since
	if err := a.withinRetention(ctx, since); err != nil {
		return nil, err
	}
	perPage := int64(calendar.DefaultChangesPerPage) // since and per_page are bounded by the route
	if req.PerPage != nil {
		perPage = *req.PerPage
	}
	storeSeq, err := a.store.LastSeq(ctx)
	if err != nil {
		return nil, err
	}
	page := &ChangesPage{Changes: []ChangeView{}, LastSeq: since, StoreSeq: storeSeq, PerPage: int(perPage)}
	for len(page.Changes) < int(perPage) {
		want := int(perPage) - len(page.Changes)
		batch, err := a.store.Changes(ctx, page.LastSeq, want)
		if err != nil {
			return nil, err
		}
		if err := a.describeChanges(ctx, caller, req, batch, page); err != nil {
			return nil, err
		}
		if len(batch) < want {
			return page, nil
		}
	}
	rest, err := a.store.Changes(ctx, page.LastSeq, 1)
	page.More = len(rest) > 0
	return page, err
}

// DefaultChangesRetention is how long the feed keeps deletes by default.
const DefaultChangesRetention = 90 * 24 * time.Hour

// PruneChanges removes the tombstones older than the retention (the
// service does it hourly) and answers the feed's horizon.
func (a *App) PruneChanges(ctx context.Context) (int64, error) {
	return a.store.PruneChanges(ctx, time.Now().Add(-a.settings.ChangesRetention))
}

// withinRetention refuses a sync from a point older than the deletes the
// feed keeps (since 0 reads everything there is, and misses nothing a
// mirror holds).
func (a *App) withinRetention(ctx context.Context, since int64) error {
	if since == 0 {
		return nil
	}
	horizon, err := a.store.Horizon(ctx)
	if err != nil || since >= horizon {
		return err
	}
	return ErrSyncExpired(horizon)
}

// ErrSyncExpired answers a sync from before the feed's horizon: the way
// back is a fresh read.
func ErrSyncExpired(horizon int64) *calendar.Error {
	return calendar.NewError(calendar.KindGone, "rest_sync_expired",
		"The change feed no longer keeps the deletes since this point (its retention has passed): read the lists again with modified_after (the time of your last sync) or from since=0, then follow the feed from its last_seq.").
		With("horizon", horizon)
}

// describeChanges appends the entries of one batch of the store's feed.
func (a *App) describeChanges(ctx context.Context, caller Caller, req ChangesRequest, batch []calendar.Change, page *ChangesPage) error {
	actor, since := caller.User, req.Since
	postIDs, termIDs := changedIDs(batch)
	posts, err := a.store.Posts().GetMany(ctx, postIDs)
	if err != nil {
		return err
	}
	terms, err := a.store.Terms().GetMany(ctx, termIDs)
	if err != nil {
		return err
	}
	hiddenCategory, err := a.Categories.hidden(ctx, actor)
	if err != nil {
		return err
	}
	hiddenTag, err := a.Tags.hidden(ctx, actor)
	if err != nil {
		return err
	}
	hidden := func(t *calendar.Term) bool {
		if t.Taxonomy == calendar.TaxonomyTag {
			return hiddenTag(t)
		}
		return hiddenCategory(t)
	}
	livePosts, liveTerms := map[int64]*calendar.Post{}, map[int64]*calendar.Term{}
	for _, p := range posts {
		livePosts[p.ID] = p
	}
	for _, t := range terms {
		liveTerms[t.ID] = t
	}
	for _, c := range batch {
		page.LastSeq = c.Seq
		entry := ChangeView{Seq: c.Seq, ID: c.ID, Action: ActionDeleted}
		switch c.Collection {
		case calendar.CollectionPosts:
			if p := livePosts[c.ID]; p != nil {
				entry.Type, entry.Action = p.Type, postAction(actor, p, since)
				if entry.Action == ActionDeleted && !toldGone(calendar.ReadRuleOf(actor), p.DocStanding()) {
					continue // as its tombstone will be: never readable to the caller
				}
				if req.EmbedObject && entry.Action != ActionDeleted {
					if entry.Object, err = a.items.post(ctx, caller, p); err != nil {
						return err
					}
				}
			} else if c.Deleted {
				if !toldGone(calendar.ReadRuleOf(actor), c.Standing) {
					continue // a post the caller never could read: nothing of it
				}
				entry.Type = kindType(c.Kind, "post")
			} else {
				continue // deleted since the feed was read: its tombstone follows
			}
		case calendar.CollectionTerms:
			if t := liveTerms[c.ID]; t != nil {
				entry.Type, entry.Action = kindType(t.Taxonomy, "term"), ActionUpdated
				switch {
				case hidden(t):
					entry.Action = ActionDeleted // as a post the caller may not read
				case t.CreatedSeq > since:
					entry.Action = ActionCreated
				}
				if req.EmbedObject && entry.Action != ActionDeleted {
					if entry.Object, err = a.items.term(ctx, caller, t); err != nil {
						return err
					}
				}
			} else if c.Deleted {
				entry.Type = kindType(c.Kind, "term")
			} else {
				continue
			}
		default:
			continue // users, the declarations, the synonyms: not items of the calendar
		}
		page.Changes = append(page.Changes, entry)
	}
	return nil
}

func postAction(actor *calendar.User, p *calendar.Post, since int64) string {
	switch {
	case !calendar.CanRead(actor, p):
		return ActionDeleted
	case p.Status == calendar.StatusTrash:
		return ActionTrashed
	case p.CreatedSeq > since:
		return ActionCreated
	}
	return ActionUpdated
}

// toldGone reports whether a reader of the change feed under rule (a
// caller of the feed, a subscription's owner) is told that a post it may
// not read is gone: only when it could read the post at some point of its
// life, at deletion or before, so it may hold it. A post another author
// never let it read never reaches it; one it could read it may be told of
// again (its delete after its unpublishing), which a reader that holds
// nothing of it ignores. When that is not known (a post keeps its last
// MaxStandings changes of status and author: it kept as many; a tombstone
// written before standings were kept), it may have.
func toldGone(rule calendar.ReadRule, s calendar.Standings) bool {
	if s.Status == "" || len(s.Before) >= calendar.MaxStandings || rule.Allows(s.Status, s.Author) {
		return true
	}
	for _, b := range s.Before {
		if rule.Allows(b.Status, b.Author) {
			return true
		}
	}
	return false
}

// kindType names a post type or taxonomy as the feed does; a tombstone written
// before kinds were kept says only "post" or "term".
func kindType(kind, unknown string) string {
	switch kind {
	case calendar.PostTypeEvent, calendar.PostTypeVenue, calendar.PostTypeOrganizer, calendar.PostTypeAttachment:
		return kind
	case calendar.TaxonomyCategory:
		return "category"
	case calendar.TaxonomyTag:
		return "tag"
	}
	return unknown
}
