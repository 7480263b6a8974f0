package app_test

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-ical"

	"calendar/app"
	"calendar/app/calendar"
)

// The iCalendar feed, without HTTP: what it lists for each caller, how each
// event is written (UIDs, revisions, dates, zones, text), and its bounds.
// How events.ics and Accept: text/calendar reach it is controllers'
// (events_alone_test.go).

// feedOf is the caller's feed of the filter, parsed back, checked for what
// every feed has.
func (w *world) feedOf(caller app.Caller, f app.EventFilter) (*ical.Calendar, *app.Feed) {
	w.t.Helper()
	feed, err := w.app.Events.Feed(w.ctx, caller, f)
	w.must(err)
	cal, err := ical.NewDecoder(bytes.NewReader(feed.Body)).Decode()
	if err != nil {
		w.t.Fatalf("the feed does not parse: %v\n%s", err, feed.Body)
	}
	for _, name := range []string{"PRODID", "VERSION", "CALSCALE", "X-WR-CALNAME"} {
		if cal.Props.Get(name) == nil {
			w.t.Fatalf("VCALENDAR without %s", name)
		}
	}
	return cal, feed
}

// in2027 is a filter of the events of 2027.
func in2027(f app.EventFilter) app.EventFilter {
	f.Dates = app.Dates{"start_date": "2027-01-01", "end_date": "2027-12-31"}
	return f
}

// feedText is a property's decoded TEXT value, "" when absent.
func feedText(t *testing.T, c *ical.Component, name string) string {
	t.Helper()
	p := c.Props.Get(name)
	if p == nil {
		return ""
	}
	v, err := p.Text()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

func feedUIDs(t *testing.T, cal *ical.Calendar) []string {
	t.Helper()
	var out []string
	for _, e := range cal.Events() {
		out = append(out, feedText(t, e.Component, "UID"))
	}
	return out
}

// listUIDs are the UIDs of the events the list gives for the same filter.
func (w *world) listUIDs(caller app.Caller, f app.EventFilter) []string {
	w.t.Helper()
	f.Page = app.PageRequest{PerPage: 50}
	page, err := w.app.Events.List(w.ctx, caller, f)
	w.must(err)
	var out []string
	for _, e := range page.Items {
		out = append(out, icalUID(e.ID))
	}
	return out
}

func vevent(t *testing.T, cal *ical.Calendar, id int64) *ical.Component {
	t.Helper()
	for _, e := range cal.Events() {
		if feedText(t, e.Component, "UID") == icalUID(id) {
			return e.Component
		}
	}
	t.Fatalf("no VEVENT %s in the feed", icalUID(id))
	return nil
}

func TestTheFeedListsWhatTheListListsForTheSameFilters(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i, c := range []struct{ title, category string }{{"Jazz one", "Jazz"}, {"Rock one", "Rock"}, {"Jazz two", "Jazz"}, {"Plain", ""}} {
		in := app.EventInput{}
		if c.category != "" {
			in.Categories = strs(c.category)
		}
		w.event(c.title, "2027-03-0"+strconv.Itoa(i+1), in)
	}
	w.event("Next year", "2028-03-01", app.EventInput{})
	for name, f := range map[string]app.EventFilter{
		"a year":          in2027(app.EventFilter{}),
		"a category":      in2027(app.EventFilter{Categories: strs("jazz")}),
		"a search":        in2027(app.EventFilter{Search: ptr("one")}),
		"years":           {Dates: app.Dates{"start_date": "2026-01-01", "end_date": "2029-01-01"}},
		"a page of years": {Dates: app.Dates{"start_date": "2026-01-01", "end_date": "2029-01-01"}, Page: app.PageRequest{Page: 1, PerPage: 2}},
	} {
		want := w.listUIDs(visitor, f)
		cal, feed := w.feedOf(visitor, f)
		if got := feedUIDs(t, cal); !slices.Equal(got, want) || len(got) == 0 || feed.Total != len(want) {
			t.Errorf("%s: feed %v (total %d), list %v", name, got, feed.Total, want)
		}
	}
}

func TestFeedUIDsAreStableAndSequenceCountsTheEventsRevisions(t *testing.T) {
	t.Parallel()
	var clock atomic.Int64
	clock.Store(time.Now().Unix())
	w := newWorld(t, func(s *app.Settings) { s.Now = func() time.Time { return time.Unix(clock.Load(), 0) } })
	e := w.event("Talk", "2027-06-01", app.EventInput{})
	first, before := w.feedOf(visitor, in2027(app.EventFilter{}))
	clock.Add(3600) // a feed stamped with the time it is asked at would differ now
	second, again := w.feedOf(visitor, in2027(app.EventFilter{}))
	if a, b := feedUIDs(t, first), feedUIDs(t, second); !slices.Equal(a, b) || a[0] != icalUID(e.ID) || !bytes.Equal(before.Body, again.Body) {
		t.Fatalf("UIDs %v then %v, or the bytes differ an hour later (a client's If-None-Match would miss)", a, b)
	}
	seq := func(cal *ical.Calendar) int {
		n, err := vevent(t, cal, e.ID).Props.Get("SEQUENCE").Int()
		w.must(err)
		return n
	}
	w.edit(e.ID, app.EventInput{PostFields: app.PostFields{Title: ptr("Talk, moved")}})
	after, _ := w.feedOf(visitor, in2027(app.EventFilter{}))
	if seq(second) != 0 || seq(after) != 1 { // the event's own revisions, as calendar apps count them
		t.Fatalf("SEQUENCE %d after one update, %d before; want 1 and 0", seq(after), seq(second))
	}
	if got := feedText(t, vevent(t, after, e.ID), "SUMMARY"); got != "Talk, moved" {
		t.Fatalf("SUMMARY = %q", got)
	}
	for _, name := range []string{"DTSTAMP", "CREATED", "LAST-MODIFIED"} {
		if _, err := vevent(t, after, e.ID).Props.DateTime(name, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func TestAnAllDayEventIsADateEndingTheDayAfter(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	e := w.event("Fair", "", app.EventInput{StartDate: ptr("2027-03-10"), EndDate: ptr("2027-03-12"), AllDay: ptr(true), Timezone: ptr("Europe/Paris")})
	cal, _ := w.feedOf(visitor, in2027(app.EventFilter{}))
	for name, want := range map[string]string{"DTSTART": "20270310", "DTEND": "20270313"} {
		p := vevent(t, cal, e.ID).Props.Get(name)
		if p.ValueType() != ical.ValueDate || p.Value != want || p.Params.Get("TZID") != "" {
			t.Fatalf("%s = %+v, want the date %s", name, p, want)
		}
	}
}

// observance is the VTIMEZONE sub-component in effect at a local time: the
// latest whose DTSTART is not after it.
func observance(t *testing.T, tz *ical.Component, local string) *ical.Component {
	t.Helper()
	var best *ical.Component
	for _, c := range tz.Children {
		start := c.Props.Get("DTSTART").Value
		if start <= local && (best == nil || start > best.Props.Get("DTSTART").Value) {
			best = c
		}
	}
	if best == nil {
		t.Fatalf("no observance covers %s", local)
	}
	return best
}

func TestAZonedEventCarriesItsTZIDAndAMatchingVTimezone(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cases := []struct {
		zone, start, offset string
		tzid                bool
	}{
		{"Europe/Paris", "2027-01-15 20:00:00", "+0100", true},
		{"Europe/Paris", "2027-07-01 20:00:00", "+0200", true},
		{"America/New_York", "2027-11-06 23:00:00", "-0400", true}, // hours before clocks fall back
		{"America/New_York", "2027-11-08 01:00:00", "-0500", true},
		{"Asia/Kolkata", "2027-04-01 09:00:00", "+0530", true},
		{"Australia/Sydney", "2027-01-15 20:00:00", "+1100", true}, // daylight time across the new year
		{"Europe/Paris", "2030-07-01 20:00:00", "+0200", true},     // years apart: 2028 needs no observance
		{"UTC", "2027-04-01 09:00:00", "", false},
		{"UTC+5", "2027-04-01 09:00:00", "", false},
	}
	var events []*app.EventView
	for _, c := range cases {
		events = append(events, w.event(c.zone+" "+c.start, "", app.EventInput{StartDate: ptr(c.start),
			EndDate: ptr(strings.Replace(c.start, ":00:00", ":45:00", 1)), Timezone: ptr(c.zone)}))
	}
	cal, _ := w.feedOf(visitor, app.EventFilter{Dates: app.Dates{"start_date": "2027-01-01", "end_date": "2030-12-31"}})
	zones := map[string]*ical.Component{}
	for _, c := range cal.Children {
		if c.Name == ical.CompTimezone {
			zones[feedText(t, c, "TZID")] = c
		}
	}
	if len(zones) != 4 {
		t.Fatalf("%d VTIMEZONEs, want one per tz database zone", len(zones))
	}
	for i, c := range cases {
		ev := vevent(t, cal, events[i].ID)
		for name, utc := range map[string]string{"DTSTART": events[i].UTCStartDate, "DTEND": events[i].UTCEndDate} {
			p := ev.Props.Get(name)
			got, err := p.DateTime(nil)
			w.must(err)
			if want, _ := time.Parse(app.DateFormat, utc); !got.Equal(want) {
				t.Fatalf("%s %s: %s = %s (%s), want %s UTC", c.zone, c.start, name, p.Value, got, want)
			}
			switch {
			case !c.tzid && (p.Params.Get("TZID") != "" || !strings.HasSuffix(p.Value, "Z")):
				t.Fatalf("%s %s: %s = %+v, want a UTC time", c.zone, c.start, name, p)
			case c.tzid && (p.Params.Get("TZID") != c.zone || zones[c.zone] == nil):
				t.Fatalf("%s %s: %s TZID = %q, or no VTIMEZONE of it", c.zone, c.start, name, p.Params.Get("TZID"))
			case c.tzid && name == "DTSTART":
				if got := observance(t, zones[c.zone], p.Value).Props.Get("TZOFFSETTO").Value; got != c.offset {
					t.Fatalf("%s %s: VTIMEZONE gives %s at %s, want %s", c.zone, c.start, got, p.Value, c.offset)
				}
			}
		}
	}
	var kinds []string
	for _, c := range zones["Europe/Paris"].Children {
		kinds = append(kinds, c.Name+" "+c.Props.Get("DTSTART").Value+" "+c.Props.Get("TZOFFSETFROM").Value+">"+c.Props.Get("TZOFFSETTO").Value)
	}
	want := []string{"STANDARD 20261025T030000 +0200>+0100", "DAYLIGHT 20270328T020000 +0100>+0200", "STANDARD 20271031T030000 +0200>+0100",
		"STANDARD 20291028T030000 +0200>+0100", "DAYLIGHT 20300331T020000 +0100>+0200", "STANDARD 20301027T030000 +0200>+0100"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("Europe/Paris observances = %v, want %v", kinds, want)
	}
}

func TestFeedTextSurvivesEscapingAndFolding(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	title := `Fête de la musique, 2027; «été» \ 東京で会いましょう 🎷🎺, a very long title that must fold, fold, and fold again; done`
	category, err := w.app.Categories.Create(w.ctx, w.admin(), app.TermInput{Name: ptr("Rock, Pop; Soul")})
	w.must(err)
	pleyel := w.venue("Salle Pleyel", app.LinkedInput{GeoLat: ptr(48.8778), GeoLng: ptr(2.3017),
		Meta: map[string]string{"address": "252 rue du Faubourg Saint-Honoré", "city": "Paris", "country": "France"}})
	e := w.event(title, "", app.EventInput{StartDate: ptr("2027-06-21 18:00"), EndDate: ptr("2027-06-21 23:00"),
		PostFields: app.PostFields{Description: ptr("Bring friends; and instruments.\nAll welcome.\n\nSecond <b>paragraph</b> &amp; more.")},
		Venue:      &app.LinkRef{ID: pleyel.ID}, Categories: strs(strconv.FormatInt(category.ID, 10)),
		Organizers: &[]app.LinkRef{{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr(`Ann "Sax" O'Neil; Jr.`)}, Meta: map[string]string{"email": "ann@example.org"}}}}})
	bare := w.event("No organizer", "2027-06-22", app.EventInput{})
	cal, feed := w.feedOf(visitor, in2027(app.EventFilter{}))
	ev := vevent(t, cal, e.ID)
	for name, want := range map[string]string{"SUMMARY": title, "DESCRIPTION": "Bring friends; and instruments.\nAll welcome.\n\nSecond paragraph & more.",
		"LOCATION": "Salle Pleyel, 252 rue du Faubourg Saint-Honoré, Paris, France", "STATUS": "CONFIRMED"} {
		if got := feedText(t, ev, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	escaped := `SUMMARY:Fête de la musique\, 2027\; «été» \\ 東京で会いましょう 🎷🎺\, a very long title that must fold\, fold\, and fold again\; done`
	if unfolded := strings.ReplaceAll(string(feed.Body), "\r\n ", ""); !strings.Contains(unfolded, escaped+"\r\n") {
		t.Errorf("the SUMMARY line is not escaped as RFC 5545 says:\n%s", unfolded)
	}
	if got := ev.Props.Get("GEO").Value; got != "48.8778;2.3017" {
		t.Errorf("GEO = %q", got)
	}
	if cats, err := ev.Props.Get("CATEGORIES").TextList(); err != nil || !slices.Equal(cats, []string{"Rock, Pop; Soul"}) {
		t.Errorf("CATEGORIES = %q (%v)", cats, err)
	}
	if org := ev.Props.Get("ORGANIZER"); org.Value != "mailto:ann@example.org" || org.Params.Get("CN") != `Ann Sax O'Neil; Jr.` {
		t.Errorf("ORGANIZER = %+v", org)
	}
	if got := ev.Props.Get("URL").Value; got != e.URL {
		t.Errorf("URL = %q, want %v", got, e.URL)
	}
	if vevent(t, cal, bare.ID).Props.Get("ORGANIZER") != nil {
		t.Error("ORGANIZER on an event without organizer")
	}
	lines := bytes.Split(feed.Body, []byte("\r\n"))
	if len(lines[len(lines)-1]) != 0 {
		t.Fatal("the feed does not end with CRLF")
	}
	folded := 0
	for i, line := range lines[:len(lines)-1] {
		if bytes.ContainsAny(line, "\r\n") || len(line) > 75 || !utf8.Valid(line) {
			t.Fatalf("line %d: a bare CR or LF, more than 75 octets or a UTF-8 sequence split: %q", i, line)
		}
		if bytes.HasPrefix(line, []byte(" ")) {
			folded++
		}
	}
	if folded < 3 {
		t.Fatalf("only %d continuation lines; the long title should fold", folded)
	}
}

func TestFeedStopsAtItsLimitAndTellsTheRealTotal(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *app.Settings) { s.FeedLimit = 3 })
	for i := 1; i <= 5; i++ {
		w.event("E"+strconv.Itoa(i), "2027-02-0"+strconv.Itoa(i), app.EventInput{})
	}
	for perPage, pages := range map[int]int{0: 1, 2: 3} {
		cal, feed := w.feedOf(visitor, in2027(app.EventFilter{Page: app.PageRequest{Page: 1, PerPage: perPage}}))
		if got, want := feedUIDs(t, cal), w.listUIDs(visitor, in2027(app.EventFilter{}))[:3]; !slices.Equal(got, want) {
			t.Fatalf("per page %d: the feed %v, want the first three %v", perPage, got, want)
		}
		if feed.Total != 5 || feed.TotalPages != pages {
			t.Fatalf("per page %d: totals %d and %d, want 5 and %d", perPage, feed.Total, feed.TotalPages, pages)
		}
	}
}

func TestFeedShowsEachCallerWhatTheListShows(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	public := w.event("Public", "2027-04-01", app.EventInput{})
	draft := w.event("Draft", "2027-04-02", app.EventInput{PostFields: app.PostFields{Status: calendar.StatusDraft}})
	private := w.event("Private", "2027-04-03", app.EventInput{PostFields: app.PostFields{Status: calendar.StatusPrivate}})
	secret := w.event("Secret", "2027-04-04", app.EventInput{PostFields: app.PostFields{Password: ptr("sesame"), Description: ptr("the hidden details")},
		Venue: &app.LinkRef{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr("Back room")}}}})
	w.event("Hidden", "2027-04-05", app.EventInput{Flags: map[string]bool{"hide_from_listings": true}})

	cal, _ := w.feedOf(visitor, in2027(app.EventFilter{}))
	if got, want := feedUIDs(t, cal), w.listUIDs(visitor, in2027(app.EventFilter{})); !slices.Equal(got, want) || len(got) != 2 {
		t.Fatalf("a visitor's feed %v, list %v", got, want)
	}
	vevent(t, cal, public.ID)
	if masked := vevent(t, cal, secret.ID); masked.Props.Get("DESCRIPTION") != nil || masked.Props.Get("LOCATION") != nil {
		t.Fatal("a protected event shows its details to a visitor")
	}
	unlocked, _ := w.feedOf(visitor, in2027(app.EventFilter{Password: "sesame"}))
	if ev := vevent(t, unlocked, secret.ID); feedText(t, ev, "DESCRIPTION") != "the hidden details" || feedText(t, ev, "LOCATION") != "Back room" {
		t.Fatal("the password does not unmask the event in the feed")
	}
	admin, _ := w.feedOf(w.admin(), in2027(app.EventFilter{}))
	if got, want := feedUIDs(t, admin), w.listUIDs(w.admin(), in2027(app.EventFilter{})); !slices.Equal(got, want) || len(got) != 4 {
		t.Fatalf("the administrator's feed %v, list %v", got, want)
	}
	if got := feedText(t, vevent(t, admin, draft.ID), "STATUS"); got != "TENTATIVE" {
		t.Fatalf("a draft's STATUS = %q", got)
	}
	if got := feedText(t, vevent(t, admin, private.ID), "CLASS"); got != "PRIVATE" {
		t.Fatalf("a private event's CLASS = %q", got)
	}
}

// RFC 5545 wants at least one component in a VCALENDAR and strict parsers
// refuse one without: an empty feed describes the site's zone.
func TestAnEmptyFeedStillHasAComponent(t *testing.T) {
	t.Parallel()
	for _, zone := range []string{"Europe/Paris", "UTC"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		w := newWorld(t, func(s *app.Settings) { s.TimeZone = loc })
		cal, _ := w.feedOf(visitor, in2027(app.EventFilter{}))
		if len(cal.Events()) != 0 || len(cal.Children) != 1 || cal.Children[0].Name != ical.CompTimezone ||
			feedText(t, cal.Children[0], "TZID") != zone || len(cal.Children[0].Children) == 0 {
			t.Fatalf("%s: components %+v", zone, cal.Children)
		}
		var out bytes.Buffer
		if err := ical.NewEncoder(&out).Encode(cal); err != nil { // the encoder refuses a calendar without components
			t.Fatalf("%s: a strict writer refuses the feed: %v", zone, err)
		}
	}
}

func TestTheFeedIsNamedAfterTheSite(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"": "x", "Jazz in Lyon": "Jazz in Lyon"} {
		w := newWorld(t, func(s *app.Settings) { s.SiteName = name })
		if cal, _ := w.feedOf(visitor, app.EventFilter{}); feedText(t, cal.Component, "X-WR-CALNAME") != want {
			t.Errorf("site name %q: X-WR-CALNAME %q, want %q", name, feedText(t, cal.Component, "X-WR-CALNAME"), want)
		}
	}
}
