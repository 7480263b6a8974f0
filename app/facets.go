package app

import (
	"context"
	"sort"
	"strconv"

	"calendar/app/calendar"
)

// Facet is one facet of an answer: its values, most frequent first, then by
// ID (true before false for featured).
type Facet struct {
	Name   string
	Values []FacetValue
}

// FacetValue is what a client shows: terms with their slug and name, venues
// and organizers by ID (their titles would cost a load per value, and the
// events already carry them), featured as a boolean.
type FacetValue struct {
	ID    int64  `json:"id,omitempty"`
	Slug  string `json:"slug,omitempty"`
	Name  string `json:"name,omitempty"`
	Value *bool  `json:"value,omitempty"`
	Count int    `json:"count"`
}

// facets renders the index's counts, with one store read for the terms
// and one for the venues and organizers: a venue or an organizer the caller
// may not read is left out, as in the events that link it, so a facet never
// tells that a draft venue or a private organizer exists.
func (s *Events) facets(ctx context.Context, actor *calendar.User, names []string, counts map[string][]calendar.FacetCount) ([]Facet, error) {
	ids := func(names ...string) []int64 {
		var out []int64
		for _, name := range names {
			for _, c := range counts[name] {
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
			return nil, err
		}
		for _, t := range loaded {
			terms[t.ID] = t
		}
	}
	readable := map[int64]bool{}
	if postIDs := ids(calendar.FacetVenue, calendar.FacetOrganizer); len(postIDs) > 0 {
		loaded, err := s.store.Posts().GetMany(ctx, postIDs)
		if err != nil {
			return nil, err
		}
		for _, p := range loaded {
			readable[p.ID] = calendar.CanRead(actor, p)
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
			id, err := strconv.ParseInt(c.Value, 10, 64)
			if err != nil {
				continue
			}
			fv := FacetValue{ID: id, Count: c.Count}
			if (name == calendar.FacetVenue || name == calendar.FacetOrganizer) && !readable[id] {
				continue
			}
			if name == calendar.FacetCategories || name == calendar.FacetTags {
				t := terms[id]
				if t == nil { // removed since: no filter could select it
					continue
				}
				fv.Slug, fv.Name = t.Slug, t.Name
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
			return a.ID < b.ID
		})
		out = append(out, Facet{Name: name, Values: values})
	}
	return out, nil
}
