package app_test

import (
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"

	"calendar/app"
)

// The plugin's export URLs (site_feeds.go), without HTTP: which events each
// page's export writes, in which order, how many, each occurrence of a
// series a VEVENT of its own without rules. Their paths are controllers'.

// siteFeedWorld is a June 2030 seen on Wednesday the 12th at noon (UTC),
// the month's grid running from Monday 27 May to Sunday 30 June: an event
// over, one under way, a weekly series of three, one hidden from listings,
// events around the grid's edges, and a daily series of forty from 1 July.
func siteFeedWorld(t *testing.T) *world {
	now := time.Date(2030, 6, 12, 12, 0, 0, 0, time.UTC)
	w := newWorld(t, func(s *app.Settings) { s.Now = func() time.Time { return now } })
	at := func(title, start, end string, in app.EventInput) {
		in.StartDate, in.EndDate = ptr(start), ptr(end)
		w.event(title, "", in)
	}
	at("over", "2030-06-10 10:00", "2030-06-10 11:00", app.EventInput{})
	at("under way", "2030-06-11 10:00", "2030-06-12 13:00", app.EventInput{})
	at("class", "2030-06-13 19:00", "2030-06-13 20:00", app.EventInput{Recurrence: strs("RRULE:FREQ=WEEKLY;COUNT=3")})
	at("hidden", "2030-06-14 10:00", "2030-06-14 11:00", app.EventInput{Flags: map[string]bool{"hide_from_listings": true}})
	at("grid's first day", "2030-05-27 10:00", "2030-05-27 11:00", app.EventInput{})
	at("before the grid", "2030-05-26 10:00", "2030-05-26 11:00", app.EventInput{})
	at("daily", "2030-07-01 09:00", "2030-07-01 10:00", app.EventInput{Recurrence: strs("RRULE:FREQ=DAILY;COUNT=40")})
	return w
}

// siteFeed is a page's export parsed, with each VEVENT's SUMMARY and
// DTSTART day, checked for the plugin's shape: no rules, starts in order,
// every UID once.
func (w *world) siteFeed(r app.SiteFeedRequest) []string {
	w.t.Helper()
	feed, err := w.app.Events.SiteFeed(w.ctx, visitor, r)
	w.must(err)
	cal, err := ical.NewDecoder(strings.NewReader(string(feed.Body))).Decode()
	w.must(err)
	var out []string
	seen := map[string]bool{}
	last := time.Time{}
	for _, e := range cal.Events() {
		for _, rule := range []string{ical.PropRecurrenceRule, ical.PropRecurrenceDates, ical.PropExceptionDates, ical.PropRecurrenceID} {
			if e.Props.Get(rule) != nil {
				w.t.Fatalf("%s in the plugin's feed shape", rule)
			}
		}
		start, err := e.DateTimeStart(time.UTC)
		w.must(err)
		uid := feedText(w.t, e.Component, "UID")
		if start.Before(last) || seen[uid] {
			w.t.Fatalf("VEVENT %s at %s out of order or twice", uid, start)
		}
		last, seen[uid] = start, true
		out = append(out, feedText(w.t, e.Component, "SUMMARY")+" "+start.Format("01-02"))
	}
	return out
}

func TestThePluginsExportsWriteEachOccurrenceInOrderWithinTheirPagesWindow(t *testing.T) {
	t.Parallel()
	w := siteFeedWorld(t)
	daily := func(from, to int) (out []string) { // July 1 is day 1
		for d := from; d <= to; d++ {
			out = append(out, "daily "+time.Date(2030, 7, d, 0, 0, 0, 0, time.UTC).Format("01-02"))
		}
		return out
	}
	upcoming := append([]string{"under way 06-11", "class 06-13", "class 06-20", "class 06-27"}, daily(1, 26)...)
	for _, c := range []struct {
		name string
		r    app.SiteFeedRequest
		want []string
	}{
		{"the list: what has not ended, the first 30", app.SiteFeedRequest{Page: app.SitePageList}, upcoming},
		{"the list from a day to come", app.SiteFeedRequest{Page: app.SitePageList, BarDate: "2030-06-21"}, append([]string{"class 06-27"}, daily(1, 29)...)},
		{"the list ignores a day gone by, and eventDate", app.SiteFeedRequest{Page: app.SitePageList, BarDate: "2030-06-01", Month: "2030-01"}, upcoming},
		{"this month's grid, past days too", app.SiteFeedRequest{Page: app.SitePageMonth},
			[]string{"grid's first day 05-27", "over 06-10", "under way 06-11", "class 06-13", "class 06-20", "class 06-27"}},
		{"another month, all of it: more than 30", app.SiteFeedRequest{Page: app.SitePageMonth, Month: "2030-07"}, daily(1, 35)}, // 1 July 2030 is a Monday
		{"the month of tribe-bar-date", app.SiteFeedRequest{Page: app.SitePageMonth, BarDate: "2030-05-15"},
			[]string{"before the grid 05-26", "grid's first day 05-27"}},
	} {
		if got := w.siteFeed(c.r); strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s:\n got %v\nwant %v", c.name, got, c.want)
		}
	}
}

// A single event's export (its permalink's, its .ics) is that event alone:
// an occurrence without its series' rules.
func TestASingleEventsFeedIsThatEventAlone(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	series := w.event("class", "2030-06-13", app.EventInput{Recurrence: strs("RRULE:FREQ=WEEKLY;COUNT=3")})
	for _, ref := range []app.PostRef{{ID: series.ID}, {Slug: series.Slug}} {
		feed, err := w.app.Events.EventFeed(w.ctx, visitor, ref, "")
		w.must(err)
		cal, err := ical.NewDecoder(strings.NewReader(string(feed.Body))).Decode()
		w.must(err)
		events := cal.Events()
		if len(events) != 1 || events[0].Props.Get(ical.PropRecurrenceRule) != nil || feedText(t, events[0].Component, "UID") != icalUID(series.ID) {
			t.Fatalf("%+v: %s", ref, feed.Body)
		}
		if p := cal.Props.Get("NAME"); p == nil || p.Value != "class" {
			t.Errorf("the calendar's NAME %v, want the event's title", p)
		}
	}
	draft, err := w.app.Events.Create(w.ctx, w.admin(), app.EventInput{PostFields: app.PostFields{Title: ptr("draft"), Status: "draft"},
		StartDate: ptr("2030-06-01 10:00"), EndDate: ptr("2030-06-01 11:00")})
	w.must(err)
	if _, err := w.app.Events.EventFeed(w.ctx, visitor, app.PostRef{ID: draft.ID}, ""); err == nil {
		t.Fatal("a visitor got a draft's feed")
	}
}

// expand=true writes each occurrence as a VEVENT of its own, the events
// the list gives; without it, the series is one VEVENT with its rule.
func TestTheExpandedFeedWritesTheListsOccurrencesWithoutRules(t *testing.T) {
	t.Parallel()
	now := time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC)
	w := newWorld(t, func(s *app.Settings) { s.Now = func() time.Time { return now } })
	w.event("class", "2030-06-13", app.EventInput{Recurrence: strs("RRULE:FREQ=WEEKLY;COUNT=3")})
	w.event("gala", "2030-06-14", app.EventInput{})
	f := app.EventFilter{Dates: month("2030-06"), Expand: true}
	cal, _ := w.feedOf(visitor, f)
	if got, want := strings.Join(feedUIDs(t, cal), ","), strings.Join(w.listUIDs(visitor, f), ","); got != want || len(cal.Events()) != 4 {
		t.Fatalf("expanded UIDs %s, the list's %s", got, want)
	}
	for _, e := range cal.Events() {
		if e.Props.Get(ical.PropRecurrenceRule) != nil {
			t.Fatal("an RRULE in the expanded feed")
		}
	}
	f.Expand = false
	cal, _ = w.feedOf(visitor, f)
	if len(cal.Events()) != 2 || cal.Events()[0].Props.Get(ical.PropRecurrenceRule) == nil {
		t.Fatalf("the feed without expand: %d VEVENTs", len(cal.Events()))
	}
}
