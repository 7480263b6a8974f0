package app_test

import (
	"strings"
	"testing"
	"time"

	"calendar/app"
)

// A series' content lines: kept as sent, and refused naming the part that
// is wrong. How they are sent over HTTP (a list, or one text of a line
// each) is controllers' (events_alone_test.go).

func TestASeriesKeepsItsLinesAsSentAndItsOccurrencesNameIt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	jan := time.Date(time.Now().Year()+1, time.January, 1, 10, 0, 0, 0, time.UTC)
	rules := []string{"RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE:" + jan.AddDate(0, 0, 7).Format("20060102") + "T100000"}
	series := w.recurring("Weekly", jan, time.Hour, rules...)
	if strings.Join(series.Recurrence, "|") != strings.Join(rules, "|") {
		t.Fatalf("recurrence %v, want %v", series.Recurrence, rules)
	}
	read, err := w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: series.ID}, "")
	w.must(err)
	if strings.Join(read.Recurrence, "|") != strings.Join(rules, "|") || read.PostParent != 0 {
		t.Fatalf("read back: recurrence %v, post_parent %d", read.Recurrence, read.PostParent)
	}
	occurrences := w.listedOccurrences(visitor, series.ID)
	if len(occurrences) != 2 {
		t.Fatalf("%d occurrences, want the two the rules give but the first and the excluded", len(occurrences))
	}
	for _, o := range occurrences {
		if o.PostParent != series.ID || o.Recurrence != nil {
			t.Fatalf("occurrence %d: post_parent %d, recurrence %v", o.ID, o.PostParent, o.Recurrence)
		}
	}
}

func TestBadRulesAreRefusedNamingThePart(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	start := time.Now().AddDate(0, 1, 0).Truncate(time.Hour)
	for _, tc := range []struct {
		rules []string
		says  string
	}{
		{[]string{"RRULE:FREQ=FORTNIGHTLY"}, "FORTNIGHTLY"},
		{[]string{"RRULE:FREQ=WEEKLY;BYDAY=XX"}, "line 1"},
		{[]string{"RRULE:FREQ=WEEKLY", "EXRULE:FREQ=DAILY"}, "line 2"},
		{[]string{"RRULE:FREQ=DAILY;COUNT=1"}, "no occurrence"},
		{[]string{"RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"}, "no occurrence"},
		{[]string{"RRULE:FREQ=SECONDLY"}, "once a minute"},
		{[]string{"RRULE:FREQ=MINUTELY;BYSECOND=0,30"}, "once a minute"},
		{[]string{"RDATE:notadate"}, "line 1"},
		{[]string{"EXDATE:20300101T000000"}, "nothing recurs"},
	} {
		_, err := w.app.Events.Create(w.ctx, w.admin(), app.EventInput{PostFields: app.PostFields{Title: ptr("Bad")}, Timezone: ptr("UTC"),
			StartDate: ptr(start.Format(app.DateFormat)), EndDate: ptr(start.Add(time.Hour).Format(app.DateFormat)), Recurrence: &tc.rules})
		refused(t, err, "recurrence")
		if msg := paramsOf(err)["recurrence"]; !strings.Contains(msg, tc.says) {
			t.Errorf("%v: %q, want the message to say %q", tc.rules, msg, tc.says)
		}
	}
	if got := w.titles(w.admin(), app.EventFilter{Dates: app.Dates{"start_date": "2000-01-01"}}); got != "" {
		t.Fatalf("refused series left %q", got)
	}
}

// The feed writes a series once with its rules, an occurrence edited on its
// own as an exception of it (RECURRENCE-ID, the series' UID) and one trashed
// as an EXDATE of the series, as the edits through the service leave them.
func TestTheFeedSendsASeriesOnceWithTheExceptionsItsEditsMade(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	start := time.Now().AddDate(0, 0, 10).Truncate(24 * time.Hour).Add(18 * time.Hour)
	series, err := w.app.Events.Create(w.ctx, w.admin(), app.EventInput{PostFields: app.PostFields{Title: ptr("Book club")}, Timezone: ptr("Europe/Paris"),
		StartDate: ptr(start.Format(app.DateFormat)), EndDate: ptr(start.Add(time.Hour).Format(app.DateFormat)), Recurrence: strs("RRULE:FREQ=WEEKLY;COUNT=5")})
	w.must(err)
	occurrences := w.listedOccurrences(w.admin(), series.ID)
	moved, trashed := occurrences[0], occurrences[1]
	w.edit(moved.ID, app.EventInput{PostFields: app.PostFields{Title: ptr("Book club: author visit")}})
	w.deleteEvent(trashed.ID, false)
	events, body := w.icalFeed(visitor, "today", "+2 months")
	var withRule, exceptions int
	for _, e := range events {
		if icalValue(e, "UID") != icalUID(series.ID) {
			t.Fatalf("a VEVENT not of the series:\n%s", body)
		}
		if icalValue(e, "RRULE") != "" {
			withRule++
			local := strings.NewReplacer("-", "", ":", "", " ", "T").Replace(trashed.StartDate)
			if exdate := icalValue(e, "EXDATE"); !strings.Contains(exdate, local) {
				t.Fatalf("the series' EXDATE %q does not exclude the trashed %s", exdate, trashed.StartDate)
			}
		}
		if icalValue(e, "RECURRENCE-ID") != "" {
			exceptions++
			if summary := icalValue(e, "SUMMARY"); summary != "Book club: author visit" {
				t.Fatalf("the exception's SUMMARY is %q", summary)
			}
		}
	}
	if withRule != 1 || exceptions != 1 || len(events) != 2 {
		t.Fatalf("%d VEVENTs, %d with a rule, %d exceptions; want the series once and its one exception:\n%s", len(events), withRule, exceptions, body)
	}
}
