package app_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"calendar/app"
)

// The rules of a series, tested in the domain: what occurrences a rule
// makes, at which local and UTC times; the lines kept and refused:
// series_lines_test.go. How recurrence is sent over HTTP is
// controllers/events_alone_test.go's.

// seriesStarts creates a series as the administrator, in zone, from start for an
// hour, and lists the starts of it and its occurrences, local and UTC.
func (w *world) seriesStarts(title, zone string, start time.Time, rules ...string) (local, utc []string, views []app.EventView) {
	w.t.Helper()
	first, err := w.app.Events.Create(w.ctx, w.admin(), app.EventInput{
		PostFields: app.PostFields{Title: &title}, Timezone: &zone, Recurrence: &rules,
		StartDate: ptr(start.Format(app.DateFormat)), EndDate: ptr(start.Add(90 * time.Minute).Format(app.DateFormat)),
	})
	w.must(err)
	page, err := w.app.Events.List(w.ctx, w.admin(), app.EventFilter{Parent: &first.ID, Page: app.PageRequest{PerPage: 50},
		Dates: app.Dates{"start_date": "2000-01-01", "end_date": "2100-01-01"}})
	w.must(err)
	local, utc = []string{first.StartDate}, []string{first.UTCStartDate}
	for _, e := range page.Items {
		local, utc = append(local, e.StartDate), append(utc, e.UTCStartDate)
	}
	return local, utc, page.Items
}

// lastSunday is the last Sunday of a month: when Europe changes its clocks.
func lastSunday(year int, month time.Month) time.Time {
	d := time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC)
	return d.AddDate(0, 0, -int(d.Weekday()))
}

// secondSunday is when the USA changes its clocks in March.
func secondSunday(year int, month time.Month) time.Time {
	d := time.Date(year, month, 1, 0, 0, 0, 0, time.UTC)
	return d.AddDate(0, 0, (7-int(d.Weekday()))%7+7)
}

func day(t time.Time, days int) string { return t.AddDate(0, 0, days).Format("2006-01-02") }

func TestASeriesKeepsItsLocalTimeAcrossDaylightSavingChanges(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	year := time.Now().Year() + 1
	paris := lastSunday(year, time.March).AddDate(0, 0, -12) // a Tuesday, two weeks before the change
	ny := secondSunday(year, time.March).AddDate(0, 0, -2)   // the Friday before
	for _, tc := range []struct {
		zone  string
		first time.Time
		rule  string
		want  []string
		utc   []string // the start in UTC moves by the hour the clocks do
	}{
		{"Europe/Paris", paris.Add(20 * time.Hour), "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3",
			[]string{day(paris, 0) + " 20:00:00", day(paris, 7) + " 20:00:00", day(paris, 14) + " 20:00:00"},
			[]string{day(paris, 0) + " 19:00:00", day(paris, 7) + " 19:00:00", day(paris, 14) + " 18:00:00"}},
		{"America/New_York", ny.Add(9 * time.Hour), "RRULE:FREQ=DAILY;COUNT=3",
			[]string{day(ny, 0) + " 09:00:00", day(ny, 1) + " 09:00:00", day(ny, 2) + " 09:00:00"},
			[]string{day(ny, 0) + " 14:00:00", day(ny, 1) + " 14:00:00", day(ny, 2) + " 13:00:00"}},
	} {
		local, utc, occurrences := w.seriesStarts("Class "+tc.zone, tc.zone, tc.first, tc.rule)
		if strings.Join(local, ",") != strings.Join(tc.want, ",") || strings.Join(utc, ",") != strings.Join(tc.utc, ",") {
			t.Fatalf("%s: starts %v (UTC %v), want %v (UTC %v)", tc.zone, local, utc, tc.want, tc.utc)
		}
		for i, e := range occurrences {
			if !strings.HasSuffix(e.EndDate, "21:30:00") && tc.zone == "Europe/Paris" || e.TimeZone != tc.zone || e.Title != "Class "+tc.zone {
				t.Fatalf("%s occurrence %d: %+v", tc.zone, i+1, e)
			}
		}
	}
}

func TestRulesGiveTheOccurrencesRFC5545Says(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	year := time.Now().Year() + 1
	jan := time.Date(year, time.January, 1, 0, 0, 0, 0, time.UTC)
	secondThursday := func(m time.Month) string {
		d := time.Date(year, m, 1, 0, 0, 0, 0, time.UTC)
		return d.AddDate(0, 0, (11-int(d.Weekday()))%7+7).Format("2006-01-02") + " 18:00:00"
	}
	for _, tc := range []struct {
		name  string
		start time.Time
		rules []string
		want  []string
	}{
		{"BYDAY ordinal: the second Thursday", time.Date(year, time.January, 1, 18, 0, 0, 0, time.UTC),
			[]string{"RRULE:FREQ=MONTHLY;BYDAY=2TH;COUNT=3"},
			[]string{day(jan, 0) + " 18:00:00", secondThursday(time.January), secondThursday(time.February), secondThursday(time.March)}},
		{"UNTIL", jan.Add(10 * time.Hour), []string{fmt.Sprintf("RRULE:FREQ=DAILY;UNTIL=%d0103T235959Z", year)},
			[]string{day(jan, 0) + " 10:00:00", day(jan, 1) + " 10:00:00", day(jan, 2) + " 10:00:00"}},
		{"EXDATE", jan.Add(10 * time.Hour), []string{"RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE:" + jan.AddDate(0, 0, 7).Format("20060102") + "T100000"},
			[]string{day(jan, 0) + " 10:00:00", day(jan, 14) + " 10:00:00", day(jan, 21) + " 10:00:00"}},
		{"RDATE", jan.Add(10 * time.Hour), []string{"RDATE:" + jan.AddDate(0, 0, 3).Format("20060102") + "T150000"},
			[]string{day(jan, 0) + " 10:00:00", day(jan, 3) + " 15:00:00"}}, // an RDATE's own time
		{"RDATE in another zone", jan.Add(10 * time.Hour), []string{"RDATE;TZID=America/New_York:" + jan.AddDate(0, 0, 4).Format("20060102") + "T090000"},
			[]string{day(jan, 0) + " 10:00:00", day(jan, 4) + " 14:00:00"}},
	} {
		if local, _, _ := w.seriesStarts(tc.name, "UTC", tc.start, tc.rules...); strings.Join(local, ",") != strings.Join(tc.want, ",") {
			t.Fatalf("%s: starts %v, want %v", tc.name, local, tc.want)
		}
	}
}
