package app_test

import (
	"slices"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// Synonyms apply when a search runs, in every order, with no reindex: a
// group's words find each other; a root's words are found by the root,
// not the other way; a change or a delete applies to the next search.
func TestSynonymsWidenSearchesAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.event("Jazz gig", "2030-06-01", app.EventInput{})
	w.event("Rock concert", "2030-06-02", app.EventInput{})
	w.event("Blues evening", "2030-06-03", app.EventInput{})
	w.event("Music night", "2030-06-04", app.EventInput{})
	search := func(text, order string) string {
		return w.titles(visitor, app.EventFilter{Dates: month("2030-06"), Search: ptr(text), OrderBy: order})
	}
	create := func(in app.SynonymInput) *app.SynonymView {
		g, err := w.app.Synonyms.Create(w.ctx, w.admin(), in)
		w.must(err)
		return g
	}
	if got := search("gig", ""); got != "Jazz gig" {
		t.Fatalf("before any synonym: %q", got)
	}
	both := create(app.SynonymInput{Words: &[]string{"Concert", "gig"}})
	create(app.SynonymInput{Root: ptr("music"), Words: &[]string{"jazz", "blues"}})
	for _, c := range []struct{ name, search, want string }{
		{"a group's words find each other", "gig", "Jazz gig,Rock concert"},
		{"both ways", "concert", "Jazz gig,Rock concert"},
		{"a root finds its words", "music", "Jazz gig,Blues evening,Music night"},
		{"a root's word does not find the root", "jazz", "Jazz gig"},
		{"a word that is no synonym finds no more", "gigs", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, order := range []string{"", "relevance"} {
				got := search(c.search, order)
				if order == "relevance" { // ranked: the set is what counts
					got = sortedTitles(got)
				}
				if want := c.want; got != want && got != sortedTitles(want) {
					t.Fatalf("%s (%s): %q, want %q", c.search, order, got, want)
				}
			}
		})
	}
	t.Run("a change applies to the next search", func(t *testing.T) {
		_, err := w.app.Synonyms.Update(w.ctx, w.admin(), both.ID, app.SynonymInput{Words: &[]string{"gig", "evening"}})
		w.must(err)
		if got := search("gig", ""); got != "Jazz gig,Blues evening" {
			t.Fatalf("%q", got)
		}
		_, err = w.app.Synonyms.Delete(w.ctx, w.admin(), both.ID)
		w.must(err)
		if got := search("gig", ""); got != "Jazz gig" {
			t.Fatalf("after the delete: %q", got)
		}
	})
	t.Run("a group is single words, two at least without a root", func(t *testing.T) {
		for _, in := range []app.SynonymInput{
			{Words: &[]string{"gig"}}, {Words: &[]string{"live music", "gig"}}, {Root: ptr("jazz"), Words: &[]string{"jazz"}}, {Root: ptr("a b"), Words: &[]string{"c"}},
		} {
			_, err := w.app.Synonyms.Create(w.ctx, w.admin(), in)
			invalid(t, err)
		}
	})
	t.Run("administrators alone manage them", func(t *testing.T) {
		_, err := w.app.Synonyms.List(w.ctx, w.callers[calendar.RoleEditor])
		invalid(t, err, "rest_cannot_manage_synonyms")
		_, err = w.app.Synonyms.Create(w.ctx, visitor, app.SynonymInput{Words: &[]string{"a", "b"}})
		invalid(t, err, "rest_cannot_manage_synonyms")
	})
}

// sortedTitles sorts a comma-separated list of titles.
func sortedTitles(titles string) string {
	list := strings.Split(titles, ",")
	slices.Sort(list)
	return strings.Join(list, ",")
}
