package app_test

import (
	"fmt"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// facets=days counts the list's events on each day of its window, an event
// on every day its local times cover: a festival over the night of the
// change to summer time, an all-day fair on that day, each occurrence of a
// series on its own, an event of another zone at its own local times; the
// counts are those the list itself answers, and a draft counts for those
// who may read it only.
func TestDayCountsAreWhatTheListHoldsOnEachDay(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, func(s *app.Settings) { s.TimeZone = berlin })
	span := func(start, end string) app.EventInput {
		return app.EventInput{StartDate: ptr(start), EndDate: ptr(end)}
	}
	w.event("Festival", "", span("2027-03-26 18:00:00", "2027-03-29 02:00:00")) // summer time begins on the 28th
	fair := span("2027-03-28 00:00:00", "2027-03-28 23:59:59")
	fair.AllDay = ptr(true)
	w.event("Fair", "", fair)
	choir := span("2027-03-10 19:00:00", "2027-03-10 21:00:00")
	choir.Recurrence = strs("RRULE:FREQ=WEEKLY;COUNT=4") // the 10th, 17th, 24th and 31st
	w.event("Choir", "", choir)
	late := span("2027-03-30 23:30:00", "2027-03-31 01:00:00")
	late.Timezone = ptr("America/New_York")
	w.event("Late show in New York", "", late)
	w.event("Rehearsal", "2027-03-05", app.EventInput{PostFields: app.PostFields{Status: calendar.StatusDraft}})
	w.event("Winter ends", "", span("2027-02-27 10:00:00", "2027-03-02 10:00:00")) // not in the list: it starts before start_date

	march := app.EventFilter{Dates: month("2027-03"), Facets: strs(calendar.FacetDays), Page: app.PageRequest{PerPage: 50}}
	for _, c := range []struct {
		name   string
		caller app.Caller
		want   map[string]int // the days with events
	}{
		{"a visitor", visitor, map[string]int{"10": 1, "17": 1, "24": 1, "26": 1, "27": 1, "28": 2, "29": 1, "30": 1, "31": 2}},
		{"an administrator counts the draft", w.admin(), map[string]int{"05": 1, "10": 1, "17": 1, "24": 1, "26": 1, "27": 1, "28": 2, "29": 1, "30": 1, "31": 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			page, err := w.app.Events.List(w.ctx, c.caller, march)
			w.must(err)
			fromList := countFromList(t, page.Items)
			if len(page.Days) != 31 {
				t.Fatalf("%d days", len(page.Days))
			}
			for k, d := range page.Days {
				day := fmt.Sprintf("%02d", k+1)
				if d.Date != "2027-03-"+day || d.Count != c.want[day] || d.Count != fromList[d.Date] {
					t.Errorf("%s: %d events, want %d (the list holds %d)", d.Date, d.Count, c.want[day], fromList[d.Date])
				}
			}
		})
	}
	t.Run("a window of more than 93 days, or none, is refused", func(t *testing.T) {
		for _, dates := range []app.Dates{{"start_date": "2027-01-01", "end_date": "2027-04-04"}, nil} {
			_, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: dates, Facets: strs(calendar.FacetDays)})
			invalid(t, err)
		}
		_, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: app.Dates{"start_date": "2027-01-01", "end_date": "2027-04-03"}, Facets: strs(calendar.FacetDays)})
		w.must(err)
	})
}

// countFromList counts the events of a list on each day their shown local
// times cover: from the start's day, each day it has not ended by.
func countFromList(t *testing.T, events []app.EventView) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, e := range events {
		start, err := time.Parse(app.DateFormat, e.StartDate)
		if err != nil {
			t.Fatal(err)
		}
		end, err := time.Parse(app.DateFormat, e.EndDate)
		if err != nil {
			t.Fatal(err)
		}
		for day := start.Truncate(24 * time.Hour); day.Equal(start.Truncate(24*time.Hour)) || day.Before(end); day = day.AddDate(0, 0, 1) {
			out[day.Format(time.DateOnly)]++
		}
	}
	return out
}
