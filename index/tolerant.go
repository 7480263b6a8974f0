package index

import (
	"context"
	"errors"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"calendar/app/calendar"
)

// A search finds the same events in every order (PostQuery.Tolerant): the
// plugin's search (every fragment within a word, ANDed: what its clients
// rely on) or the relevance search's words (a word, a prefix, one typo,
// a stem), whichever selects an event. The plugin's matches stay matches,
// so no client of the plugin loses one; a typo finds in date order, by
// distance, in a box and in a map's clusters what it finds by relevance.
// Unranked, the relevance words are filters answered from bitmaps like the
// others: their prefixes and typos are the dictionary's terms, listed from
// the search's budget of terms (budgetedTerms), then ORed; each side has
// a budget of its own (ownBudget).

// searchClauses are the filter clauses of q's search outside a relevance
// order: the plugin's fragments, each a clause of the filter's own
// conjunction, or, when q is tolerant, one disjunction of those and the
// relevance words. A relevance order finds its words in matching.
func (i *Index) searchClauses(q calendar.PostQuery) []query.Query {
	if q.Relevance != "" {
		return nil
	}
	var plain []query.Query
	if p := i.plainPlan(q.Words); len(p.words) > 0 {
		plain = p.filterClauses(fieldWordParts, fieldWords)
	}
	if q.Tolerant == "" {
		return plain
	}
	ranked := i.rankedPlan(q.Tolerant, q.Language, q.Synonyms).selectQuery()
	switch {
	case ranked == nil:
		return plain
	case plain == nil:
		return []query.Query{ranked}
	}
	return []query.Query{bleve.NewDisjunctionQuery(bleve.NewConjunctionQuery(plain...), ownBudget{ranked})}
}

// selectQuery selects, without ranking, what the plan's rankedQuery
// ranks: every word but the optional ones as a word, a prefix or one typo
// away in the words field (which holds the title's words too), or by its
// stems. Nil for a plan of no words.
func (p searchPlan) selectQuery() query.Query {
	var must []query.Query
	for _, w := range p.words {
		if w.optional {
			continue
		}
		word := p.selectWord(w)
		if len(w.synonyms) > 0 {
			alts := []query.Query{word}
			for _, syn := range w.synonyms {
				alts = append(alts, p.selectWord(syn))
			}
			word = bleve.NewDisjunctionQuery(alts...)
		}
		must = append(must, word)
	}
	if len(must) == 0 {
		return nil
	}
	return bleve.NewConjunctionQuery(must...)
}

// selectWord selects one word of the plan: its parts, or its stems.
func (p searchPlan) selectWord(w wordPlan) query.Query {
	var parts []query.Query
	for _, part := range w.parts {
		parts = append(parts, part.selectQuery(fieldWords))
	}
	word := query.Query(bleve.NewConjunctionQuery(parts...))
	if len(w.stems) > 0 {
		var stems []query.Query
		for _, s := range w.stems {
			stems = append(stems, term(p.stemsField, s))
		}
		word = bleve.NewDisjunctionQuery(word, bleve.NewConjunctionQuery(stems...))
	}
	return word
}

// selectQuery finds the part in field as query does, unscored: a word's
// exact term is among those its prefix begins, and its typos are listed
// from the search's budget as its prefixes are.
func (part partPlan) selectQuery(field string) query.Query {
	switch part.how {
	case wholeTerm:
		return term(field, part.term)
	case inWord:
		return holdersQuery{part: part.term, field: field, boost: 1}
	}
	prefix := budgetedPrefix{prefix: part.term, field: field, boost: 1}
	if utf8.RuneCountInString(part.term) < minFuzzyRunes {
		return prefix
	}
	return bleve.NewDisjunctionQuery(prefix, budgetedFuzzy{term: part.term, field: field})
}

// budgetedFuzzy finds the terms of field one edit from term (bleve's fuzzy
// query of fuzziness 1), listed from the search's budget of terms.
type budgetedFuzzy struct{ term, field string }

func (q budgetedFuzzy) Searcher(ctx context.Context, r index.IndexReader, _ mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	terms, err := q.terms(ctx, r)
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

func (q budgetedFuzzy) terms(ctx context.Context, r index.IndexReader) ([][]byte, error) {
	fuzzy, ok := r.(index.IndexReaderFuzzy)
	if !ok {
		return nil, errors.New("index: the reader cannot list fuzzy terms")
	}
	return budgeted(ctx, q.term, func() (index.FieldDict, error) { return fuzzy.FieldDictFuzzy(q.field, q.term, 1, "") })
}

// ownBudget is a query whose terms are read from a budget of their own
// (calendar.MaxSearchTerms): the second side of a tolerant search, so that
// each side reads at most what it reads alone (the plugin's search as in
// date order, relevance's words as in a relevance order), and a search one
// side answered is not refused for being also the other.
type ownBudget struct{ query.Query }

func (q ownBudget) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	return q.Query.Searcher(withTermBudget(ctx), r, m, options)
}

// unscored is a query whose matches weigh nothing in a ranked search.
type unscored struct{ query.Query }

func (q unscored) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	options.Score = "none"
	return q.Query.Searcher(ctx, r, m, options)
}
