package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// Writing a category or a tag: create and update, and the checks of what a
// write sends (names and slugs free in the taxonomy, a parent in it).

// checkTermInput checks a term write (self is the term updated, 0 on create)
// and returns it trimmed, its description filtered as WordPress filters
// every writer's (wp_filter_kses).
func (s *Terms) checkTermInput(ctx context.Context, raw TermInput, self int64) (TermInput, error) {
	in := TermInput{Parent: raw.Parent}
	var bad calendar.InvalidParams
	for _, f := range []struct {
		name string
		raw  *string
		dst  **string
	}{{"name", raw.Name, &in.Name}, {"description", raw.Description, &in.Description}, {"slug", raw.Slug, &in.Slug}} {
		if f.raw == nil {
			continue
		}
		x := strings.TrimSpace(*f.raw)
		if x == "" {
			bad.Add(f.name, f.name+" must not be empty.", nil)
		}
		if limit := termTextLimits[f.name]; len(x) > limit {
			bad.AddTooLong(f.name, limit)
		}
		if f.name == "description" {
			x = filterTermDescription(x)
		}
		*f.dst = &x
	}
	if in.Slug != nil && *in.Slug != "" && wordpress.SanitizeTitle(*in.Slug) == "" {
		bad.Add("slug", "slug has no usable character.", nil)
	}
	if in.Parent != nil {
		if !s.kind.hierarchical {
			return in, calendar.NewError(calendar.KindInvalid, "rest_taxonomy_not_hierarchical", "Cannot set parent term, taxonomy is not hierarchical.")
		}
		if parent := *in.Parent; parent != 0 && (!s.exists(ctx, parent) || s.isDescendant(ctx, parent, self)) {
			bad.Add("parent", "parent must be an existing category that is not this one or below it.", nil)
		} else if parent != 0 {
			deep, err := s.tooDeep(ctx, parent, self)
			if err != nil {
				return in, err
			}
			if deep {
				bad.Add("parent", fmt.Sprintf("a category lies at most %d levels below a top one.", MaxCategoryDepth), nil)
			}
		}
	}
	return in, bad.Err()
}

func (s *Terms) mayManage(actor *calendar.User) error {
	if !actor.Can(calendar.CapEditPosts) || !actor.Can(s.kind.manage) {
		return calendar.ErrForbidden(actor)
	}
	return nil
}

// Create adds a term; a name already used (under the same parent, for
// categories) is a term_exists 400 unless a different, unused slug is sent.
func (s *Terms) Create(ctx context.Context, caller Caller, raw TermInput) (*TermView, error) {
	if caller.User == nil { // before anything is read
		return nil, calendar.ErrForbidden(nil)
	}
	if raw.Name == nil {
		return nil, calendar.ErrMissingParams([]string{"name"})
	}
	in, err := s.checkTermInput(ctx, raw, 0)
	if err != nil {
		return nil, err
	}
	if err := s.mayManage(caller.User); err != nil {
		return nil, err
	}
	t, err := s.create(ctx, in, false)
	if err != nil {
		return nil, err
	}
	return s.withCount(ctx, t, caller)
}

// create stores a new term from a checked write (checkTermInput, with a name):
// the endpoint's, or a name an event write sends (fromEvent).
func (s *Terms) create(ctx context.Context, in TermInput, fromEvent bool) (*calendar.Term, error) {
	t := &calendar.Term{Taxonomy: s.kind.taxonomy, Name: *in.Name, FromEvent: fromEvent, FromRoutes: !fromEvent}
	if in.Description != nil {
		t.Description = *in.Description
	}
	if in.Parent != nil {
		t.Parent = *in.Parent
	}
	if err := s.checkNameFree(ctx, t, in.Slug); err != nil {
		return nil, err
	}
	base := wordpress.SanitizeTitle(t.Name)
	if in.Slug != nil {
		base = wordpress.SanitizeTitle(*in.Slug)
	}
	return t, s.insert(ctx, t, base)
}

func (s *Terms) checkNameFree(ctx context.Context, t *calendar.Term, slug *string) error {
	same, err := s.sameName(ctx, t.Name)
	if err != nil {
		return err
	}
	for _, other := range same {
		if s.kind.hierarchical && other.Parent != t.Parent {
			continue
		}
		if slug != nil && !s.slugTaken(ctx, wordpress.SanitizeTitle(*slug), 0) {
			continue
		}
		return calendar.NewError(calendar.KindInvalid, "term_exists", "A term with the name provided already exists "+s.kind.existsWhere).
			With("term_id", other.ID)
	}
	return nil
}

func (s *Terms) slugTaken(ctx context.Context, slug string, self int64) bool {
	t, err := s.store.Terms().FindByKey(ctx, "taxonomy_slug", s.kind.taxonomy+"/"+slug)
	return err == nil && t.ID != self
}

// insert stores a new term under the first free slug: base; for a child
// category then base-<parent slug>; then base-2, base-3...
func (s *Terms) insert(ctx context.Context, t *calendar.Term, base string) error {
	taken := func(ctx context.Context, slug string) (bool, error) { return s.slugTaken(ctx, slug, 0), nil }
	for from := 1; ; {
		slug, n, err := wordpress.UniqueSlug(ctx, base, from, taken)
		if err != nil {
			return err
		}
		if slug != base && t.Parent != 0 {
			if p, err := s.store.Terms().Get(ctx, t.Parent); err == nil && !s.slugTaken(ctx, base+"-"+p.Slug, 0) {
				slug = base + "-" + p.Slug
			}
		}
		t.Slug = slug
		err = s.posts.sync.writeThrough(calendar.CollectionTerms, t, false, func() error { return s.store.Terms().Insert(ctx, t) },
			func() error { return s.index.PutTerms(ctx, []*calendar.Term{t}) })
		if !errors.Is(err, calendar.ErrConflict) {
			return err
		}
		from = n + 1 // another writer took the slug between the check and the insert
	}
}

// Update changes the fields sent; a slug another term uses is a 400.
func (s *Terms) Update(ctx context.Context, caller Caller, id int64, raw TermInput) (*TermView, error) {
	if caller.User == nil { // before anything is read
		return nil, calendar.ErrForbidden(nil)
	}
	t, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	in, err := s.checkTermInput(ctx, raw, t.ID)
	if err != nil {
		return nil, err
	}
	if err := s.mayManage(caller.User); err != nil {
		return nil, err
	}
	err = s.editTerm(ctx, t, caller.Expect, func(t *calendar.Term) error {
		if in.Name != nil {
			t.Name = *in.Name
		}
		if in.Description != nil {
			t.Description = *in.Description
		}
		if in.Parent != nil {
			if *in.Parent != 0 && s.isDescendant(ctx, *in.Parent, t.ID) { // a move meanwhile made a loop of it
				return calendar.ErrInvalidParam("parent", "parent must be an existing category that is not this one or below it.")
			}
			t.Parent = *in.Parent
		}
		if in.Slug != nil {
			slug := wordpress.SanitizeTitle(*in.Slug)
			if s.slugTaken(ctx, slug, t.ID) {
				return errSlugInUse(slug)
			}
			t.Slug = slug
		}
		return nil
	})
	if errors.Is(err, calendar.ErrConflict) {
		return nil, errSlugInUse(t.Slug)
	}
	if err != nil {
		return nil, err
	}
	return s.withCount(ctx, t, caller)
}

func errSlugInUse(slug string) *calendar.Error {
	return calendar.NewError(calendar.KindInvalid, "duplicate_term_slug", "The slug “"+slug+"” is already in use by another term.")
}
