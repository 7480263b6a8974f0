package index

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// A page in start order is found without sorting the matches: the start
// buckets (years, months, days, hours: timefield.go) are walked in order and
// each is ANDed with the matches to count those in it, so whole buckets
// before the page are passed by their count and only the buckets holding the
// page are opened, down to the exact start keys (start, publication date, ID:
// the order itself, unique per document), which the dictionary returns
// sorted. Sorting read every match's key from a compressed doc value chunk:
// page 5 of a broad list at a million events took 44 ms so.

// exactWalkMax: a bucket of at most this many documents (matching or not) is
// read key by key rather than through its finer buckets.
const exactWalkMax = 256

// startWalk finds the documents at one range of positions of the matches.
type startWalk struct {
	s       *segments
	matches docSet
	skip    int // matches still to pass before the page
	want    int // matches still to take
	left    int // matches neither passed nor taken
	ids     []int64
}

// pageByStart is the IDs of the matches at positions [offset, offset+limit)
// in start order, whose starts lie in [lo, hi) seconds; complete is false when
// some matches have no start in the index (they come last, as bleve sorts a
// missing key), which the walk does not find.
func (s *segments) pageByStart(matches docSet, lo, hi int64, offset, limit int) (ids []int64, complete bool, err error) {
	w := &startWalk{s: s, matches: matches, skip: offset, want: limit, left: matches.count()}
	if err := w.buckets(0, lo, hi); err != nil {
		return nil, false, err
	}
	return w.ids, w.want == 0 || w.left == 0, nil
}

func (w *startWalk) done() bool { return w.want == 0 || w.left == 0 }

// buckets walks the buckets of level l that hold seconds of [lo, hi).
func (w *startWalk) buckets(l int, lo, hi int64) error {
	if lo >= hi {
		return nil
	}
	from, last := levels[l].term(lo), levels[l].term(hi-1)
	dict, err := w.s.snap.FieldDictRange(startTime.buckets, []byte(from), []byte(last))
	if err != nil {
		return err
	}
	defer dict.Close()
	for !w.done() {
		entry, err := dict.Next()
		if err != nil || entry == nil {
			return err
		}
		if err := w.s.ctx.Err(); err != nil {
			return err
		}
		start, err := bucketStart(entry.Term)
		if err != nil {
			return err
		}
		in, err := w.countIn(entry.Term)
		if err != nil || in == 0 {
			if err != nil {
				return err
			}
			continue
		}
		if w.skip >= in {
			w.skip -= in
			w.left -= in
			continue
		}
		a, b := max(start, lo), min(levels[l].next(start), hi)
		if entry.Count <= exactWalkMax || l == len(levels)-1 {
			err = w.exact(a, b)
		} else {
			err = w.buckets(l+1, a, b)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// countIn is the number of matches in a bucket.
func (w *startWalk) countIn(bucket string) (int, error) {
	n := uint64(0)
	for seg, m := range w.matches {
		if m == nil {
			continue
		}
		bm, err := w.s.postings(seg, startTime.buckets, []byte(bucket))
		if err != nil {
			return 0, err
		}
		if bm != nil {
			n += m.AndCardinality(bm)
		}
	}
	return int(n), nil
}

// keyed is a matching document and its start key.
type keyed struct {
	key string
	seg int
	doc uint32
}

// exact reads the matches starting in [lo, hi) by their keys, in order.
func (w *startWalk) exact(lo, hi int64) error {
	// No segment gives more than the page's end of the merged order.
	enough := w.skip + w.want
	var found []keyed
	for seg, m := range w.matches {
		if m == nil {
			continue
		}
		n := 0
		err := w.s.termsIn(seg, startTime.exact, sortKeySecond(lo), sortKeySecond(hi), func(term string) (bool, error) {
			bm, doc, one, err := w.s.postingsOf(seg, startTime.exact, []byte(term))
			if err != nil {
				return false, err
			}
			ok := one && m.Contains(doc)
			if !one && bm != nil {
				doc, ok = firstIn(bm, m)
			}
			if ok {
				found = append(found, keyed{strings.Clone(term), seg, doc})
				n++
			}
			return n >= enough, w.s.ctx.Err()
		})
		if err != nil {
			return err
		}
	}
	slices.SortFunc(found, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	for _, f := range found {
		if w.done() {
			break
		}
		w.left--
		if w.skip > 0 {
			w.skip--
			continue
		}
		id, err := w.s.docID(f.seg, uint64(f.doc))
		if err != nil {
			return err
		}
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return fmt.Errorf("index holds a non-numeric ID %q", id)
		}
		w.ids = append(w.ids, n)
		w.want--
	}
	return nil
}

// firstIn is a document of postings that is among matches (a key's postings
// hold one live document).
func firstIn(postings, matches *roaring.Bitmap) (uint32, bool) {
	it := postings.Iterator()
	for it.HasNext() {
		if doc := it.Next(); matches.Contains(doc) {
			return doc, true
		}
	}
	return 0, false
}

// bucketStart is the first second of a bucket term (timefield.go's levels:
// a letter, a five-digit year, then two digits each for month, day, hour).
func bucketStart(term string) (int64, error) {
	parts := []int{0, 1, 1, 0}
	digits := term[min(1, len(term)):]
	if len(digits) < 5 || (len(digits)-5)%2 != 0 || len(digits) > 11 {
		return 0, fmt.Errorf("index: %q is no time bucket", term)
	}
	for n, width := 0, 5; len(digits) > 0; n, width = n+1, 2 {
		v, err := strconv.Atoi(digits[:width])
		if err != nil {
			return 0, fmt.Errorf("index: %q is no time bucket", term)
		}
		parts[n], digits = v, digits[width:]
	}
	return time.Date(parts[0], time.Month(parts[1]), parts[2], parts[3], 0, 0, 0, time.UTC).Unix(), nil
}

// fromBitmaps: the queries answered from bitmaps alone, a count (with its
// facets) or a page by start; relevance and the other orders are bleve's.
func fromBitmaps(q calendar.PostQuery) bool {
	return q.Relevance == "" && (q.Limit == 0 || q.Order == calendar.OrderStart)
}

// searchBitmaps answers a fromBitmaps query; should the walk miss matches
// (some without a start), bleve sorts them.
func (i *Index) searchBitmaps(ctx context.Context, q calendar.PostQuery, near query.Query) (page calendar.PostPage, err error) {
	s, release, err := i.openSegments(ctx)
	if err != nil {
		return calendar.PostPage{}, err
	}
	defer func() { err = errors.Join(err, release()) }()
	all, err := s.eval(i.filter(q, near))
	matches := all
	if err == nil && q.OncePerSeries {
		matches, err = s.oncePerSeries(all)
	}
	if err != nil {
		return calendar.PostPage{}, err
	}
	page = calendar.PostPage{Total: matches.count(), IDs: []int64{}}
	if q.OncePerSeries {
		page.Facets, err = s.facetsOnce(all, q.Facets)
	} else {
		page.Facets, err = s.facets(matches, q.Facets)
	}
	if err != nil {
		return calendar.PostPage{}, err
	}
	if q.Limit == 0 || q.Offset >= page.Total {
		return page, nil
	}
	lo, hi := secondsRange(q.StartAfter, q.StartBefore)
	ids, complete, err := s.pageByStart(matches, lo, hi, q.Offset, q.Limit)
	if err != nil || complete {
		page.IDs = append(page.IDs, ids...)
		return page, err
	}
	if q.OncePerSeries {
		// The facets counted above are those of the list showing each
		// series once; bleve's would count only what it leaves.
		facets := page.Facets
		if q, err = i.withoutDropped(ctx, q, near); err != nil {
			return calendar.PostPage{}, err
		}
		q.Facets = nil
		defer func() { page.Facets = facets }()
	}
	res, err := i.searchQuery(ctx, q, near)
	if err != nil {
		return calendar.PostPage{}, err
	}
	return pageOf(res, q.Facets)
}
