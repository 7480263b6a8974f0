package app

import (
	"context"
	"errors"
	"sort"
	"strings"

	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// List answers a term list: the index finds and orders, the store loads the page.
func (s *Terms) List(ctx context.Context, caller Caller, f TermFilter) (*Page[TermView], error) {
	ctx = searchingAs(ctx, caller)
	page, perPage := s.posts.paging(f.Page)
	q, orderBy, err := s.listQuery(ctx, caller, f)
	if err != nil {
		return nil, err
	}
	ids, err := s.index.SearchTerms(ctx, q)
	if err == nil {
		ids, err = s.visibleIDs(ctx, caller.User, ids)
	}
	if err != nil {
		return nil, err
	}
	counts, err := s.posts.index.CountLinks(ctx, calendar.LinkTerms, publishedEvents)
	if err != nil {
		return nil, err
	}
	if hide := f.HideEmpty == nil || *f.HideEmpty; hide && f.Event == nil { // hidden by default
		if ids, err = s.withoutEmpty(ctx, ids, counts); err != nil {
			return nil, err
		}
	}
	switch orderBy {
	case "count":
		sort.SliceStable(ids, func(i, j int) bool {
			if q.Desc {
				return counts[ids[i]] > counts[ids[j]]
			}
			return counts[ids[i]] < counts[ids[j]]
		})
	case "include":
		if q.Include != nil {
			ids = inOrderOf(q.Include, ids)
		}
	}
	total := len(ids)
	from := min((page-1)*perPage, total)
	terms, err := s.store.Terms().GetMany(ctx, ids[from:min(from+perPage, total)])
	if err != nil {
		return nil, err
	}
	items := make([]TermView, 0, len(terms))
	for _, t := range terms {
		item, err := s.render(ctx, t, counts[t.ID], caller)
		if err != nil {
			return nil, err
		}
		items = append(items, item)
	}
	return newPage(items, page, perPage, total), nil
}

// resolveRefs turns IDs or slugs (then names) of this taxonomy into IDs; any
// unknown one, or one hidden from the caller, is an error.
func (s *Terms) resolveRefs(ctx context.Context, actor *calendar.User, refs []string) ([]int64, error) {
	ids := []int64{}
	for _, ref := range refs {
		t, err := s.find(ctx, ref)
		if err != nil {
			return nil, err
		}
		ids = append(ids, t.ID)
	}
	visible, err := s.visibleIDs(ctx, actor, ids)
	if err == nil && len(visible) != len(ids) {
		err = errUnknownTerm
	}
	return ids, err
}

var errUnknownTerm = errors.New("every item must be an existing term of this taxonomy")

// find loads a term of this taxonomy by ID, slug or name.
func (s *Terms) find(ctx context.Context, ref string) (*calendar.Term, error) {
	if id, ok := wordpress.WholeNumber(ref); ok {
		t, err := s.store.Terms().Get(ctx, id)
		if err == nil && t.Taxonomy == s.kind.taxonomy {
			return t, nil
		}
		if err != nil && !errors.Is(err, calendar.ErrNotFound) {
			return nil, err
		}
		return nil, errUnknownTerm
	}
	t, err := s.store.Terms().FindByKey(ctx, "taxonomy_slug", s.kind.taxonomy+"/"+wordpress.SanitizeTitle(ref))
	if err == nil {
		return t, nil
	}
	if !errors.Is(err, calendar.ErrNotFound) {
		return nil, err
	}
	same, err := s.sameName(ctx, ref)
	if err != nil || len(same) == 0 {
		return nil, cmpErr(err, errUnknownTerm)
	}
	return same[0], nil
}

// sameName loads the terms of this taxonomy named name, without regard to case.
func (s *Terms) sameName(ctx context.Context, name string) ([]*calendar.Term, error) {
	ids, err := s.index.SearchTerms(ctx, calendar.TermQuery{Taxonomy: s.kind.taxonomy, Name: name})
	if err != nil {
		return nil, err
	}
	terms, err := s.store.Terms().GetMany(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []*calendar.Term
	for _, t := range terms {
		if strings.EqualFold(t.Name, name) {
			out = append(out, t)
		}
	}
	return out, nil
}

// cmpErr returns err when there is one, else fallback.
func cmpErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}

func (s *Terms) exists(ctx context.Context, id int64) bool {
	t, err := s.store.Terms().Get(ctx, id)
	return err == nil && t.Taxonomy == s.kind.taxonomy
}

// inOrderOf returns the members of found in the order of wanted.
func inOrderOf(wanted, found []int64) []int64 {
	in := map[int64]bool{}
	for _, id := range found {
		in[id] = true
	}
	out := make([]int64, 0, len(found))
	for _, id := range wanted {
		if in[id] {
			out = append(out, id)
			delete(in, id)
		}
	}
	return out
}
