package app

import (
	"context"
	"errors"
	"fmt"
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
		if !errors.As(err, &e) || e.Code != "search_timeout" || e.Kind != calendar.KindUnavailable || !errors.Is(err, context.DeadlineExceeded) || e.RetryAfter <= 0 {
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

// heldIndex holds each search of a word until that word is released, and
// tells which word started.
type heldIndex struct {
	calendar.Index
	started chan string
	release map[string]chan struct{}
}

func (h heldIndex) SearchPosts(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	h.started <- q.Words[0]
	<-h.release[q.Words[0]]
	return calendar.PostPage{}, nil
}

// TestSearchSlotsGoFirstToWhoSearchedLeast: anonymous callers share all the
// slots but one, so a signed-in caller's search starts while an anonymous
// flood holds theirs; a freed slot goes to the visitor who has not searched
// lately, ahead of the searches an address that searches without pause
// queued before. An IPv6 client is counted by its /64, as every bound on
// addresses counts it: sending each search from another address of its
// network does not make it a searcher who has not searched.
func TestSearchSlotsGoFirstToWhoSearchedLeast(t *testing.T) {
	for _, flooder := range []struct {
		name string
		from func(search int) string
	}{
		{"from one address", func(int) string { return "192.0.2.1" }},
		{"from a new address of one IPv6 /64 each time", func(search int) string { return fmt.Sprintf("2001:db8:1:2::%x", search+1) }},
	} {
		t.Run(flooder.name, func(t *testing.T) { searchSlotsGoFirstToWhoSearchedLeast(t, flooder.from) })
	}
}

func searchSlotsGoFirstToWhoSearchedLeast(t *testing.T, flooderAt func(search int) string) {
	held := heldIndex{Index: stuckIndex{}, started: make(chan string), release: map[string]chan struct{}{}}
	for _, w := range []string{"a", "b", "c", "d", "visitor", "editor"} {
		held.release[w] = make(chan struct{})
	}
	b := newBudgetedIndexOf(held, time.Minute, 2)
	ctx := context.Background()
	flooder := func(search int) context.Context { return searchingAs(ctx, Caller{Client: flooderAt(search)}) }
	searched := make(chan string, 6)
	search := func(ctx context.Context, word string) {
		go func() {
			if _, err := b.SearchPosts(ctx, calendar.PostQuery{Words: []string{word}}); err != nil {
				t.Error(err)
			}
			searched <- word
		}()
	}
	waiting := func(n int) {
		for hang := time.Now().Add(time.Minute); ; runtime.Gosched() {
			b.gate.mu.Lock()
			k := len(b.gate.waiting)
			b.gate.mu.Unlock()
			if k == n {
				return
			}
			if time.Now().After(hang) {
				t.Fatalf("%d searches wait, not %d", k, n)
			}
		}
	}
	search(flooder(0), "a")
	<-held.started
	close(held.release["a"])
	<-searched // the flooder has searched
	for i, w := range []string{"b", "c", "d"} {
		search(flooder(1+i), w)
	}
	first := <-held.started
	waiting(2)                                                             // the anonymous share is one slot
	search(searchingAs(ctx, Caller{Client: "2001:db8:1:3::7"}), "visitor") // the next /64
	waiting(3)
	search(searchingAs(ctx, Caller{User: &calendar.User{ID: 5}}), "editor")
	if got := <-held.started; got != "editor" {
		t.Fatalf("the signed-in caller's search waited; %q started", got)
	}
	close(held.release[first])
	if got := <-held.started; got != "visitor" {
		t.Fatalf("after the flooder's %q, %q started before the visitor's", first, got)
	}
	close(held.release["visitor"])
	close(held.release["editor"])
	for _, w := range []string{"b", "c", "d"} {
		if w != first {
			close(held.release[w])
		}
	}
	for range 2 {
		<-held.started
	}
	for range 5 {
		<-searched
	}
}
