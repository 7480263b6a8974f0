package app

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"calendar/app/calendar"
)

// Facet counts are disjunctive, as a multi-select sidebar needs them: each
// value of a facet is counted with every filter of the list but that facet's
// own, so that beside the categories ticked the sidebar shows how many
// events each other category has under the other filters, and ticking or
// unticking one needs no request to learn the others' counts. A
// facet the list does not filter on is counted among the list's own matches,
// by its own search; each one it filters on costs one more search, count
// only, run at the same time: at most one per facet, each within the search
// budget (app/budget.go), so the answer comes within one budget.

// Facet is one facet of an answer: its values, most frequent first, then by
// ID (true before false for featured).
type Facet struct {
	Name   string
	Values []FacetValue
}

// FacetValue is what a client shows: categories, tags, venues and organizers
// by ID with the slug and name their own objects show, featured as a boolean.
type FacetValue struct {
	ID    int64  `json:"id,omitempty"`
	Slug  string `json:"slug,omitempty"`
	Name  string `json:"name,omitempty"`
	Value *bool  `json:"value,omitempty"`
	Count int    `json:"count"`
}

// dropFilter clears a facet's own filter from a query and tells whether the
// query had one.
var dropFilter = map[string]func(q *calendar.PostQuery) bool{
	calendar.FacetCategories: func(q *calendar.PostQuery) bool { return dropIDs(&q.Categories) },
	calendar.FacetTags:       func(q *calendar.PostQuery) bool { return dropIDs(&q.Tags) },
	calendar.FacetVenue:      func(q *calendar.PostQuery) bool { return dropIDs(&q.Venues) },
	calendar.FacetOrganizer:  func(q *calendar.PostQuery) bool { return dropIDs(&q.Organizers) },
	calendar.FacetFeatured: func(q *calendar.PostQuery) bool {
		set := q.Featured != nil
		q.Featured = nil
		return set
	},
}

// dropFilterOf is dropFilter of a facet, a custom field's (cf.<key>) included.
func dropFilterOf(name string) func(q *calendar.PostQuery) bool {
	key, custom := strings.CutPrefix(name, calendar.FacetCustomPrefix)
	if !custom {
		return dropFilter[name]
	}
	return func(q *calendar.PostQuery) bool {
		i := slices.IndexFunc(q.Custom, func(f calendar.CustomFilter) bool { return f.Key == key })
		if i < 0 {
			return false
		}
		q.Custom = slices.Delete(slices.Clone(q.Custom), i, i+1)
		return true
	}
}

func dropIDs(ids *[]int64) bool {
	set := *ids != nil
	*ids = nil
	return set
}

// searchFaceted answers the list's query with the counts of the facets it
// asks for, each counted as above: the list's own search counts the facets
// it does not filter on, and a count-only search without its filter each one
// it does, all at once.
func (s *Events) searchFaceted(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	own, apart := q, []calendar.PostQuery{}
	own.Facets = []string{}
	for _, name := range q.Facets {
		without := q
		if drop := dropFilterOf(name); drop != nil && drop(&without) {
			without.Facets, without.Offset, without.Limit, without.Days, without.GeoGrid = []string{name}, 0, 0, nil, 0
			apart = append(apart, without)
		} else {
			own.Facets = append(own.Facets, name)
		}
	}
	if len(apart) == 0 {
		return s.index.SearchPosts(ctx, q)
	}
	searches := append([]calendar.PostQuery{own}, apart...)
	pages := make([]calendar.PostPage, len(searches))
	g, gctx := errgroup.WithContext(ctx)
	for i, search := range searches {
		g.Go(func() (err error) {
			pages[i], err = s.index.SearchPosts(gctx, search)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return calendar.PostPage{}, err
	}
	found := pages[0]
	counts := make(map[string][]calendar.FacetCount, len(q.Facets)) // kept pages are shared: a new map
	for name, values := range found.Facets {
		counts[name] = values
	}
	for i, search := range apart {
		name := search.Facets[0]
		counts[name] = pages[i+1].Facets[name]
	}
	found.Facets = counts
	return found, nil
}

// facets renders the index's counts, with one store read for the terms
// and one for the venues and organizers, at most calendar.MaxFacetValues of
// each facet. A venue or an organizer the caller may not read is left out,
// as in the events that link it, so a facet never tells that a draft venue
// or a private organizer exists, nor what it is called. A term is counted
// only on events the caller may read, which is what lets a caller see a
// term an event write made (app/term_visibility.go): no facet names one the
// caller may not see.
func (s *Events) facets(ctx context.Context, actor *calendar.User, names []string, counts map[string][]calendar.FacetCount) ([]Facet, error) {
	out, _, err := s.facetsAndPosts(ctx, actor, names, counts)
	return out, err
}

// facetsAndPosts is facets with the venues and organizers it named, by ID:
// those the caller may read, for what else an answer tells of them.
func (s *Events) facetsAndPosts(ctx context.Context, actor *calendar.User, names []string, counts map[string][]calendar.FacetCount) ([]Facet, map[int64]*calendar.Post, error) {
	ids := func(names ...string) []int64 {
		var out []int64
		for _, name := range names {
			values := counts[name]
			for _, c := range values[:min(len(values), calendar.MaxFacetValues)] {
				if id, err := strconv.ParseInt(c.Value, 10, 64); err == nil {
					out = append(out, id)
				}
			}
		}
		return out
	}
	terms := map[int64]*calendar.Term{}
	if termIDs := ids(calendar.FacetCategories, calendar.FacetTags); len(termIDs) > 0 {
		loaded, err := s.store.Terms().GetMany(ctx, termIDs)
		if err != nil {
			return nil, nil, err
		}
		for _, t := range loaded {
			terms[t.ID] = t
		}
	}
	readable := map[int64]*calendar.Post{}
	if postIDs := ids(calendar.FacetVenue, calendar.FacetOrganizer); len(postIDs) > 0 {
		loaded, err := s.store.Posts().GetMany(ctx, postIDs)
		if err != nil {
			return nil, nil, err
		}
		for _, p := range loaded {
			if calendar.CanRead(actor, p) {
				readable[p.ID] = p
			}
		}
	}
	out := make([]Facet, 0, len(names))
	for _, name := range names {
		values := []FacetValue{}
		for _, c := range counts[name] {
			if name == calendar.FacetFeatured {
				b := c.Value == "true"
				values = append(values, FacetValue{Value: &b, Count: c.Count})
				continue
			}
			if strings.HasPrefix(name, calendar.FacetCustomPrefix) { // the value as stored
				values = append(values, FacetValue{Name: c.Value, Count: c.Count})
				continue
			}
			id, err := strconv.ParseInt(c.Value, 10, 64)
			if err != nil {
				continue
			}
			fv := FacetValue{ID: id, Count: c.Count}
			switch name {
			case calendar.FacetVenue, calendar.FacetOrganizer:
				p := readable[id]
				if p == nil {
					continue
				}
				fv.Name, fv.Slug = linkedName(p)
			case calendar.FacetCategories, calendar.FacetTags:
				t := terms[id]
				if t == nil { // removed since: no filter could select it
					continue
				}
				fv.Name, fv.Slug = termName(t)
			}
			values = append(values, fv)
		}
		sort.SliceStable(values, func(i, j int) bool {
			a, b := values[i], values[j]
			if a.Count != b.Count {
				return a.Count > b.Count
			}
			if a.Value != nil && b.Value != nil {
				return *a.Value && !*b.Value
			}
			if a.ID == b.ID { // custom fields' values
				return a.Name < b.Name
			}
			return a.ID < b.ID
		})
		out = append(out, Facet{Name: name, Values: values})
	}
	return out, readable, nil
}
