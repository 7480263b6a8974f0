package controllers_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// Series as an adversary writes them: a rule that can never match, a start
// decades ago, RDATEs that slip past the once-a-minute rule. Each test
// fails on the code before bounded expansion.

func TestARuleThatCanNeverMatchIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	start := time.Now().UTC().AddDate(0, 0, 1).Truncate(24 * time.Hour).Add(10 * time.Hour)
	for _, rule := range []string{
		"RRULE:FREQ=HOURLY;INTERVAL=2;BYHOUR=1",       // 10:00, 12:00... never 01:00
		"RRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30", // no 30 February
		"RRULE:FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31",
	} {
		t.Run(rule, func(t *testing.T) {
			fields := recurring("Never", "UTC", start, start.Add(time.Hour), rule)
			fields["status"] = "draft"
			r.do("POST", eventsPath, r.creds[calendar.RoleContributor], jsonBody(fields)).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
}

func TestASeriesStartingYearsAgoMakesABoundedNumberOfOccurrencesOnce(t *testing.T) {
	t.Parallel()
	long(t)
	s := startService(t)
	start := time.Date(2000, 1, 1, 9, 0, 0, 0, time.UTC)
	series := s.event(recurring("Daily since 2000", "UTC", start, start.Add(time.Hour), "RRULE:FREQ=DAILY"))
	count := func() int {
		res := s.do("GET", eventsPath+"?per_page=1&start_date=1999-01-01&end_date=2100-01-01&post_parent="+idOf(series), asAdmin())
		res.expectStatus(t, http.StatusOK)
		n, _ := strconv.Atoi(res.Header.Get("X-WP-Total"))
		return n
	}
	made := count()
	if made > app.MaxOccurrencesAhead || made < 700 {
		t.Fatalf("%d occurrences made, want two years ahead and no more than %d in all", made, app.MaxOccurrencesAhead)
	}
	for pass := range 2 {
		if _, err := s.app.Events.ExtendSeries(context.Background()); err != nil {
			t.Fatal(err)
		}
		if now := count(); now != made {
			t.Fatalf("extension pass %d changed the occurrences from %d to %d: extension must make nothing new at the same moment", pass+1, made, now)
		}
	}
}

func TestRDatesAreHeldToTheOnceAMinuteRuleToo(t *testing.T) {
	t.Parallel()
	s := startService(t)
	start := time.Now().UTC().AddDate(0, 0, 1).Truncate(24 * time.Hour).Add(10 * time.Hour)
	// The first 50 weekly starts are a minute apart and more; then come
	// RDATEs half a minute apart.
	var rdates []string
	for i := range 40 {
		rdates = append(rdates, start.AddDate(0, 0, 7*55).Add(time.Duration(i)*30*time.Second).Format("20060102T150405Z"))
	}
	lines := []string{"RRULE:FREQ=WEEKLY;COUNT=60", "RDATE:" + strings.Join(rdates, ",")}
	s.do("POST", eventsPath, asAdmin(), jsonBody(recurring("Flood", "UTC", start, start.Add(time.Hour), lines...))).
		expectError(t, http.StatusBadRequest, "rest_invalid_param")
}
