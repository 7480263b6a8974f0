package controllers_test

import (
	"fmt"
	"net/http"
	"testing"

	"calendar/app"
)

// An event's status and attendance over HTTP, on each store: written,
// kept by the store (a rescheduled event's previous start too), found by
// the list's event_status filter and told by JSON-LD.
func TestAnEventsStatusIsKeptAndFilteredOnEitherStore(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		res := s.do("POST", "/vendor/events/v1/events", asAdmin(), jsonBody(map[string]any{"title": "Gala",
			"start_date": "2030-06-01 20:00", "end_date": "2030-06-01 22:00", "event_status": "rescheduled",
			"attendance_mode": "mixed", "online_url": "https://meet.example/gala"}))
		res.expectStatus(t, http.StatusCreated)
		id := int64(res.object(t)["id"].(float64))
		s.do("POST", "/vendor/events/v1/events", asAdmin(), jsonBody(map[string]any{"title": "Other",
			"start_date": "2030-06-02 20:00", "end_date": "2030-06-02 22:00"})).expectStatus(t, http.StatusCreated)
		s.do("POST", fmt.Sprint("/vendor/events/v1/events/", id), asAdmin(), jsonBody(map[string]any{
			"start_date": "2030-06-08 20:00", "end_date": "2030-06-08 22:00", "event_status_reason": "The hall"})).expectStatus(t, http.StatusOK)

		got := s.do("GET", "/vendor/events/v1/events?event_status=rescheduled,canceled&start_date=2030-06-01&end_date=2030-06-30")
		got.expectStatus(t, http.StatusOK)
		events := got.object(t)["events"].([]any)
		if len(events) != 1 {
			t.Fatalf("event_status=rescheduled,canceled lists %d events: %s", len(events), got.Body)
		}
		e := events[0].(map[string]any)
		for key, want := range map[string]any{"event_status": "rescheduled", "event_status_reason": "The hall", "previous_start_date": "2030-06-01 20:00:00",
			"start_date": "2030-06-08 20:00:00", "attendance_mode": "mixed", "online_url": "https://meet.example/gala"} {
			if e[key] != want {
				t.Errorf("%s = %v, want %v", key, e[key], want)
			}
		}
		ld := s.do("GET", fmt.Sprint("/vendor/events/v1/events/", id)).object(t)["json_ld"].(map[string]any)
		if ld["eventStatus"] != "https://schema.org/EventRescheduled" || ld["previousStartDate"] != "2030-06-01T20:00:00Z" ||
			ld["eventAttendanceMode"] != "https://schema.org/MixedEventAttendanceMode" {
			t.Errorf("json_ld %v", ld)
		}
		if all := s.do("GET", "/vendor/events/v1/events?start_date=2030-06-01&end_date=2030-06-30").object(t)["events"].([]any); len(all) != 2 {
			t.Errorf("the list without event_status shows %d events, want both", len(all))
		}
	})
}
