package controllers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goical "github.com/emersion/go-ical"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/repository/ferretdbtest"
	"calendar/repository/mongo"
)

// seriesStarts lists a series' events (itself and its occurrences) as a
// visitor sees them, by local start, in start order.
func (s *service) seriesStarts(t *testing.T, series map[string]any, opts ...option) []string {
	t.Helper()
	q := url.Values{"start_date": {"2000-01-01"}, "end_date": {"2100-01-01"}, "per_page": {"50"},
		"post_parent": {fmt.Sprint(series["id"])}}
	res := s.do("GET", eventsPath+"?"+q.Encode(), opts...)
	res.expectStatus(t, http.StatusOK)
	starts := []string{series["start_date"].(string)}
	for _, e := range res.object(t)["events"].([]any) {
		starts = append(starts, e.(map[string]any)["start_date"].(string))
	}
	return starts
}

func recurring(title, zone string, start, end time.Time, rules ...string) map[string]any {
	return map[string]any{"title": title, "timezone": zone, "start_date": start.Format("2006-01-02 15:04:05"),
		"end_date": end.Format("2006-01-02 15:04:05"), "recurrence": rules}
}

func day(t time.Time, days int) string { return t.AddDate(0, 0, days).Format("2006-01-02") }

// The rules themselves (RFC 5545, daylight saving) are app's tests
// (app/series_rules_test.go); over HTTP, a series' lines come back as sent
// and its occurrences name it as their post_parent.
func TestASeriesIsSentAndShownAsItsContentLines(t *testing.T) {
	t.Parallel()
	jan := time.Date(time.Now().Year()+1, time.January, 1, 10, 0, 0, 0, time.UTC)
	rules := []string{"RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE:" + jan.AddDate(0, 0, 7).Format("20060102") + "T100000"}
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		for name, sent := range map[string]any{"a list": rules, "one text of a line each": strings.Join(rules, "\n")} {
			first := s.event(recurring("Weekly", "UTC", jan, jan.Add(time.Hour)))
			first = s.do("POST", eventsPath+"/"+idOf(first), asAdmin(), jsonBody(map[string]any{"recurrence": sent})).object(t)
			if fmt.Sprint(first["recurrence"]) != fmt.Sprint(rules) {
				t.Fatalf("%s: recurrence %v, want %v", name, first["recurrence"], rules)
			}
			want := []string{day(jan, 0) + " 10:00:00", day(jan, 14) + " 10:00:00", day(jan, 21) + " 10:00:00"}
			if got := s.seriesStarts(t, first); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("%s: starts %v, want %v", name, got, want)
			}
			q := url.Values{"post_parent": {fmt.Sprint(first["id"])}, "start_date": {"2000-01-01"}}
			for _, e := range s.do("GET", eventsPath+"?"+q.Encode()).object(t)["events"].([]any) {
				if e.(map[string]any)["post_parent"] != first["id"] {
					t.Fatalf("%s: occurrence %v", name, e)
				}
			}
		}
	})
}

func TestBadRulesAreRefusedNamingThePart(t *testing.T) {
	t.Parallel()
	s := startService(t)
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
		res := s.do("POST", eventsPath, asAdmin(), jsonBody(recurring("Bad", "UTC", start, start.Add(time.Hour), tc.rules...)))
		m := res.expectError(t, http.StatusBadRequest, "rest_invalid_param")
		params, _ := m["data"].(map[string]any)["params"].(map[string]any)
		if msg, _ := params["recurrence"].(string); !strings.Contains(msg, tc.says) {
			t.Fatalf("%v: %s, want the message to say %q", tc.rules, res.Body, tc.says)
		}
	}
	list := s.do("GET", eventsPath+"?start_date=2000-01-01")
	if n := len(list.object(t)["events"].([]any)); n != 0 {
		t.Fatalf("refused series left %d events", n)
	}
}

// Over HTTP, an occurrence is edited as any event: the answer is its JSON,
// naming its series as post_parent; a post_parent refused is a 400 in the
// WordPress error shape, naming the parameter. The rules of series edits
// are app's tests (app/series_edits_test.go).
func TestAnOccurrenceIsEditedAsAnEventThatNamesItsSeries(t *testing.T) {
	t.Parallel()
	s := startService(t)
	start := time.Now().AddDate(0, 1, 0).Truncate(time.Hour)
	first := s.event(recurring("Choir", "UTC", start, start.Add(time.Hour), "RRULE:FREQ=WEEKLY;COUNT=3"))
	occurrence := s.occurrencesOf(t, first)[0]
	res := s.do("POST", eventsPath+"/"+idOf(occurrence), asAdmin(), jsonBody(map[string]any{"title": "Choir: guest night"}))
	res.expectStatus(t, http.StatusOK)
	if got := res.object(t); got["id"] != occurrence["id"] || got["title"] != "Choir: guest night" || got["post_parent"] != first["id"] {
		t.Fatalf("the edited occurrence answers %s, want it with post_parent %v", res.Body, first["id"])
	}
	refused := s.do("POST", eventsPath+"/"+idOf(occurrence), asAdmin(), jsonBody(map[string]any{"post_parent": occurrence["id"]}))
	params, _ := refused.expectError(t, http.StatusBadRequest, "rest_invalid_param")["data"].(map[string]any)["params"].(map[string]any)
	if params["post_parent"] == nil {
		t.Fatalf("the refusal does not name post_parent: %s", refused.Body)
	}
}

// A series edit reaches its occurrences on each store: it is a job under
// the series' lease (app/series_lease.go), whose writes each store must
// take; the occurrence edited on its own is left as it is.
func TestASeriesEditReachesItsOccurrencesOnEachStore(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		start := time.Now().AddDate(0, 0, 7).Truncate(24 * time.Hour).Add(19 * time.Hour)
		first := s.event(recurring("Choir", "UTC", start, start.Add(2*time.Hour), "RRULE:FREQ=WEEKLY;COUNT=4"))
		alone := s.occurrencesOf(t, first)[0]
		s.do("POST", eventsPath+"/"+idOf(alone), asAdmin(), jsonBody(map[string]any{"title": "Choir: guest night"})).expectStatus(t, http.StatusOK)
		s.do("POST", eventsPath+"/"+idOf(first), asAdmin(), jsonBody(map[string]any{"title": "Choir practice"})).expectStatus(t, http.StatusOK)
		titles := map[string]int{}
		for _, o := range s.occurrencesOf(t, first) {
			titles[o["title"].(string)]++
		}
		if titles["Choir practice"] != 2 || titles["Choir: guest night"] != 1 || len(titles) != 2 {
			t.Fatalf("titles after editing one, then the series: %v", titles)
		}
	})
}

// occurrencesOf lists a series' occurrences (not itself), by start.
func (s *service) occurrencesOf(t *testing.T, series map[string]any) []map[string]any {
	t.Helper()
	q := url.Values{"post_parent": {fmt.Sprint(series["id"])}, "start_date": {"2000-01-01"}, "per_page": {"50"}}
	res := s.do("GET", eventsPath+"?"+q.Encode(), asAdmin())
	res.expectStatus(t, http.StatusOK)
	var out []map[string]any
	for _, e := range res.object(t)["events"].([]any) {
		if e.(map[string]any)["status"] != "trash" {
			out = append(out, e.(map[string]any))
		}
	}
	return out
}

func TestTheDocDescribesRecurrence(t *testing.T) {
	t.Parallel()
	s := startService(t)
	doc := s.do("GET", "/vendor/events/v1/doc").object(t)
	create := doc["paths"].(map[string]any)["/events"].(map[string]any)["post"].(map[string]any)
	props := create["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)["properties"].(map[string]any)
	for _, name := range []string{"recurrence", "post_parent"} {
		p, _ := props[name].(map[string]any)
		if d, _ := p["description"].(string); !strings.Contains(d, "series") {
			t.Fatalf("POST /events documents %s as %v", name, p)
		}
	}
	view := doc["components"].(map[string]any)["schemas"].(map[string]any)["EventView"].(map[string]any)["properties"].(map[string]any)
	if view["recurrence"] == nil || view["post_parent"] == nil {
		t.Fatalf("the event schema has no recurrence or post_parent: %v", keys(view))
	}
}

func TestTheICalendarFeedSendsASeriesOnceWithItsExceptions(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		start := time.Now().AddDate(0, 0, 10).Truncate(24 * time.Hour).Add(18 * time.Hour)
		first := s.event(recurring("Book club", "Europe/Paris", start, start.Add(time.Hour), "RRULE:FREQ=WEEKLY;COUNT=5"))
		occurrences := s.occurrencesOf(t, first)
		moved, trashed := occurrences[0], occurrences[1]
		s.do("POST", eventsPath+"/"+idOf(moved), asAdmin(), jsonBody(map[string]any{"title": "Book club: author visit"})).expectStatus(t, http.StatusOK)
		s.do("DELETE", eventsPath+"/"+idOf(trashed), asAdmin()).expectStatus(t, http.StatusOK)

		res := s.do("GET", "/vendor/events/v1/events.ics?start_date=today&end_date=%2B2+months")
		res.expectStatus(t, http.StatusOK)
		cal, err := goical.NewDecoder(strings.NewReader(string(res.Body))).Decode()
		if err != nil {
			t.Fatalf("the feed does not parse: %v\n%s", err, res.Body)
		}
		var withRule, exceptions int
		uid := ""
		for _, e := range cal.Events() {
			if e.Props.Get(goical.PropRecurrenceRule) != nil {
				withRule++
				uid = e.Props.Get(goical.PropUID).Value
				exdates := e.Props.Values(goical.PropExceptionDates)
				local := strings.NewReplacer("-", "", ":", "", " ", "T").Replace(trashed["start_date"].(string))
				if len(exdates) == 0 || !strings.Contains(exdates[0].Value, local) {
					t.Fatalf("the series' EXDATE %v does not exclude the trashed %v", exdates, trashed["start_date"])
				}
			}
			if e.Props.Get(goical.PropRecurrenceID) != nil {
				exceptions++
				if summary := e.Props.Get(goical.PropSummary).Value; summary != "Book club: author visit" {
					t.Fatalf("the exception's SUMMARY is %q", summary)
				}
			}
		}
		if withRule != 1 || exceptions != 1 || len(cal.Events()) != 2 {
			t.Fatalf("%d VEVENTs, %d with a rule, %d exceptions; want the series once and its one exception:\n%s", len(cal.Events()), withRule, exceptions, res.Body)
		}
		for _, e := range cal.Events() {
			if e.Props.Get(goical.PropUID).Value != uid {
				t.Fatalf("the exception does not share the series' UID %s", uid)
			}
		}
	})
}

// TestTwoReplicasExtendASeriesOnceAsTimePasses: two services on one store
// (each its own index and clock) extend an endless weekly series at the same
// moment, two months after it was made, as their hourly housekeeping does:
// both list every week once, two years ahead of the new today.
func TestTwoReplicasExtendASeriesOnceAsTimePasses(t *testing.T) {
	t.Parallel()
	long(t)
	t.Run("mongodb", func(t *testing.T) { // replicas share a MongoDB database, each with its own client
		uri := ferretdbtest.Start(t)
		twoReplicasExtend(t, backend{"mongodb", func(t *testing.T, dir string) calendar.Store {
			store, err := mongo.Open(context.Background(), uri, "calendar")
			if err != nil {
				t.Fatal(err)
			}
			return store
		}})
	})
}

func twoReplicasExtend(t *testing.T, shared backend) {
	var clock atomic.Int64
	clock.Store(time.Now().Unix())
	now := func(set *app.Settings) { set.Now = func() time.Time { return time.Unix(clock.Load(), 0) } }
	a := startServiceOn(t, shared, now, noConfig)
	b := startServiceOn(t, shared, now, noConfig)
	start := time.Now().AddDate(0, 0, 1).Truncate(time.Hour)
	first := a.event(recurring("Weekly", "Europe/Paris", start, start.Add(time.Hour), "RRULE:FREQ=WEEKLY"))
	total := func(s *service) int {
		res := s.do("GET", eventsPath+"?per_page=1&start_date=2000-01-01&end_date=2100-01-01&post_parent="+idOf(first))
		res.expectStatus(t, http.StatusOK)
		n, _ := strconv.Atoi(res.Header.Get("X-WP-Total"))
		return n
	}
	before := total(a)
	if before < 102 || before > 105 {
		t.Fatalf("%d occurrences made at first, want two years of weeks", before)
	}

	clock.Store(time.Now().AddDate(0, 2, 0).Unix())
	if _, err := b.app.CatchUp(context.Background()); err != nil { // b's index learns of the series
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, s := range []*service{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.app.Events.ExtendSeries(context.Background()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for _, s := range []*service{a, b} {
		if _, err := s.app.CatchUp(context.Background()); err != nil {
			t.Fatal(err)
		}
		q := url.Values{"post_parent": {idOf(first)}, "start_date": {"2000-01-01"}, "end_date": {"2100-01-01"}, "per_page": {"50"}}
		seen := map[string]bool{}
		for page := 1; ; page++ {
			q.Set("page", strconv.Itoa(page))
			res := s.do("GET", eventsPath+"?"+q.Encode())
			if res.Status == http.StatusBadRequest || res.Status == http.StatusNotFound {
				break // past the last page
			}
			events := res.object(t)["events"].([]any)
			for _, e := range events {
				at := e.(map[string]any)["start_date"].(string)
				if seen[at] {
					t.Fatalf("two occurrences at %s", at)
				}
				seen[at] = true
			}
			if len(events) < 50 {
				break
			}
		}
		if len(seen) < before+8 {
			t.Fatalf("after two months a replica lists %d occurrences, want about %d", len(seen), before+8)
		}
	}
	if n, err := a.app.Events.ExtendSeries(context.Background()); err != nil || n != 0 {
		t.Fatalf("extending again at the same moment extended %d series (%v)", n, err)
	}
}
