package app_test

import (
	"slices"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// A series' lease (app/series_lease.go): jobs on its occurrences take
// turns, a write of a leased series waits for the job, and a job that
// stopped half-way is finished by the next extension pass.

func (w *world) series(title string, rules ...string) *calendar.Post {
	w.t.Helper()
	start, end := "tomorrow 18:00", "tomorrow 19:00"
	e, err := w.app.Events.Create(w.ctx, w.admin(), app.EventInput{PostFields: app.PostFields{Title: &title},
		StartDate: &start, EndDate: &end, Recurrence: &rules})
	w.must(err)
	return w.stored(e.ID)
}

func (w *world) stored(id int64) *calendar.Post {
	w.t.Helper()
	p, err := w.store.Posts().Get(w.ctx, id)
	w.must(err)
	return p
}

// occurrenceDays are the days of a series' occurrences not in the trash.
func (w *world) occurrenceDays(seriesID int64) []string {
	w.t.Helper()
	page, err := w.app.Events.List(w.ctx, w.admin(), app.EventFilter{Parent: &seriesID, Page: app.PageRequest{PerPage: 50}})
	w.must(err)
	var days []string
	for _, e := range page.Items {
		days = append(days, e.StartDate[:10])
	}
	slices.Sort(days)
	return days
}

func TestAJobThatStoppedHalfWayIsFinishedByTheNextExtension(t *testing.T) {
	w := newWorld(t)
	want := w.occurrenceDays(w.series("Reference", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=9").ID)
	series := w.series("Class", "RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=9")
	// The rule changed and the job that was to rewrite the occurrences
	// died at once: its lease is there, expired.
	series.Recurrence = []string{"RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=9"}
	series.Lease = &calendar.Lease{Holder: "a job that died", Until: time.Now().Add(-time.Minute)}
	w.must(w.store.Posts().Update(w.ctx, series))
	if _, err := w.app.CatchUp(w.ctx); err != nil {
		t.Fatal(err)
	}
	n, err := w.app.Events.ExtendSeries(w.ctx)
	w.must(err)
	if got := w.occurrenceDays(series.ID); n != 1 || !slices.Equal(got, want) {
		t.Fatalf("after %d series reconciled, the occurrences are on\n%v\nwant\n%v", n, got, want)
	}
	if lease := w.stored(series.ID).Lease; lease != nil {
		t.Fatalf("the lease is still there: %+v", lease)
	}
	if n, err := w.app.Events.ExtendSeries(w.ctx); err != nil || n != 0 {
		t.Fatalf("a second pass reconciled %d series (%v): extension must make nothing new", n, err)
	}
}

func TestAWriteOfASeriesWaitsForTheJobThatHoldsItsLease(t *testing.T) {
	w := newWorld(t)
	series := w.series("Class", "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4")
	series.Lease = &calendar.Lease{Holder: "a job at work", Until: time.Now().Add(time.Minute)}
	w.must(w.store.Posts().Update(w.ctx, series))
	done := make(chan error, 1)
	go func() {
		_, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: series.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Renamed")}})
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the write went through a lease another job holds (err %v)", err)
	case <-time.After(200 * time.Millisecond):
	}
	if got := w.stored(series.ID); got.Title != "Class" {
		t.Fatalf("the series was written under another's lease: %q", got.Title)
	}
	// The job ends: it gives the lease back with a write of its own.
	series = w.stored(series.ID)
	series.Lease = nil
	series.Excluded = append(series.Excluded, time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC))
	w.must(w.store.Posts().Update(w.ctx, series))
	w.must(<-done)
	got := w.stored(series.ID)
	if got.Title != "Renamed" || len(got.Excluded) != 1 || got.Lease != nil {
		t.Fatalf("after the job: title %q, excluded %v, lease %+v; want the write applied over the job's", got.Title, got.Excluded, got.Lease)
	}
}
