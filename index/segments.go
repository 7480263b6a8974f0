package index

import (
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// The segments of one snapshot of the index, read directly: their
// dictionaries, postings bitmaps and document IDs (bitmaps.go evaluates
// filters on them, startpage.go walks them in start order).

// errNoSegments: the index is not a scorch index of segments (never, today).
var errNoSegments = errors.New("index: no segments to read bitmaps from")

// segments is one snapshot of the index, read as bitmaps per segment.
type segments struct {
	ctx     context.Context
	snap    *scorch.IndexSnapshot
	segs    []*scorch.SegmentSnapshot
	offsets []uint64 // the global number of each segment's first document
	mapping mapping.IndexMapping
	dicts   map[string][]segment.TermDictionary
	series  *seriesTables // the index's tables of events of series (seriestable.go)
}

// openSegments reads the index's current snapshot; close releases it.
func (i *Index) openSegments(ctx context.Context) (s *segments, close func() error, err error) {
	adv, err := i.bleve.Advanced()
	if err != nil {
		return nil, nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, nil, err
	}
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, nil, errors.Join(errNoSegments, r.Close())
	}
	s = &segments{ctx: withTermBudget(ctx), snap: snap, segs: snap.Segments(), mapping: i.bleve.Mapping(), dicts: map[string][]segment.TermDictionary{}, series: &i.series}
	var running uint64
	for _, seg := range s.segs {
		s.offsets = append(s.offsets, running)
		running += seg.Segment().Count()
	}
	return s, r.Close, nil
}

func (s *segments) dictionary(seg int, field string) (segment.TermDictionary, error) {
	d, ok := s.dicts[field]
	if !ok {
		d = make([]segment.TermDictionary, len(s.segs))
		s.dicts[field] = d
	}
	if d[seg] == nil {
		dict, err := s.segs[seg].Segment().Dictionary(field)
		if err != nil {
			return nil, err
		}
		d[seg] = dict
	}
	return d[seg], nil
}

// postings are the live documents of one segment holding term in field (nil:
// none).
func (s *segments) postings(seg int, field string, term []byte) (*roaring.Bitmap, error) {
	bm, doc, one, err := s.postingsOf(seg, field, term)
	if one {
		return roaring.BitmapOf(doc), err
	}
	return bm, err
}

// postingsOf is postings, or, for a term of one live document (every key of
// a keyword field unique to a post, which zap keeps without a bitmap), that
// document.
func (s *segments) postingsOf(seg int, field string, term []byte) (bm *roaring.Bitmap, doc uint32, one bool, err error) {
	dict, err := s.dictionary(seg, field)
	if err != nil {
		return nil, 0, false, err
	}
	pl, err := dict.PostingsList(term, s.segs[seg].Deleted(), nil)
	if err != nil {
		return nil, 0, false, err
	}
	it, ok := pl.Iterator(false, false, false, nil).(segment.OptimizablePostingsIterator)
	if !ok {
		return nil, 0, false, errNoSegments
	}
	if n, one := it.DocNum1Hit(); one {
		return nil, uint32(n), true, nil
	}
	return it.ActualBitmap(), 0, false, nil
}

// termsIn calls each for every term of field in [from, to) in one segment, in
// order, until each says stop; an empty bound is none.
func (s *segments) termsIn(seg int, field, from, to string, each func(term string) (stop bool, err error)) error {
	dict, err := s.dictionary(seg, field)
	if err != nil {
		return err
	}
	bound := func(b string) []byte {
		if b == "" {
			return nil
		}
		return []byte(b)
	}
	var it segment.DictionaryIterator
	if quick, ok := dict.(interface {
		AutomatonIteratorOmitCount(segment.Automaton, []byte, []byte) segment.DictionaryIterator
	}); ok {
		it = quick.AutomatonIteratorOmitCount(nil, bound(from), bound(to))
	} else {
		it = dict.AutomatonIterator(nil, bound(from), bound(to))
	}
	for n := 1; ; n++ {
		entry, err := it.Next()
		if err != nil || entry == nil {
			return err
		}
		if stop, err := each(entry.Term); stop || err != nil {
			return err
		}
		if n%1024 == 0 && s.ctx.Err() != nil { // a search past its budget stops
			return s.ctx.Err()
		}
	}
}

// locate is the segment and local number of a global document number.
func (s *segments) locate(global uint64) (seg int, local uint64) {
	seg = sort.Search(len(s.offsets), func(n int) bool { return s.offsets[n] > global }) - 1
	return seg, global - s.offsets[seg]
}

// docID is the external ID of a segment's document.
func (s *segments) docID(seg int, local uint64) (string, error) {
	id, err := s.segs[seg].DocID(local)
	if err == nil && id == nil {
		err = errors.New("index: a matched document has no ID")
	}
	return strings.Clone(string(id)), err
}
