package app

import (
	"context"

	"calendar/app/calendar"
)

// Deleting a venue or an organizer: its events are unlinked first.

// Delete moves to the trash (410 when already there), or deletes permanently
// with force=true.
func (s *LinkedPosts[V]) Delete(ctx context.Context, caller Caller, ref PostRef, force bool) (Removal[V], error) {
	var none Removal[V]
	actor := caller.User
	// The ID (or slug) first: the plugin's id argument is checked before
	// the permission, so an anonymous DELETE of one that names nothing is
	// 400, not 401 (itemErrors).
	p, err := s.load(ctx, caller.User, s.kind.postType, ref)
	if err != nil {
		return none, err
	}
	if actor == nil {
		return none, calendar.ErrForbidden(nil)
	}
	if !canDelete(actor, p) {
		return none, calendar.ErrForbidden(actor)
	}
	if !force && p.Status == calendar.StatusTrash {
		return none, errInTrash(s.kind.postType)
	}
	if err := caller.Expect.holds(p.Seq, p.Modified); err != nil {
		return none, err // before its events are unlinked
	}
	if err := s.unlink(ctx, p.ID); err != nil {
		return none, err
	}
	mayDelete := func(p *calendar.Post) error {
		if !canDelete(actor, p) {
			return calendar.ErrForbidden(actor)
		}
		return nil
	}
	if force {
		var previous V
		err := s.discard(ctx, p, postWrite{expect: caller.Expect}, func(cur *calendar.Post) error {
			previous = s.render(cur, renderAs{home: s.home(caller)})
			return mayDelete(cur)
		})
		if err != nil {
			return none, err
		}
		return Removal[V]{ForGood: &Deleted[V]{Deleted: true, Previous: previous}}, nil
	}
	err = s.edit(ctx, p, postWrite{expect: caller.Expect}, func(p *calendar.Post) error {
		if p.Status == calendar.StatusTrash {
			return errInTrash(s.kind.postType)
		}
		p.Status = calendar.StatusTrash
		return mayDelete(p)
	})
	if err != nil {
		return none, err
	}
	return Removal[V]{Trashed: s.render(p, renderAs{home: s.home(caller)})}, nil
}

// unlink removes a trashed or deleted venue or organizer from the events.
func (s *LinkedPosts[V]) unlink(ctx context.Context, id int64) error {
	if s.kind.postType == calendar.PostTypeVenue {
		return s.forEachPost(ctx, s.editEvent, func(q *calendar.PostQuery) { q.Venues = []int64{id} }, func(e *calendar.Post) error {
			if e.Venue != id {
				return errUnchanged
			}
			e.Venue = 0
			return nil
		})
	}
	return s.forEachPost(ctx, s.editEvent, func(q *calendar.PostQuery) { q.Organizers = []int64{id} }, func(e *calendar.Post) error {
		if !containsID(e.Organizers, id) {
			return errUnchanged
		}
		e.Organizers = withoutID(e.Organizers, id)
		return nil
	})
}
