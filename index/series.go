package index

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// A list that shows each series once (PostQuery.OncePerSeries) keeps, of the
// matches of one series, the first in start order (start, publication date,
// ID: the list's own order) and drops the others, before anything is
// counted or paged: totals and pages are those of the collapsed set, so
// they are exact (facets count each value as the list filtered on it would
// total: facetsOnce). The first within a window cannot be marked when a
// post is indexed (it depends on the window and on every other filter, the
// caller's read rule included: an occurrence the caller may not read is no
// match, so the next one the caller may read is the first), so it is found
// at query time: each event of a series holds one keyword, the series' ID
// then its start key (fieldSeriesStart). Each segment's keywords, read once
// into its table (seriestable.go), number its events of series by series
// and start; the matches that are events of series (a bitmap AND) are then
// walked keeping, of each series, the least number (one array read a
// match, no term, doc value or map), and the segments' firsts are merged
// by series ID. A series of 1,000 occurrences costs what iterating 1,000
// bits costs, as counting the total does. (Before the tables, each match's
// keyword was read from the doc values: 4.25 ms a default list at 100,000
// events, a fifth of them in series, against 1.43 ms without the collapse;
// with them 1.63 against 1.54 ms, docs/benchmarks.md. Walking the keywords
// in the dictionary at query time found each series' first without reading
// the others, but read the postings of every keyword after the window's
// start until one matched: 59 ms.)

// seriesKeyLen is the length of the fieldSeriesStart prefix that names the
// series: its ID, as idKey writes it.
const seriesKeyLen = 19

// seriesStartTerm is the fieldSeriesStart term of an event of a series.
func seriesStartTerm(series int64, startKey string) string { return idKey(series) + startKey }

// seriesView reads the tables of the segments of one snapshot and numbers
// the series that have matches across them (a series' events may lie in
// several).
type seriesView struct {
	s      *segments
	tables []*seriesTable
	global [][]int32 // by segment, by local series: its number among the series seen, -1 not yet
	number map[int64]int32
}

func (s *segments) seriesView() *seriesView {
	return &seriesView{s: s, tables: make([]*seriesTable, len(s.segs)), global: make([][]int32, len(s.segs)), number: map[int64]int32{}}
}

// table is segment seg's table, nil when it holds no event of a series.
func (v *seriesView) table(seg int) (*seriesTable, error) {
	if v.tables[seg] == nil {
		t, err := v.s.series.of(v.s.segs, seg, v.s.ctx.Err)
		if err != nil {
			return nil, err
		}
		v.tables[seg] = t
	}
	if len(v.tables[seg].ids) == 0 {
		return nil, nil
	}
	return v.tables[seg], nil
}

// numberOf is the number of local series k of segment seg.
func (v *seriesView) numberOf(seg int, k int32) int32 {
	if v.global[seg] == nil {
		v.global[seg] = slices.Repeat([]int32{-1}, len(v.tables[seg].ids))
	}
	if g := v.global[seg][k]; g >= 0 {
		return g
	}
	id := v.tables[seg].ids[k]
	g, seen := v.number[id]
	if !seen {
		g = int32(len(v.number))
		v.number[id] = g
	}
	v.global[seg][k] = g
	return g
}

// seriesMatch is the first match of one series in one segment.
type seriesMatch struct {
	id  int64
	ord int32
	doc uint32
}

// shown are the matches of filter as q's list shows them: each series
// once when q asks for it.
func (s *segments) shown(q calendar.PostQuery, filter query.Query) (docSet, error) {
	matches, err := s.eval(filter)
	if err == nil && q.OncePerSeries {
		matches, err = s.oncePerSeries(matches)
	}
	return matches, err
}

// oncePerSeries is matches with, of each series, only its first match.
func (s *segments) oncePerSeries(matches docSet) (docSet, error) {
	v := s.seriesView()
	firsts := make([][]seriesMatch, len(s.segs)) // by segment, by series ID
	for seg, m := range matches {
		if m == nil {
			continue
		}
		t, err := v.table(seg)
		if err != nil || t == nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		// Of each local series, its least ordinal among the matches.
		least := make([]seriesMatch, len(t.ids))
		for k := range least {
			least[k] = seriesMatch{id: t.ids[k], ord: -1}
		}
		for n, it := 0, roaring.And(m, t.all).Iterator(); it.HasNext(); n++ {
			if n%checkDoneEvery == 0 && s.ctx.Err() != nil {
				return nil, s.ctx.Err()
			}
			doc := it.Next()
			k, ord := t.seriesOf(doc)
			if l := &least[k]; l.ord < 0 || ord < l.ord {
				l.ord, l.doc = ord, doc
			}
		}
		firsts[seg] = slices.DeleteFunc(least, func(f seriesMatch) bool { return f.ord < 0 })
	}
	kept := make(docSet, len(s.segs))
	for seg, first := range mergeFirsts(firsts, v.tables) {
		if len(first) > 0 {
			kept[seg] = roaring.BitmapOf(first...)
		}
	}
	return s.perSegment(func(seg int) (*roaring.Bitmap, error) {
		m := matches[seg]
		if m == nil || v.tables[seg] == nil || len(v.tables[seg].ids) == 0 {
			return m, nil
		}
		out := roaring.AndNot(m, v.tables[seg].all)
		if kept[seg] != nil {
			out.Or(kept[seg])
		}
		return out, nil
	})
}

// mergeFirsts keeps, of each series' first matches in the segments (each
// segment's in the order of series IDs), the least by term: the documents
// kept, by segment. The lists are merged in step, with no map.
func mergeFirsts(firsts [][]seriesMatch, tables []*seriesTable) [][]uint32 {
	kept := make([][]uint32, len(firsts))
	heads := make([]int, len(firsts))
	for {
		best := -1 // the segment whose head wins so far
		for seg, first := range firsts {
			if heads[seg] == len(first) {
				continue
			}
			f := first[heads[seg]]
			if best < 0 {
				best = seg
				continue
			}
			b := firsts[best][heads[best]]
			if f.id < b.id || f.id == b.id && tables[seg].terms[f.ord] < tables[best].terms[b.ord] {
				best = seg
			}
		}
		if best < 0 {
			return kept
		}
		win := firsts[best][heads[best]]
		kept[best] = append(kept[best], win.doc)
		for seg, first := range firsts {
			if heads[seg] < len(first) && first[heads[seg]].id == win.id {
				heads[seg]++
			}
		}
	}
}

// droppedByOncePerSeries are the IDs of the matches of q that showing each
// series once leaves out, and the counts of q's facets: the queries bleve
// runs (another order than by start, relevance, the map's grid) leave them
// out by ID.
func (i *Index) droppedByOncePerSeries(ctx context.Context, q calendar.PostQuery, near query.Query) (ids []int64, facets map[string][]calendar.FacetCount, err error) {
	s, release, err := i.openSegments(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer func() { err = errors.Join(err, release()) }()
	matches, err := s.eval(i.filter(q, near))
	if err != nil {
		return nil, nil, err
	}
	if facets, err = s.facetsOnce(matches, q.Facets); err != nil {
		return nil, nil, err
	}
	kept, err := s.oncePerSeries(matches)
	if err != nil {
		return nil, nil, err
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
				return nil, nil, err
			}
			n, err := strconv.ParseInt(id, 10, 64)
			if err != nil {
				return nil, nil, err
			}
			ids = append(ids, n)
		}
	}
	return ids, facets, nil
}
