package app_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// The rule of a list that shows each series once, and of a series' own
// list, as the app applies them (the index decides which occurrence is
// first: index/indextest/series.go): each series as its first occurrence
// in the window that the caller may read, counted once; a series' events
// with the list's window, under the read rule; 404 for an event that is no
// series, or one the caller may not read.
func TestEachSeriesOnceAndASeriesOccurrencesUnderTheReadRule(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *app.Settings) {
		s.Now = func() time.Time { return time.Date(2030, 5, 1, 0, 0, 0, 0, time.UTC) }
	})
	weekly := w.event("Weekly", "2030-06-03", app.EventInput{Recurrence: &[]string{"RRULE:FREQ=WEEKLY;COUNT=4"}}) // 3, 10, 17, 24 June
	single := w.event("Single", "2030-06-12", app.EventInput{})
	draft := w.event("Draft class", "2030-06-04", app.EventInput{PostFields: app.PostFields{Status: calendar.StatusDraft},
		Recurrence: &[]string{"RRULE:FREQ=WEEKLY;COUNT=2"}})
	all, err := w.app.Events.Occurrences(w.ctx, w.admin(), app.PostRef{ID: weekly.ID}, app.EventFilter{})
	w.must(err)
	if len(all.Items) != 4 {
		t.Fatalf("the series lists %d events, want 4", len(all.Items))
	}
	second := all.Items[1] // 10 June, hidden from visitors
	_, err = w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: second.ID}, app.EventInput{PostFields: app.PostFields{Status: calendar.StatusDraft}})
	w.must(err)

	shown := func(page *app.Page[app.EventView], err error) string {
		t.Helper()
		w.must(err)
		var out []string
		for _, e := range page.Items {
			out = append(out, e.Title+" "+e.StartDate[5:10])
		}
		return fmt.Sprintf("%s (%d)", strings.Join(out, ", "), page.Total)
	}
	fromThe5th := app.Dates{"start_date": "2030-06-05", "end_date": "2030-06-30"}
	for _, c := range []struct {
		name   string
		caller app.Caller
		f      app.EventFilter
		want   string
	}{
		{"every occurrence", visitor, app.EventFilter{Dates: fromThe5th}, "Single 06-12, Weekly 06-17, Weekly 06-24 (3)"},
		{"each series once: the visitor's first is the 17th", visitor, app.EventFilter{Dates: fromThe5th, HideSubsequentRecurrences: true}, "Single 06-12, Weekly 06-17 (2)"},
		{"the administrator reads the 10th", w.admin(), app.EventFilter{Dates: fromThe5th, HideSubsequentRecurrences: true}, "Weekly 06-10, Single 06-12 (2)"},
		{"a page of one counts each series once", visitor, app.EventFilter{Dates: fromThe5th, HideSubsequentRecurrences: true, Page: app.PageRequest{PerPage: 1}}, "Single 06-12 (2)"},
	} {
		if got := shown(w.app.Events.List(w.ctx, c.caller, c.f)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		name   string
		caller app.Caller
		want   string
	}{
		{"the visitor", visitor, "Weekly 06-03, Weekly 06-17, Weekly 06-24 (3)"},
		{"the administrator", w.admin(), "Weekly 06-03, Weekly 06-10, Weekly 06-17, Weekly 06-24 (4)"},
	} {
		if got := shown(w.app.Events.Occurrences(w.ctx, c.caller, app.PostRef{ID: weekly.ID}, app.EventFilter{})); got != c.want {
			t.Errorf("the series' events for %s: %s, want %s", c.name, got, c.want)
		}
	}
	if got := shown(w.app.Events.Occurrences(w.ctx, visitor, app.PostRef{ID: weekly.ID}, app.EventFilter{Dates: fromThe5th})); got != "Weekly 06-17, Weekly 06-24 (2)" {
		t.Errorf("the series' events in a window: %s", got)
	}
	for _, id := range []int64{single.ID, second.ID, draft.ID} {
		_, err := w.app.Events.Occurrences(w.ctx, visitor, app.PostRef{ID: id}, app.EventFilter{})
		var e *calendar.Error
		if !errors.As(err, &e) || e.Code != "rest-event-not-series" || e.Kind != calendar.KindNotFound {
			t.Errorf("the events of %d: %v, want 404 rest-event-not-series", id, err)
		}
	}
	if page, err := w.app.Events.Occurrences(w.ctx, w.admin(), app.PostRef{ID: draft.ID}, app.EventFilter{}); err != nil || page.Total != 1 {
		t.Errorf("the draft series for the administrator: %v, %v", page, err)
	}
}
