package index

import (
	"context"
	"sync"
	"testing"

	"calendar/app/calendar"
)

// TestConcurrentWritesAllLandAndKeepTheirOrder: writes gathered into shared
// batches each return only once they are searchable, and one writer's put then
// delete of the same post ends deleted, as written one by one.
func TestConcurrentWritesAllLandAndKeepTheirOrder(t *testing.T) {
	idx, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	ctx := context.Background()
	published := []string{calendar.StatusPublish}
	count := func() int {
		page, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeVenue, Statuses: published})
		if err != nil {
			t.Fatal(err)
		}
		return page.Total
	}
	const writers, each = 16, 40
	before := idx.Generation()
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				id := int64(w*each + i + 1)
				if err := idx.PutPosts(ctx, []*calendar.Post{{ID: id, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish}}); err != nil {
					t.Error(err)
					return
				}
				page, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeVenue, Statuses: published, IDs: []int64{id}})
				if err != nil || page.Total != 1 {
					t.Errorf("post %d not searchable after its write returned: %v %v", id, page, err)
				}
				if i%2 == 1 {
					if err := idx.DeletePost(ctx, id); err != nil {
						t.Error(err)
					}
				}
			}
		}(w)
	}
	wg.Wait()
	if got, want := count(), writers*each/2; got != want {
		t.Fatalf("%d posts indexed, want %d", got, want)
	}
	if idx.Generation() == before {
		t.Fatal("the generation did not move")
	}
	gen := idx.Generation()
	if err := idx.SetAppliedSeq(ctx, 42); err != nil {
		t.Fatal(err)
	}
	if seq, _ := idx.AppliedSeq(ctx); seq != 42 || idx.Generation() != gen {
		t.Fatalf("checkpoint %d, generation %d -> %d: a checkpoint must not invalidate answers", seq, gen, idx.Generation())
	}
}
