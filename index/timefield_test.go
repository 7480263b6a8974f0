package index

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"

	"calendar/app/calendar"
)

// TestCoverTilesARangeWithWholeBuckets: the pieces of a range follow each
// other from its first second to its last, every bucket piece starts and ends
// on its level's boundaries, exact pieces stay within one hour, and there are
// at most two pieces per level and two exact ones.
func TestCoverTilesARangeWithWholeBuckets(t *testing.T) {
	at := func(y int, m time.Month, d, h, min, s int) int64 {
		return time.Date(y, m, d, h, min, s, 0, time.UTC).Unix()
	}
	cases := []struct {
		name   string
		lo, hi int64
	}{
		{"empty", at(2026, 5, 1, 10, 0, 0), at(2026, 5, 1, 10, 0, 0)},
		{"reversed", at(2026, 5, 1, 10, 0, 0), at(2026, 5, 1, 9, 0, 0)},
		{"one second", at(2026, 5, 1, 10, 0, 0), at(2026, 5, 1, 10, 0, 1)},
		{"within an hour", at(2026, 5, 1, 10, 5, 0), at(2026, 5, 1, 10, 55, 0)},
		{"one whole hour", at(2026, 5, 1, 10, 0, 0), at(2026, 5, 1, 11, 0, 0)},
		{"across midnight", at(2026, 5, 1, 23, 30, 0), at(2026, 5, 2, 0, 30, 0)},
		{"a leap day", at(2024, 2, 29, 0, 0, 0), at(2024, 3, 1, 0, 0, 0)},
		{"sixty days from mid-afternoon", at(2026, 11, 23, 15, 4, 5), at(2027, 1, 22, 15, 4, 5)},
		{"across the epoch", at(1969, 12, 31, 23, 59, 59), at(1970, 1, 1, 0, 0, 1)},
		{"years before the epoch", at(1901, 3, 4, 5, 6, 7), at(1968, 8, 9, 10, 11, 12)},
		{"everything", minSecond, maxSecond + 1},
		{"everything before", minSecond, at(2026, 11, 23, 15, 4, 5)},
		{"everything after", at(2026, 11, 23, 15, 4, 5), maxSecond + 1},
	}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 2000; i++ {
		lo := at(1960, 1, 1, 0, 0, 0) + rng.Int63n(100*365*86400)
		width := []int64{60, 3600, 86400, 31 * 86400, 400 * 86400, 30 * 365 * 86400}[i%6]
		cases = append(cases, struct {
			name   string
			lo, hi int64
		}{fmt.Sprintf("random %d", i), lo, lo + rng.Int63n(width)})
	}
	hour := levels[len(levels)-1]
	for _, c := range cases {
		pieces := cover(c.lo, c.hi)
		next, perLevel := c.lo, map[int]int{}
		for _, p := range pieces {
			if p.from != next || p.to <= p.from {
				t.Fatalf("%s: pieces %v do not follow each other from %d", c.name, pieces, c.lo)
			}
			next = p.to
			perLevel[p.level]++
			if p.level < 0 {
				if hour.floor(p.from) != hour.floor(p.to-1) {
					t.Errorf("%s: exact piece %v spans more than an hour", c.name, p)
				}
				continue
			}
			if l := levels[p.level]; !l.aligned(p.from) || !l.aligned(p.to) {
				t.Errorf("%s: piece %v is not whole buckets of level %d", c.name, p, p.level)
			}
		}
		if c.hi > c.lo && next != c.hi {
			t.Errorf("%s: pieces %v end at %d, not %d", c.name, pieces, next, c.hi)
		}
		for l, n := range perLevel {
			if n > 2 {
				t.Errorf("%s: %d pieces of level %d in %v", c.name, n, l, pieces)
			}
		}
	}
}

// TestTimeRangesSelectWhatTheirBoundsAllow: every start, end and
// modification range, bounded on one side or both, inclusive or not, selects
// exactly the events whose instant it allows, whether the bounds and the
// instants fall on bucket boundaries, a second off them, or anywhere.
func TestTimeRangesSelectWhatTheirBoundsAllow(t *testing.T) {
	idx := openIndex(t, t.TempDir())
	defer idx.Close()
	ctx := context.Background()
	rng := rand.New(rand.NewSource(11))
	edges := []time.Time{
		time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), time.Date(2025, 12, 31, 23, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
	}
	first, last := edges[len(edges)-2], edges[len(edges)-1] // out of these years, instants are indexed as the nearest in them
	instant := func() time.Time {
		if rng.Intn(3) == 0 {
			at := edges[rng.Intn(len(edges))].Add(time.Duration(rng.Intn(3)-1) * time.Second)
			return within(at, first, last)
		}
		return time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.Int63n(int64(8 * 365 * 24 * time.Hour)))).Truncate(time.Second)
	}
	var posts []*calendar.Post
	for id := int64(1); id <= 600; id++ {
		start := instant()
		end := start.Add(time.Duration(rng.Intn(4)) * time.Duration(rng.Int63n(int64(40*24*time.Hour)))).Truncate(time.Second)
		end = within(end, first, last)
		posts = append(posts, &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "e",
			Start: start, End: end, Date: start, Modified: instant()})
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}

	bound := func() *calendar.Bound {
		if rng.Intn(5) == 0 {
			return nil
		}
		var at time.Time
		switch rng.Intn(3) {
		case 0: // on an indexed instant, or a second off it
			p := posts[rng.Intn(len(posts))]
			at = []time.Time{p.Start, p.End, p.Modified}[rng.Intn(3)].Add(time.Duration(rng.Intn(3)-1) * time.Second)
		case 1: // on a bucket boundary
			at = instant().Truncate([]time.Duration{time.Hour, 24 * time.Hour}[rng.Intn(2)])
			if rng.Intn(2) == 0 {
				at = time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, time.UTC)
			}
		default:
			at = instant()
		}
		return &calendar.Bound{T: at, Inclusive: rng.Intn(2) == 0}
	}
	allows := func(at time.Time, after, before *calendar.Bound) bool {
		return (after == nil || at.After(after.T) || after.Inclusive && at.Equal(after.T)) &&
			(before == nil || at.Before(before.T) || before.Inclusive && at.Equal(before.T))
	}
	for i := 0; i < 600; i++ {
		q := calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: []string{calendar.StatusPublish}, Order: calendar.OrderPublished, Limit: len(posts)}
		var instantOf func(*calendar.Post) time.Time
		var after, before *calendar.Bound
		switch i % 3 {
		case 0:
			after, before = bound(), bound()
			q.StartAfter, q.StartBefore = after, before
			instantOf = func(p *calendar.Post) time.Time { return p.Start }
		case 1:
			after, before = bound(), bound()
			q.EndAfter, q.EndBefore = after, before
			instantOf = func(p *calendar.Post) time.Time { return p.End }
		default:
			after = bound()
			q.ModifiedAfter = after
			instantOf = func(p *calendar.Post) time.Time { return p.Modified }
		}
		want := []int64{}
		for _, p := range posts {
			if allows(instantOf(p), after, before) {
				want = append(want, p.ID)
			}
		}
		page, err := idx.SearchPosts(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got := slices.Sorted(slices.Values(page.IDs))
		if !slices.Equal(got, want) || page.Total != len(want) {
			t.Fatalf("query %d (after %+v, before %+v): %d matches %v, want %d %v", i, after, before, page.Total, got, len(want), want)
		}
	}
}

func within(t, first, last time.Time) time.Time {
	switch {
	case t.Before(first):
		return first
	case t.After(last):
		return last
	}
	return t
}
