package app

import (
	"html"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"calendar/app/calendar"
)

// A snippet of any text, with matches anywhere, is valid UTF-8 of at most
// snippetRunes characters of the text (and its ellipses), holds the first
// match whole when it has one, and escapes everything but its marks.
func TestASnippetIsBoundedAndHoldsTheFirstMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []rune("ab <>&\"'é東ดี ")
	mark := regexp.MustCompile(`</?mark>`)
	for range 3000 {
		r := make([]rune, rng.IntN(400))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		text := string(r)
		var spans []calendar.Span
		for at := 0; at < len(text); {
			_, size := utf8.DecodeRuneInString(text[at:])
			if rng.IntN(40) == 0 {
				end := forward(text, at, 1+rng.IntN(5))
				spans = append(spans, calendar.Span{Start: at, End: end})
				at = end + 1
				for at < len(text) && !utf8.RuneStart(text[at]) {
					at++
				}
				continue
			}
			at += size
		}
		got := snippet(text, spans)
		plain := html.UnescapeString(mark.ReplaceAllString(got, ""))
		inner := strings.TrimSuffix(strings.TrimPrefix(plain, ellipsis), ellipsis)
		switch {
		case !utf8.ValidString(got):
			t.Fatalf("%q: invalid UTF-8 %q", text, got)
		case utf8.RuneCountInString(inner) > snippetRunes || !strings.Contains(text, inner):
			t.Fatalf("%q: %q is not a window of the text", text, got)
		case strings.ContainsAny(mark.ReplaceAllString(got, ""), `<>"`):
			t.Fatalf("%q: %q is not escaped", text, got)
		case len(spans) > 0 && !strings.Contains(got, "<mark>"+html.EscapeString(text[spans[0].Start:spans[0].End])+"</mark>"):
			t.Fatalf("%q: %q lost the first match %q", text, got, text[spans[0].Start:spans[0].End])
		}
	}
}
