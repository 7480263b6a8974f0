package controllers_test

import (
	"fmt"
	"net/http"
	"testing"

	"calendar/app/calendar"
)

// Map iteration order is random in Go: these repeat a request so that an
// answer depending on it would show.
func TestAnswersDoNotDependOnIterationOrder(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for i := 0; i < 20; i++ {
		v := s.create("venue", asAdmin(), "venue", fmt.Sprintf("Dated %d", i), "date", "2020-01-01 10:00:00", "date_utc", "2021-06-01 08:00:00")
		if v["date_utc"] != "2021-06-01 08:00:00" {
			t.Fatalf("with date and date_utc sent, date_utc = %v, want date_utc to win", v["date_utc"])
		}
		e := s.do("POST", eventsPath, asAdmin(), jsonBody(map[string]any{"title": "x", "start_date": "nope", "end_date": "nope"}))
		if msg := e.expectError(t, http.StatusBadRequest, "rest_invalid_param")["message"]; msg != "Invalid parameter(s): start_date, end_date" {
			t.Fatalf("message = %q", msg)
		}
		c := s.do("POST", "/vendor/events/v1/categories", asAdmin(), form("name", "", "slug", ""))
		if msg := c.expectError(t, http.StatusBadRequest, "rest_invalid_param")["message"]; msg != "Invalid parameter(s): name, slug" {
			t.Fatalf("message = %q", msg)
		}
	}
}

func TestScheduledPostsOfOthersAreForEditorsOnly(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	v := r.create("venue", asAdmin(), "venue", "Scheduled", "status", "future")
	path := "/vendor/events/v1/venues/" + idOf(v)
	for role, status := range map[calendar.Role]int{"": 403, calendar.RoleSubscriber: 403, calendar.RoleContributor: 403, calendar.RoleAuthor: 403, calendar.RoleEditor: 200} {
		var opts []option
		if role != "" {
			opts = append(opts, r.creds[role])
		}
		if res := r.do("GET", path, opts...); res.Status != status {
			t.Errorf("%q reads another's scheduled venue: %d, want %d", role, res.Status, status)
		}
	}
	own := r.create("venue", r.creds[calendar.RoleAuthor], "venue", "Mine, scheduled", "status", "future")
	r.do("GET", "/vendor/events/v1/venues/"+idOf(own), r.creds[calendar.RoleAuthor]).expectStatus(t, http.StatusOK)
}
