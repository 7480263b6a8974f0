package index

import (
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app"
)

// foldedAnalyzer is wordsAnalyzer with accents folded to ASCII first, so that
// "cafe" and "café" are one word, as they are to WordPress' database collation.
const foldedAnalyzer = "folded_words"

// fieldFoldedTitle holds the words of an event's title a second time
// (fieldWords has them all), so that a title hit weighs more.
const fieldFoldedTitle = "folded_title"

// rankedFields are where a relevance search looks, with the weight of a hit.
var rankedFields = []struct {
	field string
	boost float64
}{{fieldFoldedTitle, 4}, {fieldWords, 1}}

// minFuzzyRunes: shorter words have too many neighbours one edit away ("rock",
// "rick", "rack") for a typo to be told from another word.
const minFuzzyRunes = 5

func addRelevanceMapping(m *mapping.IndexMappingImpl, doc *mapping.DocumentMapping) {
	if err := m.AddCustomAnalyzer(foldedAnalyzer, map[string]any{"type": custom.Name, "tokenizer": wordsTokenizer,
		"char_filters": []any{asciifolding.Name}, "token_filters": []any{lowercase.Name}}); err != nil {
		panic(err)
	}
	words := bleve.NewTextFieldMapping()
	words.Analyzer = foldedAnalyzer
	words.Store, words.IncludeInAll, words.IncludeTermVectors, words.DocValues = false, false, false, false
	doc.AddFieldMappingsAt(fieldWords, words)
	doc.AddFieldMappingsAt(fieldFoldedTitle, words)
}

func addRelevanceFields(d postDoc, p *app.Post) {
	if p.Type == app.PostTypeEvent && p.Title != "" {
		d[fieldFoldedTitle] = p.Title
	}
}

// rankedQuery keeps what filter selects (without scoring it: keyword fields
// with several values would weigh in) among the events where every word of
// text occurs in a folded field as a word, a word's prefix, or with one typo
// when the word is long enough.
func (i *Index) rankedQuery(filter query.Query, text string) query.Query {
	analyzer := i.bleve.Mapping().AnalyzerNamed(foldedAnalyzer)
	var words []string
	for _, tok := range analyzer.Analyze([]byte(text)) {
		words = append(words, string(tok.Term))
	}
	var all []query.Query
	for _, w := range app.CapSearchWords(words) {
		var any []query.Query
		for _, f := range rankedFields {
			exact := bleve.NewTermQuery(w)
			exact.SetField(f.field)
			exact.SetBoost(f.boost)
			prefix := bleve.NewPrefixQuery(w)
			prefix.SetField(f.field)
			prefix.SetBoost(f.boost / 2)
			any = append(any, exact, prefix)
			if utf8.RuneCountInString(w) >= minFuzzyRunes {
				fuzzy := bleve.NewFuzzyQuery(w)
				fuzzy.SetField(f.field)
				fuzzy.SetFuzziness(1)
				fuzzy.SetBoost(f.boost / 2)
				any = append(any, fuzzy)
			}
		}
		all = append(all, bleve.NewDisjunctionQuery(any...))
	}
	b := bleve.NewBooleanQuery()
	if len(all) > 0 {
		b.AddMust(all...)
	} else {
		b.AddMust(bleve.NewMatchAllQuery())
	}
	b.AddFilter(filter)
	return b
}

// rankFirst puts the best scores first, the query's order breaking ties, and
// turns scoring on for this request only.
func rankFirst(req *bleve.SearchRequest) {
	req.Score = ""
	req.Sort = append(search.SortOrder{&search.SortScore{Desc: true}}, req.Sort...)
}
