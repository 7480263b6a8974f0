package app

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"calendar/app/calendar"
)

// stuckIndex answers a search only once released, as a search expanding a
// giant word over a dictionary would: it ignores its context.
type stuckIndex struct {
	calendar.Index
	release chan struct{}
}

func (s stuckIndex) SearchPosts(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	if len(q.Words) > 0 {
		<-s.release
	}
	return calendar.PostPage{Total: 1}, nil
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
		_, err := b.SearchPosts(ctx, calendar.PostQuery{Words: []string{"giant"}})
		var e *calendar.Error
		if !errors.As(err, &e) || e.Code != "search_timeout" || e.Kind != calendar.KindUnavailable || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a stuck search answered %v", err)
		}
	}
	// The stuck searches never return: an answer at all, with the budget's
	// deadline as its cause, is the budget at work.
	if _, err := b.SearchPosts(ctx, calendar.PostQuery{Words: []string{"more"}}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("with every slot taken: %v", err)
	}
	if page, err := b.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent}); err != nil || page.Total != 1 {
		t.Fatalf("a search of filters alone: %v %v", page, err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.SearchPosts(canceled, calendar.PostQuery{Type: calendar.PostTypeEvent}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a request that went away: %v", err)
	}
}
