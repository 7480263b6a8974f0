package app_test

import (
	"fmt"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// TestTheChangeFeedEmbedsEachObjectAsItsReaderMayReadIt: with embed=object
// each entry carries the item as its route answers the caller (a venue, an
// event, a category), and a deleted one (or one the caller may no longer
// read) none; one the caller never could read is not listed.
func TestTheChangeFeedEmbedsEachObjectAsItsReaderMayReadIt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	author := w.callers[calendar.RoleAuthor]
	since, err := w.store.LastSeq(w.ctx)
	w.must(err)
	v := w.venue("Hall", app.LinkedInput{})
	draft, err := w.app.Events.Create(w.ctx, w.callers[calendar.RoleEditor], app.EventInput{PostFields: app.PostFields{Title: ptr("Not theirs"), Status: calendar.StatusDraft},
		StartDate: ptr("2030-07-01 10:00:00"), EndDate: ptr("2030-07-01 11:00:00")})
	w.must(err)
	e := w.event("Theirs to read", "2030-07-02", app.EventInput{})
	cat, err := w.app.Categories.Create(w.ctx, w.admin(), app.TermInput{Name: ptr("Jazz")})
	w.must(err)
	page, err := w.app.Changes(w.ctx, author, app.ChangesRequest{Since: since, EmbedObject: true})
	w.must(err)
	got := map[string]app.ChangeView{} // posts and terms number their IDs apart
	for _, c := range page.Changes {
		got[fmt.Sprint(c.Type, c.ID)] = c
	}
	key := func(id int64, typ string) app.ChangeView { return got[fmt.Sprint(typ, id)] }
	if o, ok := key(v.ID, "venue").Object.(app.VenueView); !ok || o.Venue != "Hall" {
		t.Errorf("the venue: %+v", key(v.ID, "venue"))
	}
	if o, ok := key(e.ID, "event").Object.(app.EventView); !ok || o.Title != "Theirs to read" {
		t.Errorf("the event: %+v", key(e.ID, "event"))
	}
	if c, listed := got[fmt.Sprint("event", draft.ID)]; listed {
		t.Errorf("another's draft, never readable to the author: %+v", c)
	}
	if c := key(cat.ID, "category"); c.Object == nil {
		t.Errorf("the category: %+v", c)
	}
	plain, err := w.app.Changes(w.ctx, author, app.ChangesRequest{Since: since})
	w.must(err)
	for _, c := range plain.Changes {
		if c.Object != nil {
			t.Fatalf("without embed: %+v", c)
		}
	}
}
