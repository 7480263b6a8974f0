package controllers_test

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"calendar/app"
)

// What clients written for the plugin read, beyond its own tests.

func TestParametersThePluginNeverRegisteredAreIgnored(t *testing.T) {
	t.Parallel()
	s := startService(t)
	day := time.Now().UTC().AddDate(0, 0, 3)
	for i, title := range []string{"Zebra", "Apple", "Mango"} { // start order differs from title order
		start := day.Add(time.Duration(i) * time.Hour)
		s.event(at(title, start.Format(app.DateFormat), start.Add(time.Hour).Format(app.DateFormat)))
	}
	for _, orderBy := range []string{"", "title", "date", "menu_order", "rand"} {
		if got := titles(t, s.do("GET", eventsPath+"?orderby="+orderBy)); got != "Zebra,Apple,Mango" {
			t.Errorf("events orderby=%q: %s, want the start-date order", orderBy, got)
		}
	}
	for _, name := range []string{"Zeta Hall", "Alpha Hall"} {
		s.create("venue", asAdmin(), "venue", name)
	}
	for _, orderBy := range []string{"", "title", "name"} {
		if got := venueOrder(t, s, orderBy); got != "Alpha Hall,Zeta Hall" {
			t.Errorf("venues orderby=%q: %s, want newest first", orderBy, got)
		}
	}
	// This service's own orders still apply, and still say what they need.
	s.do("GET", eventsPath+"?orderby=relevance&search=mango").expectStatus(t, http.StatusOK)
	s.do("GET", eventsPath+"?orderby=distance").expectError(t, http.StatusBadRequest, "rest_invalid_param")
}

func venueOrder(t *testing.T, s *service, orderBy string) string {
	t.Helper()
	var out []string
	for _, v := range s.do("GET", "/vendor/events/v1/venues?orderby="+orderBy).object(t)["venues"].([]any) {
		out = append(out, v.(map[string]any)["venue"].(string))
	}
	return strings.Join(out, ",")
}

func TestIDZeroIsNotFoundOnEveryResource(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for _, kind := range []string{"events", "venues", "organizers", "categories", "tags"} {
		t.Run(kind, func(t *testing.T) {
			s.do("GET", "/vendor/events/v1/"+kind+"/0").expectStatus(t, http.StatusNotFound)
			s.do("GET", "/vendor/events/v1/"+kind+"/0", asAdmin()).expectStatus(t, http.StatusNotFound)
		})
	}
}

// Go writes header names canonically (X-Tec-Totalpages) unless told not to;
// clients that look headers up case-sensitively, as PHP arrays and several
// JavaScript fetch wrappers do, need the plugin's spelling on the wire.
func TestTotalsHeadersAreSpelledAsThePluginSpellsThem(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.create("venue", asAdmin(), "venue", "Hall")
	for _, path := range []string{eventsPath, "/vendor/events/v1/venues", "/vendor/events/v1/organizers", "/vendor/events/v1/categories", "/vendor/events/v1/tags"} {
		head := rawHeaders(t, s, path)
		for _, name := range []string{"X-TEC-Total", "X-TEC-TotalPages", "X-WP-Total", "X-WP-TotalPages"} {
			if !strings.Contains(head, "\r\n"+name+": ") {
				t.Errorf("%s: no %s header as written; headers:\n%s", path, name, head)
			}
		}
	}
}

// rawHeaders reads a GET answer's header block off the wire, names as sent.
func rawHeaders(t *testing.T, s *service, path string) string {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("GET " + path + " HTTP/1.1\r\nHost: calendar\r\nConnection: close\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	var head strings.Builder
	r := bufio.NewReader(conn)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == "\r\n" {
			return head.String()
		}
		head.WriteString(line)
	}
}

func TestACategoryAndItsChildrenOverHTTP(t *testing.T) {
	t.Parallel()
	s := startService(t)
	music := s.term("categories", "name", "Music")
	jazz := s.term("categories", "name", "Jazz", "parent", idOf(music))
	day := time.Now().UTC().AddDate(0, 0, 2)
	s.event(map[string]any{"title": "Quartet", "start_date": day.Format(app.DateFormat),
		"end_date": day.Add(time.Hour).Format(app.DateFormat), "categories": []any{jazz["id"]}})
	if got := titles(t, s.do("GET", eventsPath+"?categories=music")); got != "Quartet" {
		t.Errorf("categories=music: %q, want the child category's event", got)
	}
	if got := s.do("GET", "/vendor/events/v1/categories/"+idOf(jazz)).object(t)["url"]; got != s.URL+"/events/category/music/jazz/" {
		t.Errorf("child url = %v", got)
	}
}

// The API guide promises that the URLs the service writes keep the language
// segment a request came in with: the public pages too, not only the API's.
func TestItemURLsKeepTheLanguageSegment(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall")
	organizer := s.create("organizer", asAdmin(), "organizer", "Ann")
	music := s.term("categories", "name", "Music")
	jazz := s.term("categories", "name", "Jazz", "parent", idOf(music))
	tag := s.term("tags", "name", "Outdoor")
	day := time.Now().UTC().AddDate(0, 0, 2)
	event := s.event(map[string]any{"title": "Gig", "start_date": day.Format(app.DateFormat), "end_date": day.Add(time.Hour).Format(app.DateFormat),
		"venue": venue["id"], "organizer": organizer["id"], "categories": []any{jazz["id"]}, "tags": []any{tag["id"]}})
	for _, lang := range []string{"", "/fr", "/pt-br"} {
		api := lang + "/vendor/events/v1/"
		home := s.URL + lang
		one := s.do("GET", api+"events/"+idOf(event)).object(t)
		listed := s.do("GET", api+"events").object(t)["events"].([]any)[0].(map[string]any)
		for name, c := range map[string]struct{ got, want any }{
			"event":                {one["url"], home + "/event/gig/"},
			"listed event":         {listed["url"], home + "/event/gig/"},
			"embedded venue":       {one["venue"].(map[string]any)["url"], home + "/venue/hall/"},
			"embedded organizer":   {one["organizer"].([]any)[0].(map[string]any)["url"], home + "/organizer/ann/"},
			"venue":                {s.do("GET", api+"venues/"+idOf(venue)).object(t)["url"], home + "/venue/hall/"},
			"organizer":            {s.do("GET", api+"organizers/"+idOf(organizer)).object(t)["url"], home + "/organizer/ann/"},
			"listed venue":         {s.do("GET", api+"venues").object(t)["venues"].([]any)[0].(map[string]any)["url"], home + "/venue/hall/"},
			"category":             {s.do("GET", api+"categories/"+idOf(jazz)).object(t)["url"], home + "/events/category/music/jazz/"},
			"tag":                  {s.do("GET", api+"tags/"+idOf(tag)).object(t)["url"], home + "/tag/outdoor/"},
			"event's rest_url":     {one["rest_url"], s.URL + api + "events/" + idOf(event)},
			"event's JSON-LD page": {one["json_ld"].(map[string]any)["url"], home + "/event/gig/"},
		} {
			if c.got != c.want {
				t.Errorf("%q %s url = %v, want %v", lang, name, c.got, c.want)
			}
		}
	}
}

func TestAVenueSentAgainCarriesTheSentFieldsOverHTTP(t *testing.T) {
	t.Parallel()
	s := startService(t)
	first := s.create("venue", asAdmin(), "venue", "Hall", "address", "1 Road")
	again := s.do("POST", "/vendor/events/v1/venues", asAdmin(), form("venue", "hall", "address", "2 Avenue", "phone", "555"))
	again.expectStatus(t, http.StatusCreated)
	got := again.object(t)
	stored := s.do("GET", "/vendor/events/v1/venues/"+idOf(first)).object(t)
	if got["id"] != first["id"] || got["address"] != "2 Avenue" || stored["address"] != "2 Avenue" || stored["phone"] != "555" || stored["venue"] != "Hall" {
		t.Fatalf("answer %v\nstored %v", got, stored)
	}
}
