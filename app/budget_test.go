package app

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

// stuckIndex answers a search only once released, as a search expanding a
// giant word over a dictionary would: it ignores its context.
type stuckIndex struct {
	Index
	release chan struct{}
}

func (s stuckIndex) SearchPosts(ctx context.Context, q PostQuery) (PostPage, error) {
	if len(q.Words) > 0 {
		<-s.release
	}
	return PostPage{Total: 1}, nil
}

// TestSearchesAreAnsweredWithinTheirBudget: a search that does not end is
// answered at its budget with search_timeout; text searches stuck in every
// slot make the next text search wait for a slot only as long as its budget,
// while searches of filters alone still answer at once.
func TestSearchesAreAnsweredWithinTheirBudget(t *testing.T) {
	stuck := stuckIndex{release: make(chan struct{})}
	defer close(stuck.release)
	b := newBudgetedIndex(stuck, 50*time.Millisecond)
	ctx := context.Background()
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		start := time.Now()
		_, err := b.SearchPosts(ctx, PostQuery{Words: []string{"giant"}})
		var e *Error
		if !errors.As(err, &e) || e.Code != "search_timeout" || e.Kind != KindUnavailable || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a stuck search answered %v", err)
		}
		if took := time.Since(start); took > time.Second {
			t.Fatalf("answered after %v", took)
		}
	}
	start := time.Now()
	if _, err := b.SearchPosts(ctx, PostQuery{Words: []string{"more"}}); err == nil || time.Since(start) > time.Second {
		t.Fatalf("with every slot taken: %v after %v", err, time.Since(start))
	}
	if page, err := b.SearchPosts(ctx, PostQuery{Type: PostTypeEvent}); err != nil || page.Total != 1 {
		t.Fatalf("a search of filters alone: %v %v", page, err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.SearchPosts(canceled, PostQuery{Type: PostTypeEvent}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a request that went away: %v", err)
	}
}
