package app_test

import (
	"fmt"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// Categories and tags, without HTTP: their objects key by key and who may
// write them. Their routes' HTTP (the answer's _links, Location, the list's
// wrapper) is controllers' (terms_alone_test.go).

func TestTheTermObjectKeyByKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	music, err := w.app.Categories.Create(w.ctx, w.admin(), app.TermInput{Name: ptr("Music"), Description: ptr("All music")})
	w.must(err)
	jazz, err := w.app.Categories.Create(w.ctx, w.admin(), app.TermInput{Name: ptr("Jazz"), Parent: &music.ID})
	w.must(err)
	c, err := w.app.Categories.Get(w.ctx, visitor, jazz.ID)
	w.must(err)
	keysAre(t, c, strings.Fields("id count description name slug taxonomy parent meta url urls"))
	api := visitor.Root + "categories"
	if c.Taxonomy != "tribe_events_cat" || c.Count != 0 || c.Parent == nil || *c.Parent != music.ID || c.URLs.Self != fmt.Sprint(api, "/", c.ID) ||
		c.URLs.Collection != api || c.URLs.Up != fmt.Sprint(api, "/", music.ID) || c.URL != "http://x/events/category/music/jazz/" ||
		string(jsonAt(t, c, "meta")) != "[]" {
		t.Fatalf("a category: %s", jsonAt(t, c))
	}
	if music.URLs.Up != "" || music.Parent == nil || *music.Parent != 0 {
		t.Fatalf("a top-level category: %s", jsonAt(t, music))
	}
	tag, err := w.app.Tags.Create(w.ctx, w.admin(), app.TermInput{Name: ptr("Free")})
	w.must(err)
	keysAre(t, tag, strings.Fields("id count description name slug taxonomy meta url urls"))
	if tag.Taxonomy != "post_tag" {
		t.Fatalf("a tag: %s", jsonAt(t, tag))
	}
	french := visitor
	french.Root = "http://x/fr/vendor/events/v1/"
	if fr, err := w.app.Tags.Get(w.ctx, french, tag.ID); err != nil || fr.URLs.Self != fmt.Sprint(french.Root, "tags/", tag.ID) {
		t.Fatalf("the URLs lose the caller's root: %+v (%v)", fr.URLs, err)
	}
}

// Authors manage categories, editors tags too; no one else writes a term.
func TestWhoMayWriteTerms(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, terms := range []struct {
		name      string
		of        *app.Terms
		authorMay bool
	}{{"categories", w.app.Categories, true}, {"tags", w.app.Tags, false}} {
		for _, role := range append([]calendar.Role{""}, calendar.Roles...) {
			caller, kind := visitor, calendar.KindUnauthorized
			if role != "" {
				caller, kind = w.callers[role], calendar.KindForbidden
			}
			may := role == calendar.RoleEditor || role == calendar.RoleAdministrator || role == calendar.RoleAuthor && terms.authorMay
			what := fmt.Sprintf("%q on %s", role, terms.name)
			target, err := terms.of.Create(w.ctx, w.admin(), app.TermInput{Name: ptr("target " + what)})
			w.must(err)
			for action, err := range map[string]error{
				"creating": get(terms.of.Create(w.ctx, caller, app.TermInput{Name: ptr("new " + what)})),
				"updating": get(terms.of.Update(w.ctx, caller, target.ID, app.TermInput{Description: ptr("changed")})),
				"deleting": get(terms.of.Delete(w.ctx, caller, target.ID)),
			} {
				if may && err != nil {
					t.Errorf("%s %s: %v", what, action, err)
				} else if !may {
					kindAndCode(t, what+" "+action, err, kind, "rest_forbidden")
				}
			}
		}
	}
}

// Past its last page a term list is empty, as WordPress' terms endpoint
// answers it (posts' lists answer a 404 there).
func TestATermListPastItsLastPageIsEmpty(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i := range 9 {
		_, err := w.app.Tags.Create(w.ctx, w.admin(), app.TermInput{Name: ptr(fmt.Sprint("tag ", i))})
		w.must(err)
	}
	for page, n := range map[int]int{1: 3, 3: 3, 4: 0} {
		p, err := w.app.Tags.List(w.ctx, visitor, app.TermFilter{HideEmpty: ptr(false), Page: app.PageRequest{Page: page, PerPage: 3}})
		if err != nil || len(p.Items) != n || p.Total != 9 || p.TotalPages != 3 || p.Page != page {
			t.Errorf("page %d: %+v (%v), want %d of 9 in 3 pages", page, p, err, n)
		}
	}
}

// A tag takes no parent, whatever was sent as one (the HTTP layer keeps a
// parent of any shape for this refusal).
func TestATagRefusesAnyParent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, parent := range []int64{0, 7} {
		_, err := w.app.Tags.Create(w.ctx, w.admin(), app.TermInput{Name: ptr(fmt.Sprint("A", parent)), Parent: &parent})
		invalid(t, err, "rest_taxonomy_not_hierarchical")
	}
}
