package index

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"

	"calendar/app/calendar"
)

// wordsTokenizer splits text into runs of letters, digits and hyphens, cut to
// app.MaxWordBytes: the tokens bleve's regexp tokenizer finds with
// [\p{L}\p{N}-]+, at a fraction of its cost (it took 5 % of a rebuild's CPU, half of it classifying every
// token with another regexp and a number parse, for a type nothing here reads).
const wordsTokenizer = "calendar_words"

func init() {
	if err := registry.RegisterTokenizer(wordsTokenizer, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return wordRuns{}, nil
	}); err != nil {
		panic(err)
	}
}

type wordRuns struct{}

func (wordRuns) Tokenize(input []byte) analysis.TokenStream {
	out := make(analysis.TokenStream, 0, len(input)/6+1)
	start := -1
	for i := 0; i <= len(input); {
		inWord, size := false, 1
		if i < len(input) {
			var r rune
			r, size = utf8.DecodeRune(input[i:])
			inWord = r == '-' || unicode.IsLetter(r) || unicode.IsNumber(r)
		}
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			term := input[start:i]
			if len(term) > calendar.MaxWordBytes { // kept as cut, and searched so (app.CapWord)
				term = []byte(calendar.CapWord(string(term)))
			}
			out = append(out, &analysis.Token{Term: term, Start: start, End: i, Position: len(out) + 1, Type: analysis.AlphaNumeric})
			start = -1
		}
		i += size
	}
	return out
}
