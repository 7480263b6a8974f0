package index

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"calendar/app/calendar"
)

// TestBitmapsAnswerAsBleveSorts: counts, facets and pages by start read from
// the segments' bitmaps (bitmaps.go, startpage.go, facets.go) are bleve's own
// answers to the same queries, sorted by bleve, over an index of many segments in which
// posts were deleted and moved: every filter the service builds, the read
// rule of an author, words (run by bleve's searcher), a tolerant search's
// typos and prefixes, and posts without a
// start, which bleve sorts last.
func TestBitmapsAnswerAsBleveSorts(t *testing.T) {
	idx := unmergedIndex(t)
	ctx := context.Background()
	rng := rand.New(rand.NewSource(28))
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	words := []string{"jazz", "opera", "market", "festival", "lecture"}
	statuses := []string{calendar.StatusPublish, calendar.StatusDraft, calendar.StatusPrivate, calendar.StatusPending}
	post := func(id int64) *calendar.Post {
		p := &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Status: statuses[rng.Intn(len(statuses))],
			Author: 1 + rng.Int63n(3), Title: words[rng.Intn(len(words))] + " night", Date: base.Add(-time.Duration(rng.Intn(5)) * time.Hour),
			Categories: []int64{1 + rng.Int63n(6)}, Tags: []int64{10 + rng.Int63n(4)}, Venue: 100 + rng.Int63n(5), Featured: rng.Intn(4) == 0}
		switch rng.Intn(4) {
		case 0: // a crowded instant
			p.Start = base.Add(time.Duration(rng.Intn(3)) * 24 * time.Hour)
		case 1: // within a day, to the second
			p.Start = base.Add(time.Duration(rng.Intn(86400)) * time.Second)
		default: // over two years
			p.Start = base.Add(time.Duration(rng.Int63n(int64(2 * 365 * 24 * time.Hour))))
		}
		p.End = p.Start.Add(time.Duration(rng.Intn(96)) * time.Hour)
		if id%97 == 0 { // a venue: no start at all
			p.Type, p.Start, p.End = calendar.PostTypeVenue, time.Time{}, time.Time{}
		}
		return p
	}
	const n = 3000
	for batch := int64(0); batch < n/200; batch++ { // one segment per batch
		var posts []*calendar.Post
		for id := batch*200 + 1; id <= (batch+1)*200; id++ {
			posts = append(posts, post(id))
		}
		if err := idx.PutPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		if err := idx.persist(closeWait); err != nil { // on disk alone: the persister merges what it finds together
			t.Fatal(err)
		}
	}
	for k := 0; k < 12; k++ { // deleted, and moved: the segments hold their old versions as deleted
		moved := []*calendar.Post{}
		for range 5 {
			moved = append(moved, post(1+rng.Int63n(n)))
		}
		if err := idx.PutPosts(ctx, moved); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if err := idx.DeletePost(ctx, 1+rng.Int63n(n)); err != nil {
				t.Fatal(err)
			}
		}
	}

	segs := segmentCount(t, idx)
	t.Logf("%d segments", segs)
	if segs < 8 {

		t.Fatalf("the index has %d segments: the test needs many", segs)
	}

	bound := func() *calendar.Bound {
		if rng.Intn(3) == 0 {
			return nil
		}
		return &calendar.Bound{T: base.Add(time.Duration(rng.Int63n(int64(400*24*time.Hour))) - 30*24*time.Hour), Inclusive: rng.Intn(2) == 0}
	}
	ids := func(from int64, k int) []int64 {
		var out []int64
		for range k {
			out = append(out, from+rng.Int63n(6))
		}
		return out
	}
	for c := 0; c < 90; c++ {
		q := calendar.PostQuery{Type: calendar.PostTypeEvent, Order: calendar.OrderStart, StartAfter: bound(), StartBefore: bound(), EndAfter: bound()}
		if rng.Intn(8) == 0 {
			q.Type = "" // venues too: they have no start
		}
		if rng.Intn(4) == 0 {
			q.EndBefore = bound()
		}
		switch rng.Intn(3) {
		case 0:
			q.Statuses = []string{calendar.StatusPublish}
		case 1:
			q.Statuses, q.Reader = statuses, calendar.ReadRule{Author: 1 + rng.Int63n(3)}
		default:
			q.Reader = calendar.ReadRule{All: true}
		}
		if rng.Intn(3) == 0 {
			q.Categories = ids(1, 1+rng.Intn(2))
		}
		if rng.Intn(4) == 0 {
			q.Venues = ids(100, 1)
		}
		if rng.Intn(5) == 0 {
			f := rng.Intn(2) == 0
			q.Featured = &f
		}
		if rng.Intn(5) == 0 {
			q.Words = []string{words[rng.Intn(len(words))][1:4]}
			if c%2 == 0 { // and a search's relevance words: a typo, a prefix (their terms listed, then ORed)
				q.Tolerant = []string{"festivall", "opra", "lectur", "jaz", "markte"}[c%5]
			}
		}
		if rng.Intn(6) == 0 {
			q.ExcludeIDs = ids(1, 40)
		}
		if rng.Intn(10) == 0 {
			q.IDs = ids(1+rng.Int63n(n), 30)
		}
		if rng.Intn(3) == 0 {
			q.Facets = calendar.FacetNames[rng.Intn(len(calendar.FacetNames)):]
		}
		lastPage := c%9 == 0 // of every type, unbounded: the venues come last
		if lastPage {
			q.Type, q.StartAfter, q.StartBefore, q.EndAfter, q.EndBefore = "", nil, nil, nil, nil
		}
		want, err := idx.searchQuery(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		total := int(want.Total)
		q.Limit = []int{0, 1, 10, 50}[rng.Intn(4)]
		q.Offset = rng.Intn(total + 2)
		if rng.Intn(3) == 0 {
			q.Offset = rng.Intn(12)
		}
		if lastPage {
			q.Offset, q.Limit = max(total-5, 0), 10
		}
		t.Run(fmt.Sprintf("%d %+v", c, q), func(t *testing.T) {
			want, err := idx.searchQuery(ctx, q, nil)
			if err != nil {
				t.Fatal(err)
			}
			page, err := idx.searchBitmaps(ctx, q, nil)
			if err != nil {
				t.Fatal(err)
			}
			expected, err := pageOf(want, q.Facets)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total != expected.Total || !slices.Equal(page.IDs, expected.IDs) {
				t.Fatalf("total %d, IDs %v; bleve: total %d, IDs %v", page.Total, page.IDs, expected.Total, expected.IDs)
			}
			if !reflect.DeepEqual(page.Facets, expected.Facets) {
				t.Fatalf("facets %v; bleve's: %v", page.Facets, expected.Facets)
			}
			links := []calendar.Link{calendar.LinkTerms, calendar.LinkVenue}
			if c%3 != 0 {
				links = nil // a third is enough: the counts are the facets' code
			}
			for _, link := range links {
				counts, err := idx.CountLinks(ctx, link, q)
				if err != nil {
					t.Fatal(err)
				}
				if want := facetCounts(t, idx, link, q); !maps.Equal(counts, want) {
					t.Fatalf("link %v: counts %v; bleve's facets: %v", link, counts, want)
				}
			}
		})
	}
}

// unmergedIndex is an index whose segments bleve never merges on disk (no
// floor: a tier of small segments is within its budget), so that every batch
// written to disk alone stays a segment of its own.
func unmergedIndex(t *testing.T) *Index {
	t.Helper()
	idx := newUnmergedIndex(t)
	t.Cleanup(func() { _ = idx.Close() })
	return idx
}

// newUnmergedIndex is unmergedIndex, for the test to close.
func newUnmergedIndex(t *testing.T) *Index {
	t.Helper()
	config := scorchConfig()
	config["scorchMergePlanOptions"] = map[string]any{"MaxSegmentsPerTier": 1 << 20, "SegmentsPerMergeTask": 1 << 20, "FloorSegmentSize": 1, "FloorSegmentFileSize": 1}
	path := filepath.Join(t.TempDir(), "index")
	b, err := bleve.NewUsing(path, newMapping(nil), bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, config)
	if err != nil {
		t.Fatal(err)
	}
	return watched(b, path, nil, MappingVersion)
}

func segmentCount(t *testing.T, idx *Index) int {
	s, release, err := idx.openSegments(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	return len(s.segs)
}

// facetCounts is CountLinks as bleve's facets count it.
func facetCounts(t *testing.T, idx *Index, link calendar.Link, among calendar.PostQuery) map[int64]int {
	among.Type = calendar.PostTypeEvent
	req := bleve.NewSearchRequestOptions(idx.filter(among, nil), 0, 0, false)
	for _, field := range linkFields[link] {
		req.AddFacet(field, bleve.NewFacetRequest(field, maxLinkFacet))
	}
	res, err := idx.bleve.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int64]int{}
	for _, field := range linkFields[link] {
		for _, f := range res.Facets[field].Terms.Terms() {
			id, err := strconv.ParseInt(f.Term, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			counts[id] += f.Count
		}
	}
	return counts
}

// A search from bitmaps whose budget has run out stops with its context's
// error rather than answering.
func TestBitmapSearchesStopWhenTheirContextEnds(t *testing.T) {
	idx := filled(t, unmergedIndex(t), 3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	q := calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: []string{calendar.StatusPublish}, Words: []string{"e"},
		Order: calendar.OrderStart, StartAfter: &calendar.Bound{T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}, Limit: 10}
	if page, err := idx.searchBitmaps(ctx, q, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("answered %v, %v", page, err)
	}
	if _, err := idx.CountLinks(ctx, calendar.LinkTerms, q); !errors.Is(err, context.Canceled) {
		t.Fatalf("counted links: %v", err)
	}
}
