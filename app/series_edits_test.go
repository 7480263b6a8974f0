package app_test

import (
	"errors"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// Edits of a series and of its occurrences (app/series_edits.go), and who
// reads and edits them, tested in the domain. controllers/events_alone_test.go
// tests what is HTTP (how recurrence and post_parent are read, a refusal's
// shape), controllers/series_test.go a series edit on MongoDB.

// recurring creates a series as the administrator, in UTC, from start for
// length, by the rules.
func (w *world) recurring(title string, start time.Time, length time.Duration, rules ...string) *app.EventView {
	w.t.Helper()
	return w.recurringAs(w.admin(), title, "", start, length, rules...)
}

// recurringAs creates a series as caller, asking for status ("" for the
// caller's default).
func (w *world) recurringAs(caller app.Caller, title, status string, start time.Time, length time.Duration, rules ...string) *app.EventView {
	w.t.Helper()
	e, err := w.app.Events.Create(w.ctx, caller, app.EventInput{PostFields: app.PostFields{Title: &title, Status: status},
		Timezone: ptr("UTC"), StartDate: ptr(start.Format(app.DateFormat)), EndDate: ptr(start.Add(length).Format(app.DateFormat)),
		Recurrence: &rules})
	w.must(err)
	return e
}

// listedOccurrences are the occurrences of a series (not itself) a caller
// lists by default (the trash is not listed), in start order.
func (w *world) listedOccurrences(caller app.Caller, seriesID int64) []app.EventView {
	w.t.Helper()
	page, err := w.app.Events.List(w.ctx, caller, app.EventFilter{Parent: &seriesID, Page: app.PageRequest{PerPage: 50},
		Dates: app.Dates{"start_date": "2000-01-01"}})
	w.must(err)
	return page.Items
}

// edit updates an event as the administrator.
func (w *world) edit(id int64, in app.EventInput) *app.EventView {
	w.t.Helper()
	e, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: id}, in)
	w.must(err)
	return e
}

// deleteEvent moves an event to the trash as the administrator, or deletes it
// for good.
func (w *world) deleteEvent(id int64, force bool) {
	w.t.Helper()
	_, err := w.app.Events.Delete(w.ctx, w.admin(), app.PostRef{ID: id}, force)
	w.must(err)
}

// refused checks that err is a rest_invalid_param naming param.
func refused(t *testing.T, err error, param string) {
	t.Helper()
	invalid(t, err)
	var e *calendar.Error
	errors.As(err, &e)
	if params, _ := e.Data["params"].(map[string]string); params[param] == "" {
		t.Fatalf("err = %v (params %v), want it to name %s", err, e.Data["params"], param)
	}
}

// An edit of the series reaches its occurrences but those edited or trashed
// on their own: they are exceptions, which the series' edits leave as they
// are, whether the edit changes its fields, its dates or its rule.
func TestAnEditOfTheSeriesSparesTheOccurrencesEditedOrTrashedOnTheirOwn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	start := time.Now().UTC().AddDate(0, 0, 7).Truncate(24 * time.Hour).Add(19 * time.Hour)
	series := w.recurring("Choir", start, 2*time.Hour, "RRULE:FREQ=WEEKLY;COUNT=6")
	occurrences := w.listedOccurrences(w.admin(), series.ID)
	if len(occurrences) != 5 {
		t.Fatalf("%d occurrences, want 5", len(occurrences))
	}
	one, trashed := occurrences[1], occurrences[2]
	w.edit(one.ID, app.EventInput{PostFields: app.PostFields{Title: ptr("Choir: guest night")}})
	w.deleteEvent(trashed.ID, false)

	// Its fields: the title and the cost go to the others, all of them.
	w.edit(series.ID, app.EventInput{PostFields: app.PostFields{Title: ptr("Choir practice")}, Cost: strs("5€")})
	titles := map[string]int{}
	for _, o := range w.listedOccurrences(w.admin(), series.ID) {
		titles[o.Title]++
		if o.ID == trashed.ID {
			t.Fatal("the trashed occurrence is listed again")
		}
		if o.Title == "Choir practice" && o.Cost != "5€" {
			t.Fatalf("an occurrence took the title but not the cost: %q", o.Cost)
		}
	}
	if titles["Choir practice"] != 3 || titles["Choir: guest night"] != 1 || len(titles) != 2 {
		t.Fatalf("titles after editing one, then the series: %v", titles)
	}

	// Its dates: what is to come is made again at the new time; the
	// occurrence edited on its own keeps its time and title, and the
	// trashed one's start stays excluded (it is not made again).
	w.edit(series.ID, app.EventInput{StartDate: ptr(start.Add(time.Hour).Format(app.DateFormat)),
		EndDate: ptr(start.Add(3 * time.Hour).Format(app.DateFormat))})
	after := w.listedOccurrences(w.admin(), series.ID)
	if len(after) != 4 {
		t.Fatalf("%d occurrences after moving the series, want 4 (5, less the trashed one)", len(after))
	}
	for _, o := range after {
		hour := o.StartDate[11:13]
		if o.ID == one.ID && (hour != "19" || o.Title != "Choir: guest night") {
			t.Fatalf("the occurrence edited on its own moved: %s %q", o.StartDate, o.Title)
		}
		if o.ID != one.ID && hour != "20" {
			t.Fatalf("an occurrence kept the old time: %s", o.StartDate)
		}
	}

	// Its rule: a shorter one removes what it no longer gives, but the
	// occurrence edited on its own.
	w.edit(series.ID, app.EventInput{Recurrence: strs("RRULE:FREQ=WEEKLY;COUNT=2")})
	short := w.listedOccurrences(w.admin(), series.ID)
	var left []string
	for _, o := range short {
		left = append(left, o.StartDate+" "+o.Title)
	}
	if len(short) != 2 || short[0].ID == one.ID || short[1].ID != one.ID {
		t.Fatalf("after COUNT=2: %q; want the second week, then the one edited on its own", left)
	}
}

// Trashing a series trashes every occurrence, those edited on their own
// too; deleting it for good deletes them all, the trashed ones too: no
// occurrence outlives its series.
func TestTrashingOrDeletingASeriesTakesEveryOccurrenceAlong(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	start := time.Now().UTC().AddDate(0, 0, 7).Truncate(24 * time.Hour).Add(19 * time.Hour)
	series := w.recurring("Choir", start, 2*time.Hour, "RRULE:FREQ=WEEKLY;COUNT=4")
	occurrences := w.listedOccurrences(w.admin(), series.ID)
	if len(occurrences) != 3 {
		t.Fatalf("%d occurrences, want 3", len(occurrences))
	}
	w.edit(occurrences[0].ID, app.EventInput{PostFields: app.PostFields{Title: ptr("Choir: guest night")}})
	w.deleteEvent(occurrences[1].ID, false)

	w.deleteEvent(series.ID, false)
	if left := w.listedOccurrences(w.admin(), series.ID); len(left) != 0 {
		t.Fatalf("%d occurrences listed after the series went to the trash: %v", len(left), left)
	}
	// The administrator finds them all in the trash, with their series.
	page, err := w.app.Events.List(w.ctx, w.admin(), app.EventFilter{Parent: &series.ID, Statuses: strs(calendar.StatusTrash),
		Dates: app.Dates{"start_date": "2000-01-01"}})
	w.must(err)
	if page.Total != 3 {
		t.Fatalf("%d occurrences in the trash with their series, want 3", page.Total)
	}

	w.deleteEvent(series.ID, true)
	for _, o := range occurrences {
		_, err := w.app.Events.Get(w.ctx, w.admin(), app.PostRef{ID: o.ID}, "")
		var e *calendar.Error
		if !errors.As(err, &e) || e.Kind != calendar.KindNotFound {
			t.Fatalf("occurrence %d after the series was deleted: %v", o.ID, err)
		}
	}
}

// post_parent names a series, and only that: an event cannot be its own
// series, a series cannot become an occurrence of another, an event cannot
// join one that does not recur; and an occurrence cannot recur itself (its
// series does). A plain event may join a series, as an occurrence of it.
func TestPostParentNamesOnlyASeries(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	start := time.Now().UTC().AddDate(0, 1, 0).Truncate(time.Hour)
	series := w.recurring("Series", start, time.Hour, "RRULE:FREQ=DAILY;COUNT=3")
	plain := w.event("Plain", start.Format("2006-01-02"), app.EventInput{})
	occurrence := w.listedOccurrences(w.admin(), series.ID)[0]
	for _, c := range []struct {
		name   string
		target int64
		in     app.EventInput
		param  string
	}{
		{"itself", plain.ID, app.EventInput{Parent: &plain.ID}, "post_parent"},
		{"a series into another", series.ID, app.EventInput{Parent: &plain.ID}, "post_parent"},
		{"an event that is not a series", plain.ID, app.EventInput{Parent: &occurrence.ID}, "post_parent"},
		{"an occurrence recurring", occurrence.ID, app.EventInput{Recurrence: strs("RRULE:FREQ=DAILY;COUNT=2")}, "recurrence"},
	} {
		_, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: c.target}, c.in)
		refused(t, err, c.param)
	}
	joined := w.edit(plain.ID, app.EventInput{Parent: &series.ID})
	if joined.PostParent != series.ID {
		t.Fatalf("an event joined to a series has post_parent %d, want %d", joined.PostParent, series.ID)
	}
	if n := len(w.listedOccurrences(w.admin(), series.ID)); n != 3 {
		t.Fatalf("the series lists %d occurrences, want 3: its 2, and the event that joined", n)
	}
}

// Occurrences are read as their series is: a series not yet published
// (pending, draft) has none made, so neither a visitor nor its author lists
// any, and once published all appear. An occurrence is edited and deleted
// as its series' author's event: an author may not touch one of an
// administrator's series. The change feed shows each occurrence made.
func TestOccurrencesAreReadAndEditedAsTheirSeries(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	contributor, author := w.callers[calendar.RoleContributor], w.callers[calendar.RoleAuthor]
	start := time.Now().UTC().AddDate(0, 0, 3).Truncate(time.Hour)
	pending := w.recurringAs(contributor, "Pending series", calendar.StatusPublish, start, time.Hour, "RRULE:FREQ=DAILY;COUNT=4")
	if pending.Status != calendar.StatusPending {
		t.Fatalf("a contributor's series asked published is %s, want pending", pending.Status)
	}
	_, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Parent: &pending.ID})
	invalid(t, err) // as a missing one: a visitor does not learn it exists
	page, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Page: app.PageRequest{PerPage: 50}, Dates: app.Dates{"start_date": "2000-01-01"}})
	w.must(err)
	for _, e := range page.Items {
		if e.PostParent == pending.ID {
			t.Fatalf("a visitor lists an occurrence of a pending series: %+v", e)
		}
	}
	if got := w.listedOccurrences(contributor, pending.ID); len(got) != 0 {
		t.Fatalf("its author lists %d occurrences of a pending series, want none until it is published", len(got))
	}
	w.edit(pending.ID, app.EventInput{PostFields: app.PostFields{Status: calendar.StatusDraft}})
	if got := w.listedOccurrences(w.admin(), pending.ID); len(got) != 0 {
		t.Fatalf("a draft series has %d occurrences", len(got))
	}
	w.edit(pending.ID, app.EventInput{PostFields: app.PostFields{Status: calendar.StatusPublish}})
	if got := w.listedOccurrences(visitor, pending.ID); len(got) != 3 {
		t.Fatalf("once published, a visitor lists %d occurrences of the series, want 3", len(got))
	}

	published := w.recurring("Published series", start, time.Hour, "RRULE:FREQ=DAILY;COUNT=3")
	occurrence := w.listedOccurrences(w.admin(), published.ID)[0]
	_, err = w.app.Events.Update(w.ctx, author, app.PostRef{ID: occurrence.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("mine")}})
	invalid(t, err, "rest_forbidden")
	_, err = w.app.Events.Delete(w.ctx, author, app.PostRef{ID: occurrence.ID}, false)
	invalid(t, err, "rest_forbidden")

	feed, err := w.app.Changes(w.ctx, visitor, app.ChangesRequest{PerPage: ptr(int64(1000))})
	w.must(err)
	created := 0
	for _, c := range feed.Changes {
		if c.Type == "event" && c.Action == app.ActionCreated {
			created++
		}
	}
	if created != 7 { // each series, published, and its occurrences: 4 and 3
		t.Fatalf("the change feed shows %d events created, want 7: %+v", created, feed.Changes)
	}
}
