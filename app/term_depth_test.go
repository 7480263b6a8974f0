package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
)

// termCountingIndex counts the term searches a request makes.
type termCountingIndex struct {
	*index.Live
	termSearches int
}

func (c *termCountingIndex) SearchTerms(ctx context.Context, q calendar.TermQuery) ([]int64, error) {
	c.termSearches++
	return c.Live.SearchTerms(ctx, q)
}

func TestACategoryTreeIsBoundedInDepthAndSoIsEveryWalkOfIt(t *testing.T) {
	store, idx := openStoreAndIndex(t)
	counting := &termCountingIndex{Live: idx}
	ctx := context.Background()
	a := app.New(store, counting, app.Settings{SiteURL: "http://x", ResultCacheSize: -1})
	if _, err := a.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		t.Fatal(err)
	}
	user, err := a.Users.Authenticate(ctx, "", "admin", "a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	admin := app.Caller{User: user, Root: "http://x/vendor/events/v1/"}
	var parent int64
	for depth := 0; depth <= app.MaxCategoryDepth; depth++ {
		in := app.TermInput{Name: ptr(fmt.Sprint("level ", depth))}
		if depth > 0 {
			in.Parent = &parent
		}
		c, err := a.Categories.Create(ctx, admin, in)
		if err != nil {
			t.Fatalf("level %d: %v", depth, err)
		}
		parent = c.ID
	}
	_, err = a.Categories.Create(ctx, admin, app.TermInput{Name: ptr("one too deep"), Parent: &parent})
	if err == nil || !strings.Contains(err.Error(), "parent") {
		t.Fatalf("a category %d levels deep: %v", app.MaxCategoryDepth+1, err)
	}

	// A thousand-deep chain an old store holds: a filter on its top walks
	// down MaxCategoryDepth levels, one search each.
	top := &calendar.Term{Taxonomy: calendar.TaxonomyCategory, Name: "top", Slug: "top"}
	if err := store.Terms().Insert(ctx, top); err != nil {
		t.Fatal(err)
	}
	for i, up := 0, top.ID; i < 1000; i++ {
		c := &calendar.Term{Taxonomy: calendar.TaxonomyCategory, Name: fmt.Sprint("deep ", i), Slug: fmt.Sprint("deep-", i), Parent: up}
		if err := store.Terms().Insert(ctx, c); err != nil {
			t.Fatal(err)
		}
		up = c.ID
	}
	if _, err := a.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	counting.termSearches = 0
	if _, err := a.Events.List(ctx, app.Caller{}, app.EventFilter{Categories: &[]string{"top"}}); err != nil {
		t.Fatal(err)
	}
	if counting.termSearches > app.MaxCategoryDepth+5 {
		t.Fatalf("a visitor's filter on the top of a deep chain made %d term searches, want at most about %d",
			counting.termSearches, app.MaxCategoryDepth)
	}
}
