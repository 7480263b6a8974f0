package index

import (
	"context"
	"slices"
	"testing"
	"time"

	"calendar/app/calendar"
)

// TestPostOrdersBreakTiesAsThePluginDoes: events by start, then publication
// date, then ID; other lists by publication date then ID, newest first or
// oldest first; instants before 1970 sort before later ones.
func TestPostOrdersBreakTiesAsThePluginDoes(t *testing.T) {
	idx, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	ctx := context.Background()
	at := func(s string) time.Time {
		v, err := time.Parse(time.DateTime, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	event := func(id int64, start, date string) *calendar.Post {
		return &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Start: at(start), End: at(start).Add(time.Hour), Date: at(date)}
	}
	posts := []*calendar.Post{
		event(5, "2027-01-01 10:00:00", "2026-01-02 00:00:00"),
		event(3, "2027-01-01 10:00:00", "2026-01-01 00:00:00"),
		event(4, "2027-01-01 10:00:00", "2026-01-01 00:00:00"),
		event(2, "1969-07-20 20:17:00", "2026-03-01 00:00:00"),
		event(1, "2027-01-01 09:59:59", "2026-05-01 00:00:00"),
		event(10, "2027-01-01 10:00:01", "1960-01-01 00:00:00"),
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		order calendar.PostOrder
		want  []int64
	}{
		{calendar.OrderStart, []int64{2, 1, 3, 4, 5, 10}},
		{calendar.OrderPublished, []int64{10, 3, 4, 5, 2, 1}},
		{calendar.OrderNewest, []int64{1, 2, 5, 4, 3, 10}},
	} {
		page, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, Order: c.order, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(page.IDs, c.want) {
			t.Errorf("order %d: %v, want %v", c.order, page.IDs, c.want)
		}
	}
}
