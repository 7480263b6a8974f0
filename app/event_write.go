package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/strtotime"
	"calendar/app/wordpress"
)

// Writing an event: create and update, and what they share (resolving the
// venue, organizers and terms a write names, applying fields and schedule).

// Create stores a new event and links or creates its venue, organizers and terms.
func (s *Events) Create(ctx context.Context, caller Caller, raw EventInput) (*EventView, error) {
	p, base, err := s.newEvent(ctx, caller, raw, true)
	if err != nil {
		return nil, err
	}
	actor := caller.User
	// A series is stored holding its own lease: its occurrences are made
	// by the job that stored it, and no other job runs on it meanwhile.
	token := newLeaseToken()
	if isSeries(p) {
		p.Lease = leaseFor(token)
	}
	if err := s.insert(ctx, p, base); err != nil {
		return nil, err
	}
	if isSeries(p) {
		ctx := context.WithoutCancel(ctx)
		job, err := s.job(ctx, p, token)
		until := p.MaterializedUntil
		if err == nil {
			until, err = job.materialize(ctx, p.Start)
		}
		if err != nil { // a create stores the whole series or nothing
			job.release()
			return nil, errors.Join(err, s.removeAll(ctx, p), s.discard(ctx, p, postWrite{lease: token}, nil))
		}
		spent := s.quota.spend(ctx, actor, job.made)
		if err := errors.Join(job.finish(ctx, nil, func(p *calendar.Post) { p.MaterializedUntil = until }), spent); err != nil {
			return nil, err
		}
	}
	return s.one(ctx, caller, p)
}

// newEvent is a create up to its insert: the input checked and permitted,
// its image sideloaded, its venue, organizers and terms resolved and
// applied; it answers the event to store and the base of its slug. With
// creates false, it writes nothing: an event that would create a venue, an
// organizer or a term, or sideload an image, is answered errWouldCreate.
func (s *Events) newEvent(ctx context.Context, caller Caller, raw EventInput, creates bool) (*calendar.Post, string, error) {
	actor := caller.User
	if actor == nil {
		return nil, "", calendar.ErrForbidden(nil)
	}
	in, err := s.checkEventInput(ctx, actor, raw, nil)
	if err != nil {
		return nil, "", err
	}
	if !actor.Can(calendar.CapEditPosts) {
		return nil, "", calendar.ErrForbidden(actor)
	}
	status, err := permitEvent(actor, in, true)
	if err != nil {
		return nil, "", err
	}
	if !creates && in.image != nil && in.image.sideload {
		return nil, "", errWouldCreate
	}
	if err := s.images.sideload(ctx, actor, in.image); err != nil {
		return nil, "", err
	}
	if in.recurrence != nil && len(*in.recurrence) > 0 {
		if !creates {
			return nil, "", errWouldCreate // its occurrences
		}
		if err := s.quota.allow(ctx, actor); err != nil {
			return nil, "", err // before anything is stored
		}
	}
	in.linkOnly = !creates
	links, err := s.resolveLinks(ctx, caller, in)
	if err != nil {
		return nil, "", err
	}
	now := s.now().UTC().Truncate(time.Second)
	p := &calendar.Post{Type: calendar.PostTypeEvent, Author: actor.ID, Date: now, Modified: now, TimeZone: s.settings.TimeZone.String(),
		Imported: raw.importedAs}
	if err := s.applyEventInput(p, in, links); err != nil {
		return nil, "", err
	}
	p.Status = status
	if err := s.applySeries(ctx, actor, nil, p, in); err != nil {
		return nil, "", err
	}
	base := wordpress.SanitizeTitle(p.Title)
	if in.slug != nil {
		base = wordpress.SanitizeTitle(*in.slug)
	}
	return p, base, nil
}

// Update changes only the fields sent, on the event as stored: after a
// write that came in between, the same fields are applied again to it. A
// missing event is a 404 for those who may edit events, a 401/403 for the
// others.
func (s *Events) Update(ctx context.Context, caller Caller, ref PostRef, raw EventInput) (*EventView, error) {
	actor := caller.User
	p, err := s.loadForWrite(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	if err := caller.Expect.holds(p.Seq, p.Modified); err != nil {
		return nil, err // before anything is written, a venue or a term created
	}
	in, err := s.checkEventInput(ctx, actor, raw, p)
	if err != nil {
		return nil, err
	}
	if !canEdit(actor, p) {
		return nil, calendar.ErrForbidden(actor)
	}
	status, err := permitEvent(actor, in, false)
	if err != nil {
		return nil, err
	}
	if err := s.images.sideload(ctx, actor, in.image); err != nil {
		return nil, err
	}
	if (isSeries(p) || in.recurrence != nil) && mayMakeOccurrences(raw) {
		if err := s.quota.allow(ctx, actor); err != nil {
			return nil, err // before anything is written
		}
	}
	links, err := s.resolveLinks(ctx, caller, in)
	if err != nil {
		return nil, err
	}
	err = s.editEvent(ctx, p, postWrite{expect: caller.Expect, spender: actor}, func(p *calendar.Post) error {
		if !canEdit(actor, p) {
			return calendar.ErrForbidden(actor)
		}
		if err := s.rezone(ctx, raw, in, p); err != nil {
			return err
		}
		before := clonePost(p)
		if err := s.applyEventInput(p, in, links); err != nil {
			return err
		}
		if status != "" {
			p.Status = status
		}
		if err := s.applySeries(ctx, actor, before, p, in); err != nil {
			return err
		}
		if in.slug != nil && wordpress.SanitizeTitle(*in.slug) != p.Slug {
			return s.reslug(ctx, p, wordpress.SanitizeTitle(*in.slug))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.one(ctx, caller, p)
}

// mayMakeOccurrences: a write of a series that sends its rules, dates,
// zone or status may have occurrences made again.
func mayMakeOccurrences(raw EventInput) bool {
	return raw.Recurrence != nil || raw.StartDate != nil || raw.EndDate != nil || raw.Timezone != nil ||
		raw.AllDay != nil || raw.Status != ""
}

// rezone reads the sent dates again when the event's zone, in which they
// are read unless a zone is sent, is no longer the one they were read in
// (another write changed it meanwhile).
func (s *Events) rezone(ctx context.Context, raw EventInput, in *eventInput, p *calendar.Post) error {
	if raw.Timezone != nil || p.TimeZone == in.zone.String() || (in.start == nil && in.end == nil && in.date == nil) {
		return nil
	}
	again, err := s.checkEventInput(ctx, nil, EventInput{StartDate: raw.StartDate, EndDate: raw.EndDate,
		PostFields: PostFields{Date: raw.Date, DateUTC: raw.DateUTC}}, p)
	if err != nil {
		return err
	}
	in.zone, in.start, in.end, in.date = again.zone, again.start, again.end, again.date
	return nil
}

// loadForWrite loads the event an update or a delete names. Anonymous
// callers are refused by ID before anything is read (the plugin's 401 for an
// ID that names nothing, EventDeletionCest); a slug is a parameter the
// plugin checks before the permission, so one that names no event the
// caller may read is 400 first (itemErrors), for anonymous callers too.
func (s *Events) loadForWrite(ctx context.Context, actor *calendar.User, ref PostRef) (*calendar.Post, error) {
	if actor == nil {
		if ref.bySlug() {
			if _, err := s.loadEvent(ctx, nil, ref); err != nil {
				return nil, err
			}
		}
		return nil, calendar.ErrForbidden(nil)
	}
	p, err := s.loadEvent(ctx, actor, ref)
	var e *calendar.Error
	if errors.As(err, &e) && e.Kind == calendar.KindNotFound && !actor.Can(calendar.CapEditPosts) {
		return nil, calendar.ErrForbidden(actor)
	}
	return p, err
}

// reslug gives the event a new unique slug.
func (s *Events) reslug(ctx context.Context, p *calendar.Post, base string) error {
	slug, _, err := wordpress.UniqueSlug(ctx, base, 1, func(ctx context.Context, slug string) (bool, error) {
		other, err := s.store.Posts().FindByKey(ctx, "type_slug", calendar.PostTypeEvent+"/"+slug)
		if errors.Is(err, calendar.ErrNotFound) {
			return false, nil
		}
		return err == nil && other.ID != p.ID, err
	})
	p.Slug = slug
	return err
}

// eventLinks are the linked posts and terms a write names, resolved (and
// created, when sent as fields or as new names) once, before the event is
// written; nil fields were not sent.
type eventLinks struct {
	venue                        *int64
	organizers, categories, tags *[]int64
}

// resolveLinks resolves the venue, organizers and terms a write sends,
// creating those sent as fields or as new names.
func (s *Events) resolveLinks(ctx context.Context, caller Caller, in *eventInput) (eventLinks, error) {
	var links eventLinks
	if err := s.checkCreates(ctx, in); err != nil {
		return links, err
	}
	if in.linkOnly && in.creating > 0 {
		return links, errWouldCreate
	}
	if in.venue != nil {
		id := int64(0)
		if in.venue.ID != 0 || in.venue.New != nil {
			var err error
			if id, err = resolveLink(ctx, caller, s.venues, *in.venue, "venue"); err != nil {
				return links, err
			}
		}
		links.venue = &id
	}
	if in.organizers != nil {
		ids := []int64{}
		for _, ref := range *in.organizers {
			id, err := resolveLink(ctx, caller, s.organizers, ref, "organizer")
			if err != nil {
				return links, err
			}
			if !containsID(ids, id) {
				ids = append(ids, id)
			}
		}
		links.organizers = &ids
	}
	for _, t := range []struct {
		refs  *[]string
		terms *Terms
		dst   **[]int64
		param string
	}{{in.categories, s.categories, &links.categories, "categories"}, {in.tags, s.tags, &links.tags, "tags"}} {
		if t.refs != nil {
			ids, err := s.resolveTerms(ctx, caller.User, t.terms, *t.refs, t.param)
			if err != nil {
				return links, err
			}
			*t.dst = &ids
		}
	}
	return links, nil
}

// applyEventInput writes the sent fields onto the event, its links as
// resolved and its dates in its zone. It reads nothing else, so that it can
// be applied again to a newer state of the event.
func (s *Events) applyEventInput(p *calendar.Post, in *eventInput, links eventLinks) error {
	in.applyPostFields(p)
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
		p.Cost = slices.Clone(*in.cost)
		p.CostSymbol, p.CostPosition = inferCurrency(p.Cost, p.CostSymbol, p.CostPosition)
	}
	before := p.Start
	if err := s.applySchedule(p, in); err != nil {
		return err
	}
	applyEventStatus(p, in, before)
	if links.venue != nil {
		p.Venue = *links.venue
	}
	for _, l := range []struct {
		ids *[]int64
		dst *[]int64
	}{{links.organizers, &p.Organizers}, {links.categories, &p.Categories}, {links.tags, &p.Tags}} {
		if l.ids != nil {
			*l.dst = slices.Clone(*l.ids)
		}
	}
	return nil
}

// applySchedule sets the zone, start and end. A new zone keeps the local times
// when no dates are sent; all-day events run from 00:00:00 to 23:59:59.
func (s *Events) applySchedule(p *calendar.Post, in *eventInput) error {
	zone := in.zone
	oldZone, err := calendar.ParseZone(p.TimeZone)
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
		start = strtotime.WallClock(y, int(m), d, 0, 0, 0, zone)
		y, m, d = end.Date()
		end = strtotime.WallClock(y, int(m), d, 23, 59, 59, zone)
	}
	if end.Before(start) {
		return calendar.ErrInvalidParam("end_date", "end_date must not be before start_date.")
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
	in.creating = total
	if total <= calendar.MaxCreatedPerWrite {
		return nil
	}
	var bad calendar.InvalidParams
	for _, param := range []string{"venue", "organizer", "categories", "tags"} {
		if creating[param] > 0 {
			bad.Add(param, fmt.Sprintf("one write creates at most %d venues, organizers and terms.", calendar.MaxCreatedPerWrite), nil)
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
	return strtotime.WallClock(y, int(m), d, h, mi, sec, zone)
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// applyEventStatus writes the sent status and attendance. A rescheduled
// event keeps the start it had before its latest move (schema.org's
// previousStartDate); one scheduled again, or canceled, forgets it.
func applyEventStatus(p *calendar.Post, in *eventInput, before time.Time) {
	for _, f := range []struct {
		sent *string
		dst  *string
	}{
		{in.eventStatus, &p.EventStatus}, {in.statusReason, &p.EventStatusReason},
		{in.attendance, &p.Attendance}, {in.onlineURL, &p.OnlineURL}} {
		if f.sent != nil {
			*f.dst = *f.sent
		}
	}
	if p.EventStatus == calendar.EventScheduled {
		p.EventStatus = "" // the default, as the plugin keeps no status for it
	}
	if p.Attendance == calendar.AttendanceOffline && p.EventStatus != calendar.EventMovedOnline {
		p.Attendance = "" // the default, but for an event moved online
	}
	switch p.EventStatusOf() {
	case calendar.EventRescheduled:
		if !before.IsZero() && !before.Equal(p.Start) {
			prev := before.UTC()
			p.PreviousStart = &prev
		}
	case calendar.EventPostponed:
	default:
		p.PreviousStart = nil
	}
}
