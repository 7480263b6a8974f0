package app

import (
	"context"
	"errors"

	"calendar/app/calendar"
)

// A category's place in its tree: what lies above it (its URL, the parents
// an empty list keeps) and what lies below it (a filter on a parent matches
// its children's events, WordPress' default for hierarchical taxonomies).

// MaxCategoryDepth bounds a category tree: a category lies at most this
// many levels below a top one. Every walk up or down a tree (a URL's
// ancestors, a filter's descendants, the parents an empty list keeps) is
// bounded by it, so an editor's thousand-deep chain costs no visitor a
// thousand lookups.
const MaxCategoryDepth = 20

// ancestors lists the terms above t, its parent first, at most
// MaxCategoryDepth; a missing parent or a loop ends the chain (a write
// never makes one, an old record might).
func (s *Terms) ancestors(ctx context.Context, t *calendar.Term) ([]*calendar.Term, error) {
	var out []*calendar.Term
	for seen := map[int64]bool{t.ID: true}; s.kind.hierarchical && t.Parent != 0 && !seen[t.Parent] && len(out) < MaxCategoryDepth; {
		parent, err := s.store.Terms().Get(ctx, t.Parent)
		if errors.Is(err, calendar.ErrNotFound) {
			break
		}
		if err != nil {
			return nil, err
		}
		seen[parent.ID], t = true, parent
		out = append(out, parent)
	}
	return out, nil
}

// link is the term's public page under home: a category's path carries
// every ancestor's slug, /events/category/<grandparent>/<parent>/<slug>/.
func (s *Terms) link(ctx context.Context, t *calendar.Term, home string) (string, error) {
	above, err := s.ancestors(ctx, t)
	if err != nil {
		return "", err
	}
	path := t.Slug + "/"
	for _, a := range above {
		path = a.Slug + "/" + path
	}
	return home + s.kind.permalink + path, nil
}

// tooDeep reports whether a category put under parent would lie more than
// MaxCategoryDepth levels below a top one, with what lies below it (self:
// the category moved, 0 for a new one).
func (s *Terms) tooDeep(ctx context.Context, parent, self int64) (bool, error) {
	p, err := s.store.Terms().Get(ctx, parent)
	if err != nil {
		return false, err
	}
	above, err := s.ancestors(ctx, p)
	if err != nil {
		return false, err
	}
	below := 0
	if self != 0 {
		if below, err = s.levelsBelow(ctx, self); err != nil {
			return false, err
		}
	}
	return len(above)+1+below > MaxCategoryDepth, nil
}

// isDescendant reports whether id is self or lies below it.
func (s *Terms) isDescendant(ctx context.Context, id, self int64) bool {
	t, err := s.store.Terms().Get(ctx, id)
	if err != nil || self == 0 {
		return false
	}
	above, err := s.ancestors(ctx, t)
	if err != nil {
		return false
	}
	for _, a := range append(above, t) {
		if a.ID == self {
			return true
		}
	}
	return false
}

// withDescendants adds to ids every term below them, each once, down to
// MaxCategoryDepth levels: one index search a level.
func (s *Terms) withDescendants(ctx context.Context, ids []int64) ([]int64, error) {
	if !s.kind.hierarchical {
		return ids, nil
	}
	out := append([]int64{}, ids...)
	seen := map[int64]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	for level, depth := ids, 0; len(level) > 0 && depth < MaxCategoryDepth && len(out) <= calendar.MaxTerms; depth++ {
		children, err := s.index.SearchTerms(ctx, calendar.TermQuery{Taxonomy: s.kind.taxonomy, Parents: level})
		if err != nil {
			return nil, err
		}
		level = nil
		for _, c := range children {
			if !seen[c] {
				seen[c] = true
				out, level = append(out, c), append(level, c)
			}
		}
	}
	return out, nil
}

// levelsBelow counts the levels of terms below id (0 for a leaf), as far
// as one past MaxCategoryDepth.
func (s *Terms) levelsBelow(ctx context.Context, id int64) (int, error) {
	levels := 0
	seen := map[int64]bool{id: true}
	for level := []int64{id}; len(level) > 0 && levels <= MaxCategoryDepth; {
		children, err := s.index.SearchTerms(ctx, calendar.TermQuery{Taxonomy: s.kind.taxonomy, Parents: level})
		if err != nil {
			return 0, err
		}
		level = nil
		for _, c := range children {
			if !seen[c] {
				seen[c] = true
				level = append(level, c)
			}
		}
		if len(level) > 0 {
			levels++
		}
	}
	return levels, nil
}

// withoutEmpty drops terms no published event carries, keeping a category
// whose descendants are carried.
func (s *Terms) withoutEmpty(ctx context.Context, ids []int64, counts map[int64]int) ([]int64, error) {
	keep := map[int64]bool{}
	for id, n := range counts {
		if n == 0 {
			continue
		}
		keep[id] = true
		if !s.kind.hierarchical {
			continue
		}
		t, err := s.store.Terms().Get(ctx, id)
		if errors.Is(err, calendar.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		above, err := s.ancestors(ctx, t)
		if err != nil {
			return nil, err
		}
		for _, a := range above {
			keep[a.ID] = true
		}
	}
	out := ids[:0:0]
	for _, id := range ids {
		if keep[id] {
			out = append(out, id)
		}
	}
	return out, nil
}
