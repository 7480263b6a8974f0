package wordpress

import (
	"context"
	"strings"
	"testing"
)

func TestSanitizeTitleLikeWordPress(t *testing.T) {
	cases := map[string]string{
		"Hello World":            "hello-world",
		"  Jazz   Night  ":       "jazz-night",
		"Café Crème":             "cafe-creme",
		"Straße":                 "strasse",
		"Ærø":                    "aero",
		"A/B.C":                  "a-b-c",
		"<b>Bold</b> move":       "bold-move",
		"Rock &amp; Roll":        "rock-roll",
		"Rock & Roll":            "rock-roll",
		"What's up?":             "whats-up",
		"en–dash — em":           "en-dash-em",
		"10 × 20":                "10-x-20",
		"under_score":            "under_score",
		"---trim---":             "trim",
		"中文":                     "%e4%b8%ad%e6%96%87",
		"Мир":                    "%d0%bc%d0%b8%d1%80",
		"!!!":                    "",
		strings.Repeat("a", 250): strings.Repeat("a", 200),
		strings.Repeat("中", 100): strings.Repeat("%e4%b8%ad", 22),
	}
	for in, want := range cases {
		if got := SanitizeTitle(in); got != want {
			t.Errorf("SanitizeTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUniqueSlugAddsTheFirstFreeSuffix(t *testing.T) {
	used := map[string]bool{"jazz": true, "jazz-2": true, "feed-2": true}
	taken := func(_ context.Context, s string) (bool, error) { return used[s], nil }
	for base, want := range map[string]string{"jazz": "jazz-3", "blues": "blues", "feed": "feed-3", "": "untitled"} {
		got, _, err := UniqueSlug(context.Background(), base, 1, taken)
		if err != nil || got != want {
			t.Errorf("uniqueSlug(%q) = %q, %v; want %q", base, got, err, want)
		}
	}
	if got, n, _ := UniqueSlug(context.Background(), "blues", 4, taken); got != "blues-4" || n != 4 {
		t.Errorf("from the 4th on: %q (%d), want blues-4", got, n)
	}
}
