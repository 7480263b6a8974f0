package index

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"

	"calendar/app/calendar"
)

// wordsTokenizer splits text into words: runs of letters, combining marks,
// digits and hyphens (what [\p{L}\p{M}\p{N}-]+ finds, at a fraction of bleve's
// regexp tokenizer's cost: it took 5 % of a rebuild's CPU), each cut to
// app.MaxWordBytes. The part of a run in a script written without spaces
// between words (Chinese, Japanese, Thai...: spaceless) is cut into
// overlapping pairs of characters instead, each character with its marks
// (bigrams: 北京音乐 is 北京, 京音, 音乐; a lone character stays alone), so
// that any part of it can be found without a dictionary of its words.
const wordsTokenizer = "calendar_words"

// Token types of the spaceless parts: a bigram, and a lone character.
const (
	gramToken = analysis.Ideographic
	loneToken = analysis.Single
)

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
	emit := func(start, end int, typ analysis.TokenType) {
		term := input[start:end]
		if len(term) > calendar.MaxWordBytes { // kept as cut, and searched so (app.CapWord)
			term = []byte(calendar.CapWord(string(term)))
		}
		out = append(out, &analysis.Token{Term: term, Start: start, End: end, Position: len(out) + 1, Type: typ})
	}
	word := -1 // where the spaced word being read starts
	// The spaceless part being read: how many characters, where the last
	// two start.
	units, prev, cur := 0, -1, -1
	endUnits := func(end int) {
		switch {
		case units == 1:
			emit(cur, end, loneToken)
		case units > 1:
			emit(prev, end, gramToken)
		}
		units = 0
	}
	for i := 0; i <= len(input); {
		kind, size := runeEnd, 0
		if i < len(input) {
			var r rune
			r, size = utf8.DecodeRune(input[i:])
			kind = kindOf(r)
		}
		switch {
		case kind == runeMark && (word >= 0 || units > 0):
			// a mark belongs to the character before it
		case kind == runeSpaceless:
			if word >= 0 {
				emit(word, i, analysis.AlphaNumeric)
				word = -1
			}
			if units > 1 {
				emit(prev, i, gramToken)
			}
			prev, cur, units = cur, i, units+1
		case kind == runeWord || kind == runeMark:
			endUnits(i)
			if word < 0 {
				word = i
			}
		default: // between words, or the end
			endUnits(i)
			if word >= 0 {
				emit(word, i, analysis.AlphaNumeric)
				word = -1
			}
		}
		if size == 0 {
			break
		}
		i += size
	}
	return out
}

// wordSpans are the byte ranges of text's runs of word characters, whole:
// what a search calls its words, before a spaceless run is cut into pairs.
func wordSpans(text string) [][2]int {
	var spans [][2]int
	start := -1
	for i, r := range text {
		if kindOf(r) != runeOther {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			spans = append(spans, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		spans = append(spans, [2]int{start, len(text)})
	}
	return spans
}

type runeKind int

const (
	runeOther runeKind = iota
	runeWord
	runeMark
	runeSpaceless
	runeEnd
)

func kindOf(r rune) runeKind {
	switch {
	case r < utf8.RuneSelf:
		if r == '-' || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') {
			return runeWord
		}
		return runeOther
	case unicode.IsMark(r):
		return runeMark
	case !unicode.IsLetter(r) && !unicode.IsNumber(r):
		return runeOther
	case spaceless(r):
		return runeSpaceless
	}
	return runeWord
}

// spacelessScripts are written without spaces between words. Korean is,
// between phrases, but a phrase holds a word and its particles
// (페스티벌에서, "at the festival"): its syllables are paired too.
var spacelessScripts = []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul,
	unicode.Bopomofo, unicode.Yi, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tai_Tham,
	unicode.Tai_Le, unicode.New_Tai_Lue, unicode.Tai_Viet, unicode.Javanese, unicode.Balinese}

func spaceless(r rune) bool {
	// Letters of no script among CJK symbols and half- and full-width
	// forms: the prolonged sound mark of katakana (パーティー), the iteration mark.
	if (0x3000 <= r && r <= 0x30ff || 0xff00 <= r && r <= 0xffef) && unicode.Is(unicode.Common, r) {
		return true
	}
	return unicode.In(r, spacelessScripts...)
}
