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

// EventWriteArgs are the parameters of a create (title and dates required) or an update.
func EventWriteArgs(create bool) []Arg {
	args := []Arg{
		{Name: "author", Type: TypeInteger, Description: "ID of the author; only editors may name someone else."},
		{Name: "date", Type: TypeString, Description: "Publication date, in the event's zone."},
		{Name: "date_utc", Type: TypeString, Description: "Publication date in UTC."},
		{Name: "title", Type: TypeString, Required: create},
		{Name: "description", Type: TypeString},
		{Name: "slug", Type: TypeString},
		{Name: "excerpt", Type: TypeString},
		{Name: "status", Type: TypeString, Enum: PostStatuses},
		{Name: "password", Type: TypeString, Description: "Protects the event's details; empty to remove."},
		{Name: "timezone", Type: TypeString, Description: "IANA zone name, UTC, or UTC+N / UTC-N; the site's zone by default."},
		{Name: "all_day", Type: TypeBoolean},
		{Name: "start_date", Type: TypeString, Required: create, Description: "A date PHP's strtotime accepts (2018-01-01 16:00, tomorrow 9am, next wednesday 4pm, +1 week), or a Unix timestamp."},
		{Name: "end_date", Type: TypeString, Required: create, Description: "As start_date; not before it."},
		{Name: "image", Type: TypeString, Description: "Absolute http(s) URL of the image."},
		{Name: "cost", Type: TypeMixed, Description: "A cost, a number, or a list of them (20$, [\"0$\", \"30$\"])."},
		{Name: "website", Type: TypeString, Description: "URL with a scheme; the event's own page when absent."},
		{Name: "show_map", Type: TypeBoolean}, {Name: "show_map_link", Type: TypeBoolean},
		{Name: "hide_from_listings", Type: TypeBoolean}, {Name: "sticky", Type: TypeBoolean}, {Name: "featured", Type: TypeBoolean},
		{Name: "categories", Type: TypeArray, Items: TypeString, Description: "IDs, slugs or names; unknown names are created for those who may manage categories."},
		{Name: "tags", Type: TypeArray, Items: TypeString, Description: "IDs, slugs or names, as categories."},
		{Name: "venue", Type: TypeMixed, Description: "A venue ID, an object of venue fields (or {id}), or a list of one of them; empty to unlink."},
		{Name: "organizer", Type: TypeMixed, Description: "Organizer IDs or objects of organizer fields (or {id}), in order."},
	}
	return args
}

// loadEvent finds an event by ID (404 when there is no such post, 400 when it
// is not an event) or by slug (400 when none).
func (s *Events) loadEvent(ctx context.Context, ref PostRef) (*Post, error) {
	if ref.ID == 0 {
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

// Get answers a single event with its json_ld.
func (s *Events) Get(ctx context.Context, actor *User, ref PostRef, v Values, root string) (*EventView, error) {
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
	if ok, err := s.unlocked(ctx, actor, p, v); err != nil {
		return nil, err
	} else if !ok {
		return nil, NewError(KindForbidden, "event-password-protected", "The requested event is not accessible without a password")
	}
	views, err := s.render(ctx, []*Post{p}, actor, v, true, root)
	if err != nil {
		return nil, err
	}
	return &views[0], nil
}

// Create stores a new event and links or creates its venue, organizers and terms.
func (s *Events) Create(ctx context.Context, actor *User, v Values, root string) (*EventView, error) {
	if actor == nil {
		return nil, ErrForbidden(nil)
	}
	in, err := s.readEventInput(ctx, actor, v, nil)
	if err != nil {
		return nil, err
	}
	if !actor.Can(CapEditPosts) {
		return nil, ErrForbidden(actor)
	}
	status, err := in.permit(actor, true)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC().Truncate(time.Second)
	p := &Post{Type: PostTypeEvent, Author: actor.ID, Date: now, Modified: now, TimeZone: s.settings.TimeZone.String()}
	if err := s.apply(ctx, actor, p, in); err != nil {
		return nil, err
	}
	p.Status = status
	base := SanitizeTitle(p.Title)
	if in.slug != nil {
		base = SanitizeTitle(*in.slug)
	}
	if err := s.insert(ctx, p, base); err != nil {
		return nil, err
	}
	return s.one(ctx, p, actor, root)
}

// Update changes only the fields sent. A missing event is a 404 for those who
// may edit events, a 401/403 for the others.
func (s *Events) Update(ctx context.Context, actor *User, ref PostRef, v Values, root string) (*EventView, error) {
	p, err := s.loadForWrite(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	in, err := s.readEventInput(ctx, actor, v, p)
	if err != nil {
		return nil, err
	}
	if !canEdit(actor, p) {
		return nil, ErrForbidden(actor)
	}
	status, err := in.permit(actor, false)
	if err != nil {
		return nil, err
	}
	if err := s.apply(ctx, actor, p, in); err != nil {
		return nil, err
	}
	if status != "" {
		p.Status = status
	}
	if in.slug != nil && SanitizeTitle(*in.slug) != p.Slug {
		if err := s.reslug(ctx, p, SanitizeTitle(*in.slug)); err != nil {
			return nil, err
		}
	}
	if err := s.save(ctx, p); err != nil {
		return nil, err
	}
	return s.one(ctx, p, actor, root)
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
// for good with force=true.
func (s *Events) Delete(ctx context.Context, actor *User, ref PostRef, v Values, root string) (any, error) {
	p, err := s.loadForWrite(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	if !canDelete(actor, p) {
		return nil, ErrForbidden(actor)
	}
	if force, _ := v.Bool("force"); force {
		previous, err := s.one(ctx, p, actor, root)
		if err != nil {
			return nil, err
		}
		if err := s.remove(ctx, p); err != nil {
			return nil, err
		}
		return Deleted[*EventView]{Deleted: true, Previous: previous}, nil
	}
	if p.Status == StatusTrash {
		return nil, errInTrash("event")
	}
	p.Status = StatusTrash
	if err := s.save(ctx, p); err != nil {
		return nil, err
	}
	return s.one(ctx, p, actor, root)
}

func (s *Events) one(ctx context.Context, p *Post, actor *User, root string) (*EventView, error) {
	views, err := s.render(ctx, []*Post{p}, actor, nil, false, root)
	if err != nil {
		return nil, err
	}
	return &views[0], nil
}

// apply writes the sent fields onto the event: linked posts and terms are
// resolved (created when sent as fields), dates derived in the event's zone.
func (s *Events) apply(ctx context.Context, actor *User, p *Post, in *eventInput) error {
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
		if in.venue.id != 0 || in.venue.data != nil {
			id, err := resolveLink(ctx, actor, s.venues, *in.venue, "venue")
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
			id, err := resolveLink(ctx, actor, s.organizers, ref, "organizer")
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
	if in.venue != nil && in.venue.data != nil {
		creating["venue"]++
	}
	if in.organizers != nil {
		for _, ref := range *in.organizers {
			if ref.data != nil {
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
