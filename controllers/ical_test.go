package controllers_test

import (
	"bytes"
	"net/http"
	"slices"
	"testing"

	"github.com/emersion/go-ical"

	"calendar/app"
)

// What the feed lists and how it writes each event is app's
// (app/ical_feed_test.go, app/ical_series_test.go, app/ical_zones_test.go);
// how events.ics and Accept: text/calendar reach it, events_alone_test.go.
// Here, the whole path a calendar client takes.

const feedPath = "/vendor/events/v1/events.ics"

// parseFeed checks a feed answer's type and syntax and parses it back.
func parseFeed(t *testing.T, res *response) *ical.Calendar {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "text/calendar; charset=utf-8" {
		t.Fatalf("Content-Type = %q", ct)
	}
	cal, err := ical.NewDecoder(bytes.NewReader(res.Body)).Decode()
	if err != nil {
		t.Fatalf("feed does not parse: %v\n%s", err, res.Body)
	}
	return cal
}

// Events written over HTTP are in the feed as in the list, with UIDs of the
// site's host, under events.ics and under the list asked for iCalendar alike,
// and a client polling it unchanged is answered 304.
func TestAFeedClientFindsTheEventsTheListShows(t *testing.T) {
	t.Parallel()
	s := startService(t)
	a := s.event(at("Concert", "2027-05-01 20:00", "2027-05-01 22:00"))
	b := s.event(at("Talk", "2027-05-02 10:00", "2027-05-02 11:00"))
	const window = "?start_date=2027-01-01&end_date=2027-12-31"
	feed := s.do("GET", feedPath+window)
	var uids []string
	for _, e := range parseFeed(t, feed).Events() {
		uids = append(uids, e.Props.Get(ical.PropUID).Value)
	}
	if want := []string{idOf(a) + "@127.0.0.1", idOf(b) + "@127.0.0.1"}; !slices.Equal(uids, want) || feed.Header.Get("X-WP-Total") != "2" {
		t.Fatalf("the feed's UIDs %v (total %s), want %v", uids, feed.Header.Get("X-WP-Total"), want)
	}
	asked := s.do("GET", eventsPath+window, header("Accept", "text/calendar"))
	if parseFeed(t, asked); !bytes.Equal(asked.Body, feed.Body) {
		t.Fatalf("the list asked for iCalendar differs from events.ics:\n%s\n---\n%s", asked.Body, feed.Body)
	}
	s.do("GET", feedPath+window, header("If-None-Match", feed.Header.Get("ETag"))).expectStatus(t, http.StatusNotModified)
}

// The site index is named after the site as the feed is (its name, else its
// host).
func TestTheSiteIndexIsNamedAfterTheSite(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"": "127.0.0.1", "Jazz in Lyon": "Jazz in Lyon"} {
		s := startServiceSettings(t, func(set *app.Settings) { set.SiteName = name }, noConfig)
		if got := s.do("GET", "/wp-json/").object(t)["name"]; got != want {
			t.Errorf("site name %q: the site index's name %v, want %q", name, got, want)
		}
	}
}
