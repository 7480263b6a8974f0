package app

import (
	"fmt"
	"testing"
	"time"
)

// A series' summary says its rules in words, in English and in the site's
// other languages, and counts and lists its starts to come from now: a
// table of rules (weekly with days, monthly by day and by position, until,
// count, exceptions), each in English and French.
func TestARecurrenceSummarySaysTheRulesAndTheDatesToCome(t *testing.T) {
	t.Parallel()
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	local := func(s string) time.Time {
		at, err := time.ParseInLocation("2006-01-02 15:04", s, paris)
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	now := local("2026-12-09 12:00")
	for _, c := range []struct {
		name      string
		lines     []string
		excluded  []time.Time
		start     string
		en, fr    string
		remaining string // "nil" when none is told
		next      string
		count     int
		until     string
	}{
		{"weekly on two days, a count", []string{"RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6"}, nil, "2026-12-01 19:00",
			"Every week on Tuesday and Thursday at 19:00, 6 times", "Toutes les semaines le mardi et le jeudi à 19:00, 6 fois",
			"3", "[2026-12-10 19:00:00 2026-12-15 19:00:00 2026-12-17 19:00:00]", 6, ""},
		{"monthly by day, until (midnight: the day before)", []string{"RRULE:FREQ=MONTHLY;BYMONTHDAY=15;UNTIL=20270415T220000Z"}, nil, "2026-11-15 10:30",
			"Every month on the 15th at 10:30, until 15 April 2027", "Tous les mois le 15 à 10:30, jusqu'au 15 avril 2027",
			"5", "[2026-12-15 10:30:00 2027-01-15 10:30:00 2027-02-15 10:30:00 2027-03-15 10:30:00 2027-04-15 10:30:00]", 0, "2027-04-16 00:00:00"},
		{"monthly by position, never ending", []string{"RRULE:FREQ=MONTHLY;BYDAY=2TU"}, nil, "2026-12-08 20:00",
			"Every month on the second Tuesday at 20:00", "Tous les mois le deuxième mardi à 20:00",
			"nil", "[2027-01-12 20:00:00 2027-02-09 20:00:00 2027-03-09 20:00:00 2027-04-13 20:00:00 2027-05-11 20:00:00]", 0, ""},
		{"the last Friday, by BYSETPOS, every two months", []string{"RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=FR;BYSETPOS=-1;COUNT=3"}, nil, "2026-11-27 18:00",
			"Every 2 months on the last Friday at 18:00, 3 times", "Tous les 2 mois le dernier vendredi à 18:00, 3 fois",
			"2", "[2027-01-29 18:00:00 2027-03-26 18:00:00]", 3, ""},
		{"daily, exceptions by EXDATE and by an occurrence removed", []string{"RRULE:FREQ=DAILY;COUNT=5", "EXDATE:20261211T090000"},
			[]time.Time{local("2026-12-12 09:00")}, "2026-12-09 09:00",
			"Every day at 09:00, 5 times, except 11 December 2026 and 12 December 2026", "Tous les jours à 09:00, 5 fois, sauf le 11 décembre 2026 et le 12 décembre 2026",
			"2", "[2026-12-10 09:00:00 2026-12-13 09:00:00]", 5, ""},
		{"yearly in a month, a date added", []string{"RRULE:FREQ=YEARLY;BYMONTH=7;BYMONTHDAY=14", "RDATE:20270101T100000"}, nil, "2026-07-14 10:00",
			"Every year in July on the 14th at 10:00, and on one more date", "Tous les ans en juillet le 14 à 10:00, et à une autre date",
			"nil", "[2027-01-01 10:00:00 2027-07-14 10:00:00 2028-07-14 10:00:00 2029-07-14 10:00:00 2030-07-14 10:00:00]", 0, ""},
		{"hours chosen by BYHOUR: no words, the dates still", []string{"RRULE:FREQ=DAILY;BYHOUR=9,18;COUNT=4"}, nil, "2026-12-09 09:00",
			"", "", "3", "[2026-12-09 18:00:00 2026-12-10 09:00:00 2026-12-10 18:00:00]", 4, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := summarize(c.lines, c.excluded, local(c.start), paris, now, []string{"fr", "de"}, newSummaryBudget())
			if err != nil {
				t.Fatal(err)
			}
			remaining := "nil"
			if s.Remaining != nil {
				remaining = fmt.Sprint(*s.Remaining)
			}
			if s.Text["en"] != c.en || s.Text["fr"] != c.fr || remaining != c.remaining || fmt.Sprint(s.Next) != c.next || s.Count != c.count || s.Until != c.until {
				t.Fatalf("got  %q / %q, %s to come: %v, count %d, until %q\nwant %q / %q, %s to come: %v, count %d, until %q",
					s.Text["en"], s.Text["fr"], remaining, s.Next, s.Count, s.Until, c.en, c.fr, c.remaining, c.next, c.count, c.until)
			}
			if (s.Text["de"] == "") != (c.en == "") {
				t.Fatalf("German: %q", s.Text["de"])
			}
		})
	}
}

// Its bounds: more occurrences to come than it counts, or an answer's time
// spent, leave remaining (and next) null; the words are still said.
func TestARecurrenceSummaryPastItsBoundsStillSaysTheRule(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 9, 9, 0, 0, 0, time.UTC)
	many, err := summarize([]string{"RRULE:FREQ=DAILY;COUNT=2000"}, nil, start, time.UTC, start.Add(-time.Hour), nil, newSummaryBudget())
	if err != nil || many.Remaining != nil || len(many.Next) != MaxSummaryNext || many.Text["en"] != "Every day at 09:00, 2000 times" {
		t.Fatalf("2,000 to come: %+v, %v", many, err)
	}
	spent := newSummaryBudget()
	spent.Deadline = time.Now().Add(-time.Second)
	late, err := summarize([]string{"RRULE:FREQ=DAILY;COUNT=3"}, nil, start, time.UTC, start.Add(-time.Hour), nil, spent)
	if err != nil || late.Remaining != nil || late.Next != nil || late.Text["en"] != "Every day at 09:00, 3 times" {
		t.Fatalf("past the answer's time: %+v, %v", late, err)
	}
}
