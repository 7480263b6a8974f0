package calendar

import "testing"

func TestWithinOneEdit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		want bool
	}{{"concert", "concrt", true}, {"concert", "concert", true}, {"concert", "koncert", true}, {"concert", "concerts", true},
		{"concert", "cnocert", false}, {"concert", "conce", false}, {"", "a", true}, {"ab", "ba", false}, {"東京", "東", true}} {
		if got := WithinOneEdit([]rune(c.a), []rune(c.b)); got != c.want {
			t.Errorf("%q %q: %v", c.a, c.b, got)
		}
	}
}
