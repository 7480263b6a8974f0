// Package indextest is the contract of calendar.Index: the executable
// specification the bleve index passes (index runs it), and a second
// implementation would have to. It is written from the port and the query
// types (app/calendar/ports.go, queries.go, visibility.go, position.go):
// what lists select, count, order and page; the read rule; near a point, in
// a box, by distance and a map's cells; facets and link counts; terms;
// highlights; a list showing each series once; and what writes, deletes and the checkpoint leave. How an
// implementation answers (bitmaps, segments, merges) is its own tests'.
package indextest

import (
	"context"
	"slices"
	"testing"

	"calendar/app/calendar"
)

// Backend is an index under test.
type Backend struct {
	// Open opens an empty index of its own, closed when the test ends.
	Open func(t *testing.T) calendar.Index
	// Reopen closes idx and opens the same index again, as a restart does;
	// nil leaves out the case of what a reopen keeps.
	Reopen func(t *testing.T, idx calendar.Index) calendar.Index
}

// Run is the index contract: every implementation must pass it unchanged.
// The lists are asked of one small world (world.go), indexed once; the
// writes each start from an empty index.
func Run(t *testing.T, b Backend) {
	idx := b.Open(t)
	w := newWorld()
	put(t, idx, w.posts, w.terms)
	t.Run("posts", func(t *testing.T) { runPosts(t, idx, w) })
	t.Run("the read rule", func(t *testing.T) { runReadRule(t, idx, w) })
	t.Run("places", func(t *testing.T) { runPlaces(t, idx) })
	t.Run("facets and link counts", func(t *testing.T) { runCounts(t, idx) })
	t.Run("terms", func(t *testing.T) { runTerms(t, idx) })
	t.Run("highlights", func(t *testing.T) { runHighlights(t, idx) })
	t.Run("writes", func(t *testing.T) { runWrites(t, b) })
	t.Run("once per series", func(t *testing.T) { runOncePerSeries(t, b) })
}

// put indexes posts and terms.
func put(t *testing.T, idx calendar.Index, posts []*calendar.Post, terms []*calendar.Term) {
	t.Helper()
	ctx := context.Background()
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	if err := idx.PutTerms(ctx, terms); err != nil {
		t.Fatal(err)
	}
}

// postCase is a list and what it answers: its page, in order, and its total.
type postCase struct {
	name  string
	q     calendar.PostQuery
	want  []int64
	total int // -1: len(want)
}

func runPostCases(t *testing.T, idx calendar.Index, cases []postCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := c.q
			if q.Limit == 0 && c.total < 0 {
				q.Limit = 100
			}
			page, err := idx.SearchPosts(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			total := c.total
			if total < 0 {
				total = len(c.want)
			}
			if !slices.Equal(page.IDs, c.want) || page.Total != total {
				t.Fatalf("%+v\nanswers %v, total %d\nwant    %v, total %d", c.q, page.IDs, page.Total, c.want, total)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
