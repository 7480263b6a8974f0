package index

import (
	"context"
	"testing"

	"calendar/app/calendar"
)

// BenchmarkCountLinks counts term links over 3,000 published events.
func BenchmarkCountLinks(b *testing.B) {
	idx, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	ctx := context.Background()
	var posts []*calendar.Post
	for i := int64(1); i <= 3000; i++ {
		posts = append(posts, &calendar.Post{ID: i, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Categories: []int64{i%30 + 1}, Tags: []int64{i%100 + 100}})
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := idx.CountLinks(ctx, calendar.LinkTerms, calendar.PostQuery{Statuses: []string{calendar.StatusPublish}}); err != nil {
			b.Fatal(err)
		}
	}
}
