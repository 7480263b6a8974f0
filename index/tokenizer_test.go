package index

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	regexptokenizer "github.com/blevesearch/bleve/v2/analysis/tokenizer/regexp"

	"calendar/app/calendar"
)

// The hand-written tokenizer must find exactly the tokens the regexp it
// replaced found: same bytes (cut to app.MaxWordBytes), same offsets, same
// positions.
func TestWordRunsFindWhatTheRegexpFound(t *testing.T) {
	reference := regexptokenizer.NewRegexpTokenizer(regexp.MustCompile(`[\p{L}\p{N}-]+`))
	inputs := []string{
		"", " ", "jazz", "Jazz night, 8pm!", "café crème brûlée", "e\u0301te\u0301 (combining marks)",
		"rock-'n'-roll -- a-b", "東京で会いましょう 2027", "½ ²³ Ⅻ ٣", "🎷jazz🎺", "tab\tnew\nline",
		"\xff\xfebad\xffutf8\xc3", "\xff\xff-\xc3\xa9", "trailing-", "-", "a",
		strings.Repeat("a", 200) + " b", strings.Repeat("é", 40), strings.Repeat("東", 30) + "x",
	}
	// Bytes that are not UTF-8 come from the fixed inputs: a rune of this
	// alphabet is always valid.
	alphabet := []rune("ab-é\u0301 1٣.,東🎷\t\xff")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		r := make([]rune, rng.IntN(24))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(r))
	}
	for _, in := range inputs {
		want, got := reference.Tokenize([]byte(in)), wordRuns{}.Tokenize([]byte(in))
		if len(got) != len(want) {
			t.Fatalf("%q: %d tokens, want %d", in, len(got), len(want))
		}
		for i := range want {
			w, g := want[i], got[i]
			if string(g.Term) != calendar.CapWord(string(w.Term)) || len(g.Term) > calendar.MaxWordBytes || g.Start != w.Start || g.End != w.End || g.Position != w.Position {
				t.Fatalf("%q token %d: %q [%d,%d) at %d, want %q [%d,%d) at %d", in, i, g.Term, g.Start, g.End, g.Position, w.Term, w.Start, w.End, w.Position)
			}
		}
	}
}
