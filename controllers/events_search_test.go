package controllers_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"calendar/app"
)

// onDay is an hour-long event on a day of June 2030.
func onDay(title string, day int, extra map[string]any) map[string]any {
	f := at(title, time.Date(2030, 6, day, 10, 0, 0, 0, time.UTC).Format(app.DateFormat), time.Date(2030, 6, day, 11, 0, 0, 0, time.UTC).Format(app.DateFormat))
	for k, v := range extra {
		f[k] = v
	}
	return f
}

// The rules of the search are tested in app (search_test.go); here, that its
// links page on in its order.
func TestRelevanceLinksKeepTheOrder(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.event(onDay("Picnic", 1, map[string]any{"description": "Concert"}))
	s.event(onDay("Concert of the year", 2, nil))
	window := "start_date=2030-06-01&end_date=2030-06-30&"
	res := s.do("GET", eventsPath+"?"+window+"search=concert&orderby=relevance&per_page=1")
	if got := titles(t, res); got != "Concert of the year" || res.Header.Get("X-WP-Total") != "2" {
		t.Fatalf("page 1: %q, total %s", got, res.Header.Get("X-WP-Total"))
	}
	next, _ := url.Parse(res.object(t)["next_rest_url"].(string))
	if got := titles(t, s.do("GET", next.RequestURI())); got != "Picnic" {
		t.Fatalf("page 2 via %s: %q", next, got)
	}
	s.do("GET", eventsPath+"?"+window+"orderby=relevance").expectError(t, http.StatusBadRequest, "rest_invalid_param")
}
