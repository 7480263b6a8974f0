package app_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
	"calendar/repository/bolt"
)

// countingIndex is the real index, counting the searches that reach it.
type countingIndex struct {
	*index.Live
	searches int
}

func (c *countingIndex) SearchPosts(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	c.searches++
	return c.Live.SearchPosts(ctx, q)
}

// openStoreAndIndex opens the embedded store and the index in a temporary
// directory, closed when the test ends.
func openStoreAndIndex(t testing.TB) (*bolt.Store, *index.Live) {
	t.Helper()
	dir := t.TempDir()
	store, err := bolt.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close(context.Background()) })
	idx, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return store, idx
}

func TestListsAreAnsweredFromTheCacheUntilTheIndexChanges(t *testing.T) {
	ctx := context.Background()
	store, idx := openStoreAndIndex(t)
	counting := &countingIndex{Live: idx}
	a := app.New(store, counting, app.Settings{SiteURL: "http://x"})
	if _, err := a.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		t.Fatal(err)
	}
	user, err := a.Users.Authenticate(ctx, "", "admin", "a long enough password")
	admin := app.Caller{User: user}
	if err != nil {
		t.Fatal(err)
	}
	list := func() int {
		page, err := a.Venues.List(ctx, app.Caller{}, app.LinkedFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return page.Total
	}
	if first, second := list(), list(); first != 0 || second != 0 || counting.searches != 1 {
		t.Fatalf("two identical lists reached the index %d times, want 1", counting.searches)
	}
	if _, err := a.Venues.Create(ctx, admin, app.LinkedInput{PostFields: app.PostFields{Title: ptr("New")}}); err != nil {
		t.Fatal(err)
	}
	before := counting.searches
	if got := list(); got != 1 {
		t.Fatalf("after a write the list shows %d venues, want 1", got)
	}
	if counting.searches == before {
		t.Fatal("the list after a write was answered from the cache")
	}
}

// gatedIndex is the real index; its searches count themselves and wait for
// the gate to open.
type gatedIndex struct {
	*index.Live
	searches atomic.Int32
	gate     chan struct{}
}

func (g *gatedIndex) SearchPosts(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	g.searches.Add(1)
	<-g.gate
	return g.Live.SearchPosts(ctx, q)
}

func TestAListAskedForByManyAtOnceIsSearchedOnce(t *testing.T) {
	ctx := context.Background()
	store, idx := openStoreAndIndex(t)
	gated := &gatedIndex{Live: idx, gate: make(chan struct{})}
	a := app.New(store, gated, app.Settings{SiteURL: "http://x"})
	var askers sync.WaitGroup
	ask := func() {
		defer askers.Done()
		if _, err := a.Venues.List(ctx, app.Caller{}, app.LinkedFilter{}); err != nil {
			t.Error(err)
		}
	}
	askers.Add(1)
	go ask()
	for gated.searches.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	for i := 0; i < 9; i++ {
		askers.Add(1)
		go ask()
	}
	time.Sleep(100 * time.Millisecond) // the nine are waiting, for the first search or at the gate
	close(gated.gate)
	askers.Wait()
	if n := gated.searches.Load(); n != 1 {
		t.Fatalf("ten lists asked for at once reached the index %d times, want 1", n)
	}
}
