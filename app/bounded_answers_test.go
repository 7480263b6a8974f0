package app_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"

	"calendar/app"
	"calendar/app/calendar"
)

// What a list or a feed costs is bounded whatever it is asked: searches of
// many words or giant ones, searches past their time budget, feeds past
// their bytes.

func TestHostileSearchesAreBounded(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.event("Word", "2030-06-01", app.EventInput{PostFields: app.PostFields{Description: ptr("supercalifragilistic" + strings.Repeat("x", 60000))}})
	var letters []string // a hundred one-letter words: 199 bytes
	for i := range 100 {
		letters = append(letters, string(rune('a'+i%26)))
	}
	hundred := strings.Join(letters, " ")
	june := month("2030-06")
	for _, f := range []app.EventFilter{{Search: &hundred}, {Search: ptr("supercalifragilistic")}, {Search: &hundred, OrderBy: "relevance"}} {
		f.Dates = june
		_, err := w.app.Events.List(w.ctx, visitor, f)
		w.must(err)
	}
	if got := w.titles(visitor, app.EventFilter{Dates: june, Search: ptr("supercalifragilisticxxx")}); got != "Word" {
		t.Fatalf("a giant word is not found by its beginning: %q", got)
	}
}

// Every list that searches the index answers search_timeout past the
// budget, and says when to come back (app/budget.go).
func TestAnIndexSearchOverItsBudgetIsAnErrorAnswer(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *app.Settings) { s.SearchBudget = time.Nanosecond; s.ResultCacheSize = -1 })
	for name, err := range map[string]error{
		"events": get(w.app.Events.List(w.ctx, visitor, app.EventFilter{Search: ptr("anything")})),
		"venues": get(w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{})),
	} {
		if e := calendar.AsError(err); e == nil || e.Kind != calendar.KindUnavailable || e.Code != "search_timeout" || e.RetryAfter <= 0 {
			t.Errorf("%s past the budget: %v", name, err)
		}
	}
}

func TestTheFeedIsBoundedInBytes(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *app.Settings) { s.FeedMaxBytes = 20000 })
	for i := range 6 {
		w.event(fmt.Sprint("Long ", i), fmt.Sprintf("2030-06-%02d", i+1), app.EventInput{PostFields: app.PostFields{Description: ptr(strings.Repeat("words and words ", 500))}})
	}
	feed, err := w.app.Events.Feed(w.ctx, visitor, app.EventFilter{Dates: month("2030-06")})
	w.must(err)
	cal, err := ical.NewDecoder(bytes.NewReader(feed.Body)).Decode()
	if err != nil {
		t.Fatalf("the feed cut at its bound does not parse: %v", err)
	}
	if n := len(cal.Events()); len(feed.Body) > 20000 || n == 0 || n == 6 || feed.Total != 6 {
		t.Fatalf("%d bytes, %d events, total %d", len(feed.Body), n, feed.Total)
	}
}
