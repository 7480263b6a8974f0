package index

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
	regexptokenizer "github.com/blevesearch/bleve/v2/analysis/tokenizer/regexp"

	"calendar/app/calendar"
)

// referenceTokens is what the tokenizer must find, written with regexps:
// the runs of [\p{L}\p{M}\p{N}-]+, a run's spaceless parts cut into its
// characters (each with its marks) and paired.
func referenceTokens(in string) []*analysis.Token {
	runs := regexptokenizer.NewRegexpTokenizer(regexp.MustCompile(`[\p{L}\p{M}\p{N}-]+`)).Tokenize([]byte(in))
	character := regexp.MustCompile(`.\p{M}*`)
	var out []*analysis.Token
	add := func(start, end int, typ analysis.TokenType) {
		out = append(out, &analysis.Token{Term: []byte(in[start:end]), Start: start, End: end, Position: len(out) + 1, Type: typ})
	}
	for _, run := range runs {
		text := in[run.Start:run.End]
		var units [][]int // the spaceless characters being read
		word := -1
		flush := func(end int) {
			if word >= 0 {
				add(run.Start+word, run.Start+end, analysis.AlphaNumeric)
				word = -1
			}
			if len(units) == 1 {
				add(run.Start+units[0][0], run.Start+units[0][1], loneToken)
			}
			for k := 0; k+1 < len(units); k++ {
				add(run.Start+units[k][0], run.Start+units[k+1][1], gramToken)
			}
			units = nil
		}
		for _, c := range character.FindAllStringIndex(text, -1) {
			r := []rune(text[c[0]:c[1]])[0]
			switch {
			case spaceless(r) && !unicode.IsMark(r): // a mark with no character before it is a word's
				if word >= 0 {
					flush(c[0])
				}
				units = append(units, c)
			case word < 0:
				flush(c[0])
				word = c[0]
			}
		}
		flush(len(text))
	}
	return out
}

// The hand-written tokenizer must find exactly the tokens the regexps
// find: same bytes (cut to app.MaxWordBytes), same offsets, same positions,
// same kinds.
func TestWordRunsFindWhatTheRegexpsFind(t *testing.T) {
	inputs := []string{
		"", " ", "jazz", "Jazz night, 8pm!", "café crème brûlée", "e\u0301te\u0301 (combining marks)",
		"rock-'n'-roll -- a-b", "½ ²³ Ⅻ ٣", "🎷jazz🎺", "tab\tnew\nline",
		"\xff\xfebad\xffutf8\xc3", "\xff\xff-\xc3\xa9", "trailing-", "-", "a", "\u0301alone",
		strings.Repeat("a", 200) + " b", strings.Repeat("é", 40), strings.Repeat("東", 30) + "x",
		"東京で会いましょう 2027", "北京爵士音乐节", "東京のジャズフェスティバル", "パーティー", "서울 재즈 페스티벌에서",
		"เทศกาลดนตรีแจ๊ส", "ສະບາຍດີ", "ភាសាខ្មែរ", "မြန်မာ", "संगीत समारोह", "Москва", "2027年6月", "abc東京def", "東 京",
		"ก" + strings.Repeat("\u0e49", 100), // one character whose marks outgrow a word
	}
	// Bytes that are not UTF-8 come from the fixed inputs: a rune of this
	// alphabet is always valid.
	alphabet := []rune("ab-é\u0301 1٣.,東京ジーเ\u0e35ด🎷\t\xff")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		r := make([]rune, rng.IntN(24))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(r))
	}
	for _, in := range inputs {
		want, got := referenceTokens(in), wordRuns{}.Tokenize([]byte(in))
		if len(got) != len(want) {
			t.Fatalf("%q: %d tokens %s, want %d %s", in, len(got), terms(got), len(want), terms(want))
		}
		for i := range want {
			w, g := want[i], got[i]
			if string(g.Term) != calendar.CapWord(string(w.Term)) || len(g.Term) > calendar.MaxWordBytes || g.Start != w.Start || g.End != w.End ||
				g.Position != w.Position || g.Type != w.Type {
				t.Fatalf("%q token %d: %q [%d,%d) at %d (%d), want %q [%d,%d) at %d (%d)", in, i, g.Term, g.Start, g.End, g.Position, g.Type,
					w.Term, w.Start, w.End, w.Position, w.Type)
			}
		}
	}
}

func terms(ts analysis.TokenStream) string {
	var out []string
	for _, t := range ts {
		out = append(out, string(t.Term))
	}
	return strings.Join(out, "|")
}

// What the words field keeps of real text in each script: words folded,
// spaceless runs in pairs.
func TestTheWordsOfEachScript(t *testing.T) {
	idx := openIndex(t, t.TempDir())
	defer idx.Close()
	folded := idx.current.Load().idx.analyzer(foldedAnalyzer)
	cases := map[string]string{
		"Café Crème, Straße": "cafe|creme|strasse",
		"e\u0301te\u0301":    "ete",
		"北京爵士音乐节":            "北京|京爵|爵士|士音|音乐|乐节",
		"東京のジャズフェスティバル":      "東京|京の|のジ|ジャ|ャズ|ズフ|フェ|ェス|ステ|ティ|ィバ|バル",
		"パーティー":              "パー|ーテ|ティ|ィー",
		"서울 재즈 페스티벌에서":       "서울|재즈|페스|스티|티벌|벌에|에서",
		"เทศกาลดนตรีแจ๊ส":    "เท|ทศ|ศก|กา|าล|ลด|ดน|นต|ตรี|รีแ|แจ๊|จ๊ส",
		"संगीत समारोह":       "संगीत|समारोह",
		"Москва, Αθήνα":      "москва|αθήνα",
		"2027年6月":            "2027|年|6|月",
		"東 京":                "東|京",
	}
	for in, want := range cases {
		if got := terms(folded.Analyze([]byte(in))); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}
