package index

import (
	"context"
	"slices"
	"testing"
	"time"

	"calendar/app/calendar"
)

// filled fills an index whose segments bleve does not merge on its own in
// batches of one segment each, on disk.
func filled(t *testing.T, idx *Index, batches int) *Index {
	t.Helper()
	ctx := context.Background()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for b := 0; b < batches; b++ {
		var posts []*calendar.Post
		for n := 0; n < 100; n++ {
			id := int64(b*100 + n + 1)
			start := base.Add(time.Duration(id*7919%5000) * time.Hour)
			posts = append(posts, &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "e",
				Start: start, End: start.Add(time.Hour), Date: base, Categories: []int64{1 + id%3}})
		}
		if err := idx.PutPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		if err := idx.persist(closeWait); err != nil {
			t.Fatal(err)
		}
	}
	return idx
}

// TestCompactionMergesTheSegmentsAFillLeft: asked once it is live, the
// index merges its segments in the background (scorch merges ten at a time,
// in one pass: 12 become 2), and answers the same meanwhile and after.
func TestCompactionMergesTheSegmentsAFillLeft(t *testing.T) {
	idx := filled(t, unmergedIndex(t), 12)
	ctx := context.Background()
	left := segmentCount(t, idx)
	if left < 8 {
		t.Fatalf("the fill left %d segments: the test needs many", left)
	}
	q := calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: []string{calendar.StatusPublish}, Categories: []int64{2},
		Order: calendar.OrderStart, StartAfter: &calendar.Bound{T: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}, Offset: 40, Limit: 10}
	before, err := idx.SearchPosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	idx.compactInBackground()
	// Not a bound on time: a busy machine merges later, not never.
	for deadline := time.Now().Add(2 * time.Minute); segmentCount(t, idx) > left/2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still %d segments of %d two minutes after the merge was asked for", segmentCount(t, idx), left)
		}
		if page, err := idx.SearchPosts(ctx, q); err != nil || page.Total != before.Total || !slices.Equal(page.IDs, before.IDs) {
			t.Fatalf("during the merge: %v %v, want %v", page, err, before)
		}
	}
	after, err := idx.SearchPosts(ctx, q)
	if err != nil || after.Total != before.Total || !slices.Equal(after.IDs, before.IDs) {
		t.Fatalf("after the merge: %v %v, want %v", after, err, before)
	}
}

// Closing the index stops a merge under way, and waits for it.
func TestClosingTheIndexStopsItsCompaction(t *testing.T) {
	idx := filled(t, newUnmergedIndex(t), 12)
	idx.compactInBackground()
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan struct{})
	go func() { idx.stopCompacting(); close(stopped) }() // returns at once: the merge has ended
	<-stopped
}
