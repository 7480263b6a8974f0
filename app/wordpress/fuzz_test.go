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

// FuzzDoBlocks: block rendering never grows a text by more than
// maxBlockGrowth, and leaves a text without "<!--" as it is.
func FuzzDoBlocks(f *testing.F) {
	for _, s := range []string{
		"<!-- wp:paragraph -->\n<p>x</p>\n<!-- /wp:paragraph -->", "<!-- wp:latest-posts /-->", "lead <!-- wp:group -->A<!-- wp:p -->B",
		`<!-- wp:p {"a":"} -->"} -->x<!-- /wp:p -->`, "<!-- /wp:a -->0", strings.Repeat("<!-- wp:group -->", 3000),
		strings.Repeat("<!-- wp:group --><div>", 2000) + strings.Repeat("</div><!-- /wp:group -->", 2000),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := doBlocks(s)
		if len(out) > len(s)+maxBlockGrowth {
			t.Fatalf("doBlocks(%q) made %d bytes", s, len(out))
		}
		if !strings.Contains(s, "<!--") && out != s {
			t.Fatalf("doBlocks(%q) = %q", s, out)
		}
		RenderContent(s)
	})
}
