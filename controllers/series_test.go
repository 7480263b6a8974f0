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

	"calendar/app"
	"calendar/app/calendar"
	"calendar/repository/ferretdbtest"
	"calendar/repository/mongo"
)

func recurring(title, zone string, start, end time.Time, rules ...string) map[string]any {
	return map[string]any{"title": title, "timezone": zone, "start_date": start.Format("2006-01-02 15:04:05"),
		"end_date": end.Format("2006-01-02 15:04:05"), "recurrence": rules}
}

// A series' rules, edits and feed are app's (app/series_rules_test.go,
// app/series_edits_test.go, app/series_lines_test.go); how recurrence is
// sent, events_alone_test.go. Here, what the store does under the service.

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
	if view["recurrence"] == nil || view["post_parent"] == nil || view["recurrence_summary"] == nil {
		t.Fatalf("the event schema has no recurrence, post_parent or recurrence_summary: %v", keys(view))
	}
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
