package index

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search/query"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	"github.com/blevesearch/vellum/levenshtein"

	"calendar/app/calendar"
)

// A facet search (calendar.PostQuery.FacetSearch) finds a facet's values by
// their names, not among its most frequent: the venues, organizers,
// categories and tags whose names' words (name_words) begin with the first
// word typed (a walk of the words that do, in the dictionary's order), or,
// from five letters on, whose beginning is one typo from it (a walk of the
// dictionary under an automaton that accepts a word once its beginning is
// within one edit). Each value found is then counted among the matches by
// its own term. The words walked and the values counted are read from one
// budget, calendar.MaxSearchTerms: a search that would read more is refused
// (calendar.ErrFacetSearchTooBroad), so its cost is bounded by what was
// typed, not by the number of values there are. A custom field's values
// are their own names: all of them are counted, within the same budget.

// facetOwners are the documents that hold the names of a facet's values:
// their type (a post type or a taxonomy).
var facetOwners = map[string]string{
	calendar.FacetVenue:      calendar.PostTypeVenue,
	calendar.FacetOrganizer:  calendar.PostTypeOrganizer,
	calendar.FacetCategories: calendar.TaxonomyCategory,
	calendar.FacetTags:       calendar.TaxonomyTag,
}

// facetSearch counts the values of the facet name that q.FacetSearch may
// name among q's matches, most matches first, at most
// calendar.MaxFacetValues; total is the number of matches.
func (i *Index) facetSearch(ctx context.Context, q calendar.PostQuery, name string, near query.Query) (values []calendar.FacetCount, total int, err error) {
	field, ok := facetField(name)
	s, release, err := i.openSegments(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer func() { err = errors.Join(err, release()) }()
	matches, err := s.shown(q, i.filter(q, near))
	if err != nil {
		return nil, 0, err
	}
	total = matches.count()
	if !ok {
		return []calendar.FacetCount{}, total, nil
	}
	words := i.analyzer(foldedAnalyzer)
	typed, err := newNameWalk(words.Analyze([]byte(q.FacetSearch)))
	if err != nil || typed == nil {
		return []calendar.FacetCount{}, total, err
	}
	budget := calendar.MaxSearchTerms
	var candidates []string
	if owner, named := facetOwners[name]; named {
		candidates, err = s.namedLike(typed, owner, &budget)
	} else {
		candidates, err = s.valuesLike(field, typed, words, &budget)
	}
	if err != nil {
		return nil, 0, err
	}
	values = []calendar.FacetCount{}
	for _, value := range candidates {
		if err := s.ctx.Err(); err != nil { // a search past its time budget stops
			return nil, 0, err
		}
		holders, err := s.termSet(field, value)
		if err != nil {
			return nil, 0, err
		}
		if n := andSets(holders, matches).count(); n > 0 {
			values = append(values, calendar.FacetCount{Value: value, Count: n})
		}
	}
	slices.SortFunc(values, func(a, b calendar.FacetCount) int { return cmp.Or(b.Count-a.Count, cmp.Compare(a.Value, b.Value)) })
	return values[:min(len(values), calendar.MaxFacetValues)], total, nil
}

// nameWalk is what was typed as the names' words are walked: its first
// word, and, when it is one word of minFuzzyRunes or more, the automaton
// of the words whose beginning is one typo from it.
type nameWalk struct {
	first []byte
	typo  segment.Automaton
}

// newNameWalk is the walk of the words typed (folded as the names' words
// are); nil when there is none.
func newNameWalk(typed analysis.TokenStream) (*nameWalk, error) {
	if len(typed) == 0 {
		return nil, nil
	}
	w := &nameWalk{first: typed[0].Term}
	if len(typed) == 1 && utf8.RuneCount(w.first) >= minFuzzyRunes {
		dfa, err := typoBuilder().BuildDfa(string(w.first), 1)
		if err != nil {
			return nil, err
		}
		w.typo = typoPrefix{dfa}
	}
	return w, nil
}

// walks are the walks of a dictionary that find the words: those that
// begin with the first word, then those the typo automaton accepts.
func (w *nameWalk) walks() []wordWalk {
	out := []wordWalk{{from: w.first, to: append(slices.Clip(w.first), 0xff)}}
	if w.typo != nil {
		out = append(out, wordWalk{automaton: w.typo})
	}
	return out
}

// finds says whether one of words is found by the walks.
func (w *nameWalk) finds(words analysis.TokenStream) bool {
	for _, word := range words {
		if bytes.HasPrefix(word.Term, w.first) || w.typo != nil && accepts(w.typo, word.Term) {
			return true
		}
	}
	return false
}

// accepts says whether a reads word to a match.
func accepts(a segment.Automaton, word []byte) bool {
	state := a.Start()
	for _, b := range word {
		if a.WillAlwaysMatch(state) {
			return true
		}
		if state = a.Accept(state, b); !a.CanMatch(state) {
			return false
		}
	}
	return a.IsMatch(state)
}

// namedLike are the IDs (as the facet's field holds them) of the documents
// of type owner whose name_words the walk finds, the words and IDs read
// taken from budget.
func (s *segments) namedLike(typed *nameWalk, owner string, budget *int) ([]string, error) {
	first := string(typed.first)
	walks := typed.walks()
	words := map[string]struct{}{}
	holders, err := s.perSegment(func(seg int) (*roaring.Bitmap, error) {
		dict, err := s.dictionary(seg, fieldNameWords)
		if err != nil {
			return nil, err
		}
		var u union
		for _, w := range walks {
			it := dict.AutomatonIterator(w.automaton, w.from, w.to)
			for {
				entry, err := it.Next()
				if err != nil {
					return nil, err
				}
				if entry == nil {
					break
				}
				if _, seen := words[entry.Term]; !seen {
					if words[entry.Term] = struct{}{}; len(words) > *budget {
						return nil, calendar.ErrFacetSearchTooBroad(first)
					}
				}
				if err := u.add(s, seg, fieldNameWords, []byte(entry.Term)); err != nil {
					return nil, err
				}
			}
		}
		return u.bitmap(), s.ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	*budget -= len(words)
	owners, err := s.termSet(fieldType, owner)
	if err != nil {
		return nil, err
	}
	var ids []string
	for seg, bm := range andSets(holders, owners) {
		if bm == nil {
			continue
		}
		for it := bm.Iterator(); it.HasNext(); {
			id, err := s.docID(seg, uint64(it.Next()))
			if err != nil {
				return nil, err
			}
			if ids = append(ids, strings.TrimPrefix(id, "t")); len(ids) > *budget { // a term's document is t<ID>
				return nil, calendar.ErrFacetSearchTooBroad(first)
			}
		}
	}
	return ids, nil
}

// valuesLike are the distinct terms of field (a custom field's values,
// their own names) that have a word the walk finds, every term read taken
// from budget.
func (s *segments) valuesLike(field string, typed *nameWalk, words analysis.Analyzer, budget *int) ([]string, error) {
	seen := map[string]bool{}
	for seg := range s.segs {
		err := s.termsIn(seg, field, "", "", func(term string) (bool, error) {
			if _, ok := seen[term]; !ok {
				seen[term] = typed.finds(words.Analyze([]byte(term)))
			}
			if len(seen) > *budget {
				return true, calendar.ErrFacetSearchTooBroad(string(typed.first))
			}
			return false, nil
		})
		if err != nil {
			return nil, err
		}
	}
	var out []string
	for term, found := range seen {
		if found {
			out = append(out, term)
		}
	}
	*budget -= len(seen)
	return out, nil
}

// wordWalk is a walk of a dictionary: its terms in [from, to) that the
// automaton accepts (nil bounds and automaton: all).
type wordWalk struct {
	automaton segment.Automaton
	from, to  []byte
}

// typoPrefix accepts a word once what it has read is within the DFA's
// edits of the word typed: a word whose beginning is one typo from it.
type typoPrefix struct{ dfa *levenshtein.DFA }

// beyond is typoPrefix's state once a beginning matched: every word that
// goes on from there matches.
const beyond = math.MaxInt32

func (a typoPrefix) Start() int                 { return a.dfa.Start() }
func (a typoPrefix) IsMatch(s int) bool         { return s == beyond || a.dfa.IsMatch(s) }
func (a typoPrefix) CanMatch(s int) bool        { return s == beyond || a.dfa.CanMatch(s) }
func (a typoPrefix) WillAlwaysMatch(s int) bool { return a.IsMatch(s) }
func (a typoPrefix) Accept(s int, b byte) int {
	if a.IsMatch(s) {
		return beyond
	}
	return a.dfa.Accept(s, b)
}

// typoBuilder makes the automata of one edit (inserted, deleted or
// replaced, as calendar.WithinOneEdit forgives), built once: building it
// is the costly part.
var typoBuilder = sync.OnceValue(func() *levenshtein.LevenshteinAutomatonBuilder {
	b, err := levenshtein.NewLevenshteinAutomatonBuilder(1, false)
	if err != nil {
		panic(err)
	}
	return b
})
