package index

import (
	"context"
	"errors"
	"strconv"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// A list that shows each series once (PostQuery.OncePerSeries) keeps, of the
// matches of one series, the first in start order (start, publication date,
// ID: the list's own order) and drops the others, before anything is
// counted or paged: totals, pages and facets are those of the collapsed set,
// so they are exact. The first within a window cannot be marked when a post
// is indexed (it depends on the window and on every other filter, the
// caller's read rule included: an occurrence the caller may not read is no
// match, so the next one the caller may read is the first), so it is found
// at query time, from one keyword per event of a series: the series' ID then
// the event's start key (fieldSeriesStart). A segment's dictionary lists
// those terms series by series, each series' in start order, so the first
// term of a series whose document is a match is that series' first in the
// segment; the firsts of the segments are compared by their terms. Terms
// starting before the query's lower bound on start are passed by comparing
// strings (no postings read), and once a series' first is found its other
// terms are passed the same way: a series of 1,000 occurrences costs a walk
// of its terms in the dictionary and a few postings, not 1,000 matches.

// seriesKey is the fieldSeriesStart prefix of a series' events: its ID, as
// idKey writes it.
const seriesKeyLen = 19

// seriesStartTerm is the fieldSeriesStart term of an event of a series.
func seriesStartTerm(series int64, startKey string) string { return idKey(series) + startKey }

// seriesFirst is the first match of one series found so far.
type seriesFirst struct {
	term string
	seg  int
	doc  uint32
}

// oncePerSeries is matches with, of each series, only its first match;
// startsFrom is the query's lower bound on start as a start key's first
// characters ("" for none).
func (s *segments) oncePerSeries(matches docSet, startsFrom string) (docSet, error) {
	firsts := map[string]seriesFirst{}
	inSeries := make(docSet, len(s.segs))
	for seg, m := range matches {
		if m == nil {
			continue
		}
		all, err := s.postings(seg, fieldInSeries, []byte("true"))
		if err != nil {
			return nil, err
		}
		if all == nil || !m.Intersects(all) {
			continue
		}
		inSeries[seg] = all
		current, found := "", false
		err = s.termsIn(seg, fieldSeriesStart, "", "", func(term string) (bool, error) {
			if len(term) <= seriesKeyLen {
				return false, errors.New("index: a series start term without its start")
			}
			series := term[:seriesKeyLen]
			if series != current {
				current, found = series, false
			}
			if found || term[seriesKeyLen:] < startsFrom {
				return false, nil
			}
			bm, doc, one, err := s.postingsOf(seg, fieldSeriesStart, []byte(term))
			if err != nil {
				return false, err
			}
			ok := one && m.Contains(doc)
			if !one && bm != nil {
				doc, ok = firstIn(bm, m)
			}
			if !ok {
				return false, nil
			}
			found = true
			if f, seen := firsts[series]; !seen || term < f.term {
				firsts[series] = seriesFirst{string([]byte(term)), seg, doc}
			}
			return false, nil
		})
		if err != nil {
			return nil, err
		}
	}
	kept := make(docSet, len(s.segs))
	for _, f := range firsts {
		if kept[f.seg] == nil {
			kept[f.seg] = roaring.New()
		}
		kept[f.seg].Add(f.doc)
	}
	return s.perSegment(func(seg int) (*roaring.Bitmap, error) {
		m := matches[seg]
		if m == nil || inSeries[seg] == nil {
			return m, nil
		}
		out := roaring.AndNot(m, inSeries[seg])
		if kept[seg] != nil {
			out.Or(kept[seg])
		}
		return out, nil
	})
}

// startsFrom is the start key prefix below which no match of q starts.
func startsFrom(q calendar.PostQuery) string {
	if q.StartAfter == nil {
		return ""
	}
	lo, _ := secondsRange(q.StartAfter, nil)
	return sortKeySecond(lo)
}

// droppedByOncePerSeries are the IDs of the matches of q that showing each
// series once leaves out: the queries bleve runs (another order than by
// start, relevance, the map's grid) leave them out by ID.
func (i *Index) droppedByOncePerSeries(ctx context.Context, q calendar.PostQuery, near query.Query) (ids []int64, err error) {
	s, release, err := i.openSegments(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, release()) }()
	matches, err := s.eval(i.filter(q, near))
	if err != nil {
		return nil, err
	}
	kept, err := s.oncePerSeries(matches, startsFrom(q))
	if err != nil {
		return nil, err
	}
	for seg, m := range matches {
		if m == nil {
			continue
		}
		dropped := m
		if kept[seg] != nil {
			dropped = roaring.AndNot(m, kept[seg])
		}
		for it := dropped.Iterator(); it.HasNext(); {
			id, err := s.docID(seg, uint64(it.Next()))
			if err != nil {
				return nil, err
			}
			n, err := strconv.ParseInt(id, 10, 64)
			if err != nil {
				return nil, err
			}
			ids = append(ids, n)
		}
	}
	return ids, nil
}
