package app

import (
	"context"
	"sort"

	"calendar/app/calendar"
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
	// images reads the image a write sends, and sideloads it.
	images postImages
	// editEvent edits the events a trash or a delete unlinks.
	editEvent eventEditor
}

// PostType is the post type of the resource: venue or organizer.
func (s *LinkedPosts[V]) PostType() string { return s.kind.postType }

// MetaFields are the resource's text fields, by their API names, in the
// order its object shows them.
func (s *LinkedPosts[V]) MetaFields() []string { return s.kind.meta }

// List answers a list query through the index, then loads the page from the store.
func (s *LinkedPosts[V]) List(ctx context.Context, caller Caller, f LinkedFilter) (*Page[V], error) {
	ctx = searchingAs(ctx, caller)
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
		item := s.render(p, renderAs{masked: masked, home: s.home(caller), custom: s.customOf(ctx, caller, p, masked)})
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
	return s.render(p, renderAs{single: true, masked: !ok, home: s.home(caller), custom: s.customOf(ctx, caller, p, !ok)}), nil
}
