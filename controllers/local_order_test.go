package controllers_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"calendar/app"
)

// The plugin, in its default time-zone mode, orders and bounds events by
// their local start and end as written (the _EventStartDate and
// _EventEndDate meta), whatever their zones, and reads a date bound as a
// wall-clock time of the site's zone: its event repository's constructor
// takes the local meta keys and the site zone as the "normal" zone unless
// the site mode is on (src/Tribe/Repositories/Event.php), and every
// starts_*/ends_* filter formats its bound in that zone.
func TestEventsAreOrderedAndBoundedByTheirLocalTimes(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	s := startServiceSettings(t, func(st *app.Settings) { st.TimeZone = berlin }, noConfig)
	for _, e := range []struct{ title, zone, start, end string }{
		{"Tokyo 10:00", "Asia/Tokyo", "2030-05-01 10:00:00", "2030-05-01 11:00:00"},                // 01:00 UTC
		{"New York 09:00", "America/New_York", "2030-05-01 09:00:00", "2030-05-01 10:00:00"},       // 13:00 UTC
		{"Paris 09:30", "Europe/Paris", "2030-05-01 09:30:00", "2030-05-01 10:30:00"},              // 07:30 UTC
		{"Auckland 08:00", "Pacific/Auckland", "2030-05-01 08:00:00", "2030-05-01 09:00:00"},       // April 30, 20:00 UTC
		{"Los Angeles 22:00", "America/Los_Angeles", "2030-04-30 22:00:00", "2030-04-30 23:00:00"}, // May 1, 05:00 UTC
	} {
		fields := at(e.title, e.start, e.end)
		fields["timezone"] = e.zone
		s.event(fields)
	}
	day := eventsPath + "?start_date=2030-05-01&end_date=2030-05-01"
	for _, tc := range []struct{ name, query, want string }{
		{"a day holds the events whose local start is on it, by local start", day,
			"Auckland 08:00,New York 09:00,Paris 09:30,Tokyo 10:00"},
		{"pages cut that order", day + "&per_page=2", "Auckland 08:00,New York 09:00"},
		{"the next page goes on from it", day + "&per_page=2&page=2", "Paris 09:30,Tokyo 10:00"},
		{"the day before holds the event local to it", eventsPath + "?start_date=2030-04-30&end_date=2030-04-30", "Los Angeles 22:00"},
		// 07:15 UTC is 09:15 in Berlin: the bound is that wall-clock time.
		{"a strict bound is the site's wall-clock time of the instant",
			eventsPath + "?strict_dates=true&start_date=" + url.QueryEscape("2030-05-01T07:15:00Z") + "&end_date=2030-05-02",
			"Paris 09:30,Tokyo 10:00"},
		// A zone-less strict value is a UTC instant: 07:00 UTC is 09:00 in
		// Berlin, and end_date bounds the end.
		{"a strict end bound too",
			eventsPath + "?strict_dates=true&start_date=2030-04-30&end_date=" + url.QueryEscape("2030-05-01 07:00:00"),
			"Los Angeles 22:00,Auckland 08:00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := titles(t, s.do(http.MethodGet, tc.query)); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
