package app

import (
	"context"

	"calendar/app/calendar"
)

// items renders any item of the calendar as its own route answers a
// caller, with the renderer that route uses: what the change feed embeds
// (embed=object) and what a webhook delivers. The caller must be allowed
// to read the item (calendar.CanRead; a term not hidden from them).
type items struct {
	events     *Events
	venues     *LinkedPosts[VenueView]
	organizers *LinkedPosts[OrganizerView]
	media      *Media
	terms      map[string]*Terms // by taxonomy
}

// post is an event, a venue, an organizer or an image as its route answers
// the caller (a protected one masked, as lists mask it, for a caller who
// may not edit it).
func (r items) post(ctx context.Context, caller Caller, p *calendar.Post) (any, error) {
	switch p.Type {
	case calendar.PostTypeEvent:
		views, err := r.events.render(ctx, caller, []*calendar.Post{p}, "", true)
		if err != nil || len(views) == 0 {
			return nil, err
		}
		return views[0], nil
	case calendar.PostTypeVenue:
		ok, err := r.venues.unlocked(caller, p, "")
		return r.venues.render(p, renderAs{single: true, masked: !ok, home: r.venues.home(caller)}), err
	case calendar.PostTypeOrganizer:
		ok, err := r.organizers.unlocked(caller, p, "")
		return r.organizers.render(p, renderAs{single: true, masked: !ok, home: r.organizers.home(caller)}), err
	case calendar.PostTypeAttachment:
		return r.media.renderAttachment(p, caller), nil
	}
	return nil, nil
}

// term is a category or a tag as its route answers the caller.
func (r items) term(ctx context.Context, caller Caller, t *calendar.Term) (any, error) {
	terms := r.terms[t.Taxonomy]
	if terms == nil {
		return nil, nil
	}
	return terms.withCount(ctx, t, caller)
}
