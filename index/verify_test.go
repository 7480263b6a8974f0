package index

import (
	"context"
	"testing"

	"calendar/app/calendar"
)

// TestAPostWhoseTextHoldsNoWordIsVerified: a title, a description or a
// venue's phone of punctuation alone leaves its field of words empty, and
// the index entry is still found to be what the post says.
func TestAPostWhoseTextHoldsNoWordIsVerified(t *testing.T) {
	t.Parallel()
	idx := openIndex(t, t.TempDir())
	defer idx.Close()
	ctx := context.Background()
	posts := []*calendar.Post{
		{ID: 1, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish, Title: "Hall", Content: "!!!", Meta: map[string]string{"phone": "—"}},
		{ID: 2, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "!!!"},
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	for _, p := range posts {
		if err := idx.VerifyPost(ctx, p); err != nil {
			t.Error(err)
		}
	}
}
