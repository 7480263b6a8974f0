package recur

import (
	"errors"
	"testing"
	"time"

	"github.com/teambition/rrule-go"
)

var paris = mustZone("Europe/Paris")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

func mustRule(t testing.TB, rule string) rrule.ROption {
	t.Helper()
	opt, err := rrule.StrToROptionInLocation(rule, paris)
	if err != nil {
		t.Fatal(err)
	}
	return *opt
}

var dtstart = time.Date(2024, 1, 8, 10, 0, 0, 0, paris) // a Monday

func years(n int) time.Time { return dtstart.AddDate(n, 0, 0) }

// rrule-go never returns on these: its step never lands on an hour (or
// minute) the rule allows, and it looks for one for ever.
func TestARuleOutOfReachOfItsIntervalEndsAtOnce(t *testing.T) {
	for _, rule := range []string{
		"FREQ=HOURLY;INTERVAL=2;BYHOUR=1",                // even hours from 10:00
		"FREQ=HOURLY;INTERVAL=24;BYHOUR=9",               // always 10:00
		"FREQ=MINUTELY;INTERVAL=2;BYMINUTE=1",            // even minutes from :00
		"FREQ=MINUTELY;INTERVAL=120;BYHOUR=11",           // even hours from 10:00
		"FREQ=MINUTELY;BYMINUTE=0;BYSECOND=0;BYSETPOS=2", // one start a minute
	} {
		// A budget of one period: reaching the answer visits none.
		got, err := Expand(mustRule(t, rule), dtstart, dtstart.Add(-time.Second), years(10), 100, Budget{Periods: 1})
		if err != nil || len(got) != 0 {
			t.Errorf("%s: %v, %v; want nothing at once", rule, got, err)
		}
	}
}

func TestARuleThatCanNeverMatchStopsAtItsWindow(t *testing.T) {
	for _, c := range []struct {
		rule    string
		periods int // the days of the window (both ends), and two days of slack
	}{
		{"FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30", 3654 + 2},
		{"FREQ=HOURLY;INTERVAL=5;BYMONTH=2;BYMONTHDAY=30", 3654 + 2},
		{"FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", 3654 + 2},
		{"FREQ=WEEKLY;BYMONTH=2;BYMONTHDAY=30", 522 + 1},
		{"FREQ=MONTHLY;BYMONTHDAY=30;BYMONTH=2", 120 + 1},
		{"FREQ=YEARLY;BYYEARDAY=366;BYMONTH=1", 10 + 1},
	} {
		start := time.Now()
		got, err := Expand(mustRule(t, c.rule), dtstart, dtstart, years(10), 100, Budget{Periods: c.periods})
		if err != nil || len(got) != 0 {
			t.Errorf("%s: %v, %v; want nothing within %d periods", c.rule, got, err, c.periods)
		}
		if took := time.Since(start); took > 100*time.Millisecond {
			t.Errorf("%s: took %v", c.rule, took)
		}
	}
}

func TestASmallBudgetEndsTheExpansionWithWhatItFound(t *testing.T) {
	never := mustRule(t, "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30")
	got, err := Expand(never, dtstart, dtstart, years(10), 100, Budget{Periods: 100})
	if !errors.Is(err, ErrBudget) || len(got) != 0 {
		t.Errorf("never matching: %v, %v; want ErrBudget", got, err)
	}
	weekly := mustRule(t, "FREQ=WEEKLY;BYDAY=MO,TH")
	got, err = Expand(weekly, dtstart, dtstart.Add(-time.Second), years(2), 1000, Budget{Periods: 3})
	if !errors.Is(err, ErrBudget) || len(got) != 6 {
		t.Errorf("weekly over 3 weeks: %d starts, %v; want 6 and ErrBudget", len(got), err)
	}
	got, err = Expand(never, dtstart, dtstart, years(10), 100, Budget{Deadline: time.Now().Add(-time.Second)})
	if !errors.Is(err, ErrBudget) || len(got) != 0 {
		t.Errorf("past deadline: %v, %v; want ErrBudget", got, err)
	}
}

func TestStartsStayWithinTheWindowAndTheLimit(t *testing.T) {
	rules := []string{
		"FREQ=YEARLY;BYMONTH=1,7;BYDAY=1MO,-1FR",
		"FREQ=MONTHLY;BYMONTHDAY=1,-1;BYHOUR=0,23",
		"FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,SU;WKST=SU",
		"FREQ=DAILY;BYHOUR=1,2,3;BYMINUTE=0,30", // through the DST changes
		"FREQ=HOURLY;INTERVAL=5",
		"FREQ=MINUTELY;INTERVAL=13;BYHOUR=2",
	}
	windows := []struct{ after, until time.Time }{
		{dtstart.Add(-time.Hour), dtstart.Add(time.Hour)},
		{dtstart.AddDate(0, 2, 20), dtstart.AddDate(0, 10, 0)},
		{dtstart.AddDate(1, 0, 0), dtstart.AddDate(1, 0, 1)},
		{time.Date(2024, 3, 31, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 31, 3, 0, 0, 0, time.UTC)},
	}
	for _, rule := range rules {
		for _, w := range windows {
			for _, limit := range []int{1, 7, 1000} {
				got, err := Expand(mustRule(t, rule), dtstart, w.after, w.until, limit, Budget{})
				if err != nil {
					t.Fatalf("%s: %v", rule, err)
				}
				if len(got) > limit {
					t.Errorf("%s: %d starts over a limit of %d", rule, len(got), limit)
				}
				for _, s := range got {
					if !s.After(w.after) || s.After(w.until) {
						t.Errorf("%s: %v out of (%v, %v]", rule, s, w.after, w.until)
					}
				}
			}
		}
	}
}

// Without COUNT the expansion starts shortly before the window; with it,
// from DTSTART, so that the count is the rule's.
func TestAWindowGivesThePartOfTheWholeSeriesInIt(t *testing.T) {
	for _, rule := range []string{
		"FREQ=DAILY;INTERVAL=3",
		"FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SA;BYSETPOS=-1",
		"FREQ=MONTHLY;BYDAY=-1FR",
		"FREQ=HOURLY;INTERVAL=7;BYDAY=SA",
		"FREQ=MINUTELY;INTERVAL=599",
		"FREQ=DAILY;COUNT=40",
		"FREQ=MINUTELY;INTERVAL=599;COUNT=40",
	} {
		opt := mustRule(t, rule)
		whole, err := Expand(opt, dtstart, dtstart.Add(-time.Second), years(3), 100000, Budget{})
		if err != nil {
			t.Fatal(err)
		}
		after, until := dtstart.AddDate(0, 0, 17).Add(90*time.Minute), dtstart.AddDate(0, 4, 0)
		var want []time.Time
		for _, s := range whole {
			if s.After(after) && !s.After(until) {
				want = append(want, s)
			}
		}
		got, err := Expand(opt, dtstart, after, until, 100000, Budget{})
		if err != nil || !equalTimes(got, want) {
			t.Errorf("%s: %d starts (%v), want %d", rule, len(got), err, len(want))
		}
	}
}

func equalTimes(a, b []time.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func TestRulesTheServiceDoesNotExpandAreRefused(t *testing.T) {
	for _, rule := range []string{"FREQ=SECONDLY", "FREQ=YEARLY;BYEASTER=0", "FREQ=DAILY;BYHOUR=24"} {
		if _, err := Expand(mustRule(t, rule), dtstart, dtstart, years(1), 10, Budget{}); err == nil {
			t.Errorf("%s: no error", rule)
		}
	}
}

// rrule-go counts the days of January that belong to the last week of the
// year before as week 53 when that year's week 1 began in it (see
// weeksBefore); kept so that series expand as they did.
func TestWeekNumbersAtTheTurnOfTheYearAreRRuleGos(t *testing.T) {
	start := time.Date(2010, 12, 20, 9, 0, 0, 0, time.UTC)
	for rule, want := range map[string][]int{
		"FREQ=DAILY;BYWEEKNO=53": {1, 2},               // of January 2011
		"FREQ=DAILY;BYWEEKNO=52": {27, 28, 29, 30, 31}, // of December 2010
	} {
		opt, _ := rrule.StrToROptionInLocation(rule, time.UTC)
		got, err := Expand(*opt, start, start, time.Date(2011, 2, 1, 0, 0, 0, 0, time.UTC), 10, Budget{})
		var days []int
		for _, s := range got {
			days = append(days, s.Day())
		}
		if err != nil || len(days) != len(want) || days[0] != want[0] || days[len(days)-1] != want[len(want)-1] {
			t.Errorf("%s: days %v (%v), want %v", rule, days, err, want)
		}
	}
}
