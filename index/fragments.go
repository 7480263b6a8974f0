package index

import (
	"context"
	"errors"
	"sync/atomic"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"calendar/app/calendar"
)

// The plugin's search finds a fragment within a word ("*fragment*"). Run as
// a wildcard over the words' dictionary, that reads every word the index
// holds, so an author who wrote 320,000 distinct words made every visitor's
// search read them all (half a second for nine fragments: docs/reliability.md,
// "Hostile searches"). Instead, the
// field fieldWordParts holds the parts of each word that find it: every
// part of one or two characters, and every suffix of three or more. A word
// holds a fragment of one or two characters when that part is a term of
// the field, and one of three or more when a suffix begins with it: a term
// lookup, or a walk of the dictionary's terms that begin with the fragment
// (a prefix in the dictionary's order), which reads what matches rather
// than everything there is. A search whose fragments begin more than
// calendar.MaxSearchTerms suffixes in all is refused (ErrSearchTooBroad)
// rather than walked: its cost would be the content's, not the search's.
//
// A relevance search scores the words themselves, so it needs their list,
// not the events: a word's prefix is a walk of the words that begin with it
// (budgetedPrefix), and a lone character of a script written without spaces
// (a word of one character, or one of a pair) is found through its holders:
// word_parts also lists each spaceless word (a pair or a lone character)
// under each of its parts (holderKey), so the words that hold it are the
// terms that begin with its key. Both are scored as bleve scores a prefix or
// a wildcard (the same terms in the same order, one disjunction of them),
// and read from the same budget of terms.

// fieldWordParts holds the parts of an event's words (those of fieldWords).
// The searchable fields of the other posts hold their words' parts each in
// a field of its own (partsField), which their search reads the same way.
const fieldWordParts = "word_parts"

// wordPartsAnalyzer is foldedAnalyzer, each word then cut into its parts.
const wordPartsAnalyzer = "word_parts"

// wordPartsFilter is the token filter of the parts.
const wordPartsFilter = "calendar_word_parts"

// shortParts: parts of up to this many characters are terms of their own;
// longer fragments begin suffixes.
const shortParts = 2

type wordParts struct{}

// Filter replaces each word by its parts: each of its characters and each
// pair of them, then each suffix of three characters or more (the word
// itself among them). Characters are runes: a fragment is found within a
// word as the bytes of one within the other, which meet at rune starts.
func (wordParts) Filter(in analysis.TokenStream) analysis.TokenStream {
	parts := 0
	for _, t := range in {
		n := utf8.RuneCount(t.Term)
		parts += 3 * n
		if spacelessToken(t) {
			parts += n * (n + 1) / 2
		}
	}
	out := make(analysis.TokenStream, 0, parts)
	slab := make([]analysis.Token, 0, parts) // one allocation for all the parts: a rebuild makes millions
	var starts []int
	for _, t := range in {
		starts = starts[:0]
		for i := range string(t.Term) {
			starts = append(starts, i)
		}
		starts = append(starts, len(t.Term))
		runes := len(starts) - 1
		part := func(from, to int) {
			slab = append(slab, analysis.Token{Term: t.Term[from:to], Start: t.Start, End: t.End, Position: t.Position, Type: t.Type})
			out = append(out, &slab[len(slab)-1])
		}
		for k := range runes {
			for n := 1; n <= shortParts && k+n <= runes; n++ {
				part(starts[k], starts[k+n])
			}
			if runes-k > shortParts {
				part(starts[k], len(t.Term))
			}
		}
		if spacelessToken(t) {
			for k := range runes {
				for e := k + 1; e <= runes; e++ {
					slab = append(slab, analysis.Token{Term: append(holderKey(string(t.Term[starts[k]:starts[e]])), t.Term...),
						Start: t.Start, End: t.End, Position: t.Position, Type: t.Type})
					out = append(out, &slab[len(slab)-1])
				}
			}
		}
	}
	return out
}

func spacelessToken(t *analysis.Token) bool { return t.Type == gramToken || t.Type == loneToken }

// holderKey begins the terms of word_parts that list the spaceless words
// holding part (part, then the word): no word holds a NUL, so no other
// term begins so.
func holderKey(part string) []byte { return []byte("\x00" + part + "\x00") }

func init() {
	if err := registry.RegisterTokenFilter(wordPartsFilter, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return wordParts{}, nil
	}); err != nil {
		panic(err)
	}
}

// addWordPartsMapping maps fieldWordParts and the other fields of words'
// parts.
func addWordPartsMapping(m *mapping.IndexMappingImpl, doc *mapping.DocumentMapping, others []string) {
	if err := m.AddCustomAnalyzer(wordPartsAnalyzer, map[string]any{"type": custom.Name, "tokenizer": wordsTokenizer,
		"token_filters": []any{foldFilter, lowercase.Name, wordPartsFilter}}); err != nil {
		panic(err)
	}
	for _, f := range append([]string{fieldWordParts}, others...) {
		doc.AddFieldMappingsAt(f, textField(wordPartsAnalyzer))
	}
}

// inWordQuery finds the posts with a word that holds the fragment (a term
// of foldedAnalyzer) in field, a field of words' parts (fieldWordParts, a
// partsField).
func inWordQuery(field, fragment string) query.Query {
	if utf8.RuneCountInString(fragment) <= shortParts {
		return term(field, fragment)
	}
	return suffixQuery{field: field, fragment: fragment}
}

// suffixQuery finds the posts with a word suffix in field that begins with
// a fragment of three characters or more: the postings of those suffixes,
// ORed, read from the search's budget of terms (wordSuffixes).
type suffixQuery struct{ field, fragment string }

func (q suffixQuery) Searcher(ctx context.Context, r index.IndexReader, _ mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	terms, err := wordSuffixes(ctx, r, q.field, q.fragment)
	if err != nil {
		return nil, err
	}
	if len(terms) == 0 {
		return searcher.NewMatchNoneSearcher(r)
	}
	words := make([]string, len(terms))
	for k, t := range terms {
		words[k] = string(t)
	}
	return searcher.NewMultiTermSearcher(ctx, r, words, q.field, 1, options, false)
}

// wordSuffixes are the terms of field (of words' parts) that begin with
// fragment, or ErrSearchTooBroad when they are more than the search's
// budget has left.
func wordSuffixes(ctx context.Context, r index.IndexReader, field, fragment string) ([][]byte, error) {
	return budgetedTerms(ctx, r, field, []byte(fragment), fragment)
}

// holdersQuery finds, in field, the words that hold a lone spaceless
// character (a relevance search's lone token), scored as bleve scores the
// wildcard "*character*" over field: the words' terms listed by their
// holders, those of field's dictionary kept, in its order.
type holdersQuery struct {
	part, field string
	boost       float64
}

func (q holdersQuery) Searcher(ctx context.Context, r index.IndexReader, _ mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	key := holderKey(q.part)
	listed, err := budgetedTerms(ctx, r, fieldWordParts, key, q.part)
	if err != nil {
		return nil, err
	}
	var words []string
	for _, k := range listed {
		word := string(k[len(key):])
		in, err := inDictionary(r, q.field, word)
		if err != nil {
			return nil, err
		}
		if in {
			words = append(words, word)
		}
	}
	return searcher.NewMultiTermSearcher(ctx, r, words, q.field, q.boost, options, true)
}

// inDictionary says whether field's dictionary holds term (as a wildcard
// walking it would find it, a deleted document's term included).
func inDictionary(r index.IndexReader, field, term string) (bool, error) {
	dict, err := r.FieldDictRange(field, []byte(term), []byte(term))
	if err != nil {
		return false, err
	}
	entry, err := dict.Next()
	return entry != nil && entry.Term == term, errors.Join(err, dict.Close())
}

// budgetedPrefix is bleve's prefix query (the same searcher: one term, or a
// disjunction of the terms that begin with prefix), read from the search's
// budget of terms.
type budgetedPrefix struct {
	prefix, field string
	boost         float64
}

func (q budgetedPrefix) Searcher(ctx context.Context, r index.IndexReader, _ mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	listed, err := budgetedTerms(ctx, r, q.field, []byte(q.prefix), q.prefix)
	if err != nil {
		return nil, err
	}
	if len(listed) == 0 || len(listed) == 1 && string(listed[0]) == q.prefix {
		return searcher.NewTermSearcher(ctx, r, q.prefix, q.field, q.boost, options)
	}
	terms := make([]string, len(listed))
	for k, t := range listed {
		terms[k] = string(t)
	}
	return searcher.NewMultiTermSearcher(ctx, r, terms, q.field, q.boost, options, true)
}

// budgetedTerms are the terms of field that begin with prefix, taken from
// the budget ctx carries (withTermBudget), or ErrSearchTooBroad (naming
// fragment) when they are more than it has left.
func budgetedTerms(ctx context.Context, r index.IndexReader, field string, prefix []byte, fragment string) ([][]byte, error) {
	return budgeted(ctx, fragment, func() (index.FieldDict, error) { return r.FieldDictPrefix(field, prefix) })
}

// budgeted are the terms a dictionary lists, taken from the budget ctx
// carries, or ErrSearchTooBroad (naming fragment) when they are more than
// it has left.
func budgeted(ctx context.Context, fragment string, list func() (index.FieldDict, error)) ([][]byte, error) {
	budget, ok := ctx.Value(termBudgetKey{}).(*atomic.Int64)
	if !ok {
		budget = newTermBudget()
	}
	left := budget.Load()
	if left <= 0 {
		return nil, calendar.ErrSearchTooBroad(fragment)
	}
	dict, err := list()
	if err != nil {
		return nil, err
	}
	terms, err := listTerms(ctx, dict, int(left))
	if errors.Is(err, errTooManyTerms) {
		return nil, calendar.ErrSearchTooBroad(fragment)
	}
	budget.Add(-int64(len(terms)))
	return terms, err
}

type termBudgetKey struct{}

// withTermBudget is ctx carrying the budget of terms of one evaluation of
// a search: calendar.MaxSearchTerms for all its expansions together.
func withTermBudget(ctx context.Context) context.Context {
	return context.WithValue(ctx, termBudgetKey{}, newTermBudget())
}

func newTermBudget() *atomic.Int64 {
	b := new(atomic.Int64)
	b.Store(calendar.MaxSearchTerms)
	return b
}
