package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// The two taxonomies, by the names clients of the plugin know them.
const (
	TaxonomyCategory = "tribe_events_cat"
	TaxonomyTag      = "post_tag"
)

// termKind describes categories or tags.
type termKind struct {
	taxonomy     string
	plural       string     // "categories": the route and the list key
	hierarchical bool       // categories have parents
	manage       Capability // who may create, update and delete them
	permalink    string     // path of a term's public page, before its slug
	existsWhere  string     // the end of the term_exists message
}

var (
	categoryKind = termKind{taxonomy: TaxonomyCategory, plural: "categories", hierarchical: true,
		manage: CapManageEventCategories, permalink: "/events/category/", existsWhere: "with this parent."}
	tagKind = termKind{taxonomy: TaxonomyTag, plural: "tags",
		manage: CapManageTags, permalink: "/tag/", existsWhere: "in this taxonomy."}
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
	store Store
	index Index
	posts postService
	kind  termKind
}

// TermOrderBy lists the orderings a term list accepts.
var TermOrderBy = []string{"id", "name", "slug", "count", "parent", "description", "term_group", "include", "none"}

// ListArgs are the parameters of GET /categories and /tags.
func (s *Terms) ListArgs() []Arg {
	args := append(append([]Arg{}, pageArgs...),
		Arg{Name: "search", Type: TypeString, Description: "Part of the name or slug, any case."},
		Arg{Name: "exclude", Type: TypeArray, Items: TypeString, Description: "Terms to leave out, by ID or slug."},
		Arg{Name: "include", Type: TypeArray, Items: TypeString, Description: "Only these terms, by ID or slug."},
		Arg{Name: "order", Type: TypeString, Description: "asc or desc, any case."},
		Arg{Name: "orderby", Type: TypeString, Enum: TermOrderBy},
		Arg{Name: "hide_empty", Type: TypeBoolean, Default: true, Description: "Leave out terms no published event carries."},
		Arg{Name: "post", Type: TypeInteger, Description: "Only the terms of this event."},
		Arg{Name: "event", Type: TypeInteger, Description: "Only the terms of this event (wins over post)."},
		Arg{Name: "slug", Type: TypeString, Description: "Only the term with this slug."},
	)
	if s.kind.hierarchical {
		args = append(args, Arg{Name: "parent", Type: TypeInteger, Description: "Only the direct children of this category; 0 for top-level ones."})
	}
	return args
}

// WriteArgs are the parameters of a create (name required) or an update.
func (s *Terms) WriteArgs(create bool) []Arg {
	args := []Arg{
		{Name: "name", Type: TypeString, Required: create},
		{Name: "description", Type: TypeString},
		{Name: "slug", Type: TypeString},
	}
	if s.kind.hierarchical {
		args = append(args, Arg{Name: "parent", Type: TypeInteger, Description: "ID of the parent category, 0 for none."})
	}
	return args
}

// Get answers a single term; an ID of another taxonomy or none is a 400.
func (s *Terms) Get(ctx context.Context, id int64, root string) (*TermView, error) {
	t, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.withCount(ctx, t, root)
}

func (s *Terms) load(ctx context.Context, id int64) (*Term, error) {
	t, err := s.store.Terms().Get(ctx, id)
	if errors.Is(err, ErrNotFound) || (err == nil && t.Taxonomy != s.kind.taxonomy) {
		return nil, ErrInvalidParam("id", "Invalid parameter.")
	}
	return t, err
}

func (s *Terms) withCount(ctx context.Context, t *Term, root string) (*TermView, error) {
	counts, err := s.posts.countLinks(ctx, LinkTerms, publishedEvents)
	if err != nil {
		return nil, err
	}
	v := s.render(t, counts[t.ID], root)
	return &v, nil
}

func (s *Terms) render(t *Term, count int, root string) TermView {
	base := root + s.kind.plural
	v := TermView{
		ID: t.ID, Count: count, Description: t.Description, Name: t.Name, Slug: t.Slug, Taxonomy: t.Taxonomy,
		Meta: []any{}, URL: s.posts.settings.SiteURL + s.kind.permalink + t.Slug + "/",
		URLs: TermURLs{Self: base + "/" + itoa(t.ID), Collection: base},
	}
	if s.kind.hierarchical {
		parent := t.Parent
		v.Parent = &parent
		if parent != 0 {
			v.URLs.Up = base + "/" + itoa(parent)
		}
	}
	return v
}

// termTextLimits: names and slugs have WordPress' bound.
var termTextLimits = map[string]int{"name": MaxShortBytes, "slug": MaxShortBytes, "description": MaxExcerptBytes}

// termInput is a checked term write; nil fields were not sent.
type termInput struct {
	name, description, slug *string
	parent                  *int64
}

func (s *Terms) readInput(ctx context.Context, v Values, self int64) (*termInput, error) {
	in := &termInput{}
	var bad InvalidParams
	for _, f := range []struct {
		name string
		dst  **string
	}{{"name", &in.name}, {"description", &in.description}, {"slug", &in.slug}} {
		name, dst := f.name, f.dst
		if x, ok := v.String(name); ok {
			x = strings.TrimSpace(x)
			if x == "" {
				bad.Add(name, name+" must not be empty.", nil)
			}
			if limit := termTextLimits[name]; len(x) > limit {
				bad.Add(name, fmt.Sprintf("%s must not be longer than %d bytes.", name, limit), nil)
			}
			*dst = &x
		}
	}
	if in.slug != nil && *in.slug != "" && SanitizeTitle(*in.slug) == "" {
		bad.Add("slug", "slug has no usable character.", nil)
	}
	if v.Has("parent") {
		parent, ok := v.Int("parent")
		if !s.kind.hierarchical {
			return nil, NewError(KindInvalid, "rest_taxonomy_not_hierarchical", "Cannot set parent term, taxonomy is not hierarchical.")
		}
		if ok && parent != 0 && (!s.exists(ctx, parent) || s.isDescendant(ctx, parent, self)) {
			bad.Add("parent", "parent must be an existing category that is not this one or below it.", nil)
		}
		in.parent = &parent
	}
	return in, bad.Err()
}

// isDescendant reports whether id is self or lies below it.
func (s *Terms) isDescendant(ctx context.Context, id, self int64) bool {
	for seen := map[int64]bool{}; self != 0 && id != 0 && !seen[id]; {
		if id == self {
			return true
		}
		seen[id] = true
		t, err := s.store.Terms().Get(ctx, id)
		if err != nil {
			return false
		}
		id = t.Parent
	}
	return false
}

func (s *Terms) mayManage(actor *User) error {
	if !actor.Can(CapEditPosts) || !actor.Can(s.kind.manage) {
		return ErrForbidden(actor)
	}
	return nil
}

// Create adds a term; a name already used (under the same parent, for
// categories) is a term_exists 400 unless a different, unused slug is sent.
func (s *Terms) Create(ctx context.Context, actor *User, v Values, root string) (*TermView, error) {
	if actor == nil { // before anything is read
		return nil, ErrForbidden(nil)
	}
	in, err := s.readInput(ctx, v, 0)
	if err != nil {
		return nil, err
	}
	if err := s.mayManage(actor); err != nil {
		return nil, err
	}
	t := &Term{Taxonomy: s.kind.taxonomy, Name: *in.name}
	if in.description != nil {
		t.Description = *in.description
	}
	if in.parent != nil {
		t.Parent = *in.parent
	}
	if err := s.checkNameFree(ctx, t, in.slug); err != nil {
		return nil, err
	}
	base := SanitizeTitle(t.Name)
	if in.slug != nil {
		base = SanitizeTitle(*in.slug)
	}
	if err := s.insert(ctx, t, base); err != nil {
		return nil, err
	}
	return s.withCount(ctx, t, root)
}

func (s *Terms) checkNameFree(ctx context.Context, t *Term, slug *string) error {
	same, err := s.sameName(ctx, t.Name)
	if err != nil {
		return err
	}
	for _, other := range same {
		if s.kind.hierarchical && other.Parent != t.Parent {
			continue
		}
		if slug != nil && !s.slugTaken(ctx, SanitizeTitle(*slug), 0) {
			continue
		}
		return NewError(KindInvalid, "term_exists", "A term with the name provided already exists "+s.kind.existsWhere).
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
func (s *Terms) insert(ctx context.Context, t *Term, base string) error {
	taken := func(ctx context.Context, slug string) (bool, error) { return s.slugTaken(ctx, slug, 0), nil }
	for from := 1; ; {
		slug, n, err := uniqueSlug(ctx, base, from, taken)
		if err != nil {
			return err
		}
		if slug != base && t.Parent != 0 {
			if p, err := s.store.Terms().Get(ctx, t.Parent); err == nil && !s.slugTaken(ctx, base+"-"+p.Slug, 0) {
				slug = base + "-" + p.Slug
			}
		}
		t.Slug = slug
		done := s.posts.sync.writing()
		err = s.store.Terms().Insert(ctx, t)
		if err == nil {
			err = s.index.PutTerms(ctx, []*Term{t})
		}
		done()
		if !errors.Is(err, ErrConflict) {
			return err
		}
		from = n + 1 // another writer took the slug between the check and the insert
	}
}

// Update changes the fields sent; a slug another term uses is a 400.
func (s *Terms) Update(ctx context.Context, actor *User, id int64, v Values, root string) (*TermView, error) {
	if actor == nil { // before anything is read
		return nil, ErrForbidden(nil)
	}
	t, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	in, err := s.readInput(ctx, v, t.ID)
	if err != nil {
		return nil, err
	}
	if err := s.mayManage(actor); err != nil {
		return nil, err
	}
	if in.name != nil {
		t.Name = *in.name
	}
	if in.description != nil {
		t.Description = *in.description
	}
	if in.parent != nil {
		t.Parent = *in.parent
	}
	if in.slug != nil {
		slug := SanitizeTitle(*in.slug)
		if s.slugTaken(ctx, slug, t.ID) {
			return nil, NewError(KindInvalid, "duplicate_term_slug", "The slug “"+slug+"” is already in use by another term.")
		}
		t.Slug = slug
	}
	if err := s.saveTerm(ctx, t); err != nil {
		if errors.Is(err, ErrConflict) {
			return nil, NewError(KindInvalid, "duplicate_term_slug", "The slug “"+t.Slug+"” is already in use by another term.")
		}
		return nil, err
	}
	return s.withCount(ctx, t, root)
}

// saveTerm writes a term to the store, then the index.
func (s *Terms) saveTerm(ctx context.Context, t *Term) error {
	defer s.posts.sync.writing()()
	if err := s.store.Terms().Update(ctx, t); err != nil {
		return err
	}
	return s.index.PutTerms(ctx, []*Term{t})
}

// Delete removes a term for good and answers it as it was; its children move
// up to its parent.
func (s *Terms) Delete(ctx context.Context, actor *User, id int64, root string) (*TermView, error) {
	if actor == nil { // before anything is read
		return nil, ErrForbidden(nil)
	}
	t, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.mayManage(actor); err != nil {
		return nil, err
	}
	previous, err := s.withCount(ctx, t, root)
	if err != nil {
		return nil, err
	}
	if s.kind.hierarchical {
		parent := t.ID
		children, err := s.index.SearchTerms(ctx, TermQuery{Taxonomy: t.Taxonomy, Parent: &parent})
		if err != nil {
			return nil, err
		}
		kids, err := s.store.Terms().GetMany(ctx, children)
		if err != nil {
			return nil, err
		}
		for _, c := range kids {
			c.Parent = t.Parent
			if err := s.saveTerm(ctx, c); err != nil {
				return nil, err
			}
		}
	}
	err = s.posts.forEachEvent(ctx,
		func(q *PostQuery) {
			if s.kind.taxonomy == TaxonomyTag {
				q.Tags = []int64{t.ID}
			} else {
				q.Categories = []int64{t.ID}
			}
		},
		func(e *Post) { e.Categories, e.Tags = withoutID(e.Categories, t.ID), withoutID(e.Tags, t.ID) })
	if err != nil {
		return nil, err
	}
	defer s.posts.sync.writing()()
	if err := s.store.Terms().Delete(ctx, t.ID); err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	return previous, s.index.DeleteTerm(ctx, t.ID)
}
