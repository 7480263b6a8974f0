package app_test

import (
	"context"
	"testing"

	"calendar/app"
	"calendar/index"
	"calendar/repository"
)

// countingIndex is the real index, counting the searches that reach it.
type countingIndex struct {
	*index.Index
	searches int
}

func (c *countingIndex) SearchPosts(ctx context.Context, q app.PostQuery) (app.PostPage, error) {
	c.searches++
	return c.Index.SearchPosts(ctx, q)
}

func TestListsAreAnsweredFromTheCacheUntilTheIndexChanges(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := repository.OpenBolt(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(ctx)
	idx, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	counting := &countingIndex{Index: idx}
	a := app.New(store, counting, app.Settings{SiteURL: "http://x"})
	if _, err := a.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		t.Fatal(err)
	}
	admin, err := a.Users.Authenticate(ctx, "admin", "a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	list := func() int {
		page, err := a.Venues.List(ctx, nil, app.Values{})
		if err != nil {
			t.Fatal(err)
		}
		return page.Total
	}
	if list() != 0 || list() != 0 || counting.searches != 1 {
		t.Fatalf("two identical lists reached the index %d times, want 1", counting.searches)
	}
	if _, err := a.Venues.Create(ctx, admin, app.Values{"venue": "New"}); err != nil {
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
