package app

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParseDate: no input makes the parser panic, and it answers the same twice.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"tomorrow 9am", "next wednesday 4pm", "+1 week 2 days", "2018-01-01T16:00:00-0530",
		"@1700000000", "1/5/18", "5 January 2018", "12pm", "before my birthday", "", "99999999999999999999", "-5 days ago ago",
		"2021-02-30", "25:00", "t16:00", strings.Repeat("tomorrow ", 20)} {
		f.Add(s)
	}
	now := time.Date(2026, 3, 7, 10, 20, 30, 0, time.UTC)
	ny, _ := time.LoadLocation("America/New_York")
	f.Fuzz(func(t *testing.T, s string) {
		a, errA := ParseDate(s, now, ny)
		b, errB := ParseDate(s, now, ny)
		if (errA == nil) != (errB == nil) || !a.Equal(b) {
			t.Fatalf("%q parsed twice differently", s)
		}
	})
}

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
