package indextest

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"calendar/app/calendar"
)

// runOncePerSeries: a list that shows each series once keeps, of each
// series' matches, the first by start (within the window and what the
// reader may read), whatever the list's order; its totals, pages and facets
// count the series once. A series' own list holds it and its occurrences. The world is its own, written in two batches, so
// that one series' events lie in two segments of an index that has them.
func runOncePerSeries(t *testing.T, b Backend) {
	t.Parallel()
	const (
		weekly, w2, w3, w4       int64 = 100, 101, 102, 103 // a weekly series from 1 May: 8, 15, 22 May
		single                   int64 = 200                // 10 May
		hiddenFirst, h2, h3      int64 = 300, 301, 302      // a series whose first (3 May) is its author's draft: 12, 19 May
		beforeWindow             int64 = 400                // a single event of 2 May
		catWeekly, catSingle, c3 int64 = 1, 2, 3
	)
	event := func(id int64, start string, parent int64, status string, author int64, categories ...int64) *calendar.Post {
		return &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Title: fmt.Sprint("event ", id), Status: status, Author: author,
			Start: at(start), End: at(start).Add(time.Hour), Date: at("01-01 10:00").Add(time.Duration(id) * time.Minute),
			Modified: at("01-01 10:00"), Parent: parent, Categories: categories}
	}
	series := func(e *calendar.Post) *calendar.Post { e.Recurrence = []string{"RRULE:FREQ=WEEKLY"}; return e }
	pub := calendar.StatusPublish
	first := []*calendar.Post{
		series(event(weekly, "05-01 10:00", 0, pub, 1, catWeekly)),
		event(w3, "05-15 10:00", weekly, pub, 1, catWeekly), event(w4, "05-22 10:00", weekly, pub, 1, catWeekly),
		event(single, "05-10 10:00", 0, pub, 1, catSingle), event(beforeWindow, "05-02 10:00", 0, pub, 1),
		series(event(hiddenFirst, "05-03 10:00", 0, calendar.StatusDraft, 7, catWeekly)),
	}
	// The weekly series' first in the window is in the second batch.
	second := []*calendar.Post{event(w2, "05-08 10:00", weekly, pub, 1, c3),
		event(h2, "05-12 10:00", hiddenFirst, pub, 7, catWeekly), event(h3, "05-19 10:00", hiddenFirst, pub, 7, catWeekly)}
	idx := b.Open(t)
	put(t, idx, first, nil)
	put(t, idx, second, nil)

	visitor := func(q calendar.PostQuery) calendar.PostQuery {
		q.Type, q.OncePerSeries = calendar.PostTypeEvent, true
		if q.Order == calendar.OrderNewest {
			q.Order = calendar.OrderStart
		}
		return q
	}
	window := bound("05-05 00:00", true)
	runPostCases(t, idx, []postCase{
		{"each series as its first, among single events", visitor(calendar.PostQuery{}), []int64{weekly, beforeWindow, single, h2}, -1},
		{"within a window, each series as its first in it", visitor(calendar.PostQuery{StartAfter: window}), []int64{w2, single, h2}, -1},
		{"a page of them: the total counts each series once", visitor(calendar.PostQuery{StartAfter: window, Offset: 1, Limit: 1}), []int64{single}, 3},
		{"the count alone", visitor(calendar.PostQuery{StartAfter: window}), nil, 3},
		{"by publication date, as bleve sorts", visitor(calendar.PostQuery{StartAfter: window, Order: calendar.OrderPublished}), []int64{w2, single, h2}, -1},
		{"a window on the end only", visitor(calendar.PostQuery{EndAfter: bound("05-14 00:00", true)}), []int64{w3, h3}, -1},
		{"the author reads the draft: it is its series' first", visitor(calendar.PostQuery{Reader: calendar.ReadRule{Author: 7}}),
			[]int64{weekly, beforeWindow, hiddenFirst, single}, -1},
		{"every occurrence without it", calendar.PostQuery{Type: calendar.PostTypeEvent, Order: calendar.OrderStart, StartAfter: window},
			[]int64{w2, single, h2, w3, h3, w4}, -1},
		{"the events of one series: itself and its occurrences", calendar.PostQuery{Type: calendar.PostTypeEvent, Order: calendar.OrderStart, Series: ptr(weekly)},
			[]int64{weekly, w2, w3, w4}, -1},
		{"of a series, those the reader reads", calendar.PostQuery{Type: calendar.PostTypeEvent, Order: calendar.OrderStart, Series: ptr(hiddenFirst)},
			[]int64{h2, h3}, -1},
	})
	t.Run("facets count each series once", func(t *testing.T) {
		page, err := idx.SearchPosts(context.Background(), visitor(calendar.PostQuery{StartAfter: window, Limit: 1, Facets: []string{calendar.FacetCategories}}))
		if err != nil {
			t.Fatal(err)
		}
		// The weekly series shows as its 8 May occurrence (category 3,
		// edited on its own), yet counts under category 1 too, which its
		// later ones hold: ticking 1 lists it (as 15 May) with the other.
		want := []calendar.FacetCount{{Value: "1", Count: 2}, {Value: "2", Count: 1}, {Value: "3", Count: 1}}
		if fmt.Sprint(page.Facets[calendar.FacetCategories]) != fmt.Sprint(want) || page.Total != 3 {
			t.Fatalf("categories %v of %d, want %v of 3", page.Facets[calendar.FacetCategories], page.Total, want)
		}
	})
	t.Run("a facet's count is the total of the list filtered on its value", func(t *testing.T) {
		for _, order := range []calendar.PostOrder{calendar.OrderStart, calendar.OrderPublished} {
			q := visitor(calendar.PostQuery{StartAfter: window, Order: order, Limit: 10, Facets: []string{calendar.FacetCategories}})
			page, err := idx.SearchPosts(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range page.Facets[calendar.FacetCategories] {
				on := q
				on.Facets, on.Categories = nil, []int64{mustID(t, c.Value)}
				filtered, err := idx.SearchPosts(context.Background(), on)
				if err != nil {
					t.Fatal(err)
				}
				if filtered.Total != c.Count {
					t.Fatalf("by order %d: category %s counts %d, the list filtered on it %d", order, c.Value, c.Count, filtered.Total)
				}
			}
		}
	})
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
