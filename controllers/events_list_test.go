package controllers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"calendar/app"
)

// titles lists the titles of an event list answer, in order.
func titles(t *testing.T, res *response) string {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	var out []string
	for _, e := range res.object(t)["events"].([]any) {
		out = append(out, e.(map[string]any)["title"].(string))
	}
	return strings.Join(out, ",")
}

// The rules of the list (dates, filters, statuses, masks) are tested in app
// (event_list_test.go); here, what the HTTP layer itself refuses and reads.
func TestEventListParameters(t *testing.T) {
	t.Parallel()
	s := startService(t)
	now := time.Now().UTC()
	s.event(at("tomorrow", now.AddDate(0, 0, 1).Format(app.DateFormat), now.AddDate(0, 0, 1).Add(time.Hour).Format(app.DateFormat)))
	for _, bad := range []string{"start_date=before%20my%20birthday", "strict_dates=", "strict_dates=0", "search=", "page=0",
		"per_page=-1", "include=foo-bar,23", "ticketed=true", "featured=maybe", "venue=foo", "venue=99999", "organizer=0",
		"categories=nope", "tags=", "post_parent=23", "post_parent=foo-bar", "password=", "geoloc_lat=north"} {
		t.Run("rejects "+bad, func(t *testing.T) {
			s.do("GET", eventsPath+"?"+bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
	t.Run("ticketed=false is no filter", func(t *testing.T) {
		if got := titles(t, s.do("GET", eventsPath+"?ticketed=false")); got != "tomorrow" {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("strict_dates is read as PHP's FILTER_VALIDATE_BOOLEAN", func(t *testing.T) {
		s.event(at("afternoon", "2018-01-01 16:00:00", "2018-01-01 16:30:00"))
		s.event(at("evening", "2018-01-01 20:00:00", "2018-01-01 21:00:00"))
		for value, want := range map[string]string{"true": "afternoon", "on": "afternoon", "YES": "afternoon", "false": "afternoon,evening", "foo": "afternoon,evening"} {
			q := "start_date=2018-01-01%2015:00:00&end_date=2018-01-01%2018:00:00&strict_dates=" + value
			if got := titles(t, s.do("GET", eventsPath+"?"+q)); got != want {
				t.Errorf("strict_dates=%s: %q, want %q", value, got, want)
			}
		}
	})
}

func TestEventListPagination(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for d := 1; d <= 7; d++ {
		s.event(at("e"+string(rune('0'+d)), time.Date(2030, 4, d, 9, 0, 0, 0, time.UTC).Format(app.DateFormat), time.Date(2030, 4, d, 10, 0, 0, 0, time.UTC).Format(app.DateFormat)))
	}
	base := eventsPath + "?start_date=2030-04-01&end_date=2030-04-30&per_page=3"
	res := s.do("GET", base)
	if got := titles(t, res); got != "e1,e2,e3" || res.Header.Get("X-TEC-Total") != "7" || res.Header.Get("X-WP-TotalPages") != "3" {
		t.Fatalf("page 1: %q, headers %v", got, res.Header)
	}
	m := res.object(t)
	next, _ := url.Parse(m["next_rest_url"].(string))
	if next.Query().Get("start_date") != "2030-04-01" || next.Query().Get("page") != "2" {
		t.Fatalf("next link %v lost a filter", next)
	}
	if got := titles(t, s.do("GET", next.RequestURI())); got != "e4,e5,e6" {
		t.Fatalf("page 2 via the link: %q", got)
	}
	if got := strings.Join(keyOrder(t, res.Body), " "); got != "events rest_url next_rest_url total total_pages" {
		t.Fatalf("wrapper keys: %s", got)
	}
	s.do("GET", base+"&page=4").expectError(t, http.StatusNotFound, "event-archive-page-not-found")
	empty := s.do("GET", eventsPath+"?start_date=2040-01-01&end_date=2040-01-02")
	if m := empty.object(t); m["total"] != float64(0) || m["total_pages"] != float64(0) || len(m["events"].([]any)) != 0 {
		t.Fatalf("empty page 1: %s", empty.Body)
	}
}
