package index

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"calendar/app/calendar"
)

// A time field answers ranges of an instant, to the second, without bleve's
// numeric fields: those index every number at 16 precisions, 48 terms per
// event for its start, end and modification, most of them unique to it. A
// rebuild of 100k events took 24 to 29 CPU seconds without them, 35 to 41
// with them. An
// instant is indexed instead as its year, month, day and hour (four terms of
// the buckets field, shared by many posts), and a range is the whole buckets
// it spans plus, at its two ends, the exact instants of a keyword field whose
// terms begin with sortKey.
type timeField struct {
	buckets string
	exact   string
}

var (
	startTime    = timeField{buckets: "start", exact: fieldStartKey}
	endTime      = timeField{buckets: "end", exact: "end_key"} // mapped in newMapping
	modifiedTime = timeField{buckets: "modified", exact: fieldModifiedKey}
	// A timed event's start and end as instants (UTC), beside their
	// wall-clock times above: the days of a zone are counted by them.
	startUTC = timeField{buckets: "start_utc", exact: "start_utc_key"}
	endUTC   = timeField{buckets: "end_utc", exact: "end_utc_key"}
)

func mapTime(doc *mapping.DocumentMapping, keyword *mapping.FieldMapping, fields ...timeField) {
	for _, f := range fields {
		doc.AddFieldMappingsAt(f.buckets, keyword)
	}
}

// Instants are indexed within years 1 to 9999, as sortKey can write them; one
// outside is indexed at the nearest end.
var (
	minSecond = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	maxSecond = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).Unix() - 1
)

func clampSecond(s int64) int64 { return min(max(s, minSecond), maxSecond) }

// bucketsOf are the terms of t in a buckets field, coarsest first.
func bucketsOf(t time.Time) []string {
	s := clampSecond(t.Unix())
	out := make([]string, len(levels))
	for n, l := range levels {
		out[n] = l.term(s)
	}
	return out
}

// level is one precision of the buckets: the start of the bucket holding a
// second, the start of the next one, and the bucket's term. The terms of a
// level share a prefix and sort in time order.
type level struct {
	floor func(s int64) int64
	next  func(s int64) int64
	term  func(s int64) string
}

var levels = []level{
	calendarLevel(1, 0, func(t time.Time) string { return fmt.Sprintf("y%05d", t.Year()) }),
	calendarLevel(0, 1, func(t time.Time) string { return fmt.Sprintf("m%05d%02d", t.Year(), t.Month()) }),
	fixedLevel(24*3600, func(t time.Time) string { return fmt.Sprintf("d%05d%02d%02d", t.Year(), t.Month(), t.Day()) }),
	fixedLevel(3600, func(t time.Time) string {
		return fmt.Sprintf("h%05d%02d%02d%02d", t.Year(), t.Month(), t.Day(), t.Hour())
	}),
}

func utc(s int64) time.Time { return time.Unix(s, 0).UTC() }

// calendarLevel: buckets of years or months, which vary in length.
func calendarLevel(years, months int, term func(time.Time) string) level {
	start := func(s int64) time.Time {
		t := utc(s)
		if years > 0 {
			return time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
		}
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	return level{
		floor: func(s int64) int64 { return start(s).Unix() },
		next:  func(s int64) int64 { return start(s).AddDate(years, months, 0).Unix() },
		term:  func(s int64) string { return term(utc(s)) },
	}
}

// fixedLevel: buckets of days or hours, of a fixed number of seconds in UTC.
func fixedLevel(width int64, term func(time.Time) string) level {
	floor := func(s int64) int64 { return s - ((s%width)+width)%width }
	return level{
		floor: floor,
		next:  func(s int64) int64 { return floor(s) + width },
		term:  func(s int64) string { return term(utc(s)) },
	}
}

func (l level) aligned(s int64) bool { return l.floor(s) == s }

// ceil is the first start of a bucket at or after s.
func (l level) ceil(s int64) int64 {
	if l.aligned(s) {
		return s
	}
	return l.next(s)
}

// secondsRange is the range [lo, hi) of seconds that two bounds allow.
func secondsRange(after, before *calendar.Bound) (lo, hi int64) {
	lo, hi = minSecond, maxSecond+1
	if after != nil {
		lo = after.T.Unix()
		if !after.Inclusive {
			lo++
		}
	}
	if before != nil {
		hi = before.T.Unix()
		if before.Inclusive {
			hi++
		}
	}
	return max(lo, minSecond), min(hi, maxSecond+1)
}

// timeRange matches the posts whose instant in f is within both bounds (nil
// when there is none).
func timeRange(f timeField, after, before *calendar.Bound) query.Query {
	if after == nil && before == nil {
		return nil
	}
	lo, hi := secondsRange(after, before)
	return rangeQuery{f, lo, hi}
}

// rangeQuery is a bleve query of the seconds [lo, hi) of a time field. Its
// searcher reads the terms of every piece of the range from the dictionaries
// and joins their postings as one disjunction of terms, which bleve answers
// with one OR of bitmaps when nothing is scored. A disjunction of term range
// queries is not answered so as soon as one of them finds no term, and lists
// took four times as long.
type rangeQuery struct {
	f      timeField
	lo, hi int64
}

func (q rangeQuery) Searcher(ctx context.Context, r index.IndexReader, _ mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	var terms []search.Searcher
	fail := func(err error) (search.Searcher, error) {
		for _, s := range terms {
			_ = s.Close()
		}
		return nil, err
	}
	for _, p := range cover(q.lo, q.hi) {
		field, from, to := q.f.exact, sortKeySecond(p.from), sortKeySecond(p.to)
		if p.level >= 0 {
			field, from, to = q.f.buckets, levels[p.level].term(p.from), levels[p.level].term(p.to)
		}
		found, err := termsBetween(r, field, from, to)
		if err != nil {
			return fail(err)
		}
		for _, t := range found {
			s, err := searcher.NewTermSearcher(ctx, r, t, field, 1, options)
			if err != nil {
				return fail(err)
			}
			terms = append(terms, s)
		}
	}
	switch len(terms) {
	case 0:
		return searcher.NewMatchNoneSearcher(r)
	case 1:
		return terms[0], nil
	}
	return searcher.NewDisjunctionSearcher(ctx, r, terms, 0, options)
}

// termsBetween are the terms of field from, inclusive, to to, exclusive.
func termsBetween(r index.IndexReader, field, from, to string) (terms []string, err error) {
	dict, err := r.FieldDictRange(field, []byte(from), []byte(to))
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, dict.Close()) }()
	for {
		entry, err := dict.Next()
		if err != nil || entry == nil || entry.Term >= to {
			return terms, err
		}
		terms = append(terms, entry.Term)
	}
}

// piece is a run of whole buckets of one level, [from, to), or with level -1
// a run of exact seconds.
type piece struct {
	level    int
	from, to int64
}

// cover splits [lo, hi) into the fewest pieces: exact seconds up to the first
// whole hour, whole hours up to the first whole day, and so on up to whole
// years, then down again to exact seconds at the end.
func cover(lo, hi int64) []piece {
	var out []piece
	at := lo
	run := func(l int, to int64) {
		if to > at {
			out = append(out, piece{l, at, to})
			at = to
		}
	}
	finest := len(levels) - 1
	run(-1, min(levels[finest].ceil(at), hi))
	for l := finest; l > 0 && levels[l].aligned(at); l-- {
		run(l, levels[l].floor(min(hi, levels[l-1].ceil(at))))
	}
	for l, lv := range levels {
		if lv.aligned(at) {
			run(l, lv.floor(hi))
		}
	}
	run(-1, hi)
	return out
}

func sortKeySecond(s int64) string { return fmt.Sprintf("%012d", s+1e11) }
