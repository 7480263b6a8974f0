package controllers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

// The rules of modified_after are tested in app (changes_test.go); here, that
// the filter goes into the next page's link.
func TestModifiedAfterGoesIntoTheLinks(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for _, name := range []string{"a", "b"} {
		s.create("venue", asAdmin(), "venue", name)
	}
	v := "2000-01-01 00:00:00"
	m := s.do("GET", "/vendor/events/v1/venues?per_page=1&modified_after="+url.QueryEscape(v), asAdmin()).object(t)
	next, _ := m["next_rest_url"].(string)
	u, err := url.Parse(next)
	if err != nil || u.Query().Get("modified_after") != v || u.Query().Get("page") != "2" {
		t.Fatalf("next_rest_url = %q", next)
	}
	s.do("GET", "/vendor/events/v1/venues?modified_after=not-a-date").expectError(t, http.StatusBadRequest, "rest_invalid_param")
}

// feed reads one page of the change feed.
func feed(t *testing.T, s *service, since int64, opts ...option) (entries []map[string]any, last int64, more bool) {
	t.Helper()
	res := s.do("GET", "/vendor/events/v1/changes?per_page=1000&since="+strconv.FormatInt(since, 10), opts...)
	res.expectStatus(t, http.StatusOK)
	m := res.object(t)
	for _, e := range m["changes"].([]any) {
		entries = append(entries, e.(map[string]any))
	}
	return entries, int64(m["last_seq"].(float64)), m["more"].(bool)
}

// The rules of the change feed are tested in app (changes_test.go); here,
// its answer's header.
func TestTheChangeFeedSaysWhereTheStoreStands(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.create("venue", asAdmin(), "venue", "Hall")
	_, mid, _ := feed(t, s, 0, asAdmin())
	res := s.do("GET", "/vendor/events/v1/changes?since="+strconv.FormatInt(mid, 10))
	if last, err := strconv.ParseInt(res.Header.Get("X-Calendar-Last-Seq"), 10, 64); err != nil || last < mid {
		t.Fatalf("X-Calendar-Last-Seq %q, the feed's last_seq %d", res.Header.Get("X-Calendar-Last-Seq"), mid)
	}
}

func TestTheChangeFeedPagesWithSinceAndRefusesBadParameters(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for i := 0; i < 5; i++ {
		s.do("POST", "/vendor/events/v1/tags", asAdmin(), jsonBody(map[string]any{"name": fmt.Sprintf("t%d", i)})).expectStatus(t, http.StatusCreated)
	}
	var seen []string
	next := "/vendor/events/v1/changes?per_page=2"
	for pages := 0; next != ""; pages++ {
		if pages > 5 {
			t.Fatalf("more than 5 pages: %v", seen)
		}
		m := s.do("GET", next).object(t)
		for _, e := range m["changes"].([]any) {
			seen = append(seen, fmt.Sprint(e.(map[string]any)["id"]))
		}
		next = ""
		if m["more"].(bool) {
			u, err := url.Parse(m["next_rest_url"].(string))
			if err != nil || u.Query().Get("since") != fmt.Sprint(m["last_seq"]) {
				t.Fatalf("next_rest_url %v does not continue from last_seq %v", m["next_rest_url"], m["last_seq"])
			}
			next = u.RequestURI()
		}
	}
	if fmt.Sprint(seen) != "[1 2 3 4 5]" {
		t.Fatalf("paged feed = %v, want the five tags once each", seen)
	}
	for _, q := range []string{"since=-1", "since=abc", "since=1.5", "per_page=0", "per_page=1001", "per_page=x"} {
		t.Run(q, func(t *testing.T) {
			s.do("GET", "/vendor/events/v1/changes?"+q).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
}
