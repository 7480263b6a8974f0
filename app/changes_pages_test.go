package app_test

import (
	"fmt"
	"testing"

	"calendar/app"
)

// The change feed in pages: each page goes on from the last one's LastSeq
// while More, every item once, and says where the store stands.
func TestTheChangeFeedPagesFromSinceAndSaysWhereTheStoreStands(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	_, start, _ := w.feed(w.admin(), 0)
	var want []string
	for i := range 5 {
		tag, err := w.app.Tags.Create(w.ctx, w.admin(), app.TermInput{Name: ptr(fmt.Sprint("t", i))})
		w.must(err)
		want = append(want, fmt.Sprintf("tag/%d created", tag.ID))
	}
	var seen []string
	since := start
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatalf("more than 5 pages: %v", seen)
		}
		page, err := w.app.Changes(w.ctx, visitor, app.ChangesRequest{Since: since, PerPage: ptr(int64(2))})
		w.must(err)
		if page.PerPage != 2 || page.StoreSeq < page.LastSeq || len(page.Changes) > 2 {
			t.Fatalf("a page: %+v", page)
		}
		for _, c := range page.Changes {
			seen = append(seen, fmt.Sprintf("%s/%d %s", c.Type, c.ID, c.Action))
		}
		if !page.More {
			break
		}
		since = page.LastSeq
	}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Fatalf("the paged feed %v, want the five tags once each %v", seen, want)
	}
}
