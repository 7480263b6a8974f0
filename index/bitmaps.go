package index

import (
	"context"
	"errors"
	"regexp"
	"sort"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"calendar/app/calendar"
)

// A filter is answered here from the postings bitmaps of the index's
// segments, not by bleve's searchers: bleve finds the same bitmaps (its
// "unadorned" conjunctions and disjunctions AND and OR them) but then counts
// the matches one by one through its collector, about 50 ns each, which was
// most of a cold list at a million events (900,000 matches counted for a page
// of ten). A bitmap's cardinality costs nothing per match. The filter queries
// are the same query trees bleve would run (Index.filter): one statement of
// what a query selects (and of who may read what), two ways to run it. A node
// this file does not know is run by bleve's own searcher, its matches
// gathered into bitmaps.

// docSet is a set of documents: one bitmap per segment, nil for none there.
// Its bitmaps may be the segments' own (read-only, mapped from the files):
// every operation here makes a new bitmap rather than changing one in place.
type docSet []*roaring.Bitmap

func (d docSet) count() int {
	n := uint64(0)
	for _, bm := range d {
		if bm != nil {
			n += bm.GetCardinality()
		}
	}
	return int(n)
}

// union gathers postings to OR: bitmaps, and single documents in one.
type union struct {
	bms  []*roaring.Bitmap
	docs []uint32
}

func (u *union) add(s *segments, seg int, field string, term []byte) error {
	bm, doc, one, err := s.postingsOf(seg, field, term)
	switch {
	case one:
		u.docs = append(u.docs, doc)
	case bm != nil:
		u.bms = append(u.bms, bm)
	}
	return err
}

func (u *union) bitmap() *roaring.Bitmap {
	if len(u.docs) > 0 {
		u.bms = append(u.bms, roaring.BitmapOf(u.docs...))
	}
	return or(u.bms)
}

// eval is the set of documents q matches.
func (s *segments) eval(q query.Query) (docSet, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	switch q := q.(type) {
	case *query.TermQuery:
		if q.FieldVal == "" {
			break
		}
		return s.perSegment(func(seg int) (*roaring.Bitmap, error) { return s.postings(seg, q.FieldVal, []byte(q.Term)) })
	case *query.ConjunctionQuery:
		return s.all(q.Conjuncts)
	case *query.DisjunctionQuery:
		if q.Min <= 1 {
			return s.any(q.Disjuncts)
		}
	case *query.MatchNoneQuery:
		return make(docSet, len(s.segs)), nil
	case *query.MatchAllQuery:
		return s.perSegment(func(seg int) (*roaring.Bitmap, error) { return s.segs[seg].DocNumbersLive(), nil })
	case *query.DocIDQuery:
		return s.perSegment(func(seg int) (*roaring.Bitmap, error) { return s.segs[seg].DocNumbers(q.IDs) })
	case *query.BooleanQuery:
		if q.Should == nil && q.Filter == nil {
			return s.boolean(q.Must, q.MustNot)
		}
	case rangeQuery:
		return s.timeRange(q)
	case *query.WildcardQuery:
		if q.FieldVal != "" {
			re := wildcardRegexp.Replace(regexp.QuoteMeta(q.Wildcard))
			return s.someTerms(q.FieldVal, func() (index.FieldDict, error) { return s.snap.FieldDictRegexp(q.FieldVal, re) })
		}
	case *query.RegexpQuery:
		if q.FieldVal != "" {
			re := strings.TrimPrefix(q.Regexp, "^") // as bleve takes it: a term matches whole
			return s.someTerms(q.FieldVal, func() (index.FieldDict, error) { return s.snap.FieldDictRegexp(q.FieldVal, re) })
		}
	case suffixQuery:
		terms, err := wordSuffixes(s.ctx, s.snap, q.field, q.fragment)
		if err != nil {
			return nil, err
		}
		return s.anyTerm(q.field, terms)
	case budgetedPrefix:
		terms, err := budgetedTerms(s.ctx, s.snap, q.field, []byte(q.prefix), q.prefix)
		if err != nil {
			return nil, err
		}
		return s.anyTerm(q.field, terms)
	case budgetedFuzzy:
		terms, err := q.terms(s.ctx, s.snap)
		if err != nil {
			return nil, err
		}
		return s.anyTerm(q.field, terms)
	case unscored:
		return s.eval(q.Query)
	case ownBudget:
		own := *s
		own.ctx = withTermBudget(s.ctx)
		return own.eval(q.Query)
	case *query.TermRangeQuery:
		if inclusive(q.InclusiveMin) && inclusive(q.InclusiveMax) && q.FieldVal != "" {
			if set, err := s.termRange(q); !errors.Is(err, errTooManyTerms) {
				return set, err
			}
		}
	case *query.PrefixQuery:
		if q.FieldVal != "" {
			return s.someTerms(q.FieldVal, func() (index.FieldDict, error) { return s.snap.FieldDictPrefix(q.FieldVal, []byte(q.Prefix)) })
		}
	}
	return s.viaSearcher(q)
}

func (s *segments) perSegment(f func(seg int) (*roaring.Bitmap, error)) (docSet, error) {
	out := make(docSet, len(s.segs))
	for seg := range s.segs {
		bm, err := f(seg)
		if err != nil {
			return nil, err
		}
		if bm != nil && !bm.IsEmpty() {
			out[seg] = bm
		}
	}
	return out, nil
}

// all is the conjunction of qs (none when qs is empty, as bleve has it).
func (s *segments) all(qs []query.Query) (docSet, error) {
	if len(qs) == 0 {
		return make(docSet, len(s.segs)), nil
	}
	sets := make([]docSet, 0, len(qs))
	for _, q := range qs {
		set, err := s.eval(q)
		if err != nil {
			return nil, err
		}
		if set.count() == 0 {
			return make(docSet, len(s.segs)), nil
		}
		sets = append(sets, set)
	}
	return s.perSegment(func(seg int) (*roaring.Bitmap, error) {
		bms := make([]*roaring.Bitmap, 0, len(sets))
		for _, set := range sets {
			if set[seg] == nil {
				return nil, nil
			}
			bms = append(bms, set[seg])
		}
		return and(bms), nil
	})
}

// and is the intersection of bms, smallest first.
func and(bms []*roaring.Bitmap) *roaring.Bitmap {
	if len(bms) == 1 {
		return bms[0]
	}
	sort.Slice(bms, func(a, b int) bool { return bms[a].GetCardinality() < bms[b].GetCardinality() })
	out := roaring.And(bms[0], bms[1])
	for _, bm := range bms[2:] {
		if out.IsEmpty() {
			break
		}
		out.And(bm) // out is new: changing it is safe
	}
	return out
}

func (s *segments) any(qs []query.Query) (docSet, error) {
	sets := make([]docSet, 0, len(qs))
	for _, q := range qs {
		set, err := s.eval(q)
		if err != nil {
			return nil, err
		}
		sets = append(sets, set)
	}
	return s.perSegment(func(seg int) (*roaring.Bitmap, error) {
		var bms []*roaring.Bitmap
		for _, set := range sets {
			if set[seg] != nil {
				bms = append(bms, set[seg])
			}
		}
		return or(bms), nil
	})
}

func or(bms []*roaring.Bitmap) *roaring.Bitmap {
	switch len(bms) {
	case 0:
		return nil
	case 1:
		return bms[0]
	}
	return roaring.FastOr(bms...)
}

// boolean: what must matches (every document when nil) but not what mustNot
// does.
func (s *segments) boolean(must, mustNot query.Query) (docSet, error) {
	var in docSet
	var err error
	if must == nil {
		in, err = s.eval(query.NewMatchAllQuery())
	} else {
		in, err = s.eval(must)
	}
	if err != nil || mustNot == nil {
		return in, err
	}
	out, err := s.eval(mustNot)
	if err != nil {
		return nil, err
	}
	return s.perSegment(func(seg int) (*roaring.Bitmap, error) {
		if in[seg] == nil || out[seg] == nil {
			return in[seg], nil
		}
		return roaring.AndNot(in[seg], out[seg]), nil
	})
}

// timeRange ORs the postings of every term of the range's pieces (cover).
func (s *segments) timeRange(q rangeQuery) (docSet, error) {
	pieces := cover(q.lo, q.hi)
	return s.perSegment(func(seg int) (*roaring.Bitmap, error) {
		var u union
		for _, p := range pieces {
			field, from, to := q.f.exact, sortKeySecond(p.from), sortKeySecond(p.to)
			if p.level >= 0 {
				field, from, to = q.f.buckets, levels[p.level].term(p.from), levels[p.level].term(p.to)
			}
			err := s.termsIn(seg, field, from, to, func(term string) (bool, error) {
				return false, u.add(s, seg, field, []byte(term))
			})
			if err != nil {
				return nil, err
			}
		}
		return u.bitmap(), nil
	})
}

// termRange ORs the postings of the terms within an inclusive range (a
// custom field's numbers or dates: few distinct terms, many documents
// each, which bleve's searcher would walk one by one); more than
// calendar.MaxSearchTerms terms is errTooManyTerms, and bleve's searcher
// answers it.
func (s *segments) termRange(q *query.TermRangeQuery) (docSet, error) {
	var min, max []byte
	if q.Min != "" {
		min = []byte(q.Min)
	}
	if q.Max != "" {
		max = []byte(q.Max)
	}
	dict, err := s.snap.FieldDictRange(q.FieldVal, min, max)
	if err != nil {
		return nil, err
	}
	terms, err := listTerms(s.ctx, dict, calendar.MaxSearchTerms)
	if err != nil {
		return nil, err
	}
	return s.anyTerm(q.FieldVal, terms)
}

func inclusive(b *bool) bool { return b == nil || *b }

// someTerms ORs the postings of the terms a dictionary of the whole index
// lists (a wildcard's, a regular expression's, a prefix's).
func (s *segments) someTerms(field string, list func() (index.FieldDict, error)) (docSet, error) {
	dict, err := list()
	if err != nil {
		return nil, err
	}
	terms, err := listTerms(s.ctx, dict, 0)
	if err != nil {
		return nil, err
	}
	return s.anyTerm(field, terms)
}

// errTooManyTerms: a dictionary listed more terms than its budget.
var errTooManyTerms = errors.New("index: more terms than the budget")

// listTerms reads the distinct terms of dict and closes it; more than max
// of them (when max > 0) is errTooManyTerms, found having read max+1.
func listTerms(ctx context.Context, dict index.FieldDict, max int) ([][]byte, error) {
	var terms [][]byte
	for n := 1; ; n++ {
		if n%1024 == 0 && ctx.Err() != nil { // a wildcard of a giant dictionary: past its budget, it stops
			return nil, errors.Join(ctx.Err(), dict.Close())
		}
		entry, err := dict.Next()
		if err != nil {
			return nil, errors.Join(err, dict.Close())
		}
		if entry == nil {
			break
		}
		if len(terms) == 0 || string(terms[len(terms)-1]) != entry.Term { // sorted: a repeat follows its first
			if max > 0 && len(terms) == max {
				return nil, errors.Join(errTooManyTerms, dict.Close())
			}
			terms = append(terms, []byte(entry.Term))
		}
	}
	return terms, dict.Close()
}

// anyTerm ORs the postings of terms in each segment.
func (s *segments) anyTerm(field string, terms [][]byte) (docSet, error) {
	return s.perSegment(func(seg int) (*roaring.Bitmap, error) {
		var u union
		for n, term := range terms {
			if n%256 == 0 {
				if err := s.ctx.Err(); err != nil {
					return nil, err
				}
			}
			if err := u.add(s, seg, field, term); err != nil {
				return nil, err
			}
		}
		return u.bitmap(), nil
	})
}

// wildcardRegexp is a wildcard as bleve reads it: * any run, ? one character.
var wildcardRegexp = strings.NewReplacer(`\*`, ".*", `\?`, ".")

// viaSearcher gathers the matches of bleve's own searcher for q.
func (s *segments) viaSearcher(q query.Query) (docSet, error) {
	sr, err := q.Searcher(s.ctx, s.snap, s.mapping, search.SearcherOptions{Score: "none"})
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	sctx := &search.SearchContext{DocumentMatchPool: search.NewDocumentMatchPool(sr.DocumentMatchPoolSize(), 0), IndexReader: s.snap}
	out := make(docSet, len(s.segs))
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := s.ctx.Err(); err != nil {
				return nil, err
			}
		}
		m, err := sr.Next(sctx)
		if err != nil {
			return nil, err
		}
		if m == nil {
			return out, nil
		}
		seg, local := s.locate(m.IndexInternalID.Value())
		if out[seg] == nil {
			out[seg] = roaring.New()
		}
		out[seg].Add(uint32(local))
		sctx.DocumentMatchPool.Put(m)
	}
}

// termCounts calls each with every term of field that some matches hold, and
// how many of them in one segment (a term is heard once per segment that
// holds it), until each returns false.
func (s *segments) termCounts(matches docSet, field string, each func(term string, n int) (more bool)) error {
	for seg, m := range matches {
		if m == nil {
			continue
		}
		err := s.termsIn(seg, field, "", "", func(term string) (bool, error) {
			bm, err := s.postings(seg, field, []byte(term))
			if err != nil || bm == nil {
				return false, err
			}
			if n := int(m.AndCardinality(bm)); n > 0 && !each(term, n) {
				return true, nil
			}
			return false, s.ctx.Err()
		})
		if err != nil {
			return err
		}
	}
	return nil
}
