package index

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// Per-day counts (facets=days) from the bitmaps: an event is on day k when
// it starts before the day ends and has not ended by the time it begins
// (an event of no length at midnight is on the day it starts). Walking the
// days in order, the events started before each midnight, and those ended
// by it, grow by the events that start and end within the day (a range of
// the start and end fields each: one day bucket of timefield.go for a day
// of wall-clock time, a few hour buckets and exact seconds for a day of a
// zone), so the whole span costs two range lookups, then a few term
// lookups and ANDs of the matches a day, whatever the number of events.
//
// The days are those of the events' own wall-clock times (the list's), or,
// in a zone of the caller's (DaySpan.Zone), the instants from each local
// midnight of that zone to the next (23 or 25 hours across a change of
// daylight-saving time), which the events' UTC times are counted in; an
// all-day event is on its own dates in any zone (its wall-clock days).

// errDaysNeedSuccessor answers per-day counts in a zone from an index of
// an older mapping version, which serves while its successor is built but
// lacks the events' UTC times.
var errDaysNeedSuccessor = &calendar.Error{Kind: calendar.KindUnavailable, Code: "index_building", RetryAfter: time.Minute,
	Message: "Per-day counts in a time zone (tz) need the search index this release is building beside the one serving; try again once it is built (everything else is answered meanwhile)."}

// dayCounts are the matches of q on each day of q.Days.
func (i *Index) dayCounts(ctx context.Context, q calendar.PostQuery, near query.Query) (counts []int, err error) {
	if q.Days.Zone != "" && i.version < utcDaysFrom {
		return nil, errDaysNeedSuccessor
	}
	s, release, err := i.openSegments(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, release()) }()
	matches, err := s.shown(q, i.filter(q, near))
	if err != nil {
		return nil, err
	}
	wall := make([]int64, q.Days.Count+1)
	for k := range wall {
		wall[k] = q.Days.First.Unix() + int64(k)*24*3600
	}
	if q.Days.Zone == "" {
		return s.countDays(matches, startTime, endTime, wall)
	}
	zone, err := calendar.ParseZone(q.Days.Zone)
	if err != nil {
		return nil, fmt.Errorf("index: per-day counts in %q: %w", q.Days.Zone, err)
	}
	allDay, err := s.termSet(fieldAllDay, "true")
	if err != nil {
		return nil, err
	}
	if counts, err = s.countDays(andSets(matches, allDay), startTime, endTime, wall); err != nil {
		return nil, err
	}
	y, m, d := q.Days.First.Date()
	local := make([]int64, q.Days.Count+1)
	for k := range local {
		local[k] = time.Date(y, m, d+k, 0, 0, 0, 0, zone).Unix()
	}
	timed, err := s.countDays(matches, startUTC, endUTC, local) // all-day events hold no UTC times
	for k := range counts {
		counts[k] += timed[k]
	}
	return counts, err
}

// countDays counts the matches on each day [midnights[k], midnights[k+1])
// (seconds, in the time scale of start and end).
func (s *segments) countDays(matches docSet, start, end timeField, midnights []int64) ([]int, error) {
	within := func(f timeField, lo, hi int64) (docSet, error) {
		set, err := s.timeRange(rangeQuery{f, max(lo, minSecond), min(hi, maxSecond+1)})
		return andSets(set, matches), err
	}
	started, err := within(start, minSecond, midnights[0]) // start < the first midnight
	if err != nil {
		return nil, err
	}
	ended, err := within(end, minSecond, midnights[0]) // end < the first midnight
	if err != nil {
		return nil, err
	}
	counts := make([]int, len(midnights)-1)
	for k := range counts {
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
		endsThen, err := s.termSet(end.exact, sortKeySecond(clampSecond(midnights[k])))
		if err != nil {
			return nil, err
		}
		over := andSets(orSets(ended, endsThen), started).count() // begun and done by this midnight
		startsToday, err := within(start, midnights[k], midnights[k+1])
		if err != nil {
			return nil, err
		}
		endsToday, err := within(end, midnights[k], midnights[k+1])
		if err != nil {
			return nil, err
		}
		started, ended = orSets(started, startsToday), orSets(ended, endsToday)
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
