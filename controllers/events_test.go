package controllers_test

import "net/http"

// What an event write takes and how events are shown are app's
// (app/event_write_test.go); the routes' HTTP, events_alone_test.go.

const eventsPath = "/vendor/events/v1/events"

// event creates an event as admin from JSON fields and returns its object.
func (s *service) event(fields map[string]any, opts ...option) map[string]any {
	s.t.Helper()
	if opts == nil {
		opts = []option{asAdmin()}
	}
	res := s.do("POST", eventsPath, append(opts, jsonBody(fields))...)
	res.expectStatus(s.t, http.StatusCreated)
	return res.object(s.t)
}

func at(title, start, end string) map[string]any {
	return map[string]any{"title": title, "start_date": start, "end_date": end}
}
