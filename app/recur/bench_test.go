package recur

import (
	"testing"
	"time"

	"github.com/teambition/rrule-go"
)

func benchmarkExpand(b *testing.B, rule string, span int) {
	opt := mustRule(b, rule)
	until := years(span)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Expand(opt, dtstart, dtstart.Add(-time.Second), until, 100000, Budget{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExpandWeeklyOverTwoYears(b *testing.B) {
	benchmarkExpand(b, "FREQ=WEEKLY;BYDAY=TU,TH", 2)
}

func BenchmarkExpandNeverMatchingMinutelyOverTwoYears(b *testing.B) {
	benchmarkExpand(b, "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30", 2)
}

func BenchmarkExpandNeverMatchingMinutelyOverTenYears(b *testing.B) {
	benchmarkExpand(b, "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30", 10)
}

// rrule-go on the weekly rule, as the service used it, for comparison.
func BenchmarkRRuleGoWeeklyOverTwoYears(b *testing.B) {
	opt := mustRule(b, "FREQ=WEEKLY;BYDAY=TU,TH")
	opt.Dtstart, opt.Until = dtstart, years(2)
	b.ReportAllocs()
	for b.Loop() {
		r, err := rrule.NewRRule(opt)
		if err != nil {
			b.Fatal(err)
		}
		set := &rrule.Set{}
		set.RRule(r)
		set.All()
	}
}
