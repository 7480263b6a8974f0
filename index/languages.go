package index

// Analysis in a site's languages: an event's words once more, stemmed, in
// one field per language the index was opened with, so that a relevance
// search in French finds "bal" for "bals" and leaves out "le" and "des".

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/registry"
	"golang.org/x/text/unicode/norm"

	"calendar/app/calendar"

	// The languages bleve can stem, each registering its analyzer.
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ar"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ckb"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/da"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/de"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/en"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/es"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/fa"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/fi"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/fr"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/hi"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/hr"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/hu"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/it"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/nl"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/no"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/pt"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ro"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ru"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/sv"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/tr"
)

// Languages are those an index can be opened with: the languages with a
// stemmer and stop words among bleve's analyzers.
var Languages = []string{"ar", "ckb", "da", "de", "en", "es", "fa", "fi", "fr", "hi", "hr", "hu", "it", "nl", "no",
	"pt", "ro", "ru", "sv", "tr"}

// stemsField holds an event's title, content and excerpt stemmed in lang.
func stemsField(lang string) string { return "stems_" + lang }

// stemsAnalyzer is the analyzer of stemsField(lang): bleve's analyzer of the
// language with this index's tokenizer (so that a word is the same word in
// every field, and a highlight's offsets are the text's own), without its
// character filters (Persian's turns zero-width non-joiners into spaces: the
// tokenizer splits there anyway), spaceless scripts left out (they have no
// stems: their pairs are in the words field), and folded as the words field
// is after stemming (stemmers read the accents).
func stemsAnalyzer(lang string) string { return "calendar_stems_" + lang }

// foldFilter is a token filter: NFC, then accents and other Latin letters
// folded to ASCII (café, cafe; straße, strasse) as WordPress' database
// collation compares them; cut to app.MaxWordBytes again, since folding can
// lengthen a word. Folding tokens rather than the text keeps their offsets
// the text's own.
const foldFilter = "calendar_fold"

type folding struct{}

var asciiFolding = asciifolding.New()

func (folding) Filter(in analysis.TokenStream) analysis.TokenStream {
	for _, t := range in {
		if !isASCII(t.Term) {
			t.Term = asciiFolding.Filter(norm.NFC.Bytes(t.Term))
			if len(t.Term) > calendar.MaxWordBytes {
				t.Term = []byte(calendar.CapWord(string(t.Term)))
			}
		}
	}
	return in
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// noSpaceless is a token filter that drops the tokens of spaceless scripts.
type noSpaceless struct{}

func (noSpaceless) Filter(in analysis.TokenStream) analysis.TokenStream {
	return slices.DeleteFunc(in, func(t *analysis.Token) bool { return t.Type == gramToken || t.Type == loneToken })
}

func init() {
	if err := registry.RegisterTokenFilter(foldFilter, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return folding{}, nil
	}); err != nil {
		panic(err)
	}
	for _, lang := range Languages {
		if err := registry.RegisterAnalyzer(stemsAnalyzer(lang), func(_ map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
			return newStemsAnalyzer(lang, cache)
		}); err != nil {
			panic(err)
		}
	}
}

func newStemsAnalyzer(lang string, cache *registry.Cache) (analysis.Analyzer, error) {
	a, err := cache.AnalyzerNamed(lang)
	if err != nil {
		return nil, err
	}
	base, ok := a.(*analysis.DefaultAnalyzer)
	if !ok {
		return nil, fmt.Errorf("the analyzer of %s is a %T", lang, a)
	}
	filters := []analysis.TokenFilter{noSpaceless{}}
	filters = append(filters, base.TokenFilters...)
	filters = append(filters, folding{}, lowercase.NewLowerCaseFilter())
	return &analysis.DefaultAnalyzer{Tokenizer: wordRuns{}, TokenFilters: filters}, nil
}

// checkLanguages refuses a language the index cannot analyze.
func checkLanguages(langs []string) error {
	for _, l := range langs {
		if !slices.Contains(Languages, l) {
			return fmt.Errorf("no analysis for the language %q (there is for %v)", l, Languages)
		}
	}
	return nil
}
