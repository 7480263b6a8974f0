package app

import (
	"context"
	"errors"

	"calendar/app/calendar"
)

// Events is the service of events: the heart of the calendar.
type Events struct {
	postService
	// images reads the image a write sends, and sideloads it.
	images     postImages
	venues     *LinkedPosts[VenueView]
	organizers *LinkedPosts[OrganizerView]
	categories *Terms
	tags       *Terms
	quota      *seriesQuota
	synonyms   *Synonyms
}

// loadEvent finds an event by ID (404 when there is no such post, 400 when it
// is not an event) or by slug (400 when none).
func (s *Events) loadEvent(ctx context.Context, actor *calendar.User, ref PostRef) (*calendar.Post, error) {
	if ref.bySlug() {
		return s.load(ctx, actor, calendar.PostTypeEvent, ref)
	}
	p, err := s.store.Posts().Get(ctx, ref.ID)
	switch {
	case errors.Is(err, calendar.ErrNotFound):
		return nil, itemErrors.eventMissing(ref.ID)
	case err != nil:
		return nil, err
	case p.Type != calendar.PostTypeEvent:
		return nil, itemErrors.eventWrongType()
	}
	return p, nil
}

// Get answers a single event with its json_ld; password is the one the
// caller sent ("" when none).
func (s *Events) Get(ctx context.Context, caller Caller, ref PostRef, password string) (*EventView, error) {
	p, err := s.readable(ctx, caller, ref, password)
	if err != nil {
		return nil, err
	}
	views, err := s.render(ctx, caller, []*calendar.Post{p}, password, true)
	if err != nil {
		return nil, err
	}
	return &views[0], nil
}

// readable is the event a single read answers, with its errors: trashed,
// unreadable, or protected by a password the caller did not send.
func (s *Events) readable(ctx context.Context, caller Caller, ref PostRef, password string) (*calendar.Post, error) {
	actor := caller.User
	p, err := s.loadEvent(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	switch {
	case p.Status == calendar.StatusTrash && !actor.Can(calendar.CapEditOthersPosts):
		return nil, itemErrors.eventTrashed()
	case !calendar.CanRead(actor, p):
		return nil, itemErrors.postUnreadable(calendar.PostTypeEvent)
	}
	if ok, err := s.unlocked(caller, p, password); err != nil {
		return nil, err
	} else if !ok {
		return nil, calendar.NewError(calendar.KindForbidden, "event-password-protected", "The requested event is not accessible without a password")
	}
	return p, nil
}

func (s *Events) one(ctx context.Context, caller Caller, p *calendar.Post) (*EventView, error) {
	views, err := s.render(ctx, caller, []*calendar.Post{p}, "", false)
	if err != nil {
		return nil, err
	}
	return &views[0], nil
}
