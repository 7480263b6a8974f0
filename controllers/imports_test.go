package controllers_test

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"calendar/app"
	"calendar/controllers"
)

// feedServer serves one iCalendar feed on loopback, with an ETag, as
// calendars publish theirs; the test changes what it says.
type feedServer struct {
	*httptest.Server
	mu          sync.Mutex
	body        string
	fetches     int
	notModified int
}

func newFeedServer(t *testing.T, body string) *feedServer {
	f := &feedServer{body: body}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.fetches++
		etag := fmt.Sprintf(`"%x"`, sha256.Sum256([]byte(f.body)))
		if r.Header.Get("If-None-Match") == etag {
			f.notModified++
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
		_, _ = w.Write([]byte(f.body))
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *feedServer) set(body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.body = body
}

// importing is a service whose imports may reach loopback, as
// CALENDAR_OUTBOUND_ALLOWED_NETWORKS=127.0.0.0/8 lets them.
func importing(t *testing.T, allowed ...netip.Prefix) *service {
	return startServiceSettings(t, func(s *app.Settings) {
		s.Imports.Fetcher = controllers.NewImportFetcher(10*time.Second, controllers.NewEgress(allowed))
	}, noConfig)
}

var loopback = netip.MustParsePrefix("127.0.0.0/8")

func icsFixture(t *testing.T, name string) string {
	b, err := os.ReadFile("../app/testdata/imports/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runImport runs a source over HTTP (202), waits for its end and answers
// the run as its route lists it.
func runImport(t *testing.T, s *service, id int64) map[string]any {
	t.Helper()
	s.do("POST", fmt.Sprintf("/vendor/admin/v1/imports/%d/run", id), asAdmin()).expectStatus(t, http.StatusAccepted)
	s.app.Imports.Wait()
	runs := s.do("GET", fmt.Sprintf("/vendor/admin/v1/imports/%d/runs", id), asAdmin())
	runs.expectStatus(t, http.StatusOK)
	return runs.list(t)[0]
}

func outcomes(run map[string]any) string {
	var parts []string
	counts := run["counts"].(map[string]any)
	for _, o := range app.ImportOutcomes {
		if n := counts[o].(float64); n > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", o, int(n)))
		}
	}
	if e := run["error"].(string); e != "" {
		parts = append(parts, "error="+e)
	}
	return strings.Join(parts, " ")
}

func TestAnICalFeedIsImportedOverHTTPAndKeptInStep(t *testing.T) {
	t.Parallel()
	feed := newFeedServer(t, icsFixture(t, "outlook.ics"))
	s := importing(t, loopback)
	created := s.do("POST", "/vendor/admin/v1/imports", asAdmin(), jsonBody(map[string]any{"kind": "ical", "url": feed.URL + "/calendar.ics",
		"status": "publish", "on_removed": "trash"}))
	created.expectStatus(t, http.StatusCreated)
	id := int64(created.object(t)["id"].(float64))

	if got := outcomes(runImport(t, s, id)); got != "created=2" {
		t.Fatalf("first run: %s", got)
	}
	list := s.do("GET", "/vendor/events/v1/events?start_date=2027-06-01&end_date=2027-06-30")
	list.expectStatus(t, http.StatusOK)
	events := list.object(t)["events"].([]any)
	if len(events) != 2 { // the workshop, and the quarterly review's occurrence
		t.Fatalf("June holds %d events: %s", len(events), list.Body)
	}
	workshop := events[0].(map[string]any)
	if review := events[1].(map[string]any); review["description"] != "<p>Quarterly review of the <b>partners&#8217;</b> programme.</p>" {
		t.Errorf("Outlook's HTML description: %q", review["description"])
	}
	if workshop["title"] != "London workshop" || workshop["timezone"] != "Europe/London" || workshop["utc_start_date"] != "2027-06-10 13:00:00" {
		t.Errorf("the workshop: %v %v %v", workshop["title"], workshop["timezone"], workshop["utc_start_date"])
	}

	changes := s.do("GET", "/vendor/events/v1/changes", asAdmin()).object(t)["last_seq"]
	if got := outcomes(runImport(t, s, id)); got != "" || feed.notModified != 1 {
		t.Errorf("an unchanged feed: %s, %d answered 304", got, feed.notModified)
	}
	feed.set(strings.Replace(icsFixture(t, "outlook.ics"), "SUMMARY:London workshop", "SUMMARY:London workshop (full)", 1) + "\r\n")
	if got := outcomes(runImport(t, s, id)); got != "updated=1 unchanged=1" {
		t.Errorf("an edit at the source: %s", got)
	}
	after := s.do("GET", "/vendor/events/v1/changes?since="+fmt.Sprint(changes), asAdmin()).object(t)
	if n := len(after["changes"].([]any)); n != 1 {
		t.Errorf("the edit at the source made %d changes, want 1: %v", n, after)
	}
	metrics := string(s.do("GET", "/metrics").Body)
	for _, line := range []string{fmt.Sprintf(`calendar_import_items_total{outcome="created",source="%d"} 2`, id),
		fmt.Sprintf(`calendar_import_runs_total{result="ok",source="%d"} 3`, id), fmt.Sprintf(`calendar_import_last_success_timestamp_seconds{source="%d"}`, id)} {
		if !strings.Contains(metrics, line) {
			t.Errorf("/metrics has no %s", line)
		}
	}
}

func TestAFeedOnLoopbackIsRefusedWithoutTheSetting(t *testing.T) {
	t.Parallel()
	feed := newFeedServer(t, icsFixture(t, "apple.ics"))
	s := importing(t) // public addresses only
	created := s.do("POST", "/vendor/admin/v1/imports", asAdmin(), jsonBody(map[string]any{"kind": "ical", "url": feed.URL}))
	created.expectStatus(t, http.StatusCreated)
	run := runImport(t, s, int64(created.object(t)["id"].(float64)))
	if e := run["error"].(string); !strings.Contains(e, "egress policy refuses") || feed.fetches != 0 {
		t.Errorf("run: %q, %d fetches", e, feed.fetches)
	}
}

// A rest source that is a second instance of this service, read page by
// page: a first run imports, a second changes nothing, an edit there is
// updated, a delete there follows on_removed, an edit here is skipped; a
// series there (its occurrences listed beside it) is one series here, its
// occurrences made by its rules, and one listed without its series (begun
// before the list's window) is read as its series.
func TestARestSourceThatIsAnotherInstanceIsKeptInStep(t *testing.T) {
	t.Parallel()
	other := startService(t)
	venue := other.create("venue", asAdmin(), "venue", "Hall", "city", "Lyon")
	var ids []string
	for i, title := range []string{"Opening", "Talk", "Closing"} {
		e := other.event(map[string]any{"title": title, "venue": idOf(venue), "categories": []string{"Talks"},
			"start_date": fmt.Sprintf("2027-05-0%d 10:00", i+1), "end_date": fmt.Sprintf("2027-05-0%d 11:00", i+1), "timezone": "Europe/Paris"})
		ids = append(ids, idOf(e))
	}
	other.event(map[string]any{"title": "Weekly class", "start_date": "2027-05-04 18:00", "end_date": "2027-05-04 19:00",
		"timezone": "Europe/Paris", "recurrence": []string{"RRULE:FREQ=WEEKLY;COUNT=3"}}) // listed there as three events
	s := importing(t, loopback)
	created := s.do("POST", "/vendor/admin/v1/imports", asAdmin(), jsonBody(map[string]any{"kind": "rest",
		"url": other.URL + "/vendor/events/v1/events?start_date=2027-01-01&per_page=2", "status": "publish", "on_removed": "trash"}))
	created.expectStatus(t, http.StatusCreated)
	id := int64(created.object(t)["id"].(float64))
	if got := outcomes(runImport(t, s, id)); got != "created=4" {
		t.Fatalf("first run: %s", got)
	}
	mine := map[string]map[string]any{}
	var class []map[string]any
	for _, e := range s.do("GET", "/vendor/events/v1/events?start_date=2027-01-01", asAdmin()).object(t)["events"].([]any) {
		ev := e.(map[string]any)
		if mine[ev["title"].(string)] = ev; ev["title"] == "Weekly class" {
			class = append(class, ev)
		}
	}
	if len(class) != 3 || class[0]["recurrence"] == nil || class[1]["post_parent"] != class[0]["id"] || class[2]["post_parent"] != class[0]["id"] ||
		class[2]["start_date"] != "2027-05-18 18:00:00" {
		t.Errorf("the series here: %v", class)
	}
	preview := s.do("POST", "/vendor/admin/v1/imports/preview", asAdmin(), jsonBody(map[string]any{"kind": "rest",
		"url": other.URL + "/vendor/events/v1/events?start_date=2027-05-10"})).object(t) // the class' last two, and no other
	if items := preview["items"].([]any); len(items) != 1 || items[0].(map[string]any)["title"] != "Weekly class" ||
		items[0].(map[string]any)["start_date"] != "2027-05-04 18:00:00" {
		t.Errorf("occurrences listed without their series: %v", preview)
	}
	opening := mine["Opening"]
	if opening == nil || opening["start_date"] != "2027-05-01 10:00:00" || opening["timezone"] != "Europe/Paris" ||
		opening["venue"].(map[string]any)["city"] != "Lyon" || len(opening["categories"].([]any)) != 1 {
		t.Fatalf("the opening here: %v", opening)
	}
	if mine["Talk"]["venue"].(map[string]any)["id"] != opening["venue"].(map[string]any)["id"] {
		t.Error("one venue there became two here")
	}

	seq := s.do("GET", "/vendor/events/v1/changes", asAdmin()).object(t)["last_seq"]
	if got := outcomes(runImport(t, s, id)); got != "unchanged=4" {
		t.Errorf("second run: %s", got)
	}
	if n := len(s.do("GET", "/vendor/events/v1/changes?since="+fmt.Sprint(seq), asAdmin()).object(t)["changes"].([]any)); n != 0 {
		t.Errorf("an unchanged run made %d changes", n)
	}

	other.do("POST", "/vendor/events/v1/events/"+ids[0], asAdmin(), jsonBody(map[string]any{"title": "Grand opening"})).expectStatus(t, http.StatusOK)
	other.do("DELETE", "/vendor/events/v1/events/"+ids[1], asAdmin()).expectStatus(t, http.StatusOK)
	other.do("POST", "/vendor/events/v1/events/"+ids[2], asAdmin(), jsonBody(map[string]any{"title": "Closing party"})).expectStatus(t, http.StatusOK)
	s.do("POST", "/vendor/events/v1/events/"+idOf(mine["Closing"]), asAdmin(), jsonBody(map[string]any{"title": "Our closing"})).expectStatus(t, http.StatusOK)
	if got := outcomes(runImport(t, s, id)); got != "updated=1 unchanged=1 skipped=1 removed=1" {
		t.Errorf("after edits there and here: %s", got)
	}
	for ref, want := range map[string]string{idOf(opening): "Grand opening|publish", idOf(mine["Talk"]): "Talk|trash", idOf(mine["Closing"]): "Our closing|publish"} {
		e := s.do("GET", "/vendor/events/v1/events/"+ref, asAdmin()).object(t)
		if got := fmt.Sprintf("%v|%v", e["title"], e["status"]); got != want {
			t.Errorf("event %s here: %s, want %s", ref, got, want)
		}
	}
}

// A feed that never ends (a line of a gigabyte, sent as it is made) is read
// up to the run's bytes and no further: the run ends with the error.
func TestAFeedPastItsSizeEndsTheRunAtItsBound(t *testing.T) {
	t.Parallel()
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDESCRIPTION:"))
		chunk := []byte(strings.Repeat("a", 64<<10))
		for range 1 << 14 { // a gigabyte, unless the reader stops first
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(endless.Close)
	s := startServiceSettings(t, func(s *app.Settings) {
		s.Imports.Fetcher = controllers.NewImportFetcher(10*time.Second, controllers.NewEgress([]netip.Prefix{loopback}))
		s.Imports.Limits.FetchBytes = 1 << 20
	}, noConfig)
	created := s.do("POST", "/vendor/admin/v1/imports", asAdmin(), jsonBody(map[string]any{"kind": "ical", "url": endless.URL}))
	created.expectStatus(t, http.StatusCreated)
	run := runImport(t, s, int64(created.object(t)["id"].(float64)))
	if e := run["error"].(string); !strings.Contains(e, "larger than") && !strings.Contains(e, "more than 1048576 bytes") {
		t.Errorf("run: %q", e)
	}
}
