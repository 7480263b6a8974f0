package index

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// seriesTable is one segment's events of series in the order of their
// series_start terms (the series' ID, then the start key: each series'
// events together, by start), each document numbered with its term's
// ordinal in that order. A segment never changes once made (a deletion is
// the snapshot's deleted bitmap, which the matches already leave out), so
// its table is read from its dictionary once and kept while the segment is
// in the index (seriesTables): a list showing each series once then reads
// no term or doc value per event, only these arrays.
type seriesTable struct {
	all   *roaring.Bitmap // the segment's events of series, deleted or not
	docs  []seriesDoc     // by document number (the zero value for an event of no series)
	terms []string        // by ordinal: the series_start terms, in order
	ids   []int64         // the series' IDs, in order (a local series is an index here)
}

// seriesDoc is a document's series (local) and the ordinal of its term.
type seriesDoc struct{ series, ord int32 }

// seriesOf is the local series and the ordinal of a document of t.all.
func (t *seriesTable) seriesOf(doc uint32) (series, ord int32) {
	e := t.docs[doc]
	return e.series, e.ord
}

// readSeriesTable reads a segment's table from its series_start dictionary,
// one term at a time (each names one event); checking says when to stop.
func readSeriesTable(seg segment.Segment, stopped func() error) (*seriesTable, error) {
	dict, err := seg.Dictionary(fieldSeriesStart)
	if err != nil {
		return nil, err
	}
	t := &seriesTable{all: roaring.New()}
	it := dict.AutomatonIterator(nil, nil, nil)
	for n := 1; ; n++ {
		entry, err := it.Next()
		if err != nil || entry == nil {
			return t, err
		}
		if len(entry.Term) <= seriesKeyLen {
			return nil, errors.New("index: a series start without its start")
		}
		if t.docs == nil {
			t.docs = make([]seriesDoc, seg.Count())
		}
		term := strings.Clone(entry.Term)
		id, err := strconv.ParseInt(term[:seriesKeyLen], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("index: a series start of no series: %w", err)
		}
		if len(t.ids) == 0 || t.ids[len(t.ids)-1] != id {
			t.ids = append(t.ids, id)
		}
		ord := int32(len(t.terms))
		t.terms = append(t.terms, term)
		event := seriesDoc{int32(len(t.ids) - 1), ord}
		pl, err := dict.PostingsList([]byte(term), nil, nil)
		if err != nil {
			return nil, err
		}
		pit, ok := pl.Iterator(false, false, false, nil).(segment.OptimizablePostingsIterator)
		if !ok {
			return nil, errNoSegments
		}
		docs := pit.ActualBitmap()
		if doc, one := pit.DocNum1Hit(); one {
			docs = roaring.BitmapOf(uint32(doc))
		}
		if docs == nil {
			continue
		}
		for d := docs.Iterator(); d.HasNext(); {
			doc := d.Next()
			t.docs[doc] = event
			t.all.Add(doc)
		}
		if n%checkDoneEvery == 0 {
			if err := stopped(); err != nil {
				return nil, err
			}
		}
	}
}

// seriesTables keeps each segment's table while the segment is in the
// index: a table is read on the first list showing each series once after
// its segment is made (a batch's, a merge's), and dropped when a later
// table is read and its segment is gone.
type seriesTables struct {
	mu    sync.Mutex
	bySeg map[segment.Segment]*seriesTable
}

// of is the table of segs[n], read if it is not kept yet.
func (c *seriesTables) of(segs []*scorch.SegmentSnapshot, n int, stopped func() error) (*seriesTable, error) {
	seg := segs[n].Segment()
	c.mu.Lock()
	t, ok := c.bySeg[seg]
	c.mu.Unlock()
	if ok {
		return t, nil
	}
	t, err := readSeriesTable(seg, stopped)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bySeg == nil {
		c.bySeg = map[segment.Segment]*seriesTable{}
	}
	for kept := range c.bySeg {
		if !slices.ContainsFunc(segs, func(s *scorch.SegmentSnapshot) bool { return s.Segment() == kept }) {
			delete(c.bySeg, kept)
		}
	}
	c.bySeg[seg] = t
	return t, nil
}
