package app

import (
	"context"

	"calendar/app/calendar"
)

// Deleting an event: to the trash, or for good (a series with its occurrences).

// Delete moves an event to the trash (410 when already there), or deletes it
// for good when force. A series takes its occurrences along; an occurrence
// leaves its start excluded from its series.
func (s *Events) Delete(ctx context.Context, caller Caller, ref PostRef, force bool) (Removal[*EventView], error) {
	var none Removal[*EventView]
	actor := caller.User
	p, err := s.loadForWrite(ctx, actor, ref)
	if err != nil {
		return none, err
	}
	if !canDelete(actor, p) {
		return none, calendar.ErrForbidden(actor)
	}
	if force {
		return s.deleteForGood(ctx, caller, p)
	}
	token := newLeaseToken()
	err = s.edit(ctx, p, postWrite{expect: caller.Expect, lease: token}, func(p *calendar.Post) error {
		switch {
		case !canDelete(actor, p):
			return calendar.ErrForbidden(actor)
		case p.Status == calendar.StatusTrash:
			return errInTrash("event")
		}
		p.Status = calendar.StatusTrash
		if isSeries(p) {
			p.Lease = leaseFor(token)
		}
		if p.Parent != 0 { // trashed on its own: its series' edits leave it so
			p.Detached = true
		}
		return nil
	})
	if err != nil {
		return none, err
	}
	if isSeries(p) {
		ctx := context.WithoutCancel(ctx)
		job, err := s.job(ctx, p, token)
		if err == nil {
			err = job.trashAll(ctx)
		}
		err = job.finish(ctx, err, nil)
		if err != nil {
			return none, err
		}
	} else if err := s.leaveSeries(ctx, p); err != nil {
		return none, err
	}
	trashed, err := s.one(ctx, caller, p)
	return Removal[*EventView]{Trashed: trashed}, err
}

// deleteForGood deletes an event and answers it as it was.
func (s *Events) deleteForGood(ctx context.Context, caller Caller, p *calendar.Post) (Removal[*EventView], error) {
	var none Removal[*EventView]
	actor := caller.User
	var previous *EventView
	err := s.discard(ctx, p, postWrite{expect: caller.Expect}, func(cur *calendar.Post) error {
		if !canDelete(actor, cur) {
			return calendar.ErrForbidden(actor)
		}
		var err error
		previous, err = s.one(ctx, caller, cur)
		*p = *cur
		return err
	})
	if err != nil {
		return none, err
	}
	if isSeries(p) {
		err = s.removeAll(context.WithoutCancel(ctx), p) // deleted: its occurrences must go too
	} else {
		err = s.leaveSeries(ctx, p)
	}
	return Removal[*EventView]{ForGood: &Deleted[*EventView]{Deleted: true, Previous: previous}}, err
}
