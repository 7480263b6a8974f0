package app_test

import (
	"fmt"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// Terms an older release stored carry no mark of who made them. One that
// only drafts carry may be a category an event write made for a draft: a
// visitor does not see it until an event they may read carries it. One that
// no event carries, or a published one does, is shown as before, and a term
// made through the routes now is shown whatever carries it.
func TestATermStoredBeforeTheMarksIsHiddenWhileOnlyDraftsCarryIt(t *testing.T) {
	w := newWorld(t)
	stored := map[string]int64{}
	for _, name := range []string{"Spring launch", "Jazz", "Archive"} { // as the older release wrote them: no mark
		term := &calendar.Term{Taxonomy: "tribe_events_cat", Name: name, Slug: fmt.Sprintf("old-%d", len(stored))}
		w.must(w.store.Terms().Insert(w.ctx, term))
		stored[name] = term.ID
	}
	_, err := w.app.CatchUp(w.ctx) // the new release's index, from the store
	w.must(err)
	routes := w.term(w.app.Categories, named("Members only"))
	ref := func(id int64) *[]string { return &[]string{fmt.Sprint(id)} }
	launch := w.event("Launch", "2030-03-01", app.EventInput{PostFields: app.PostFields{Status: calendar.StatusDraft},
		Categories: &[]string{fmt.Sprint(stored["Spring launch"]), fmt.Sprint(routes.ID)}})
	w.event("Jam", "2030-03-02", app.EventInput{Categories: ref(stored["Jazz"])})
	w.event("Jam rehearsal", "2030-03-03", app.EventInput{PostFields: app.PostFields{Status: calendar.StatusDraft}, Categories: ref(stored["Jazz"])})

	all := app.TermFilter{HideEmpty: ptr(false)}
	if got := w.termNames(w.app.Categories, all); got != "Archive,Jazz,Members only" {
		t.Fatalf("a visitor lists %q", got)
	}
	if _, err := w.app.Categories.Get(w.ctx, visitor, stored["Spring launch"]); err == nil {
		t.Fatal("a visitor reads the category only a draft carries")
	}
	page, err := w.app.Categories.List(w.ctx, w.callers[calendar.RoleEditor], all)
	w.must(err)
	if len(page.Items) != 4 {
		t.Fatalf("an editor lists %d categories, want the four", len(page.Items))
	}
	_, err = w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: launch.ID}, app.EventInput{PostFields: app.PostFields{Status: calendar.StatusPublish}})
	w.must(err)
	if got := w.termNames(w.app.Categories, all); got != "Archive,Jazz,Members only,Spring launch" {
		t.Fatalf("once the draft is published a visitor lists %q", got)
	}
}
