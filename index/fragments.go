package index

import (
	"context"
	"errors"
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
// search read them all (0.6 CPU seconds for nine fragments). Instead, the
// field fieldWordParts holds the parts of each word that find it: every
// part of one or two characters, and every suffix of three or more. A word
// holds a fragment of one or two characters when that part is a term of
// the field, and one of three or more when a suffix begins with it: a term
// lookup, or a walk of the dictionary's terms that begin with the fragment
// (a prefix in the dictionary's order), which reads what matches rather
// than everything there is. A fragment that begins more than
// calendar.MaxFragmentTerms suffixes is refused (ErrSearchTooBroad) rather
// than walked: its cost would be the content's, not the search's.

// fieldWordParts holds the parts of an event's words (those of fieldWords).
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
		parts += 3 * utf8.RuneCount(t.Term)
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
	}
	return out
}

func init() {
	if err := registry.RegisterTokenFilter(wordPartsFilter, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return wordParts{}, nil
	}); err != nil {
		panic(err)
	}
}

func addWordPartsMapping(m *mapping.IndexMappingImpl, doc *mapping.DocumentMapping) {
	if err := m.AddCustomAnalyzer(wordPartsAnalyzer, map[string]any{"type": custom.Name, "tokenizer": wordsTokenizer,
		"token_filters": []any{foldFilter, lowercase.Name, wordPartsFilter}}); err != nil {
		panic(err)
	}
	doc.AddFieldMappingsAt(fieldWordParts, textField(wordPartsAnalyzer))
}

// inWordQuery finds the events with a word that holds the fragment (a term
// of foldedAnalyzer).
func inWordQuery(fragment string) query.Query {
	if utf8.RuneCountInString(fragment) <= shortParts {
		return term(fieldWordParts, fragment)
	}
	return suffixQuery{fragment}
}

// suffixQuery finds the events with a word suffix that begins with a
// fragment of three characters or more: the postings of those suffixes,
// ORed, within the budget of terms (wordSuffixes).
type suffixQuery struct{ fragment string }

func (q suffixQuery) Searcher(ctx context.Context, r index.IndexReader, _ mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	terms, err := wordSuffixes(ctx, r, q.fragment)
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
	return searcher.NewMultiTermSearcher(ctx, r, words, fieldWordParts, 1, options, false)
}

// wordSuffixes are the terms of fieldWordParts that begin with fragment, or
// ErrSearchTooBroad when they are more than calendar.MaxFragmentTerms.
func wordSuffixes(ctx context.Context, r index.IndexReader, fragment string) ([][]byte, error) {
	dict, err := r.FieldDictPrefix(fieldWordParts, []byte(fragment))
	if err != nil {
		return nil, err
	}
	terms, err := listTerms(ctx, dict, calendar.MaxFragmentTerms)
	if errors.Is(err, errTooManyTerms) {
		return nil, calendar.ErrSearchTooBroad(fragment)
	}
	return terms, err
}
