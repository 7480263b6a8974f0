package calendar

import "slices"

// WithinOneEdit says whether a and b differ by at most one rune inserted,
// deleted or replaced: the one typo a relevance search forgives (a fuzzy
// query of fuzziness 1), which the highlights and the facet search decide
// the same way.
func WithinOneEdit(a, b []rune) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return i >= len(a)-1 || slices.Equal(a[i+1:], b[i+1:])
	}
	return slices.Equal(a[i+1:], b[i:])
}
