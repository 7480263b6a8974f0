package strtotime

import (
	"strings"
	"testing"
	"time"
)

// FuzzParse: no input makes the parser panic, and it answers the same twice.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"tomorrow 9am", "next wednesday 4pm", "+1 week 2 days", "2018-01-01T16:00:00-0530",
		"@1700000000", "1/5/18", "5 January 2018", "12pm", "before my birthday", "", "99999999999999999999", "-5 days ago ago",
		"2021-02-30", "25:00", "t16:00", strings.Repeat("tomorrow ", 20)} {
		f.Add(s)
	}
	now := time.Date(2026, 3, 7, 10, 20, 30, 0, time.UTC)
	ny, _ := time.LoadLocation("America/New_York")
	f.Fuzz(func(t *testing.T, s string) {
		a, errA := Parse(s, now, ny)
		b, errB := Parse(s, now, ny)
		if (errA == nil) != (errB == nil) || !a.Equal(b) {
			t.Fatalf("%q parsed twice differently", s)
		}
	})
}
