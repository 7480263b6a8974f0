package wordpress

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var slugChars = regexp.MustCompile(`^[a-z0-9_%-]*$`)

// FuzzSanitizeTitle: slugs hold only a-z 0-9 _ - %, no edge dashes, at most
// 200 bytes, and sanitizing a slug again changes nothing.
func FuzzSanitizeTitle(f *testing.F) {
	for _, s := range []string{"Hello World", "Café Crème", "中文", "<b>x</b> &amp; y", "---", "a/b.c", strings.Repeat("é", 300), "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		slug := SanitizeTitle(s)
		if !slugChars.MatchString(slug) || strings.HasPrefix(slug, "-") || strings.HasSuffix(slug, "-") || len(slug) > maxSlugLength || !utf8.ValidString(slug) {
			t.Fatalf("SanitizeTitle(%q) = %q", s, slug)
		}
		if again := SanitizeTitle(slug); again != slug {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, slug, again)
		}
	})
}
