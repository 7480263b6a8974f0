package index

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// A search's plan says what each of its words must match, as the index's own
// analyzers read the search. The query that finds the events and the
// highlights that show why are both made from it, so they agree.
type searchPlan struct {
	words []wordPlan
	// stemsField holds the stems of the search's language ("" when none);
	// stems is its analyzer, folded the words field's.
	stemsField    string
	folded, stems analysis.Analyzer
}

type wordPlan struct {
	// parts must all match in the folded fields: the word, or the pairs of
	// a spaceless run.
	parts []partPlan
	// stems, all in the language's stems field, match the word too.
	stems []string
	// optional: a stop word of the language, which ranks but selects nothing.
	optional bool
	// synonyms: the word's synonyms (PostQuery.Synonyms), each of which
	// matches in its place as the word would.
	synonyms []wordPlan
}

type partPlan struct {
	term string
	how  partMatch
}

type partMatch int

const (
	// inWord: the term occurs within a word, as the plugin's search finds a
	// fragment; a lone spaceless character within the pairs that hold it.
	inWord partMatch = iota
	// wholeTerm: the term is a pair of a spaceless run.
	wholeTerm
	// wordLike: the word, a word it begins, or one typo away from five
	// letters (a relevance search).
	wordLike
)

// plainPlan reads the plugin's search: each fragment (app.SearchFragments)
// within a word, a spaceless one by its pairs.
func (i *Index) plainPlan(words []string) searchPlan {
	plan := searchPlan{folded: i.analyzer(foldedAnalyzer)}
	for _, w := range words {
		var word wordPlan
		for _, tok := range plan.folded.Analyze([]byte(w)) {
			how := inWord
			if tok.Type == gramToken {
				how = wholeTerm
			}
			word.parts = append(word.parts, partPlan{string(tok.Term), how})
		}
		if len(word.parts) > 0 {
			plan.words = append(plan.words, word)
		}
	}
	return plan
}

// rankedPlan reads a relevance search: its words (app.PickSearchWords of
// them), each matched as wordLike says, a spaceless run by its pairs; in a
// language the index stems in, by its stems too, and its stop words are
// optional (unless every word is one).
func (i *Index) rankedPlan(text, lang string, synonyms map[string][]string) searchPlan {
	plan := searchPlan{folded: i.analyzer(foldedAnalyzer)}
	if slices.Contains(i.languages, lang) {
		plan.stemsField, plan.stems = stemsField(lang), i.analyzer(stemsAnalyzer(lang))
	}
	type run struct {
		raw   string // as written: stemmers read accents
		parts []partPlan
	}
	runs := map[string]run{}
	var keys []string
	for _, span := range wordSpans(text) {
		raw := text[span[0]:span[1]]
		var r run
		var terms []string
		for _, tok := range plan.folded.Analyze([]byte(raw)) {
			how := wordLike
			switch tok.Type {
			case gramToken:
				how = wholeTerm
			case loneToken:
				how = inWord
			}
			r.parts = append(r.parts, partPlan{string(tok.Term), how})
			terms = append(terms, string(tok.Term))
		}
		key := strings.Join(terms, " ")
		if _, seen := runs[key]; !seen && key != "" {
			r.raw = raw
			runs[key] = r
		}
		keys = append(keys, key)
	}
	allOptional := true
	for _, key := range calendar.PickSearchWords(keys) {
		r := runs[key]
		word := plan.wordOf(r.raw, r.parts)
		for _, alt := range synonyms[key][:min(len(synonyms[key]), calendar.MaxSynonymsPerWord)] {
			if w := plan.wordOf(alt, plan.partsOf(alt)); len(w.parts) > 0 {
				word.synonyms = append(word.synonyms, w)
			}
		}
		word.optional = word.optional && len(word.synonyms) == 0
		allOptional = allOptional && word.optional
		plan.words = append(plan.words, word)
	}
	if allOptional { // a search of stop words alone looks for them
		for k := range plan.words {
			plan.words[k].optional = false
		}
	}
	return plan
}

// wordOf is the plan of one word of a relevance search (raw, as written:
// stemmers read accents), parts its folded parts.
func (p searchPlan) wordOf(raw string, parts []partPlan) wordPlan {
	word := wordPlan{parts: parts}
	if p.stems != nil {
		for _, tok := range p.stems.Analyze([]byte(raw)) {
			word.stems = append(word.stems, string(tok.Term))
		}
		word.optional = len(word.stems) == 0 && !slices.ContainsFunc(parts, func(p partPlan) bool { return p.how != wordLike })
	}
	return word
}

// partsOf are a word's folded parts as a relevance search reads them.
func (p searchPlan) partsOf(raw string) []partPlan {
	var parts []partPlan
	for _, tok := range p.folded.Analyze([]byte(raw)) {
		how := wordLike
		switch tok.Type {
		case gramToken:
			how = wholeTerm
		case loneToken:
			how = inWord
		}
		parts = append(parts, partPlan{string(tok.Term), how})
	}
	return parts
}

func (i *Index) analyzer(name string) analysis.Analyzer { return i.bleve.Mapping().AnalyzerNamed(name) }

// filterClauses select the posts where every word of a plain plan occurs,
// a fragment within a word of parts (a field of words' parts), a pair of a
// spaceless run as a term of whole (an event's words; a post's parts field,
// where each word is a part of itself). For an event search, they are
// clauses of the filter's own conjunction, not one nested in it, which bleve
// would answer document by document instead of from bitmaps (a search with
// a date window took twice as long so). A fragment within a word is found
// by the words' parts (inWordQuery), not by a walk of every word.
func (p searchPlan) filterClauses(parts, whole string) []query.Query {
	var all []query.Query
	for _, w := range p.words {
		for _, part := range w.parts {
			if part.how == inWord {
				all = append(all, inWordQuery(parts, part.term))
			} else {
				all = append(all, part.query(whole, 1)...)
			}
		}
	}
	return all
}

// rankedQuery keeps what filter selects (without scoring it: keyword fields
// with several values would weigh in) among the events that match every
// word of the plan but its optional ones, scored by rankedFields' weights,
// or that plain (the plugin's search of the same text, unscored: they come
// last) selects, when not nil.
func (p searchPlan) rankedQuery(filter, plain query.Query) query.Query {
	var must, should []query.Query
	for _, w := range p.words {
		word := p.rankedWord(w)
		if len(w.synonyms) > 0 {
			alts := []query.Query{word}
			for _, syn := range w.synonyms {
				alts = append(alts, p.rankedWord(syn))
			}
			word = bleve.NewDisjunctionQuery(alts...)
		}
		if w.optional {
			should = append(should, word)
		} else {
			must = append(must, word)
		}
	}
	b := bleve.NewBooleanQuery()
	switch {
	case plain != nil:
		ranked := query.Query(bleve.NewMatchAllQuery())
		if len(must) > 0 {
			ranked = bleve.NewConjunctionQuery(must...)
		}
		b.AddMust(bleve.NewDisjunctionQuery(ranked, plain))
	case len(must) > 0:
		b.AddMust(must...)
	default:
		b.AddMust(bleve.NewMatchAllQuery())
	}
	if len(should) > 0 {
		b.AddShould(should...)
		b.SetMinShould(0)
	}
	b.AddFilter(filter)
	return b
}

// rankedWord finds one word of the plan, scored: its parts in every ranked
// field, or its stems.
func (p searchPlan) rankedWord(w wordPlan) query.Query {
	var parts []query.Query
	for _, part := range w.parts {
		var fields []query.Query
		for _, f := range rankedFields {
			fields = append(fields, part.query(f.field, f.boost)...)
		}
		parts = append(parts, bleve.NewDisjunctionQuery(fields...))
	}
	word := query.Query(bleve.NewConjunctionQuery(parts...))
	if len(w.stems) > 0 {
		var stems []query.Query
		for _, s := range w.stems {
			t := bleve.NewTermQuery(s)
			t.SetField(p.stemsField)
			stems = append(stems, t)
		}
		word = bleve.NewDisjunctionQuery(word, bleve.NewConjunctionQuery(stems...))
	}
	return word
}

// query is what finds the part in field, each hit weighing boost: a
// relevance search's (a plain search's fragments are inWordQuery's).
func (part partPlan) query(field string, boost float64) []query.Query {
	switch part.how {
	case wholeTerm:
		t := bleve.NewTermQuery(part.term)
		t.SetField(field)
		t.SetBoost(boost)
		return []query.Query{t}
	case inWord: // a lone spaceless character
		return []query.Query{holdersQuery{part: part.term, field: field, boost: boost}}
	}
	exact := bleve.NewTermQuery(part.term)
	exact.SetField(field)
	exact.SetBoost(boost)
	prefix := budgetedPrefix{prefix: part.term, field: field, boost: boost / 2}
	out := []query.Query{exact, prefix}
	if utf8.RuneCountInString(part.term) >= minFuzzyRunes {
		fuzzy := bleve.NewFuzzyQuery(part.term)
		fuzzy.SetField(field)
		fuzzy.SetFuzziness(1)
		fuzzy.SetBoost(boost / 2)
		out = append(out, fuzzy)
	}
	return out
}

// rankFirst puts the best scores first, the query's order breaking ties, and
// turns scoring on for this request only.
func rankFirst(req *bleve.SearchRequest) {
	req.Score = ""
	req.Sort = append(search.SortOrder{&search.SortScore{Desc: true}}, req.Sort...)
}
