package controllers_test

import (
	"net/http"
	"strings"
	"testing"
)

// The rules of facets are tested in app (facets_test.go); here, the wrapper
// keys and the shape an answer gives them, and the names refused.
func TestEventFacetsOverHTTP(t *testing.T) {
	t.Parallel()
	s := startService(t)
	hall := s.create("venue", asAdmin(), "venue", "Hall")
	s.event(map[string]any{"title": "jazz night", "start_date": "2030-07-01 10:00", "end_date": "2030-07-01 11:00",
		"venue": hall["id"], "categories": "Music", "featured": true})
	july := "start_date=2030-07-01&end_date=2030-07-31"
	with := s.do("GET", eventsPath+"?"+july+"&facets=featured,venue,categories")
	if got := strings.Join(keyOrder(t, with.Body), " "); got != "events rest_url total total_pages facets" {
		t.Fatalf("wrapper keys: %s", got)
	}
	if raw := string(with.Body); !strings.Contains(raw, `"facets":{"categories":[{"id":1,"slug":"music","name":"Music","count":1}],"venue":[{"id":`+idOf(hall)+`,"count":1}],"featured":[{"value":true,"count":1}]}`) {
		t.Fatalf("facets: %s", raw)
	}
	without := s.do("GET", eventsPath+"?"+july)
	if got := strings.Join(keyOrder(t, without.Body), " "); got != "events rest_url total total_pages" {
		t.Fatalf("wrapper keys without facets: %s", got)
	}
	if raw := string(s.do("GET", eventsPath+"?start_date=2040-01-01&end_date=2040-01-02&facets=tags").Body); !strings.Contains(raw, `"facets":{"tags":[]}`) {
		t.Fatalf("no match: %s", raw)
	}
	for _, bad := range []string{"facets=nope", "facets=categories,nope", "facets=status"} {
		t.Run("rejects "+bad, func(t *testing.T) {
			s.do("GET", eventsPath+"?"+july+"&"+bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
}
