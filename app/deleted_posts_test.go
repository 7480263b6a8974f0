package app_test

import (
	"fmt"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// TestAPostsDeleteReachesOnlyThoseWhoCouldReadIt: a post deleted for good
// is told gone, by an author's subscription and by the change feed, to
// whoever could read it at some point (a published event, their own
// draft, an event unpublished and then deleted between two reads of the
// feed), never to one it was always hidden from (another author's draft,
// created, edited and deleted: nothing of it, live or gone); an editor is
// told of every one.
func TestAPostsDeleteReachesOnlyThoseWhoCouldReadIt(t *testing.T) {
	t.Parallel()
	r := &receiver{}
	w := newDeliveringWorld(t, r)
	author, editor := w.callers[calendar.RoleAuthor], w.callers[calendar.RoleEditor]
	_, start, _ := w.feed(w.admin(), 0)
	_, err := w.app.Webhooks.Create(w.ctx, author, hook("https://hooks.example/author"))
	w.must(err)
	draft := func(c app.Caller, title string) *app.EventView {
		e, err := w.app.Events.Create(w.ctx, c, app.EventInput{PostFields: app.PostFields{Title: &title, Status: calendar.StatusDraft},
			StartDate: ptr("2030-07-01 10:00:00"), EndDate: ptr("2030-07-01 11:00:00")})
		w.must(err)
		return e
	}
	deleteAs := func(c app.Caller, id int64) {
		_, err := w.app.Events.Delete(w.ctx, c, app.PostRef{ID: id}, true)
		w.must(err)
	}
	theirs := draft(editor, "Their draft")
	_, err = w.app.Events.Update(w.ctx, editor, app.PostRef{ID: theirs.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Their draft, edited")}})
	w.must(err)
	mine := draft(author, "My draft")
	public := w.event("Public", "2030-07-02", app.EventInput{})
	unpublished := w.event("Unpublished", "2030-07-03", app.EventInput{})
	want := fmt.Sprintf("event.created #%d, event.created #%d, event.created #%d", mine.ID, public.ID, unpublished.ID)
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
	_, mid, _ := w.feed(w.admin(), start)
	created := fmt.Sprint([]string{fmt.Sprintf("event/%d created", mine.ID), fmt.Sprintf("event/%d created", public.ID), fmt.Sprintf("event/%d created", unpublished.ID)})
	if got, _, _ := w.feed(author, start); fmt.Sprint(got) != created {
		t.Fatalf("the author's feed of live posts: %v\nwant %s", got, created)
	}

	deleteAs(editor, theirs.ID)
	deleteAs(author, mine.ID)
	deleteAs(w.admin(), public.ID)
	want += fmt.Sprintf(", event.deleted #%d, event.deleted #%d", mine.ID, public.ID)
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return len(r.deliveries()) >= 5 })
	if got := heard(r.deliveries()); got != want {
		t.Fatalf("the author's subscription heard «%s», want «%s»", got, want)
	}

	// Unpublished, then deleted, before the feed is read again: its one
	// entry is its tombstone, which a reader holding it must still get.
	_, err = w.app.Events.Update(w.ctx, editor, app.PostRef{ID: unpublished.ID}, app.EventInput{PostFields: app.PostFields{Status: calendar.StatusDraft}})
	w.must(err)
	deleteAs(editor, unpublished.ID)
	gone := func(posts ...*app.EventView) []string {
		var out []string
		for _, p := range posts {
			out = append(out, fmt.Sprintf("event/%d deleted", p.ID))
		}
		return out
	}
	for _, c := range []struct {
		name   string
		caller app.Caller
		since  int64
		want   []string
	}{
		{"an author, from the start", author, start, gone(mine, public, unpublished)},
		{"an author, holding what was there", author, mid, gone(mine, public, unpublished)},
		{"an editor", editor, start, gone(theirs, mine, public, unpublished)},
		{"a visitor", visitor, mid, gone(public, unpublished)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, _, _ := w.feed(c.caller, c.since); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("feed since %d: %v\nwant %v", c.since, got, c.want)
			}
		})
	}
}
