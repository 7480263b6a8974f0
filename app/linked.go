package app

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/gazetteer"
	"calendar/app/wordpress"
)

// linkedKind describes venues or organizers: the posts events link to.
type linkedKind struct {
	postType string   // "venue"
	plural   string   // "venues"
	meta     []string // text fields, in the order the object shows them
}

var (
	venueKind = linkedKind{postType: calendar.PostTypeVenue, plural: "venues",
		meta: []string{"address", "city", "country", "province", "state", "zip", "phone", "website", "stateprovince"}}
	organizerKind = linkedKind{postType: calendar.PostTypeOrganizer, plural: "organizers",
		meta: []string{"phone", "website", "email"}}
)

// LinkedPosts is the service of venues or organizers; V is their JSON object.
type LinkedPosts[V any] struct {
	postService
	kind linkedKind
	// render turns a post into its object.
	render func(p *calendar.Post, as renderAs) V
}

// PostType is the post type of the resource: venue or organizer.
func (s *LinkedPosts[V]) PostType() string { return s.kind.postType }

// MetaFields are the resource's text fields, by their API names, in the
// order its object shows them.
func (s *LinkedPosts[V]) MetaFields() []string { return s.kind.meta }

// List answers a list query through the index, then loads the page from the store.
func (s *LinkedPosts[V]) List(ctx context.Context, caller Caller, f LinkedFilter) (*Page[V], error) {
	actor := caller.User
	page, perPage := s.paging(f.Page)
	q, near, err := s.listQuery(ctx, actor, f, page, perPage)
	if err != nil {
		return nil, err
	}
	found, err := s.index.SearchPosts(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(found.IDs) == 0 && page > 1 {
		return nil, calendar.NewError(calendar.KindNotFound, s.kind.postType+"-archive-page-not-found",
			"The requested "+s.kind.postType+" archive page does not exist")
	}
	posts, err := s.store.Posts().GetMany(ctx, found.IDs)
	if err != nil {
		return nil, err
	}
	items := make([]V, 0, len(posts))
	for _, p := range posts {
		masked := !s.shown(caller, p, "")
		item := s.render(p, renderAs{masked: masked, home: s.home(caller)})
		if venue, ok := any(&item).(*VenueView); ok && !masked { // a distance tells where it is
			venue.Distance = near.distance(p.Geo)
		}
		items = append(items, item)
	}
	return newPage(items, page, perPage, found.Total), nil
}

// link is how events point at this kind.
func (s *LinkedPosts[V]) link() calendar.Link {
	if s.kind.postType == calendar.PostTypeVenue {
		return calendar.LinkVenue
	}
	return calendar.LinkOrganizers
}

func keys(m map[int64]int) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

var nonFragment = regexp.MustCompile(`[^A-Za-z0-9-]+`)

// SearchFragments splits a search the plugin's way: on every run of characters
// other than ASCII letters, digits and hyphens; lower-cased; bounded as
// CapSearchWords says.
func SearchFragments(search string) []string {
	return calendar.CapSearchWords(nonFragment.Split(strings.ToLower(search), -1))
}

// Get answers a single read: published posts for all, others per permission;
// password is the one the caller sent ("" when none).
func (s *LinkedPosts[V]) Get(ctx context.Context, caller Caller, ref PostRef, password string) (V, error) {
	var zero V
	p, err := s.load(ctx, caller.User, s.kind.postType, ref)
	if err != nil {
		return zero, err
	}
	if !calendar.CanRead(caller.User, p) {
		return zero, itemErrors.postUnreadable(s.kind.postType)
	}
	ok, err := s.unlocked(caller, p, password)
	if err != nil {
		return zero, err
	}
	return s.render(p, renderAs{single: true, masked: !ok, home: s.home(caller)}), nil
}

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
	return s.render(p, renderAs{masked: !s.shown(caller, p, ""), home: s.home(caller)}), nil
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
	in, err := s.checkLinkedInput(ctx, raw)
	if err != nil {
		return nil, err
	}
	if !actor.Can(calendar.CapEditPosts) {
		return nil, calendar.ErrForbidden(actor)
	}
	status, err := s.permit(ctx, actor, &in.postFields, true)
	if err != nil {
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
	in.apply(p)
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
	if actor == nil {
		return zero, calendar.ErrForbidden(nil)
	}
	p, err := s.load(ctx, caller.User, s.kind.postType, ref)
	if err != nil {
		return zero, err
	}
	if err := caller.Expect.holds(p.Seq, p.Modified); err != nil {
		return zero, err // before an image is sideloaded
	}
	in, err := s.checkLinkedInput(ctx, raw)
	if err != nil {
		return zero, err
	}
	if !canEdit(actor, p) {
		return zero, calendar.ErrForbidden(actor)
	}
	status, err := s.permit(ctx, actor, &in.postFields, false)
	if err != nil {
		return zero, err
	}
	if err := s.saveChanges(ctx, p, caller, in, status); err != nil {
		return zero, err
	}
	return s.render(p, renderAs{home: s.home(caller)}), nil
}

// saveChanges applies a checked input (and a status, unless "") to a stored
// post, as it is when written, if the caller (still) may edit it and what
// the caller expects of it holds; events near me move with their venue's
// public position (publicPosition).
func (s *LinkedPosts[V]) saveChanges(ctx context.Context, p *calendar.Post, caller Caller, in *linkedInput, status string) error {
	var moved bool
	err := s.edit(ctx, p, postWrite{expect: caller.Expect}, func(p *calendar.Post) error {
		if !canEdit(caller.User, p) {
			return calendar.ErrForbidden(caller.User)
		}
		before := publicPosition(p)
		in.apply(p)
		if status != "" {
			p.Status = status
		}
		moved = !sameGeo(before, publicPosition(p))
		return nil
	})
	if err != nil || p.Type != calendar.PostTypeVenue || !moved {
		return err
	}
	venue := p.ID
	return s.forEachPost(ctx, func(q *calendar.PostQuery) { q.Venues = []int64{venue} }, func(e *calendar.Post) error {
		if e.Venue != venue {
			return errUnchanged
		}
		// As the venue is now: the last of two moves to write an event
		// reads the venue after both.
		v, err := s.store.Posts().Get(ctx, venue)
		if err != nil {
			return err
		}
		if sameGeo(e.VenueGeo, publicPosition(v)) {
			return errUnchanged
		}
		e.VenueGeo = publicPosition(v)
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

func sameGeo(a, b *calendar.Geo) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// Delete moves to the trash (410 when already there), or deletes permanently
// with force=true.
func (s *LinkedPosts[V]) Delete(ctx context.Context, caller Caller, ref PostRef, force bool) (any, error) {
	actor := caller.User
	if actor == nil {
		return nil, calendar.ErrForbidden(nil)
	}
	p, err := s.load(ctx, caller.User, s.kind.postType, ref)
	if err != nil {
		return nil, err
	}
	if !canDelete(actor, p) {
		return nil, calendar.ErrForbidden(actor)
	}
	if !force && p.Status == calendar.StatusTrash {
		return nil, errInTrash(s.kind.postType)
	}
	if err := caller.Expect.holds(p.Seq, p.Modified); err != nil {
		return nil, err // before its events are unlinked
	}
	if err := s.unlink(ctx, p.ID); err != nil {
		return nil, err
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
			return nil, err
		}
		return Deleted[V]{Deleted: true, Previous: previous}, nil
	}
	err = s.edit(ctx, p, postWrite{expect: caller.Expect}, func(p *calendar.Post) error {
		if p.Status == calendar.StatusTrash {
			return errInTrash(s.kind.postType)
		}
		p.Status = calendar.StatusTrash
		return mayDelete(p)
	})
	if err != nil {
		return nil, err
	}
	return s.render(p, renderAs{home: s.home(caller)}), nil
}

// unlink removes a trashed or deleted venue or organizer from the events.
func (s *LinkedPosts[V]) unlink(ctx context.Context, id int64) error {
	if s.kind.postType == calendar.PostTypeVenue {
		return s.forEachPost(ctx, func(q *calendar.PostQuery) { q.Venues = []int64{id} }, func(e *calendar.Post) error {
			if e.Venue != id {
				return errUnchanged
			}
			e.Venue, e.VenueGeo = 0, nil
			return nil
		})
	}
	return s.forEachPost(ctx, func(q *calendar.PostQuery) { q.Organizers = []int64{id} }, func(e *calendar.Post) error {
		if !containsID(e.Organizers, id) {
			return errUnchanged
		}
		e.Organizers = withoutID(e.Organizers, id)
		return nil
	})
}

// linkedInput is a checked write: nil pointers are fields the request did not send.
type linkedInput struct {
	postFields
	meta                 map[string]string
	showMap, showMapLink *bool
	geo                  *calendar.Geo
}

// checkLinkedInput checks every sent field.
func (s *LinkedPosts[V]) checkLinkedInput(ctx context.Context, raw LinkedInput) (*linkedInput, error) {
	in := &linkedInput{meta: map[string]string{}, showMap: raw.ShowMap, showMapLink: raw.ShowMapLink}
	var bad calendar.InvalidParams
	in.postFields = s.checkPostFields(ctx, raw.PostFields, s.kind.postType, s.settings.TimeZone, &bad)
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
	lat, lng := raw.GeoLat, raw.GeoLng
	switch {
	case (lat == nil) != (lng == nil):
		bad.Add("geo_lat", "geo_lat and geo_lng go together.", nil)
	case lat != nil && (*lat < -90 || *lat > 90):
		bad.Add("geo_lat", "geo_lat must be from -90 to 90.", nil)
	case lng != nil && (*lng < -180 || *lng > 180):
		bad.Add("geo_lng", "geo_lng must be from -180 to 180.", nil)
	case lat != nil:
		in.geo = &calendar.Geo{Lat: *lat, Lng: *lng, Source: calendar.GeoExact}
	}
	return in, bad.Err()
}

// apply writes the sent fields onto p; an empty string clears an optional field.
// detailsOnly is the input without the post fields a duplicate keeps (all
// but its image): what the plugin writes onto an existing one sent again.
func (in *linkedInput) detailsOnly() *linkedInput {
	out := *in
	out.postFields = postFields{image: in.image}
	return &out
}

func (in *linkedInput) apply(p *calendar.Post) {
	in.postFields.apply(p)
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
