package index

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"calendar/app/calendar"
)

// seriesWorld is a world of series whose events a test rewrites batch by
// batch (each batch a segment of an index that does not merge on its own),
// and which knows of each event its series, to say what a list showing each
// series once must answer.
type seriesWorld struct {
	idx   *Index
	posts map[int64]*calendar.Post
}

var seriesBase = time.Date(2030, 5, 1, 10, 0, 0, 0, time.UTC)

func seriesDay(n int) time.Time { return seriesBase.AddDate(0, 0, n) }

// event is a published event of author 1 on day (from seriesBase), of a
// series when series is not 0 (itself when series is its ID).
func seriesEvent(id, series int64, day int, categories ...int64) *calendar.Post {
	p := &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Title: fmt.Sprint("event ", id), Status: calendar.StatusPublish, Author: 1,
		Start: seriesDay(day), End: seriesDay(day).Add(time.Hour), Date: seriesBase.Add(time.Duration(id) * time.Minute), Modified: seriesBase,
		Categories: categories}
	switch {
	case series == id:
		p.Recurrence = []string{"RRULE:FREQ=WEEKLY"}
	case series != 0:
		p.Parent = series
	}
	return p
}

func (w *seriesWorld) put(t *testing.T, posts ...*calendar.Post) {
	t.Helper()
	if err := w.idx.PutPosts(context.Background(), posts); err != nil {
		t.Fatal(err)
	}
	for _, p := range posts {
		w.posts[p.ID] = p
	}
}

func (w *seriesWorld) delete(t *testing.T, ids ...int64) {
	t.Helper()
	for _, id := range ids {
		if err := w.idx.DeletePost(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		delete(w.posts, id)
	}
}

// edit rewrites one event as a write of its own does.
func (w *seriesWorld) edit(t *testing.T, id int64, change func(p *calendar.Post)) {
	t.Helper()
	p := *w.posts[id]
	change(&p)
	w.put(t, &p)
}

func (w *seriesWorld) seriesOf(id int64) int64 {
	if p := w.posts[id]; p.Parent != 0 {
		return p.Parent
	}
	return id
}

// expect checks that each query, showing each series once, answers what
// the same query showing every event answers with, of each series, only its
// first (in start order), and that each facet value counts what the list
// filtered on it totals.
func (w *seriesWorld) expect(t *testing.T, step string, queries map[string]calendar.PostQuery) {
	t.Helper()
	ctx := context.Background()
	for name, q := range queries {
		q.Type, q.Limit = calendar.PostTypeEvent, 1000
		every := q
		every.Order = calendar.OrderStart
		all, err := w.idx.SearchPosts(ctx, every)
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		seen := map[int64]bool{}
		for _, id := range all.IDs {
			if s := w.seriesOf(id); !seen[s] {
				seen[s] = true
				want = append(want, id)
			}
		}
		once := q
		once.OncePerSeries, once.Facets = true, []string{calendar.FacetCategories}
		got, err := w.idx.SearchPosts(ctx, once)
		if err != nil {
			t.Fatal(err)
		}
		if q.Order != calendar.OrderStart { // bleve's order: the same events
			slices.Sort(want)
			got.IDs = slices.Sorted(slices.Values(got.IDs))
		}
		if !slices.Equal(got.IDs, want) || got.Total != len(want) {
			t.Fatalf("%s, %s: %v (total %d), want %v", step, name, got.IDs, got.Total, want)
		}
		for _, c := range got.Facets[calendar.FacetCategories] {
			on := once
			on.Facets, on.Limit = nil, 0
			category, err := strconv.ParseInt(c.Value, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			on.Categories = []int64{category}
			filtered, err := w.idx.SearchPosts(ctx, on)
			if err != nil {
				t.Fatal(err)
			}
			if filtered.Total != c.Count {
				t.Fatalf("%s, %s: category %d counts %d, the list filtered on it totals %d", step, name, category, c.Count, filtered.Total)
			}
		}
	}
}

// TestEachSeriesOnceFollowsItsEventsThroughWrites: the segments' tables of
// events of series (seriestable.go) answer as the events stand after each
// kind of write a series sees, each in a segment of its own, and after the
// segments merge: an occurrence edited into another category or moved
// before its series' first, trashed, made its author's draft; the series
// extended by housekeeping; a series deleted.
func TestEachSeriesOnceFollowsItsEventsThroughWrites(t *testing.T) {
	t.Parallel()
	const weekly, daily, single, otherCategory int64 = 100, 200, 300, 9
	w := &seriesWorld{idx: unmergedIndex(t), posts: map[int64]*calendar.Post{}}
	var first []*calendar.Post
	for n := range 10 { // weekly from day 0: 100 (the series), 101..109
		first = append(first, seriesEvent(weekly+int64(n), weekly, 7*n, 1))
	}
	for n := range 10 { // daily from day 3: 200, 201..209
		first = append(first, seriesEvent(daily+int64(n), daily, 3+n, 2))
	}
	first = append(first, seriesEvent(single, 0, 5, 1), seriesEvent(single+1, 0, 40, 2))
	w.put(t, first...)
	queries := map[string]calendar.PostQuery{
		"every event":             {Order: calendar.OrderStart},
		"from day 8":              {Order: calendar.OrderStart, StartAfter: &calendar.Bound{T: seriesDay(8)}},
		"days 20 to 50":           {Order: calendar.OrderStart, StartAfter: &calendar.Bound{T: seriesDay(20)}, StartBefore: &calendar.Bound{T: seriesDay(50)}},
		"the author of drafts":    {Order: calendar.OrderStart, Reader: calendar.ReadRule{Author: 7}, StartAfter: &calendar.Bound{T: seriesDay(8)}},
		"in the other category":   {Order: calendar.OrderStart, Categories: []int64{otherCategory}},
		"by publication, day 8 +": {Order: calendar.OrderPublished, StartAfter: &calendar.Bound{T: seriesDay(8)}},
	}
	w.expect(t, "as written", queries)

	w.edit(t, weekly+2, func(p *calendar.Post) { p.Categories = []int64{otherCategory} }) // day 14
	w.expect(t, "an occurrence edited into another category", queries)
	w.edit(t, daily+5, func(p *calendar.Post) { p.Start, p.End = seriesDay(1), seriesDay(1).Add(time.Hour) })
	w.expect(t, "an occurrence moved before its series' first", queries)
	w.edit(t, weekly+3, func(p *calendar.Post) { p.Status = calendar.StatusTrash }) // day 21
	w.expect(t, "an occurrence trashed", queries)
	w.edit(t, weekly+4, func(p *calendar.Post) { p.Status, p.Author = calendar.StatusDraft, 7 }) // day 28
	w.expect(t, "an occurrence made its author's draft", queries)
	var extension []*calendar.Post
	for n := 10; n < 16; n++ { // days 70 to 105
		extension = append(extension, seriesEvent(weekly+int64(n), weekly, 7*n, 1))
	}
	w.put(t, extension...)
	queries["from day 66"] = calendar.PostQuery{Order: calendar.OrderStart, StartAfter: &calendar.Bound{T: seriesDay(66)}}
	w.expect(t, "the series extended", queries)
	var dailies []int64
	for n := range 10 {
		dailies = append(dailies, daily+int64(n))
	}
	w.delete(t, dailies...)
	w.expect(t, "a series deleted", queries)

	segs := segmentCount(t, w.idx)
	w.idx.compactInBackground()
	// Not a bound on time: a busy machine merges later, not never.
	for deadline := time.Now().Add(2 * time.Minute); segmentCount(t, w.idx) >= segs; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still %d segments two minutes after the merge was asked for", segs)
		}
	}
	w.expect(t, "the segments merged", queries)
	w.idx.series.mu.Lock()
	kept := len(w.idx.series.bySeg)
	w.idx.series.mu.Unlock()
	if now := segmentCount(t, w.idx); kept > now {
		t.Fatalf("%d tables kept for %d segments: the merged segments' are not dropped", kept, now)
	}
}
