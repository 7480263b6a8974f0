package app

import (
	"context"
	"errors"

	"calendar/app/calendar"
)

// termKind describes categories or tags.
type termKind struct {
	taxonomy     string
	plural       string              // "categories": the route and the list key
	hierarchical bool                // categories have parents
	manage       calendar.Capability // who may create, update and delete them
	permalink    string              // path of a term's public page, before its slug
	existsWhere  string              // the end of the term_exists message
}

var (
	categoryKind = termKind{taxonomy: calendar.TaxonomyCategory, plural: "categories", hierarchical: true,
		manage: calendar.CapManageEventCategories, permalink: "/events/category/", existsWhere: "with this parent."}
	tagKind = termKind{taxonomy: calendar.TaxonomyTag, plural: "tags",
		manage: calendar.CapManageTags, permalink: "/tag/", existsWhere: "in this taxonomy."}
)

// TermView is the term object, keys in the plugin's order.
type TermView struct {
	ID          int64    `json:"id"`
	Count       int      `json:"count"`
	Description string   `json:"description"`
	Name        string   `json:"name"`
	Slug        string   `json:"slug"`
	Taxonomy    string   `json:"taxonomy"`
	Parent      *int64   `json:"parent,omitempty"` // categories only
	Meta        []any    `json:"meta"`
	URL         string   `json:"url"`
	URLs        TermURLs `json:"urls"`
	revision    int64
}

// TermURLs are a term's API URLs.
type TermURLs struct {
	Self       string `json:"self"`
	Collection string `json:"collection"`
	Up         string `json:"up,omitempty"`
}

// Terms is the service of categories or tags. Methods that render take root,
// the API root URL the request came in on ("{api}/"), for the urls.
type Terms struct {
	store calendar.Store
	index calendar.Index
	posts postService
	kind  termKind
	// editEvent edits the events a delete unlinks.
	editEvent eventEditor
}

// publishedEvents are the events term counts count: published ones, as
// WordPress' term count does, the same for every caller.
var publishedEvents = calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: []string{calendar.StatusPublish}, Reader: calendar.ReadEverything}

// TermOrderBy lists the orderings a term list accepts.
var TermOrderBy = []string{"id", "name", "slug", "count", "parent", "description", "term_group", "include", "none"}

// Hierarchical reports whether the taxonomy's terms have parents (categories).
func (s *Terms) Hierarchical() bool { return s.kind.hierarchical }

// Get answers a single term; an ID of another taxonomy or none is a 400.
func (s *Terms) Get(ctx context.Context, caller Caller, id int64) (*TermView, error) {
	t, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	hidden, err := s.hidden(ctx, caller.User)
	if err != nil {
		return nil, err
	}
	if hidden(t) {
		return nil, itemErrors.byRefNotFound("id") // as a missing one
	}
	return s.withCount(ctx, t, caller)
}

func (s *Terms) load(ctx context.Context, id int64) (*calendar.Term, error) {
	if id == 0 { // IDs start at 1: WordPress answers /0 with a 404
		return nil, itemErrors.termZero()
	}
	t, err := s.store.Terms().Get(ctx, id)
	if errors.Is(err, calendar.ErrNotFound) || (err == nil && t.Taxonomy != s.kind.taxonomy) {
		return nil, itemErrors.byRefNotFound("id")
	}
	return t, err
}

func (s *Terms) withCount(ctx context.Context, t *calendar.Term, caller Caller) (*TermView, error) {
	counts, err := s.posts.index.CountLinks(ctx, calendar.LinkTerms, publishedEvents)
	if err != nil {
		return nil, err
	}
	v, err := s.render(ctx, t, counts[t.ID], caller)
	return &v, err
}

// termName is the name and slug a term is shown by, wherever it is shown:
// its object, the events that carry it, the facets that count it.
func termName(t *calendar.Term) (name, slug string) { return t.Name, t.Slug }

func (s *Terms) render(ctx context.Context, t *calendar.Term, count int, caller Caller) (TermView, error) {
	url, err := s.link(ctx, t, s.posts.home(caller))
	name, slug := termName(t)
	v := TermView{
		ID: t.ID, Count: count, Description: t.Description, Name: name, Slug: slug, Taxonomy: t.Taxonomy,
		Meta: []any{}, URL: url, URLs: s.urls(t, caller.Root), revision: t.Seq,
	}
	if s.kind.hierarchical {
		parent := t.Parent
		v.Parent = &parent
	}
	return v, err
}

// urls are the term's links in the API.
func (s *Terms) urls(t *calendar.Term, root string) TermURLs {
	base := root + s.kind.plural
	urls := TermURLs{Self: base + "/" + itoa(t.ID), Collection: base}
	if s.kind.hierarchical && t.Parent != 0 {
		urls.Up = base + "/" + itoa(t.Parent)
	}
	return urls
}
