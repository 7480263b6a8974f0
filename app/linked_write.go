package app

import (
	"context"
	"time"

	"calendar/app/calendar"
	"calendar/app/gazetteer"
	"calendar/app/wordpress"
)

// Writing a venue or an organizer: create (a duplicate sent again takes the
// sent details), update, and the checks of what a write sends.

// Create stores a new venue or organizer, or answers with the existing one of
// the same name (and description, when one is sent).
func (s *LinkedPosts[V]) Create(ctx context.Context, caller Caller, in LinkedInput) (V, error) {
	var zero V
	p, err := s.create(ctx, caller, in)
	if err != nil {
		return zero, err
	}
	// An existing one of the same name is answered as a list would show it
	// (the password sent is the new post's, not a guess at the existing one's).
	masked := !s.shown(caller, p, "")
	return s.render(p, renderAs{masked: masked, home: s.home(caller), custom: s.customOf(ctx, caller, p, masked)}), nil
}

// create is Create returning the stored post, for events that link it.
func (s *LinkedPosts[V]) create(ctx context.Context, caller Caller, raw LinkedInput) (*calendar.Post, error) {
	actor := caller.User
	if actor == nil {
		return nil, calendar.ErrForbidden(nil)
	}
	if raw.Title == nil {
		return nil, calendar.ErrMissingParams([]string{s.kind.postType})
	}
	in, err := s.checkLinkedInput(ctx, actor, raw, true)
	if err != nil {
		return nil, err
	}
	if !actor.Can(calendar.CapEditPosts) {
		return nil, calendar.ErrForbidden(actor)
	}
	status, err := permit(actor, &in.postFields, true)
	if err != nil {
		return nil, err
	}
	if err := s.images.sideload(ctx, actor, in.image); err != nil {
		return nil, err
	}
	if existing, err := s.duplicate(ctx, actor, in); err != nil || existing != nil {
		if err == nil && canEdit(actor, existing) {
			// The plugin writes the sent details onto the one it finds; its
			// name, description and status stay.
			err = s.saveChanges(ctx, existing, Caller{User: actor}, in.detailsOnly(), "")
		}
		return existing, err
	}
	now := s.now().UTC().Truncate(time.Second)
	p := &calendar.Post{Type: s.kind.postType, Author: actor.ID, Date: now, Modified: now}
	in.applyLinkedFields(p)
	p.Status = status
	if p.Type == calendar.PostTypeVenue { // maps are shown unless a create says otherwise
		if p.ShowMap == nil {
			p.ShowMap = boolPtr(true)
		}
		if p.ShowMapLink == nil {
			p.ShowMapLink = boolPtr(true)
		}
	}
	return p, s.insert(ctx, p, wordpress.SanitizeTitle(p.Title))
}

// duplicate finds a post the caller can read with the same name (compared without
// case or accents) and, when a description is sent, the same description.
func (s *LinkedPosts[V]) duplicate(ctx context.Context, actor *calendar.User, in *linkedInput) (*calendar.Post, error) {
	found, err := s.index.SearchPosts(ctx, calendar.PostQuery{Type: s.kind.postType, TitleKey: calendar.FoldTitle(*in.title),
		Statuses: calendar.OwnStatuses, Reader: calendar.ReadRuleOf(actor), Limit: 20})
	if err != nil || len(found.IDs) == 0 {
		return nil, err
	}
	candidates, err := s.store.Posts().GetMany(ctx, found.IDs)
	if err != nil {
		return nil, err
	}
	for _, c := range candidates {
		if in.description == nil || *in.description == "" || calendar.FoldTitle(c.Content) == calendar.FoldTitle(*in.description) {
			return c, nil
		}
	}
	return nil, nil
}

// Update changes only the fields the request sends.
func (s *LinkedPosts[V]) Update(ctx context.Context, caller Caller, ref PostRef, raw LinkedInput) (V, error) {
	var zero V
	actor := caller.User
	p, err := s.load(ctx, caller.User, s.kind.postType, ref) // before the permission, as Delete
	if err != nil {
		return zero, err
	}
	if actor == nil {
		return zero, calendar.ErrForbidden(nil)
	}
	if err := caller.Expect.holds(p.Seq, p.Modified); err != nil {
		return zero, err // before an image is sideloaded
	}
	in, err := s.checkLinkedInput(ctx, actor, raw, false)
	if err != nil {
		return zero, err
	}
	if !canEdit(actor, p) {
		return zero, calendar.ErrForbidden(actor)
	}
	status, err := permit(actor, &in.postFields, false)
	if err != nil {
		return zero, err
	}
	if err := s.images.sideload(ctx, actor, in.image); err != nil {
		return zero, err
	}
	if err := s.saveChanges(ctx, p, caller, in, status); err != nil {
		return zero, err
	}
	return s.render(p, renderAs{home: s.home(caller), custom: s.customOf(ctx, caller, p, false)}), nil
}

// saveChanges applies a checked input (and a status, unless "") to a stored
// post, as it is when written, if the caller (still) may edit it and what
// the caller expects of it holds. A venue's events move with its public
// position in the index (edit, placeEventsOf).
func (s *LinkedPosts[V]) saveChanges(ctx context.Context, p *calendar.Post, caller Caller, in *linkedInput, status string) error {
	return s.edit(ctx, p, postWrite{expect: caller.Expect}, func(p *calendar.Post) error {
		if !canEdit(caller.User, p) {
			return calendar.ErrForbidden(caller.User)
		}
		in.applyLinkedFields(p)
		if status != "" {
			p.Status = status
		}
		return nil
	})
}

// placeVenue gives a venue without exact coordinates the position of its city,
// from the gazetteer, or none when the city is unknown.
func placeVenue(p *calendar.Post) {
	if p.Type != calendar.PostTypeVenue || (p.Geo != nil && p.Geo.Source != calendar.GeoCity) {
		return
	}
	p.Geo = nil
	region := p.Meta["state"] // or, outside the USA, the province
	if region == "" {
		region = p.Meta["province"]
	}
	if lat, lng, ok := gazetteer.Locate(p.Meta["city"], p.Meta["country"], region); ok {
		p.Geo = &calendar.Geo{Lat: lat, Lng: lng, Source: calendar.GeoCity}
	}
}

// linkedInput is a checked write: nil pointers are fields the request did not send.
type linkedInput struct {
	postFields
	meta                 map[string]string
	showMap, showMapLink *bool
	geo                  *calendar.Geo
}

// checkLinkedInput checks every sent field of the writer's.
func (s *LinkedPosts[V]) checkLinkedInput(ctx context.Context, writer *calendar.User, raw LinkedInput, creating bool) (*linkedInput, error) {
	in := &linkedInput{meta: map[string]string{}, showMap: raw.ShowMap, showMapLink: raw.ShowMapLink}
	var bad calendar.InvalidParams
	in.postFields = s.checkPostFields(ctx, raw.PostFields, s.kind.postType, s.settings.TimeZone, s.images, htmlFilterFor(writer), &bad)
	var err error
	if in.custom, err = s.checkCustom(ctx, s.kind.postType, raw.CustomFields, creating, &bad); err != nil {
		return nil, err
	}
	texts := map[string]*string{}
	for _, m := range s.kind.meta {
		if x, ok := raw.Meta[m]; ok {
			texts[m] = &x
			in.meta[m] = sanitizeText(x)
		}
	}
	checkLengths(&bad, texts)
	if w := in.meta["website"]; w != "" && !isURL(w) {
		bad.Add("website", "website must be a URL with a scheme.", nil)
	}
	if e := in.meta["email"]; e != "" && !isEmail(e) {
		bad.Add("email", "email must be a valid e-mail address.", nil)
	}
	// A stored position is a true one whatever the entry point (the routes
	// refuse the same with the same failures, before the permission).
	lat, lng := raw.GeoLat, raw.GeoLng
	switch {
	case lat != nil && lng == nil:
		bad.AddUnpaired("geo_lat", "geo_lng")
	case lng != nil && lat == nil:
		bad.AddUnpaired("geo_lng", "geo_lat")
	case lat != nil && (*lat < -calendar.MaxLatitude || *lat > calendar.MaxLatitude):
		bad.AddOutOfRange("geo_lat", -calendar.MaxLatitude, calendar.MaxLatitude, false)
	case lng != nil && (*lng < -calendar.MaxLongitude || *lng > calendar.MaxLongitude):
		bad.AddOutOfRange("geo_lng", -calendar.MaxLongitude, calendar.MaxLongitude, false)
	case lat != nil:
		in.geo = &calendar.Geo{Lat: *lat, Lng: *lng, Source: calendar.GeoExact}
	}
	return in, bad.Err()
}

// detailsOnly is the input without the post fields a duplicate keeps (all
// but its image): what the plugin writes onto an existing one sent again.
func (in *linkedInput) detailsOnly() *linkedInput {
	out := *in
	out.postFields = postFields{image: in.image}
	return &out
}

// applyLinkedFields writes the sent fields onto p; an empty string clears
// an optional field.
func (in *linkedInput) applyLinkedFields(p *calendar.Post) {
	in.applyPostFields(p)
	for k, val := range in.meta {
		if p.Meta == nil {
			p.Meta = map[string]string{}
		}
		if val == "" {
			delete(p.Meta, k)
		} else {
			p.Meta[k] = val
		}
	}
	if in.showMap != nil {
		p.ShowMap = in.showMap
	}
	if in.showMapLink != nil {
		p.ShowMapLink = in.showMapLink
	}
	if in.geo != nil {
		p.Geo = in.geo
	}
	placeVenue(p)
}

func boolPtr(b bool) *bool { return &b }
