package app_test

import (
	"fmt"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

func (w *world) term(terms *app.Terms, in app.TermInput) *app.TermView {
	w.t.Helper()
	t, err := terms.Create(w.ctx, w.admin(), in)
	w.must(err)
	return t
}

func named(name string, parent ...int64) app.TermInput {
	in := app.TermInput{Name: &name}
	if len(parent) > 0 {
		in.Parent = &parent[0]
	}
	return in
}

func TestTermWritesAreValidated(t *testing.T) {
	w := newWorld(t)
	music := w.term(w.app.Categories, named("Music"))
	parent := func(id int64) app.TermInput { in := named("A"); in.Parent = &id; return in }
	cases := []struct {
		name  string
		terms *app.Terms
		in    app.TermInput
		code  string
	}{
		{"an empty name", w.app.Categories, named(""), "rest_invalid_param"},
		{"a blank name", w.app.Categories, named("   "), "rest_invalid_param"},
		{"an empty description", w.app.Categories, app.TermInput{Name: ptr("A"), Description: ptr("")}, "rest_invalid_param"},
		{"an empty slug", w.app.Categories, app.TermInput{Name: ptr("A"), Slug: ptr("")}, "rest_invalid_param"},
		{"a slug with no usable character", w.app.Categories, app.TermInput{Name: ptr("A"), Slug: ptr("!!!")}, "rest_invalid_param"},
		{"a parent that does not exist", w.app.Categories, parent(2389), "rest_invalid_param"},
		{"a name too long", w.app.Categories, named(strings.Repeat("n", 201)), "rest_invalid_param"},
		{"no name", w.app.Categories, app.TermInput{Description: ptr("no name")}, "rest_missing_callback_param"},
		{"a name taken", w.app.Categories, named("music"), "term_exists"},
		{"a parent for a tag", w.app.Tags, parent(music.ID), "rest_taxonomy_not_hierarchical"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.terms.Create(w.ctx, w.admin(), c.in)
			invalid(t, err, c.code)
		})
	}
	t.Run("term_exists names the existing term", func(t *testing.T) {
		_, err := w.app.Categories.Create(w.ctx, w.admin(), named("MUSIC"))
		invalid(t, err, "term_exists")
		if e := err.(*calendar.Error); e.Data["term_id"] != music.ID {
			t.Fatalf("data = %v", e.Data)
		}
	})
	t.Run("the same name is fine under another parent or with another free slug", func(t *testing.T) {
		if child := w.term(w.app.Categories, named("Music", music.ID)); child.Slug != "music-music" {
			t.Fatalf("child slug = %v, want music-music (base, then with the parent's slug)", child.Slug)
		}
		other := named("Music")
		other.Slug = ptr("music-2")
		if got := w.term(w.app.Categories, other); got.Slug != "music-2" {
			t.Fatalf("slug = %v", got.Slug)
		}
		w.term(w.app.Tags, named("Music"))
		_, err := w.app.Tags.Create(w.ctx, w.admin(), named("music"))
		invalid(t, err, "term_exists")
	})
	t.Run("a taken slug on create is suffixed", func(t *testing.T) {
		first, second := named("First"), named("Second")
		first.Slug, second.Slug = ptr("same"), ptr("same")
		w.term(w.app.Tags, first)
		if got := w.term(w.app.Tags, second); got.Slug != "same-2" {
			t.Fatalf("slug = %v, want same-2", got.Slug)
		}
	})
}

func TestTermListFilters(t *testing.T) {
	w := newWorld(t)
	a := w.term(w.app.Categories, named("A"))
	b := w.term(w.app.Categories, named("b", a.ID))
	w.term(w.app.Categories, named("C", a.ID))
	w.term(w.app.Categories, named("Foo"))
	one := named("One")
	one.Slug = ptr("foo-bar")
	w.term(w.app.Categories, one)
	shown := ptr(false)
	cases := []struct {
		name string
		f    app.TermFilter
		want string
	}{
		{"by name", app.TermFilter{}, "A,b,C,Foo,One"},
		{"by ID, descending", app.TermFilter{Order: ptr("desc"), OrderBy: ptr("id")}, "One,Foo,C,b,A"},
		{"by name, ascending in capitals", app.TermFilter{Order: ptr("ASC"), OrderBy: ptr("name")}, "A,b,C,Foo,One"},
		{"descending", app.TermFilter{Order: ptr("desc")}, "One,Foo,C,b,A"},
		{"by slug", app.TermFilter{OrderBy: ptr("slug")}, "A,b,C,Foo,One"},
		{"a search in names and slugs", app.TermFilter{Search: ptr("foo")}, "Foo,One"},
		{"a search, any case", app.TermFilter{Search: ptr("FO")}, "Foo,One"},
		{"include by ID and slug", app.TermFilter{Include: strs(fmt.Sprint(b.ID), "foo")}, "b,Foo"},
		{"include by slug", app.TermFilter{Include: strs("one")}, "One"},
		{"exclude", app.TermFilter{Exclude: strs(fmt.Sprint(a.ID), "a")}, "b,C,Foo,One"},
		{"in the order of include", app.TermFilter{Include: strs("c", "a"), OrderBy: ptr("include")}, "C,A"},
		{"the children of a parent", app.TermFilter{Parent: &a.ID}, "b,C"},
		{"top-level", app.TermFilter{Parent: ptr(int64(0))}, "A,Foo,One"},
		{"a slug", app.TermFilter{Slug: ptr("foo-bar")}, "One"},
		{"no such slug", app.TermFilter{Slug: ptr("nothing")}, ""},
		{"by count", app.TermFilter{OrderBy: ptr("count")}, "A,b,C,Foo,One"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.f.HideEmpty = shown
			if got := w.termNames(w.app.Categories, c.f); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	for name, f := range map[string]app.TermFilter{
		"an empty order": {Order: ptr("")}, "an empty orderby": {OrderBy: ptr("")}, "order up": {Order: ptr("up")},
		"include 999": {Include: strs("999")}, "exclude nope": {Exclude: strs("nope")}, "parent 2389": {Parent: ptr(int64(2389))},
		"post 23": {Event: ptr(int64(23)), EventParam: "post"}, "an empty slug": {Slug: ptr("")},
	} {
		t.Run("rejects "+name, func(t *testing.T) {
			_, err := w.app.Categories.List(w.ctx, visitor, f)
			invalid(t, err)
		})
	}
	t.Run("hide_empty is on by default: no event carries these terms yet", func(t *testing.T) {
		if got := w.termNames(w.app.Categories, app.TermFilter{}); got != "" {
			t.Fatalf("default list: %q", got)
		}
	})
}

func TestTermUpdateAndDelete(t *testing.T) {
	w := newWorld(t)
	top := w.term(w.app.Categories, named("Top"))
	mid := w.term(w.app.Categories, named("Mid", top.ID))
	leaf := w.term(w.app.Categories, named("Leaf", mid.ID))
	other := w.term(w.app.Categories, named("Other"))
	update := func(id int64, in app.TermInput) (*app.TermView, error) {
		return w.app.Categories.Update(w.ctx, w.admin(), id, in)
	}
	renamed, err := update(other.ID, named("Renamed", top.ID))
	w.must(err)
	if renamed.Name != "Renamed" || renamed.Slug != "other" || *renamed.Parent != top.ID || renamed.Description != "" {
		t.Fatalf("after update: %+v", renamed)
	}
	_, err = update(other.ID, app.TermInput{Slug: ptr("top")})
	invalid(t, err, "duplicate_term_slug")
	_, err = update(top.ID, app.TermInput{Parent: &leaf.ID})
	invalid(t, err)
	_, err = update(top.ID, app.TermInput{Parent: &top.ID})
	invalid(t, err)
	_, err = update(other.ID, app.TermInput{Parent: ptr(int64(0))})
	w.must(err)

	gone, err := w.app.Categories.Delete(w.ctx, w.admin(), mid.ID)
	w.must(err)
	if gone.Name != "Mid" || *gone.Parent != top.ID {
		t.Fatalf("delete answers the term as it was: %+v", gone)
	}
	if got, err := w.app.Categories.Get(w.ctx, visitor, leaf.ID); err != nil || *got.Parent != top.ID {
		t.Fatalf("the child of a deleted term has parent %v (%v), want %v", *got.Parent, err, top.ID)
	}
	_, err = w.app.Categories.Get(w.ctx, visitor, mid.ID)
	invalid(t, err)
	_, err = w.app.Categories.Delete(w.ctx, w.admin(), mid.ID)
	invalid(t, err)
	tag := w.term(w.app.Tags, named("T"))
	_, err = w.app.Categories.Get(w.ctx, visitor, tag.ID)
	invalid(t, err)
}
