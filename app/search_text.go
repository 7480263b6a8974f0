package app

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"calendar/app/calendar"
)

// SearchFragments splits a search the plugin's way: lower-cased, on every run
// of characters other than ASCII letters, digits and hyphens, but for the
// letters and digits of other scripts than Latin (with their marks), which
// WordPress finds as it finds any character; bounded as CapSearchWords says.
// A Latin letter with no ASCII form (ø, ß) still splits, as it always did.
func SearchFragments(search string) []string {
	var words []string
	start, other := -1, false
	lower := strings.ToLower(search)
	for i, r := range lower {
		kept := r < utf8.RuneSelf && (r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z')
		switch {
		case otherScript(r):
			kept, other = true, true
		case other && unicode.IsMark(r):
			kept = true
		default:
			other = false
		}
		if kept && start < 0 {
			start = i
		} else if !kept && start >= 0 {
			words, start = append(words, lower[start:i]), -1
		}
	}
	if start >= 0 {
		words = append(words, lower[start:])
	}
	return calendar.CapSearchWords(words)
}

// otherScript: a letter or a digit of another script than Latin (Chinese,
// Thai, Cyrillic...), ASCII's digits aside.
func otherScript(r rune) bool {
	return r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsNumber(r)) && !unicode.Is(unicode.Latin, r)
}

// foldSearch folds an event search as the index folds the words it keeps:
// Latin letters lose their accents (calendar.FoldTitle's rule: café, cafe),
// and the other scripts are kept composed, marks and all (a Thai vowel, the
// voicing of ジ, a Korean syllable), lower-cased.
func foldSearch(search string) string {
	var b strings.Builder
	other := false
	for _, r := range norm.NFC.String(search) {
		if otherScript(r) || other && unicode.IsMark(r) {
			b.WriteRune(unicode.ToLower(r))
			other = true
			continue
		}
		other = false
		for _, d := range norm.NFD.String(string(r)) {
			if !unicode.Is(unicode.Mn, d) {
				b.WriteRune(unicode.ToLower(d))
			}
		}
	}
	return b.String()
}
