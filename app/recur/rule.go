package recur

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/teambition/rrule-go"
)

// rule is an ROption with the defaults RFC 5545 takes from DTSTART filled in
// and its BYxxx lists turned into lookups, so a day or a time is tested in a
// few array reads.
type rule struct {
	freq     rrule.Frequency
	interval int64
	count    int
	until    time.Time // zero when the rule has no UNTIL
	wkst     int
	dtstart  time.Time
	start    date // DTSTART's wall-clock day
	startSec int  // and second of that day

	months       [13]bool
	monthDays    [32]bool // BYMONTHDAY=n
	negMonthDays [32]bool // BYMONTHDAY=-n
	yearDays     [367]bool
	negYearDays  [367]bool
	weekdays     [7]bool
	ordinals     []ordinal
	byMonth      []int // for the ranges of YEARLY ordinals
	weekNos      []int
	hours        [24]bool // HOURLY and MINUTELY: the hours a step may be on
	minutes      [60]bool // MINUTELY: the minutes a step may be on
	times        []int    // seconds into a period (day, hour or minute), sorted
	setPos       []int

	hasMonths, hasMonthDays, hasYearDays, hasWeekdays, hasHours, hasMinutes bool
}

// ordinal is BYDAY=1MO or -1FR: the nth such weekday of the month or year.
type ordinal struct{ wd, n int }

// maxYear is where rrule-go stops a rule that never ends.
const maxYear = 9999

// Intervals longer than these reach past maxYear in one step from any year
// of the era; capping them keeps the arithmetic on steps from overflowing.
var maxInterval = map[rrule.Frequency]int64{
	rrule.YEARLY:   10000,
	rrule.MONTHLY:  10000 * 12,
	rrule.WEEKLY:   10000 * 53,
	rrule.DAILY:    10000 * 366,
	rrule.HOURLY:   10000 * 366 * 24,
	rrule.MINUTELY: 10000 * 366 * 1440,
}

func newRule(opt rrule.ROption, dtstart time.Time) (*rule, error) {
	if err := validate(opt); err != nil {
		return nil, err
	}
	dtstart = dtstart.Truncate(time.Second)
	y, mo, d := dtstart.Date()
	h, mi, s := dtstart.Clock()
	r := &rule{
		freq:     opt.Freq,
		interval: min(max(int64(opt.Interval), 1), maxInterval[opt.Freq]),
		count:    max(opt.Count, 0),
		until:    opt.Until,
		wkst:     opt.Wkst.Day(),
		dtstart:  dtstart,
		start:    dateOf(daysFromCivil(y, int(mo), d)),
		startSec: h*3600 + mi*60 + s,
		weekNos:  opt.Byweekno,
		setPos:   opt.Bysetpos,
	}
	byMonth, byMonthDay, byDay := opt.Bymonth, opt.Bymonthday, opt.Byweekday
	if len(opt.Byweekno) == 0 && len(opt.Byyearday) == 0 && len(byMonthDay) == 0 && len(byDay) == 0 {
		switch r.freq {
		case rrule.YEARLY:
			if len(byMonth) == 0 {
				byMonth = []int{int(mo)}
			}
			byMonthDay = []int{d}
		case rrule.MONTHLY:
			byMonthDay = []int{d}
		case rrule.WEEKLY:
			byDay = []rrule.Weekday{weekdayValue(r.start.wd)}
		}
	}
	r.byMonth = byMonth
	for _, m := range byMonth {
		r.months[m], r.hasMonths = true, true
	}
	for _, v := range byMonthDay {
		if v > 0 {
			r.monthDays[v] = true
		} else {
			r.negMonthDays[-v] = true
		}
		r.hasMonthDays = true
	}
	for _, v := range opt.Byyearday {
		if v > 0 {
			r.yearDays[v] = true
		} else {
			r.negYearDays[-v] = true
		}
		r.hasYearDays = true
	}
	for _, w := range byDay {
		// Ordinals count within a month or a year; finer rules drop them.
		if w.N() == 0 || r.freq > rrule.MONTHLY {
			r.weekdays[w.Day()], r.hasWeekdays = true, true
		} else {
			r.ordinals = append(r.ordinals, ordinal{w.Day(), w.N()})
		}
	}
	for _, v := range opt.Byhour {
		r.hours[v], r.hasHours = true, true
	}
	for _, v := range opt.Byminute {
		r.minutes[v], r.hasMinutes = true, true
	}
	r.times = timesOf(r.freq, opt, h, mi, s)
	return r, nil
}

// timesOf lists the instants a period expands into, as offsets within the
// period. The hour and minute of HOURLY and MINUTELY are the step's own, so
// only the finer parts expand there. A repeated value repeats the time, as
// in rrule-go.
func timesOf(freq rrule.Frequency, opt rrule.ROption, h, mi, s int) []int {
	or := func(v []int, def int) []int {
		if len(v) == 0 {
			return []int{def}
		}
		return v
	}
	hours, minutes, seconds := or(opt.Byhour, h), or(opt.Byminute, mi), or(opt.Bysecond, s)
	switch freq {
	case rrule.HOURLY:
		hours = []int{0}
	case rrule.MINUTELY:
		hours, minutes = []int{0}, []int{0}
	}
	out := make([]int, 0, len(hours)*len(minutes)*len(seconds))
	for _, hh := range hours {
		for _, mm := range minutes {
			for _, ss := range seconds {
				out = append(out, hh*3600+mm*60+ss)
			}
		}
	}
	slices.Sort(out)
	return out
}

var weekdayValues = []rrule.Weekday{rrule.MO, rrule.TU, rrule.WE, rrule.TH, rrule.FR, rrule.SA, rrule.SU}

func weekdayValue(wd int) rrule.Weekday { return weekdayValues[wd] }

// validate refuses what rrule.NewRRule refuses, and what the service does
// not expand.
func validate(opt rrule.ROption) error {
	switch opt.Freq {
	case rrule.YEARLY, rrule.MONTHLY, rrule.WEEKLY, rrule.DAILY, rrule.HOURLY, rrule.MINUTELY:
	case rrule.SECONDLY:
		return errors.New("FREQ=SECONDLY is not expanded")
	default:
		return fmt.Errorf("unknown FREQ %d", opt.Freq)
	}
	if len(opt.Byeaster) > 0 {
		return errors.New("BYEASTER is not part of RFC 5545")
	}
	if opt.Interval < 0 {
		return errors.New("INTERVAL must be positive")
	}
	bounds := []struct {
		name      string
		values    []int
		low, high int
		negative  bool
	}{
		{"BYSECOND", opt.Bysecond, 0, 59, false},
		{"BYMINUTE", opt.Byminute, 0, 59, false},
		{"BYHOUR", opt.Byhour, 0, 23, false},
		{"BYMONTHDAY", opt.Bymonthday, 1, 31, true},
		{"BYYEARDAY", opt.Byyearday, 1, 366, true},
		{"BYWEEKNO", opt.Byweekno, 1, 53, true},
		{"BYMONTH", opt.Bymonth, 1, 12, false},
		{"BYSETPOS", opt.Bysetpos, 1, 366, true},
	}
	for _, b := range bounds {
		for _, v := range b.values {
			if (v < b.low || v > b.high) && (!b.negative || -v < b.low || -v > b.high) {
				if b.negative {
					return fmt.Errorf("%s must be between %d and %d or -%d and -%d", b.name, b.low, b.high, b.low, b.high)
				}
				return fmt.Errorf("%s must be between %d and %d", b.name, b.low, b.high)
			}
		}
	}
	for _, w := range opt.Byweekday {
		if w.N() < -53 || w.N() > 53 {
			return errors.New("BYDAY ordinals must be between -53 and 53")
		}
		if w.Day() < 0 || w.Day() > 6 {
			return errors.New("BYDAY names a day that is not a weekday")
		}
	}
	if opt.Wkst.Day() < 0 || opt.Wkst.Day() > 6 {
		return errors.New("WKST names a day that is not a weekday")
	}
	return nil
}
