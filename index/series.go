package index

import (
	"context"
	"errors"
	"strconv"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

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
// at query time: each event of a series holds one keyword, the series' ID
// then its start key (fieldSeriesStart), kept as a doc value too. The
// matches that are events of a series (the matches ANDed with fieldInSeries'
// postings, a bitmap operation) are read in document order, each one's
// keyword from the doc values, and the least keyword of each series wins.
// The cost is one doc value read per matching event of a series, nothing
// per event outside the window: a series of 1,000 occurrences of which a
// window holds 8 costs 8 reads. (Walking the keywords in the dictionary
// instead found each series' first without reading the others, but read
// the postings of every keyword after the window's start until one
// matched: 59 ms a list at 100,000 events, a fifth of them in series,
// against 1.3 ms without the collapse.)

// seriesKeyLen is the length of the fieldSeriesStart prefix that names the
// series: its ID, as idKey writes it.
const seriesKeyLen = 19

// seriesStartTerm is the fieldSeriesStart term of an event of a series.
func seriesStartTerm(series int64, startKey string) string { return idKey(series) + startKey }

// seriesFirst is the first match of one series found so far.
type seriesFirst struct {
	term string
	seg  int
	doc  uint32
}

// oncePerSeries is matches with, of each series, only its first match.
func (s *segments) oncePerSeries(matches docSet) (docSet, error) {
	values, err := s.snap.DocValueReader([]string{fieldSeriesStart})
	if err != nil {
		return nil, err
	}
	firsts := map[string]seriesFirst{}
	inSeries := make(docSet, len(s.segs))
	var id index.IndexInternalID
	for seg, m := range matches {
		if m == nil {
			continue
		}
		all, err := s.postings(seg, fieldInSeries, []byte("true"))
		if err != nil {
			return nil, err
		}
		if all == nil {
			continue
		}
		inSeries[seg] = all
		for n, it := 0, roaring.And(m, all).Iterator(); it.HasNext(); n++ {
			if n%checkDoneEvery == 0 && s.ctx.Err() != nil {
				return nil, s.ctx.Err()
			}
			doc := it.Next()
			id = index.NewIndexInternalID(id, s.offsets[seg]+uint64(doc))
			var term string
			err := values.VisitDocValues(id, func(field string, value []byte) {
				if field == fieldSeriesStart && len(value) > seriesKeyLen {
					term = string(value)
				}
			})
			if err != nil {
				return nil, err
			}
			if term == "" {
				return nil, errors.New("index: an event of a series without its series start")
			}
			series := term[:seriesKeyLen]
			if f, seen := firsts[series]; !seen || term < f.term {
				firsts[series] = seriesFirst{term, seg, doc}
			}
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
	kept, err := s.oncePerSeries(matches)
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
