package bolt

import (
	"context"
	"testing"

	"go.etcd.io/bbolt"

	"calendar/app/calendar"
)

// A walk over a whole bucket (a count, a rebuild's scan) drops the pages it
// read from the mapping as it goes, several times over a large store: what
// it reads and counts is the same for it.
func TestAWalkOverAWholeBucketCountsAndScansEveryDocument(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	ctx := context.Background()
	const n = forgetEvery*2 + 100 // pages dropped twice during the count
	err = s.db.Update(func(tx *bbolt.Tx) error {
		for id := int64(1); id <= n; id++ {
			if err := s.posts.put(tx, &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Slug: "e"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if count, err := s.Posts().Count(ctx); err != nil || count != n {
		t.Fatalf("count %d, %v; want %d", count, err, n)
	}
	seen, after := int64(0), int64(0)
	for {
		posts, err := s.Posts().Scan(ctx, after, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(posts) == 0 {
			break
		}
		for _, p := range posts {
			if seen++; p.ID != seen {
				t.Fatalf("scan read post %d where %d was due", p.ID, seen)
			}
		}
		after = posts[len(posts)-1].ID
	}
	if seen != n {
		t.Fatalf("scanned %d of %d", seen, n)
	}
}
