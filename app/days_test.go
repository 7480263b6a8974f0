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

// facets=days&tz=<zone> counts the list's events on each day of that zone:
// a timed event on every local day there its instants cover (across the
// change to summer time in Europe and in North America, a half-hour zone,
// one a day ahead of UTC), an all-day event on its own dates whatever the
// zone; the counts are those the list's events give when each is shown at
// its times in that zone, and they differ from the events' own days.
func TestDayCountsInAZoneAreWhatTheListHoldsOnEachDayThere(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, func(s *app.Settings) { s.TimeZone = berlin })
	span := func(start, end, zone string) app.EventInput {
		return app.EventInput{StartDate: ptr(start), EndDate: ptr(end), Timezone: ptr(zone)}
	}
	w.event("Festival", "", span("2027-03-26 18:00:00", "2027-03-29 02:00:00", "Europe/Berlin")) // summer time begins on the 28th
	fair := span("2027-03-28 00:00:00", "2027-03-28 23:59:59", "Europe/Berlin")
	fair.AllDay = ptr(true)
	w.event("Fair", "", fair)
	choir := span("2027-03-03 19:00:00", "2027-03-03 21:00:00", "Europe/Berlin")
	choir.Recurrence = strs("RRULE:FREQ=WEEKLY;COUNT=4") // the 3rd, 10th, 17th and 24th
	w.event("Choir", "", choir)
	w.event("Until midnight", "", span("2027-03-10 22:00:00", "2027-03-11 00:00:00", "Europe/Berlin"))
	w.event("Late show in New York", "", span("2027-03-30 23:30:00", "2027-03-31 01:00:00", "America/New_York"))
	w.event("Night in Los Angeles", "", span("2027-03-13 22:00:00", "2027-03-14 04:00:00", "America/Los_Angeles")) // summer time begins at 02:00 on the 14th
	w.event("Breakfast in Auckland", "", span("2027-03-15 07:00:00", "2027-03-15 09:00:00", "Pacific/Auckland"))
	w.event("Past midnight in Kolkata", "", span("2027-03-20 23:45:00", "2027-03-21 00:15:00", "Asia/Kolkata"))
	w.event("Opening night", "", span("2027-03-01 00:30:00", "2027-03-01 02:00:00", "Europe/Berlin")) // still February west of Berlin
	w.event("Exhibition", "", span("2027-02-10 10:00:00", "2027-03-12 18:00:00", "Europe/Berlin"))    // begun weeks before the window
	w.event("Retreat", "", span("2027-02-27 22:00:00", "2027-03-01 10:00:00", "Europe/Berlin"))       // begun hours before the window

	// The events that end after February (the exhibition with them), on
	// the days from February 28th to March 31st.
	march := app.EventFilter{Dates: app.Dates{"ends_after": "2027-02-28", "end_date": "2027-03-31"}, Facets: strs(calendar.FacetDays), Page: app.PageRequest{PerPage: 50}}
	own, err := w.app.Events.List(w.ctx, visitor, march)
	w.must(err)
	for _, zone := range []string{"Pacific/Auckland", "America/Los_Angeles", "Asia/Kolkata", "Europe/Berlin"} {
		t.Run(zone, func(t *testing.T) {
			t.Parallel()
			loc, err := time.LoadLocation(zone)
			if err != nil {
				t.Fatal(err)
			}
			f := march
			f.DaysZone = &zone
			page, err := w.app.Events.List(w.ctx, visitor, f)
			w.must(err)
			if len(page.Items) != len(own.Items) || len(page.Days) != 32 {
				t.Fatalf("%d events (%d without tz), %d days", len(page.Items), len(own.Items), len(page.Days))
			}
			fromList := countInZone(t, page.Items, loc)
			differs := false
			for k, d := range page.Days {
				if d.Count != fromList[d.Date] {
					t.Errorf("%s: %d events, the list holds %d there", d.Date, d.Count, fromList[d.Date])
				}
				differs = differs || d.Count != own.Days[k].Count
			}
			if !differs {
				t.Errorf("the days in %s are those of the events' own times: %v", zone, page.Days)
			}
		})
	}
	t.Run("an unknown zone, or tz without facets=days, is refused naming tz", func(t *testing.T) {
		t.Parallel()
		for _, f := range []app.EventFilter{
			{Dates: march.Dates, Facets: strs(calendar.FacetDays), DaysZone: ptr("Mars/Olympus_Mons")},
			{Dates: march.Dates, DaysZone: ptr("Europe/Berlin")},
		} {
			_, err := w.app.Events.List(w.ctx, visitor, f)
			invalidParam(t, err, "tz")
		}
	})
}

// countInZone counts the events of a list on each day of zone their times
// cover there (from the start's day, each day it has not ended by), an
// all-day event on its own dates.
func countInZone(t *testing.T, events []app.EventView, zone *time.Location) map[string]int {
	t.Helper()
	var shown []app.EventView
	for _, e := range events {
		if e.AllDay == nil || !*e.AllDay {
			start, err1 := time.ParseInLocation(app.DateFormat, e.UTCStartDate, time.UTC)
			end, err2 := time.ParseInLocation(app.DateFormat, e.UTCEndDate, time.UTC)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			e.StartDate, e.EndDate = start.In(zone).Format(app.DateFormat), end.In(zone).Format(app.DateFormat)
		}
		shown = append(shown, e)
	}
	return countFromList(t, shown)
}
