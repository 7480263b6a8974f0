package index

import (
	"cmp"
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"

	"calendar/app/calendar"
)

// TestListsByStartAreThePagesOfTheWholeOrder: a list by start is found by
// walking the start buckets (index/startpage.go); every page, at every
// offset, must still be the page of all the matches sorted by start,
// publication date and ID, whether the matches crowd at one instant, thin out
// over years, or lie far from the lower bound.
func TestListsByStartAreThePagesOfTheWholeOrder(t *testing.T) {
	idx, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	ctx := context.Background()
	rng := rand.New(rand.NewSource(7))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var posts []*calendar.Post
	add := func(start time.Time, status string, category int64) {
		id := int64(len(posts) + 1)
		posts = append(posts, &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Status: status, Title: "e",
			Start: start, End: start.Add(time.Duration(rng.Intn(72)) * time.Hour),
			Date: base.Add(-time.Duration(rng.Intn(3)) * time.Hour), Categories: []int64{category}})
	}
	for i := 0; i < 400; i++ { // one crowded instant: ties broken by date, then ID
		add(base.Add(48*time.Hour), calendar.StatusPublish, 1+int64(i%2))
	}
	for i := 0; i < 1500; i++ { // a year, evenly
		status := calendar.StatusPublish
		if i%7 == 0 {
			status = calendar.StatusDraft
		}
		add(base.Add(time.Duration(rng.Int63n(int64(365*24*time.Hour)))), status, 1+int64(i%3))
	}
	for i := 0; i < 30; i++ { // a thin tail, years later
		add(base.AddDate(3+i/10, 0, rng.Intn(300)), calendar.StatusPublish, 3)
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}

	bound := func(t time.Time, inclusive bool) *calendar.Bound { return &calendar.Bound{T: t, Inclusive: inclusive} }
	queries := []struct {
		name string
		q    calendar.PostQuery
	}{
		{"from the first start", calendar.PostQuery{StartAfter: bound(base, true)}},
		{"from the crowded instant, exclusive", calendar.PostQuery{StartAfter: bound(base.Add(48*time.Hour), false)}},
		{"from the crowded instant, inclusive", calendar.PostQuery{StartAfter: bound(base.Add(48*time.Hour), true)}},
		{"a window bounded by the end", calendar.PostQuery{StartAfter: bound(base.AddDate(0, 2, 0), true), EndBefore: bound(base.AddDate(0, 4, 0), true)}},
		{"a window bounded by the start", calendar.PostQuery{StartAfter: bound(base.AddDate(0, 6, 0), true), StartBefore: bound(base.AddDate(0, 6, 10), false)}},
		{"far before every match", calendar.PostQuery{StartAfter: bound(base.AddDate(-20, 0, 0), true)}},
		{"only the tail", calendar.PostQuery{StartAfter: bound(base.AddDate(1, 1, 0), true)}},
		{"one category, drafts too", calendar.PostQuery{StartAfter: bound(base, true), Categories: []int64{3},
			Statuses: []string{calendar.StatusPublish, calendar.StatusDraft}, Reader: calendar.ReadRule{All: true}}},
	}
	for _, c := range queries {
		q := c.q
		q.Type, q.Order = calendar.PostTypeEvent, calendar.OrderStart
		if q.Statuses == nil {
			q.Statuses = []string{calendar.StatusPublish}
		}
		want := sortedMatches(posts, q)
		for _, limit := range []int{1, 10, 50} {
			for _, offset := range []int{0, 10, 399, 401, 1000, len(want) - 5, len(want)} {
				if offset < 0 {
					continue
				}
				t.Run(fmt.Sprintf("%s/offset %d limit %d", c.name, offset, limit), func(t *testing.T) {
					q.Offset, q.Limit = offset, limit
					page, err := idx.SearchPosts(ctx, q)
					if err != nil {
						t.Fatal(err)
					}
					end := min(offset+limit, len(want))
					expected := []int64{}
					if offset < end {
						expected = want[offset:end]
					}
					if page.Total != len(want) || !slices.Equal(page.IDs, expected) {
						t.Fatalf("total %d, IDs %v; want total %d, IDs %v", page.Total, page.IDs, len(want), expected)
					}
				})
			}
		}
	}
}

// sortedMatches is the list computed the slow way: every post q selects,
// sorted by start, publication date and ID.
func sortedMatches(posts []*calendar.Post, q calendar.PostQuery) []int64 {
	after := func(t time.Time, b *calendar.Bound) bool {
		return b == nil || t.After(b.T) || (b.Inclusive && t.Equal(b.T))
	}
	before := func(t time.Time, b *calendar.Bound) bool {
		return b == nil || t.Before(b.T) || (b.Inclusive && t.Equal(b.T))
	}
	var matches []*calendar.Post
	for _, p := range posts {
		if slices.Contains(q.Statuses, p.Status) && after(p.Start, q.StartAfter) && before(p.Start, q.StartBefore) &&
			after(p.End, q.EndAfter) && before(p.End, q.EndBefore) &&
			(q.Categories == nil || slices.ContainsFunc(p.Categories, func(c int64) bool { return slices.Contains(q.Categories, c) })) {
			matches = append(matches, p)
		}
	}
	slices.SortFunc(matches, func(a, b *calendar.Post) int {
		return cmp.Or(a.Start.Compare(b.Start), a.Date.Compare(b.Date), cmp.Compare(a.ID, b.ID))
	})
	ids := []int64{}
	for _, p := range matches {
		ids = append(ids, p.ID)
	}
	return ids
}
