package index

import (
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

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
	for _, w := range calendar.CapSearchWords(words) {
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
