package controllers_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestShownEventsShowWhatTheyEmbedAsItIsNow: rendered events are kept for
// the next time they are shown (app/viewcache.go); an event shown alone and
// in a list must still show its venue, organizer and categories as they are
// after every change to them, the counts of its categories too, and the
// rendering of one caller (with the password, in French) must not reach
// another.
func TestShownEventsShowWhatTheyEmbedAsItIsNow(t *testing.T) {
	t.Parallel()
	s := startService(t)
	hall := s.create("venue", asAdmin(), "venue", "Hall")
	ann := s.create("organizer", asAdmin(), "organizer", "Ann")
	e := s.event(map[string]any{"title": "Concert", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00",
		"venue": hall["id"], "organizer": []any{ann["id"]}, "categories": "Jazz"})
	listPath := eventsPath + "?start_date=2029-12-01&end_date=2030-01-31"
	shown := func() (alone, listed string) {
		t.Helper()
		describe := func(ev map[string]any) string {
			venue, _ := ev["venue"].(map[string]any)
			organizers, _ := ev["organizer"].([]any)
			categories, _ := ev["categories"].([]any)
			if len(organizers) != 1 || len(categories) != 1 || venue == nil {
				return fmt.Sprintf("venue %v, organizers %v, categories %v", ev["venue"], organizers, categories)
			}
			c := categories[0].(map[string]any)
			return fmt.Sprintf("%s by %s, %s (%v)", venue["venue"], organizers[0].(map[string]any)["organizer"], c["name"], c["count"])
		}
		list := s.do("GET", listPath).object(t)["events"].([]any)
		if len(list) != 1 {
			t.Fatalf("the list holds %d events", len(list))
		}
		return describe(s.do("GET", eventsPath+"/"+idOf(e)).object(t)), describe(list[0].(map[string]any))
	}
	expect := func(step, want string) {
		t.Helper()
		for i := 0; i < 2; i++ { // the second time from what the first kept
			if alone, listed := shown(); alone != want || listed != want {
				t.Fatalf("%s: shown alone as %q and in the list as %q, want %q", step, alone, listed, want)
			}
		}
	}
	expect("as created", "Hall by Ann, Jazz (1)")

	s.do("POST", "/vendor/events/v1/venues/"+idOf(hall), asAdmin(), jsonBody(map[string]any{"venue": "Great Hall"})).expectStatus(t, 200)
	expect("venue renamed", "Great Hall by Ann, Jazz (1)")
	s.do("POST", "/vendor/events/v1/organizers/"+idOf(ann), asAdmin(), jsonBody(map[string]any{"organizer": "Anna"})).expectStatus(t, 200)
	expect("organizer renamed", "Great Hall by Anna, Jazz (1)")
	jazz := s.do("GET", "/vendor/events/v1/categories?search=Jazz").object(t)["categories"].([]any)[0].(map[string]any)
	s.do("POST", "/vendor/events/v1/categories/"+idOf(jazz), asAdmin(), jsonBody(map[string]any{"name": "Free jazz"})).expectStatus(t, 200)
	expect("category renamed", "Great Hall by Anna, Free jazz (1)")
	s.event(map[string]any{"title": "Later", "start_date": "2031-06-01 10:00", "end_date": "2031-06-01 11:00", "categories": []any{jazz["id"]}})
	expect("another event in the category", "Great Hall by Anna, Free jazz (2)")

	protected := s.event(map[string]any{"title": "Secret", "start_date": "2030-02-01 10:00", "end_date": "2030-02-01 11:00",
		"password": "sesame", "description": "hidden words"})
	secretPath := eventsPath + "/" + idOf(protected)
	secretListed := func(query string) string {
		for _, item := range s.do("GET", eventsPath+"?start_date=2030-01-15&end_date=2030-02-15"+query).object(t)["events"].([]any) {
			return item.(map[string]any)["description"].(string)
		}
		return "not listed"
	}
	for i, step := range []struct{ query, want string }{{"&password=sesame", "<p>hidden words</p>"}, {"", ""}, {"&password=sesame", "<p>hidden words</p>"}} {
		if got := secretListed(step.query); got != step.want {
			t.Fatalf("list %d (%q): the protected event's description is %q, want %q", i, step.query, got, step.want)
		}
	}
	s.do("GET", secretPath+"?password=sesame").expectStatus(t, 200)
	s.do("GET", secretPath).expectError(t, 403, "event-password-protected")

	for _, prefix := range []string{"", "/fr", ""} {
		rest := s.do("GET", prefix+eventsPath+"/"+idOf(e)).object(t)["rest_url"].(string)
		if want := prefix + eventsPath + "/" + idOf(e); !strings.HasSuffix(rest, want) {
			t.Fatalf("asked under %q: rest_url %q, want it to end with %q", prefix, rest, want)
		}
	}
}

// TestJSONLDIsWrittenLikeTheRestOfTheAnswer: json_ld is encoded when the
// event is rendered, not with the answer; it must still come out as the rest
// does, keys sorted as a map's, nothing HTML-escaped.
func TestJSONLDIsWrittenLikeTheRestOfTheAnswer(t *testing.T) {
	t.Parallel()
	s := startService(t)
	hall := s.create("venue", asAdmin(), "venue", "Rock & Roll <Hall>", "city", "Lyon")
	e := s.event(map[string]any{"title": "Fish & Chips <live>", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00",
		"venue": hall["id"], "cost": "5"})
	res := s.do("GET", eventsPath+"/"+idOf(e))
	res.expectStatus(t, 200)
	body := string(res.Body)
	for _, want := range []string{`"json_ld":{"@context":"http://schema.org","@type":"Event","description":"","endDate":`,
		`"location":{"@type":"Place","address":{"@type":"PostalAddress","addressLocality":"Lyon"},"name":"Rock & Roll <Hall>",`,
		`"name":"Fish & Chips <live>","offers":{"@type":"Offer",`} {
		if !strings.Contains(body, want) {
			t.Fatalf("the answer lacks %s:\n%s", want, body)
		}
	}
}
