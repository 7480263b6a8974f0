package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Events is the service of events: the heart of the calendar.
type Events struct {
	postService
	venues     *LinkedPosts[VenueView]
	organizers *LinkedPosts[OrganizerView]
	categories *Terms
	tags       *Terms
}

// loadEvent finds an event by ID (404 when there is no such post, 400 when it
// is not an event) or by slug (400 when none).
func (s *Events) loadEvent(ctx context.Context, ref PostRef) (*Post, error) {
	if ref.bySlug() {
		return s.load(ctx, PostTypeEvent, ref)
	}
	p, err := s.store.Posts().Get(ctx, ref.ID)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, NewError(KindNotFound, "rest-event-not-found", fmt.Sprintf("Event with ID %d does not exist.", ref.ID))
	case err != nil:
		return nil, err
	case p.Type != PostTypeEvent:
		return nil, NewError(KindInvalid, "rest-invalid-event-id", "The specified ID is not a valid event.")
	}
	return p, nil
}

// Get answers a single event with its json_ld; password is the one the
// caller sent ("" when none).
func (s *Events) Get(ctx context.Context, caller Caller, ref PostRef, password string) (*EventView, error) {
	actor := caller.User
	p, err := s.loadEvent(ctx, ref)
	if err != nil {
		return nil, err
	}
	switch {
	case p.Status == StatusTrash && !actor.Can(CapEditOthersPosts):
		return nil, NewError(KindForbidden, "event-no-longer-available", "This event is no longer available")
	case !canRead(actor, p):
		return nil, NewError(KindForbidden, "event-not-accessible", "The requested event is not accessible")
	}
	if ok, err := s.unlocked(caller, p, password); err != nil {
		return nil, err
	} else if !ok {
		return nil, NewError(KindForbidden, "event-password-protected", "The requested event is not accessible without a password")
	}
	views, err := s.render(ctx, caller, []*Post{p}, password, true)
	if err != nil {
		return nil, err
	}
	return &views[0], nil
}

// Create stores a new event and links or creates its venue, organizers and terms.
func (s *Events) Create(ctx context.Context, caller Caller, raw EventInput) (*EventView, error) {
	actor := caller.User
	if actor == nil {
		return nil, ErrForbidden(nil)
	}
	in, err := s.checkEventInput(ctx, raw, nil)
	if err != nil {
		return nil, err
	}
	if !actor.Can(CapEditPosts) {
		return nil, ErrForbidden(actor)
	}
	status, err := s.permitEvent(ctx, actor, in, true)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC().Truncate(time.Second)
	p := &Post{Type: PostTypeEvent, Author: actor.ID, Date: now, Modified: now, TimeZone: s.settings.TimeZone.String()}
	if err := s.apply(ctx, caller, p, in); err != nil {
		return nil, err
	}
	p.Status = status
	if err := s.applySeries(ctx, actor, p, in); err != nil {
		return nil, err
	}
	base := SanitizeTitle(p.Title)
	if in.slug != nil {
		base = SanitizeTitle(*in.slug)
	}
	if err := s.insert(ctx, p, base); err != nil {
		return nil, err
	}
	if isSeries(p) {
		if err := s.materialize(ctx, p, p.Start); err != nil {
			return nil, err
		}
	}
	return s.one(ctx, caller, p)
}

// Update changes only the fields sent. A missing event is a 404 for those who
// may edit events, a 401/403 for the others.
func (s *Events) Update(ctx context.Context, caller Caller, ref PostRef, raw EventInput) (*EventView, error) {
	actor := caller.User
	p, err := s.loadForWrite(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	in, err := s.checkEventInput(ctx, raw, p)
	if err != nil {
		return nil, err
	}
	if !canEdit(actor, p) {
		return nil, ErrForbidden(actor)
	}
	status, err := s.permitEvent(ctx, actor, in, false)
	if err != nil {
		return nil, err
	}
	before := *p
	if err := s.apply(ctx, caller, p, in); err != nil {
		return nil, err
	}
	if status != "" {
		p.Status = status
	}
	if err := s.applySeries(ctx, actor, p, in); err != nil {
		return nil, err
	}
	if in.slug != nil && SanitizeTitle(*in.slug) != p.Slug {
		if err := s.reslug(ctx, p, SanitizeTitle(*in.slug)); err != nil {
			return nil, err
		}
	}
	if err := s.save(ctx, p); err != nil {
		return nil, err
	}
	if err := s.afterEventWrite(ctx, &before, p); err != nil {
		return nil, err
	}
	return s.one(ctx, caller, p)
}

// loadForWrite loads the event an update or a delete names. Anonymous
// callers are refused before anything is read.
func (s *Events) loadForWrite(ctx context.Context, actor *User, ref PostRef) (*Post, error) {
	if actor == nil {
		return nil, ErrForbidden(nil)
	}
	p, err := s.loadEvent(ctx, ref)
	var e *Error
	if errors.As(err, &e) && e.Kind == KindNotFound && !actor.Can(CapEditPosts) {
		return nil, ErrForbidden(actor)
	}
	return p, err
}

// reslug gives the event a new unique slug.
func (s *Events) reslug(ctx context.Context, p *Post, base string) error {
	slug, _, err := uniqueSlug(ctx, base, 1, func(ctx context.Context, slug string) (bool, error) {
		other, err := s.store.Posts().FindByKey(ctx, "type_slug", PostTypeEvent+"/"+slug)
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		return err == nil && other.ID != p.ID, err
	})
	p.Slug = slug
	return err
}

// Delete moves an event to the trash (410 when already there), or deletes it
// for good when force.
func (s *Events) Delete(ctx context.Context, caller Caller, ref PostRef, force bool) (any, error) {
	actor := caller.User
	p, err := s.loadForWrite(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	if !canDelete(actor, p) {
		return nil, ErrForbidden(actor)
	}
	if force {
		previous, err := s.one(ctx, caller, p)
		if err != nil {
			return nil, err
		}
		if err := s.remove(ctx, p); err != nil {
			return nil, err
		}
		return Deleted[*EventView]{Deleted: true, Previous: previous}, s.afterEventDelete(ctx, p, true)
	}
	if p.Status == StatusTrash {
		return nil, errInTrash("event")
	}
	p.Status = StatusTrash
	if err := s.save(ctx, p); err != nil {
		return nil, err
	}
	if err := s.afterEventDelete(ctx, p, false); err != nil {
		return nil, err
	}
	return s.one(ctx, caller, p)
}

func (s *Events) one(ctx context.Context, caller Caller, p *Post) (*EventView, error) {
	views, err := s.render(ctx, caller, []*Post{p}, "", false)
	if err != nil {
		return nil, err
	}
	return &views[0], nil
}

// apply writes the sent fields onto the event: linked posts and terms are
// resolved (created when sent as fields), dates derived in the event's zone.
func (s *Events) apply(ctx context.Context, caller Caller, p *Post, in *eventInput) error {
	actor := caller.User
	if err := s.checkCreates(ctx, in); err != nil {
		return err
	}
	in.postFields.apply(p)
	if in.website != nil {
		w := *in.website
		p.Website = &w
	}
	for f, b := range in.flags {
		switch f {
		case "show_map":
			p.ShowMap = boolPtr(b)
		case "show_map_link":
			p.ShowMapLink = boolPtr(b)
		case "hide_from_listings":
			p.HideFromListings = b
		case "sticky":
			p.Sticky = b
		case "featured":
			p.Featured = b
		}
	}
	if in.cost != nil {
		p.Cost = *in.cost
		p.CostSymbol, p.CostPosition = inferCurrency(p.Cost)
	}
	if err := s.applySchedule(p, in); err != nil {
		return err
	}
	if in.venue != nil {
		p.Venue, p.VenueGeo = 0, nil
		if in.venue.ID != 0 || in.venue.New != nil {
			id, err := resolveLink(ctx, caller, s.venues, *in.venue, "venue")
			if err != nil {
				return err
			}
			venue, err := s.store.Posts().Get(ctx, id)
			if err != nil {
				return err
			}
			p.Venue, p.VenueGeo = id, venue.Geo
		}
	}
	if in.organizers != nil {
		p.Organizers = []int64{}
		for _, ref := range *in.organizers {
			id, err := resolveLink(ctx, caller, s.organizers, ref, "organizer")
			if err != nil {
				return err
			}
			if !containsID(p.Organizers, id) {
				p.Organizers = append(p.Organizers, id)
			}
		}
	}
	for _, t := range []struct {
		refs  *[]string
		terms *Terms
		dst   *[]int64
		param string
	}{{in.categories, s.categories, &p.Categories, "categories"}, {in.tags, s.tags, &p.Tags, "tags"}} {
		if t.refs != nil {
			ids, err := s.resolveTerms(ctx, actor, t.terms, *t.refs, t.param)
			if err != nil {
				return err
			}
			*t.dst = ids
		}
	}
	return nil
}

// applySchedule sets the zone, start and end. A new zone keeps the local times
// when no dates are sent; all-day events run from 00:00:00 to 23:59:59.
func (s *Events) applySchedule(p *Post, in *eventInput) error {
	zone := in.zone
	oldZone, err := ParseZone(p.TimeZone)
	if err != nil {
		oldZone = s.settings.TimeZone
	}
	start, end := p.Start.In(oldZone), p.End.In(oldZone)
	if in.zoneName != nil {
		p.TimeZone = zone.String()
		start = sameWallClock(start, zone)
		end = sameWallClock(end, zone)
	}
	if in.start != nil {
		start = in.start.In(zone)
	}
	if in.end != nil {
		end = in.end.In(zone)
	}
	if in.allDay != nil {
		p.AllDay = *in.allDay
	}
	if p.AllDay {
		y, m, d := start.Date()
		start = wallClock(y, int(m), d, 0, 0, 0, zone)
		y, m, d = end.Date()
		end = wallClock(y, int(m), d, 23, 59, 59, zone)
	}
	if end.Before(start) {
		return ErrInvalidParam("end_date", "end_date must not be before start_date.")
	}
	p.Start, p.End = start.UTC().Truncate(time.Second), end.UTC().Truncate(time.Second)
	return nil
}

// checkCreates refuses, before anything is written, a write that would create
// more than MaxCreatedPerWrite venues, organizers and terms (sent as fields,
// or as names no term has yet).
func (s *Events) checkCreates(ctx context.Context, in *eventInput) error {
	creating := map[string]int{}
	if in.venue != nil && in.venue.New != nil {
		creating["venue"]++
	}
	if in.organizers != nil {
		for _, ref := range *in.organizers {
			if ref.New != nil {
				creating["organizer"]++
			}
		}
	}
	for param, t := range map[string]struct {
		refs  *[]string
		terms *Terms
	}{"categories": {in.categories, s.categories}, "tags": {in.tags, s.tags}} {
		for _, ref := range derefOr(t.refs) {
			_, err := t.terms.find(ctx, strings.TrimSpace(ref))
			switch {
			case errors.Is(err, errUnknownTerm):
				creating[param]++
			case err != nil:
				return err
			}
		}
	}
	total := 0
	for _, n := range creating {
		total += n
	}
	if total <= MaxCreatedPerWrite {
		return nil
	}
	var bad InvalidParams
	for _, param := range []string{"venue", "organizer", "categories", "tags"} {
		if creating[param] > 0 {
			bad.Add(param, fmt.Sprintf("one write creates at most %d venues, organizers and terms.", MaxCreatedPerWrite), nil)
		}
	}
	return bad.Err()
}

func derefOr(list *[]string) []string {
	if list == nil {
		return nil
	}
	return *list
}

func sameWallClock(t time.Time, zone *time.Location) time.Time {
	if t.IsZero() {
		return t
	}
	y, m, d := t.Date()
	h, mi, sec := t.Clock()
	return wallClock(y, int(m), d, h, mi, sec, zone)
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
