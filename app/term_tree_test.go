package app_test

import (
	"fmt"
	"testing"

	"calendar/app"
)

// WordPress' default for hierarchical taxonomies: a category filter matches
// the events of the categories below it, at every depth.
func TestACategoryFilterMatchesItsDescendants(t *testing.T) {
	w := newWorld(t)
	music := w.term(w.app.Categories, named("Music"))
	jazz := w.term(w.app.Categories, named("Jazz", music.ID))
	bebop := w.term(w.app.Categories, named("Bebop", jazz.ID))
	film := w.term(w.app.Categories, named("Film"))
	in := func(cat *app.TermView) app.EventInput {
		return app.EventInput{Categories: strs(fmt.Sprint(cat.ID))}
	}
	w.event("Symphony", "2030-06-01", in(music))
	w.event("Quartet", "2030-06-02", in(jazz))
	w.event("Parker", "2030-06-03", in(bebop))
	w.event("Matinee", "2030-06-04", in(film))
	for _, c := range []struct {
		filter []string
		want   string
	}{
		{[]string{"music"}, "Symphony,Quartet,Parker"},
		{[]string{fmt.Sprint(jazz.ID)}, "Quartet,Parker"},
		{[]string{"bebop"}, "Parker"},
		{[]string{"bebop", "film"}, "Parker,Matinee"},
		{[]string{"jazz", "bebop"}, "Quartet,Parker"}, // each event once
	} {
		t.Run(fmt.Sprint(c.filter), func(t *testing.T) {
			f := app.EventFilter{Categories: strs(c.filter...), Dates: month("2030-06")}
			if got := w.titles(visitor, f); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	t.Run("a parent no event carries is listed while a descendant is", func(t *testing.T) {
		empty := w.term(w.app.Categories, named("Arts"))
		_, err := w.app.Categories.Update(w.ctx, w.admin(), music.ID, app.TermInput{Parent: &empty.ID})
		w.must(err)
		if got := w.termNames(w.app.Categories, app.TermFilter{}); got != "Arts,Bebop,Film,Jazz,Music" {
			t.Fatalf("got %q", got)
		}
	})
}

// A category's page is under every ancestor's slug, as WordPress builds the
// link of a term of a hierarchical taxonomy.
func TestACategoryURLCarriesItsAncestors(t *testing.T) {
	w := newWorld(t)
	music := w.term(w.app.Categories, named("Music"))
	jazz := w.term(w.app.Categories, named("Jazz", music.ID))
	bebop := w.term(w.app.Categories, named("Bebop", jazz.ID))
	tag := w.term(w.app.Tags, named("Outdoor"))
	for _, c := range []struct {
		terms *app.Terms
		id    int64
		want  string
	}{
		{w.app.Categories, music.ID, "http://x/events/category/music/"},
		{w.app.Categories, jazz.ID, "http://x/events/category/music/jazz/"},
		{w.app.Categories, bebop.ID, "http://x/events/category/music/jazz/bebop/"},
		{w.app.Tags, tag.ID, "http://x/tag/outdoor/"},
	} {
		got, err := c.terms.Get(w.ctx, visitor, c.id)
		w.must(err)
		if got.URL != c.want {
			t.Errorf("url = %s, want %s", got.URL, c.want)
		}
	}
	if bebop.URL != "http://x/events/category/music/jazz/bebop/" {
		t.Errorf("created term url = %s", bebop.URL)
	}
	page, err := w.app.Categories.List(w.ctx, visitor, app.TermFilter{Include: strs("bebop"), HideEmpty: ptr(false)})
	w.must(err)
	if len(page.Items) != 1 || page.Items[0].URL != bebop.URL {
		t.Errorf("listed: %+v", page.Items)
	}
	t.Run("a parent's new slug moves its children's pages", func(t *testing.T) {
		_, err := w.app.Categories.Update(w.ctx, w.admin(), music.ID, app.TermInput{Slug: ptr("musique")})
		w.must(err)
		got, err := w.app.Categories.Get(w.ctx, visitor, bebop.ID)
		w.must(err)
		if got.URL != "http://x/events/category/musique/jazz/bebop/" {
			t.Fatalf("url = %s", got.URL)
		}
	})
}
