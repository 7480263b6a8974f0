package controllers_test

import (
	"net/http"
	"reflect"
	"testing"

	"calendar/app"
)

// The plugin's export URLs on the site's paths, an event's .ics and the
// expanded feed: which feed each asks the service for, with what. What the
// feeds hold is app's (app/site_feeds_test.go, app/event_status_test.go).
func TestTheFeedURLsAskTheServiceForTheirFeed(t *testing.T) {
	t.Parallel()
	list, month := app.SiteFeedRequest{Page: app.SitePageList}, app.SiteFeedRequest{Page: app.SitePageMonth}
	with := func(r app.SiteFeedRequest, change func(*app.SiteFeedRequest)) app.SiteFeedRequest {
		change(&r)
		return r
	}
	for _, tc := range []struct {
		name, path, call string
		want             any
	}{
		{"the events page", "/events/?ical=1", "SiteFeed", list},
		{"the list page, from a day, in a category", "/events/list/?ical=1&tribe-bar-date=2030-06-21&tribe_events_cat=jazz", "SiteFeed",
			with(list, func(r *app.SiteFeedRequest) { r.BarDate, r.Categories = "2030-06-21", &[]string{"jazz"} })},
		{"the month view by its query", "/events/?ical=1&tribe_display=month&eventDate=2030-07", "SiteFeed",
			with(month, func(r *app.SiteFeedRequest) { r.Month = "2030-07" })},
		{"the month view by its path", "/events/month/2030-07/?ical=1", "SiteFeed", with(month, func(r *app.SiteFeedRequest) { r.Month = "2030-07" })},
		{"Outlook's export of the month of a day", "/events/month/?outlook-ical=1&tribe-bar-date=2030-05-15", "SiteFeed",
			with(month, func(r *app.SiteFeedRequest) { r.BarDate = "2030-05-15" })},
		{"an event's permalink", "/event/gala-night/?ical=1", "EventFeed", app.PostRef{Slug: "gala-night"}},
		{"an event's .ics", aloneAPI + "/events/7.ics", "EventFeed", app.PostRef{ID: 7}},
		{"an event's .ics, with a slash", aloneAPI + "/events/7.ics/", "EventFeed", app.PostRef{ID: 7}},
		{"an event asked as iCalendar", aloneAPI + "/events/7", "EventFeed", app.PostRef{ID: 7}},
	} {
		svc := &recordedEvents{}
		s := eventsAlone(t, svc)
		var opts []option
		if tc.name == "an event asked as iCalendar" {
			opts = append(opts, header("Accept", "text/calendar"))
		}
		res := s.do("GET", tc.path, opts...)
		res.expectStatus(t, http.StatusOK)
		if svc.called() != tc.call || !reflect.DeepEqual(svc.got()[0], tc.want) {
			t.Errorf("%s: the service was asked %s %s, want %s %s", tc.name, svc.called(), show(svc.got()), tc.call, show(tc.want))
		}
		if res.Header.Get("Content-Type") != "text/calendar; charset=utf-8" {
			t.Errorf("%s: %s", tc.name, res.Header.Get("Content-Type"))
		}
	}
	svc := &recordedEvents{}
	s := eventsAlone(t, svc)
	for _, path := range []string{"/events/", "/event/gala-night/", "/events/week/?ical=1"} {
		s.do("GET", path).expectError(t, http.StatusNotFound, "rest_no_route")
	}
	s.do("GET", aloneAPI+"/events.ics?expand=true").expectStatus(t, http.StatusOK)
	if f, _ := svc.got()[0].(app.EventFilter); svc.called() != "Feed" || !f.Expand {
		t.Errorf("events.ics?expand=true asked %s %s", svc.called(), show(svc.got()))
	}
}

// The values of event_status and attendance_mode are their lists' (400 naming
// the parameter, before the service is asked).
func TestEventStatusValuesOutsideTheirListsAreRefused(t *testing.T) {
	t.Parallel()
	svc := &recordedEvents{}
	s := eventsAlone(t, svc)
	for _, tc := range []struct{ method, path, body, param string }{
		{"GET", "/events?event_status=canceled,cancelled", "", "event_status"},
		{"POST", "/events", `{"title":"a","start_date":"2030-01-01","end_date":"2030-01-01","event_status":"off"}`, "event_status"},
		{"POST", "/events/5", `{"attendance_mode":"virtual"}`, "attendance_mode"},
	} {
		var opts []option
		if tc.body != "" {
			opts = append(opts, bearer("editor-token"), body("application/json", tc.body))
		}
		m := s.do(tc.method, aloneAPI+tc.path, opts...).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		if params, _ := m["data"].(map[string]any)["params"].(map[string]any); params[tc.param] == nil {
			t.Errorf("%s %s: params %v, want %s", tc.method, tc.path, params, tc.param)
		}
	}
	if svc.called() != "" {
		t.Errorf("the service was asked %s", svc.called())
	}
}
