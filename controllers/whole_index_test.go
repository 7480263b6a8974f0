package controllers_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// expectNotNow checks an answer of what needs the index while it is not
// whole: 503 in the error shape with its code, a Retry-After, and nothing a
// cache may keep.
func (r *response) expectNotNow(t *testing.T, what, code string) {
	t.Helper()
	if r.Status != http.StatusServiceUnavailable || !strings.Contains(string(r.Body), `"code":"`+code+`"`) {
		t.Errorf("%s: %d %s, want 503 %s", what, r.Status, r.Body, code)
		return
	}
	r.expectError(t, http.StatusServiceUnavailable, code)
	if seconds, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || seconds < 1 {
		t.Errorf("%s: Retry-After %q", what, r.Header.Get("Retry-After"))
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" || r.Header.Get("ETag") != "" {
		t.Errorf("%s: Cache-Control %q, ETag %q: a cache may keep it", what, cc, r.Header.Get("ETag"))
	}
}

// While the index is filled in place (a first start, an upgrade across a
// mapping this release does not serve, a restore, an index lost), no list,
// search, feed or count answers a 200 a cache keeps: each answers 503 with
// Retry-After and no-store, anonymous or signed in, enveloped too; so do an
// item that shows a count, a visitor's change feed (which hides the terms
// a visitor may not see by their counts) and a write. What the store
// answers alone answers (an item without counts, an administrator's change
// feed). Once the index is whole, all of it answers.
func TestWhileTheIndexIsBuiltInPlaceNothingThatNeedsItAnswersACacheable200(t *testing.T) {
	t.Parallel()
	s := startService(t)
	hall := s.create("venue", asAdmin(), "venue", "Hall", "city", "Lyon")
	s.create("organizer", asAdmin(), "organizer", "Ann")
	fields := at("Gala", "2030-05-01 20:00:00", "2030-05-01 23:00:00")
	fields["venue"], fields["categories"], fields["tags"] = hall["id"], "Music", "Late"
	gala := s.event(fields)
	plain := s.event(at("Plain", "2030-05-02 20:00:00", "2030-05-02 23:00:00"))
	category := gala["categories"].([]any)[0].(map[string]any)

	fill, err := s.app.BeginRebuild("a test")
	if err != nil {
		t.Fatal(err)
	}
	api := "/vendor/events/v1/"
	window := "start_date=2030-05-01&end_date=2030-05-31"
	for _, path := range []string{
		"events", "events?" + window, "events?search=Gala", "events?" + window + "&orderby=relevance&search=gala",
		"events.ics", "events?" + window + "&facets=categories,venue",
		"events?geoloc_lat=45.76&geoloc_lng=4.83", "events?" + window + "&facets=geo_grid", "events?near=Lyon",
		"events?modified_after=2020-01-01", "venues", "venues?only_with_upcoming=true", "organizers",
		"categories", "tags", "categories?hide_empty=false", "media",
		"categories/" + idOf(category), "events/" + idOf(gala),
	} {
		s.do("GET", api+path).expectNotNow(t, path, "index_building")
		s.do("GET", api+path, asAdmin()).expectNotNow(t, path+" as the administrator", "index_building")
	}
	enveloped := s.do("GET", api+"events?_envelope")
	if enveloped.Status != http.StatusOK || !strings.Contains(string(enveloped.Body), `"status":503`) ||
		!strings.Contains(string(enveloped.Body), `"Retry-After"`) || enveloped.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("_envelope: %d %q %s", enveloped.Status, enveloped.Header.Get("Cache-Control"), enveloped.Body)
	}
	s.do("GET", api+"changes").expectNotNow(t, "a visitor's changes", "index_building")
	s.do("POST", api+"venues", asAdmin(), form("venue", "Annex")).expectNotNow(t, "a venue write", "index_building")
	s.do("GET", "/readyz").expectError(t, http.StatusServiceUnavailable, "not_ready")
	for path, cred := range map[string]option{"venues/" + idOf(hall): nil, "events/" + idOf(plain): nil, "changes": asAdmin()} {
		opts := []option{}
		if cred != nil {
			opts = append(opts, cred)
		}
		if res := s.do("GET", api+path, opts...); res.Status != http.StatusOK {
			t.Errorf("%s, which the store answers: %d %s", path, res.Status, res.Body)
		}
	}

	if _, err := fill(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if list := s.do("GET", api+"events?"+window).object(t)["events"].([]any); len(list) != 2 {
		t.Fatalf("once whole, %d events", len(list))
	}
	s.do("GET", api+"categories/"+idOf(category)).expectStatus(t, http.StatusOK)
	s.do("POST", api+"venues", asAdmin(), form("venue", "Annex")).expectStatus(t, http.StatusCreated)
	s.do("GET", "/readyz").expectStatus(t, http.StatusOK)
}
