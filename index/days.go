package index

import (
	"context"
	"errors"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// Per-day counts (facets=days) from the bitmaps: an event is on day k when
// it starts before the day ends and has not ended by the time it begins
// (an event of no length at midnight is on the day it starts). Walking the
// days in order, the events started before each midnight, and those ended
// by it, grow by one day bucket of the start and end fields each (the
// buckets of timefield.go: days of wall-clock time), so the whole span
// costs two range lookups, then three term lookups and a few ANDs of the
// matches a day, whatever the number of events.

// dayCounts are the matches of q on each day of q.Days.
func (i *Index) dayCounts(ctx context.Context, q calendar.PostQuery, near query.Query) (counts []int, err error) {
	s, release, err := i.openSegments(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, release()) }()
	matches, err := s.eval(i.filter(q, near))
	if err == nil && q.OncePerSeries {
		matches, err = s.oncePerSeries(matches)
	}
	if err != nil {
		return nil, err
	}
	first := q.Days.First.Unix()
	before := &calendar.Bound{T: q.Days.First}
	started, err := s.eval(timeRange(startTime, nil, before)) // start < the first midnight
	if err != nil {
		return nil, err
	}
	ended, err := s.eval(timeRange(endTime, nil, before)) // end < the first midnight
	if err != nil {
		return nil, err
	}
	started, ended = andSets(started, matches), andSets(ended, matches)
	day := levels[2]
	counts = make([]int, q.Days.Count)
	for k := range counts {
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
		midnight := first + int64(k)*24*3600
		endsThen, err := s.termSet(endTime.exact, sortKey(q.Days.First.AddDate(0, 0, k)))
		if err != nil {
			return nil, err
		}
		over := andSets(orSets(ended, endsThen), started).count() // begun and done by this midnight
		startsToday, err := s.termSet(startTime.buckets, day.term(midnight))
		if err != nil {
			return nil, err
		}
		endsToday, err := s.termSet(endTime.buckets, day.term(midnight))
		if err != nil {
			return nil, err
		}
		started = orSets(started, andSets(startsToday, matches))
		ended = orSets(ended, andSets(endsToday, matches))
		counts[k] = started.count() - over
	}
	return counts, nil
}

// termSet is the documents holding term in field.
func (s *segments) termSet(field, term string) (docSet, error) {
	return s.perSegment(func(seg int) (*roaring.Bitmap, error) { return s.postings(seg, field, []byte(term)) })
}

func andSets(a, b docSet) docSet {
	out := make(docSet, len(a))
	for seg := range a {
		if a[seg] != nil && b[seg] != nil {
			out[seg] = roaring.And(a[seg], b[seg])
		}
	}
	return out
}

func orSets(a, b docSet) docSet {
	out := make(docSet, len(a))
	for seg := range a {
		switch {
		case a[seg] == nil:
			out[seg] = b[seg]
		case b[seg] == nil:
			out[seg] = a[seg]
		default:
			out[seg] = roaring.Or(a[seg], b[seg])
		}
	}
	return out
}
