package controllers_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-ical"

	"calendar/app"
	"calendar/controllers"
)

const feedPath = "/vendor/events/v1/events.ics"

// window lists 2027 whatever today is (the list's default window is relative).
const window = "start_date=2027-01-01&end_date=2027-12-31"

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
	for _, name := range []string{"PRODID", "VERSION", "CALSCALE", "X-WR-CALNAME"} {
		if cal.Props.Get(name) == nil {
			t.Fatalf("VCALENDAR without %s", name)
		}
	}
	return cal
}

// text is a property's decoded TEXT value, "" when absent.
func text(t *testing.T, c *ical.Component, name string) string {
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

// uids are the events' UIDs in feed order.
func uids(t *testing.T, cal *ical.Calendar) []string {
	t.Helper()
	var out []string
	for _, e := range cal.Events() {
		out = append(out, text(t, e.Component, "UID"))
	}
	return out
}

// byUID finds the VEVENT of an event object.
func byUID(t *testing.T, cal *ical.Calendar, event map[string]any) *ical.Component {
	t.Helper()
	uid := idOf(event) + "@127.0.0.1"
	for _, e := range cal.Events() {
		if text(t, e.Component, "UID") == uid {
			return e.Component
		}
	}
	t.Fatalf("no VEVENT %s in the feed", uid)
	return nil
}

// listUIDs are the UIDs the JSON list gives for the same query.
func listUIDs(t *testing.T, s *service, query string, opts ...option) []string {
	t.Helper()
	res := s.do("GET", eventsPath+"?per_page=50&"+query, opts...)
	res.expectStatus(t, http.StatusOK)
	var out []string
	for _, e := range res.object(t)["events"].([]any) {
		out = append(out, idOf(e.(map[string]any))+"@127.0.0.1")
	}
	return out
}

var dtstamp = regexp.MustCompile(`DTSTAMP:\d{8}T\d{6}Z\r\n`)

func TestTheFeedListsWhatTheListListsForTheSameFilters(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for i, c := range []struct{ title, category string }{
		{"Jazz one", "Jazz"}, {"Rock one", "Rock"}, {"Jazz two", "Jazz"}, {"Plain", ""},
	} {
		fields := at(c.title, "2027-03-0"+strconv.Itoa(i+1)+" 20:00", "2027-03-0"+strconv.Itoa(i+1)+" 22:00")
		if c.category != "" {
			fields["categories"] = c.category
		}
		s.event(fields)
	}
	s.event(at("Next year", "2028-03-01 20:00", "2028-03-01 22:00"))
	for _, query := range []string{window, window + "&categories=jazz", window + "&search=one", "start_date=2026-01-01&end_date=2029-01-01"} {
		t.Run(query, func(t *testing.T) {
			want := listUIDs(t, s, query)
			res := s.do("GET", feedPath+"?"+query)
			if got := uids(t, parseFeed(t, res)); !slices.Equal(got, want) || len(got) == 0 {
				t.Fatalf("feed UIDs = %v, list = %v", got, want)
			}
			if res.Header.Get("X-WP-Total") != strconv.Itoa(len(want)) || res.Header.Get("X-TEC-Total") != strconv.Itoa(len(want)) {
				t.Fatalf("totals = %s / %s, want %d", res.Header.Get("X-WP-Total"), res.Header.Get("X-TEC-Total"), len(want))
			}
		})
	}
	t.Run("under a language segment", func(t *testing.T) {
		cal := parseFeed(t, s.do("GET", "/fr"+feedPath+"?"+window))
		if len(cal.Events()) != 4 {
			t.Fatalf("%d events", len(cal.Events()))
		}
	})
}

func TestAcceptTextCalendarOnTheListGivesTheSameFeed(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.event(at("Concert", "2027-05-01 20:00", "2027-05-01 22:00"))
	feed := s.do("GET", feedPath+"?"+window)
	parseFeed(t, feed)
	for _, c := range []struct {
		accept   string
		calendar bool
	}{
		{"", false}, {"*/*", false}, {"application/json", false},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", false},
		{"application/json, text/calendar", false}, {"text/calendar;q=0.5, application/json", false},
		{"text/calendar", true}, {"text/calendar, */*", true}, {"TEXT/CALENDAR; charset=utf-8", true},
		{"application/json;q=0.5, text/calendar", true},
	} {
		t.Run(c.accept, func(t *testing.T) {
			var opts []option
			if c.accept != "" {
				opts = append(opts, header("Accept", c.accept))
			}
			res := s.do("GET", eventsPath+"?"+window, opts...)
			res.expectStatus(t, http.StatusOK)
			if !strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Accept") {
				t.Fatalf("Vary = %q", res.Header.Values("Vary"))
			}
			if !c.calendar {
				if events := res.object(t)["events"].([]any); len(events) != 1 {
					t.Fatalf("JSON list = %s", res.Body)
				}
				return
			}
			parseFeed(t, res)
			if got, want := dtstamp.ReplaceAll(res.Body, nil), dtstamp.ReplaceAll(feed.Body, nil); !bytes.Equal(got, want) {
				t.Fatalf("feed differs from events.ics:\n%s\n---\n%s", got, want)
			}
			if res.Header.Get("X-WP-Total") != "1" || res.Header.Get("X-WP-TotalPages") != "1" {
				t.Fatalf("totals = %v", res.Header)
			}
		})
	}
}

func TestFeedErrorsStayJSON(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.do("GET", feedPath+"?categories=nope").expectError(t, http.StatusBadRequest, "rest_invalid_param")
	s.do("GET", eventsPath+"?start_date=never", header("Accept", "text/calendar")).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	s.do("GET", feedPath, basic("admin", "wrong")).expectError(t, http.StatusUnauthorized, "incorrect_password")
}

func TestFeedUIDsAreStableAndSequenceCountsTheEventsRevisions(t *testing.T) {
	t.Parallel()
	s := startService(t)
	e := s.event(at("Talk", "2027-06-01 10:00", "2027-06-01 11:00"))
	first := parseFeed(t, s.do("GET", feedPath+"?"+window))
	second := parseFeed(t, s.do("GET", feedPath+"?"+window))
	if a, b := uids(t, first), uids(t, second); !slices.Equal(a, b) || a[0] != idOf(e)+"@127.0.0.1" {
		t.Fatalf("UIDs %v then %v", a, b)
	}
	seq := func(c *ical.Calendar) int {
		n, err := byUID(t, c, e).Props.Get("SEQUENCE").Int()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := seq(second)
	s.do("POST", eventsPath+"/"+idOf(e), asAdmin(), jsonBody(map[string]any{"title": "Talk, moved"})).expectStatus(t, http.StatusOK)
	after := parseFeed(t, s.do("GET", feedPath+"?"+window))
	if before != 0 || seq(after) != 1 { // the event's own revisions, as calendar apps count them
		t.Fatalf("SEQUENCE %d after one update, %d before; want 1 and 0", seq(after), before)
	}
	if got := text(t, byUID(t, after, e), "SUMMARY"); got != "Talk, moved" {
		t.Fatalf("SUMMARY = %q", got)
	}
	for _, name := range []string{"DTSTAMP", "CREATED", "LAST-MODIFIED"} {
		if _, err := byUID(t, after, e).Props.DateTime(name, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func TestAnAllDayEventIsADateEndingTheDayAfter(t *testing.T) {
	t.Parallel()
	s := startService(t)
	fields := at("Fair", "2027-03-10", "2027-03-12")
	fields["all_day"], fields["timezone"] = true, "Europe/Paris"
	e := s.event(fields)
	ev := byUID(t, parseFeed(t, s.do("GET", feedPath+"?"+window)), e)
	for name, want := range map[string]string{"DTSTART": "20270310", "DTEND": "20270313"} {
		p := ev.Props.Get(name)
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
		t.Fatalf("no observance of %s covers %s", text(t, tz, "TZID"), local)
	}
	return best
}

func TestAZonedEventCarriesItsTZIDAndAMatchingVTimezone(t *testing.T) {
	t.Parallel()
	s := startService(t)
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
	var events []map[string]any
	for _, c := range cases {
		fields := at(c.zone+" "+c.start, c.start, strings.Replace(c.start, ":00:00", ":45:00", 1))
		fields["timezone"] = c.zone
		events = append(events, s.event(fields))
	}
	cal := parseFeed(t, s.do("GET", feedPath+"?start_date=2027-01-01&end_date=2030-12-31"))
	zones := map[string]*ical.Component{}
	for _, c := range cal.Children {
		if c.Name == ical.CompTimezone {
			zones[text(t, c, "TZID")] = c
		}
	}
	if len(zones) != 4 {
		t.Fatalf("VTIMEZONEs = %v, want one per tz database zone", keys(zones))
	}
	for i, c := range cases {
		t.Run(c.zone+" "+c.start, func(t *testing.T) {
			ev := byUID(t, cal, events[i])
			for name, key := range map[string]string{"DTSTART": "utc_start_date", "DTEND": "utc_end_date"} {
				p := ev.Props.Get(name)
				got, err := p.DateTime(nil)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := time.Parse("2006-01-02 15:04:05", events[i][key].(string))
				if !got.Equal(want) {
					t.Fatalf("%s = %s (%s), want %s UTC", name, p.Value, got, want)
				}
				if !c.tzid {
					if p.Params.Get("TZID") != "" || !strings.HasSuffix(p.Value, "Z") {
						t.Fatalf("%s = %+v, want a UTC time", name, p)
					}
					continue
				}
				if p.Params.Get("TZID") != c.zone {
					t.Fatalf("%s TZID = %q", name, p.Params.Get("TZID"))
				}
				tz := zones[c.zone]
				if tz == nil {
					t.Fatalf("no VTIMEZONE %s", c.zone)
				}
				if name == "DTSTART" {
					if got := observance(t, tz, p.Value).Props.Get("TZOFFSETTO").Value; got != c.offset {
						t.Fatalf("VTIMEZONE gives %s at %s, want %s", got, p.Value, c.offset)
					}
				}
			}
		})
	}
	paris := zones["Europe/Paris"]
	var kinds []string
	for _, c := range paris.Children {
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
	s := startService(t)
	title := `Fête de la musique, 2027; «été» \ 東京で会いましょう 🎷🎺, a very long title that must fold, fold, and fold again; done`
	cat := s.do("POST", "/vendor/events/v1/categories", asAdmin(), form("name", "Rock, Pop; Soul")).object(t)
	venue := s.create("venue", asAdmin(), "venue", "Salle Pleyel", "address", "252 rue du Faubourg Saint-Honoré",
		"city", "Paris", "country", "France", "geo_lat", "48.8778", "geo_lng", "2.3017")
	fields := at(title, "2027-06-21 18:00", "2027-06-21 23:00")
	fields["description"] = "Bring friends; and instruments.\nAll welcome.\n\nSecond <b>paragraph</b> &amp; more."
	fields["venue"], fields["categories"] = venue["id"], []any{cat["id"]}
	fields["organizer"] = []any{map[string]any{"organizer": `Ann "Sax" O'Neil; Jr.`, "email": "ann@example.org"}}
	e := s.event(fields)
	s.event(at("No organizer", "2027-06-22 18:00", "2027-06-22 19:00"))
	res := s.do("GET", feedPath+"?"+window)
	ev := byUID(t, parseFeed(t, res), e)

	if got := text(t, ev, "SUMMARY"); got != title || e["title"] != title {
		t.Fatalf("SUMMARY = %q, want %q", got, title)
	}
	escaped := `SUMMARY:Fête de la musique\, 2027\; «été» \\ 東京で会いましょう 🎷🎺\, a very long title that must fold\, fold\, and fold again\; done`
	if unfolded := strings.ReplaceAll(string(res.Body), "\r\n ", ""); !strings.Contains(unfolded, escaped+"\r\n") {
		t.Fatalf("SUMMARY line is not escaped as RFC 5545 says:\n%s", unfolded)
	}
	if got, want := text(t, ev, "DESCRIPTION"), "Bring friends; and instruments.\nAll welcome.\n\nSecond paragraph & more."; got != want {
		t.Fatalf("DESCRIPTION = %q, want %q", got, want)
	}
	if got, want := text(t, ev, "LOCATION"), "Salle Pleyel, 252 rue du Faubourg Saint-Honoré, Paris, France"; got != want {
		t.Fatalf("LOCATION = %q", got)
	}
	if got := ev.Props.Get("GEO").Value; got != "48.8778;2.3017" {
		t.Fatalf("GEO = %q", got)
	}
	if cats, err := ev.Props.Get("CATEGORIES").TextList(); err != nil || !slices.Equal(cats, []string{"Rock, Pop; Soul"}) {
		t.Fatalf("CATEGORIES = %q (%v)", cats, err)
	}
	org := ev.Props.Get("ORGANIZER")
	if org.Value != "mailto:ann@example.org" || org.Params.Get("CN") != `Ann Sax O'Neil; Jr.` {
		t.Fatalf("ORGANIZER = %+v", org)
	}
	if got := ev.Props.Get("URL").Value; got != e["url"] {
		t.Fatalf("URL = %q, want %v", got, e["url"])
	}
	if got := text(t, ev, "STATUS"); got != "CONFIRMED" {
		t.Fatalf("STATUS = %q", got)
	}
	for _, other := range calendarEvents(t, res) {
		if text(t, other, "SUMMARY") == "No organizer" && other.Props.Get("ORGANIZER") != nil {
			t.Fatal("ORGANIZER on an event without organizer")
		}
	}

	lines := bytes.Split(res.Body, []byte("\r\n"))
	if len(lines[len(lines)-1]) != 0 {
		t.Fatal("the feed does not end with CRLF")
	}
	folded := 0
	for i, line := range lines[:len(lines)-1] {
		if bytes.ContainsAny(line, "\r\n") {
			t.Fatalf("line %d has a bare CR or LF: %q", i, line)
		}
		if len(line) > 75 {
			t.Fatalf("line %d has %d octets: %q", i, len(line), line)
		}
		if !utf8.Valid(line) {
			t.Fatalf("line %d splits a UTF-8 sequence: %q", i, line)
		}
		if bytes.HasPrefix(line, []byte(" ")) {
			folded++
		}
	}
	if folded < 3 {
		t.Fatalf("only %d continuation lines; the long title should fold", folded)
	}
}

func calendarEvents(t *testing.T, res *response) []*ical.Component {
	var out []*ical.Component
	for _, e := range parseFeed(t, res).Events() {
		out = append(out, e.Component)
	}
	return out
}

func TestFeedStopsAtItsLimitAndTellsTheRealTotal(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, func(set *app.Settings) { set.FeedLimit = 3 }, func(*controllers.Config) {})
	for i := 1; i <= 5; i++ {
		s.event(at("E"+strconv.Itoa(i), "2027-02-0"+strconv.Itoa(i)+" 10:00", "2027-02-0"+strconv.Itoa(i)+" 11:00"))
	}
	for _, c := range []struct{ query, pages string }{{"", "1"}, {"&per_page=2", "3"}, {"&page=9", "1"}} {
		res := s.do("GET", feedPath+"?"+window+c.query)
		got := uids(t, parseFeed(t, res))
		if want := listUIDs(t, s, window)[:3]; !slices.Equal(got, want) {
			t.Fatalf("feed = %v, want the first three %v", got, want)
		}
		for h, want := range map[string]string{"X-WP-Total": "5", "X-TEC-Total": "5", "X-WP-TotalPages": c.pages, "X-TEC-TotalPages": c.pages} {
			if res.Header.Get(h) != want {
				t.Fatalf("%s = %q, want %s", h, res.Header.Get(h), want)
			}
		}
	}
}

func TestFeedShowsEachCallerWhatTheListShows(t *testing.T) {
	t.Parallel()
	s := startService(t)
	public := s.event(at("Public", "2027-04-01 10:00", "2027-04-01 11:00"))
	fields := at("Draft", "2027-04-02 10:00", "2027-04-02 11:00")
	fields["status"] = "draft"
	draft := s.event(fields)
	fields = at("Private", "2027-04-03 10:00", "2027-04-03 11:00")
	fields["status"] = "private"
	private := s.event(fields)
	fields = at("Secret", "2027-04-04 10:00", "2027-04-04 11:00")
	fields["password"], fields["description"], fields["venue"] = "sesame", "the hidden details", map[string]any{"venue": "Back room"}
	secret := s.event(fields)
	hidden := at("Hidden", "2027-04-05 10:00", "2027-04-05 11:00")
	hidden["hide_from_listings"] = true
	s.event(hidden)

	anonymous := s.do("GET", feedPath+"?"+window)
	if got, want := uids(t, parseFeed(t, anonymous)), listUIDs(t, s, window); !slices.Equal(got, want) || len(got) != 2 {
		t.Fatalf("anonymous feed = %v, list = %v", got, want)
	}
	cal := parseFeed(t, anonymous)
	byUID(t, cal, public)
	masked := byUID(t, cal, secret)
	if masked.Props.Get("DESCRIPTION") != nil || masked.Props.Get("LOCATION") != nil {
		t.Fatal("a password-protected event shows its details to anonymous callers")
	}
	unlocked := byUID(t, parseFeed(t, s.do("GET", feedPath+"?"+window+"&password=sesame")), secret)
	if text(t, unlocked, "DESCRIPTION") != "the hidden details" || text(t, unlocked, "LOCATION") != "Back room" {
		t.Fatal("the password does not unmask the event in the feed")
	}

	admin := parseFeed(t, s.do("GET", feedPath+"?"+window, asAdmin()))
	if got, want := uids(t, admin), listUIDs(t, s, window, asAdmin()); !slices.Equal(got, want) || len(got) != 4 {
		t.Fatalf("admin feed = %v, list = %v", got, want)
	}
	if got := text(t, byUID(t, admin, draft), "STATUS"); got != "TENTATIVE" {
		t.Fatalf("draft STATUS = %q", got)
	}
	if got := text(t, byUID(t, admin, private), "CLASS"); got != "PRIVATE" {
		t.Fatalf("private CLASS = %q", got)
	}
}

// TestAnUnchangedFeedAnswersNotModified: the feed is the same bytes until an
// event changes (DTSTAMP is the revision time, not the time of the request),
// so a calendar client polling it with If-None-Match gets 304; a change gives
// a new feed. Enveloped, the feed is a JSON string.
func TestAnUnchangedFeedAnswersNotModified(t *testing.T) {
	t.Parallel()
	s := startService(t)
	e := s.event(at("Talk", "2027-06-01 10:00", "2027-06-01 11:00"))
	first := s.do("GET", feedPath+"?"+window)
	etag := first.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag on the feed")
	}
	time.Sleep(1100 * time.Millisecond) // a feed stamped with the time of the request would differ by now
	s.do("GET", feedPath+"?"+window, header("If-None-Match", etag)).expectStatus(t, http.StatusNotModified)
	s.do("POST", eventsPath+"/"+idOf(e), asAdmin(), jsonBody(map[string]any{"title": "Talk, moved"})).expectStatus(t, http.StatusOK)
	s.do("GET", feedPath+"?"+window, header("If-None-Match", etag)).expectStatus(t, http.StatusOK)

	var enveloped struct {
		Body   string
		Status int
	}
	res := s.do("GET", feedPath+"?_envelope&"+window)
	if err := json.Unmarshal(res.Body, &enveloped); err != nil || enveloped.Status != http.StatusOK ||
		!strings.HasPrefix(enveloped.Body, "BEGIN:VCALENDAR\r\n") || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("enveloped feed: %v %+v %s", err, enveloped, res.Header.Get("Content-Type"))
	}
}

// RFC 5545 wants at least one component in a VCALENDAR and strict parsers
// refuse one without: an empty feed describes the site's zone.
func TestAnEmptyFeedStillHasAComponent(t *testing.T) {
	t.Parallel()
	for _, zone := range []string{"Europe/Paris", "UTC"} {
		t.Run(zone, func(t *testing.T) {
			loc, err := time.LoadLocation(zone)
			if err != nil {
				t.Fatal(err)
			}
			s := startServiceSettings(t, func(set *app.Settings) { set.TimeZone = loc }, noConfig)
			cal := parseFeed(t, s.do("GET", feedPath+"?"+window))
			if len(cal.Events()) != 0 || len(cal.Children) != 1 || cal.Children[0].Name != ical.CompTimezone ||
				text(t, cal.Children[0], "TZID") != zone || len(cal.Children[0].Children) == 0 {
				t.Fatalf("components: %+v", cal.Children)
			}
			var out bytes.Buffer
			if err := ical.NewEncoder(&out).Encode(cal); err != nil { // the encoder refuses a calendar without components
				t.Fatalf("a strict writer refuses the feed: %v", err)
			}
		})
	}
}

func TestTheFeedAndTheSiteIndexAreNamedAfterTheSite(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"": "127.0.0.1", "Jazz in Lyon": "Jazz in Lyon"} {
		s := startServiceSettings(t, func(set *app.Settings) { set.SiteName = name }, noConfig)
		if got := text(t, parseFeed(t, s.do("GET", feedPath)).Component, "X-WR-CALNAME"); got != want {
			t.Errorf("site name %q: X-WR-CALNAME %q, want %q", name, got, want)
		}
		if got := s.do("GET", "/wp-json/").object(t)["name"]; got != want { // the same name in the site index
			t.Errorf("site name %q: the site index's name %v, want %q", name, got, want)
		}
	}
}
