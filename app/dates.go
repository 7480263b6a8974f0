package app

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DateFormat is how the API writes dates: local or UTC wall time to the second.
const DateFormat = "2006-01-02 15:04:05"

// errNotADate is the answer to an input ParseDate does not understand.
var errNotADate = errors.New("not a date")

// ParseDate reads a date the way PHP's strtotime does, relative to now: absolute
// dates (2018-01-01, 2018/01/05, 01/05/2018, 05-01-2018, 05.01.2018, January 5,
// 2018, 5 jan), times (4pm, 9:30am, 16:00:00, noon, midnight), ISO 8601 with
// an offset, keywords (now, today, tomorrow, yesterday), weekdays (wednesday,
// next wednesday, last monday), relative amounts (+5 days, 2 weeks ago, next
// month) and @timestamps; a string of digits is a Unix timestamp. Zone-less
// values are wall-clock times in loc; a value with an offset keeps it.
//
// Instants outside years 1 to 9999, in UTC or in loc, are refused: every date
// the service writes has four digits of year.
func ParseDate(s string, now time.Time, loc *time.Location) (time.Time, error) {
	t, err := parseDate(s, now, loc)
	if err != nil || !writableYear(t) || !writableYear(t.In(loc)) {
		return time.Time{}, errNotADate
	}
	return t, nil
}

func writableYear(t time.Time) bool { return t.Year() >= 1 && t.Year() <= 9999 }

func parseDate(s string, now time.Time, loc *time.Location) (time.Time, error) {
	in := strings.ToLower(strings.TrimSpace(s))
	if in == "" || len(in) > 100 {
		return time.Time{}, errNotADate
	}
	if digitsOnly(in) {
		n, err := strconv.ParseInt(in, 10, 64)
		if err != nil {
			return time.Time{}, errNotADate
		}
		return time.Unix(n, 0).In(loc), nil
	}
	var p dateParse
	for rest := in; ; {
		rest = strings.TrimLeft(rest, " \t,")
		if rest == "" {
			break
		}
		n, err := p.next(rest)
		if err != nil {
			return time.Time{}, err
		}
		rest = rest[n:]
	}
	return p.resolve(now, loc)
}

func digitsOnly(s string) bool {
	if strings.HasPrefix(s, "-") {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// maxOffsetHours bounds an offset from UTC: no zone is further than 14 hours.
const maxOffsetHours = 14

// dateParse collects what the tokens of an input set, as PHP's parser does.
type dateParse struct {
	timestamp       *int64
	haveDate        bool
	year, month     int
	day             int
	yearFromNow     bool // a month-day without a year
	haveTime        bool
	hour, min, sec  int
	resetTime       bool // today, tomorrow, a weekday...: midnight unless a time is given
	zone            *time.Location
	relY, relM      int
	relD, relH      int
	relMin, relS    int
	weekday         int // 0 Sunday ... 6 Saturday; -1 none
	weekdayBehavior int
	haveWeekday     bool
}

const (
	monthNames   = `january|february|march|april|may|june|july|august|september|october|november|december|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec`
	weekdayNames = `wednesday|thursday|saturday|tuesday|monday|friday|sunday|thurs|tues|thur|wed|thu|sat|tue|mon|fri|sun`
	unitNames    = `fortnights|fortnight|seconds|minutes|second|minute|months|month|weeks|hours|years|days|secs|mins|week|hour|year|day|sec|min`
	relativeText = `next|last|previous|this`
)

// dateToken is one form the parser knows: a pattern anchored at the start of
// the remaining input, and what a match sets.
type dateToken struct {
	re  *regexp.Regexp
	set func(p *dateParse, m []string) error
}

func tok(pattern string, set func(p *dateParse, m []string) error) dateToken {
	return dateToken{re: regexp.MustCompile(`^(?:` + pattern + `)`), set: set}
}

// Order matters: the first form that matches wins, so longer forms come first.
var dateTokens = []dateToken{
	tok(`@(-?\d+)`, func(p *dateParse, m []string) error {
		n, err := strconv.ParseInt(m[1], 10, 64)
		p.timestamp = &n
		return err
	}),
	tok(`(\d{4})-(\d{1,2})-(\d{1,2})(?:t|\b)`, setYMD(1, 2, 3)),
	tok(`(\d{4})/(\d{1,2})/(\d{1,2})\b`, setYMD(1, 2, 3)),
	tok(`(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})\b`, setYMD(3, 1, 2)),
	tok(`(\d{1,2})/(\d{1,2})\b`, setYMD(0, 1, 2)),
	tok(`(\d{1,2})[-.](\d{1,2})[-.](\d{4})\b`, setYMD(3, 2, 1)),
	tok(`(`+monthNames+`)\s+(\d{4})\b`, func(p *dateParse, m []string) error {
		return p.setDate(atoi(m[2]), monthNumber(m[1]), 1, false)
	}),
	tok(`(`+monthNames+`)\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s*(\d{4})\b)?`, func(p *dateParse, m []string) error {
		return p.setDate(atoi(m[3]), monthNumber(m[1]), atoi(m[2]), m[3] == "")
	}),
	tok(`(\d{1,2})(?:st|nd|rd|th)?\s*(`+monthNames+`)\b(?:,?\s*(\d{4})\b)?`, func(p *dateParse, m []string) error {
		return p.setDate(atoi(m[3]), monthNumber(m[2]), atoi(m[1]), m[3] == "")
	}),
	tok(`t?(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])\.?m\.?\b`, func(p *dateParse, m []string) error {
		h := atoi(m[1])
		if h < 1 || h > 12 {
			return errNotADate
		}
		if h == 12 {
			h = 0
		}
		if m[4] == "p" {
			h += 12
		}
		return p.setTime(h, atoi(m[2]), atoi(m[3]))
	}),
	tok(`t?(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?`, func(p *dateParse, m []string) error {
		return p.setTime(atoi(m[1]), atoi(m[2]), atoi(m[3]))
	}),
	tok(`(z|utc|gmt)\b`, func(p *dateParse, m []string) error { return p.setZone(time.UTC) }),
	tok(`([+-])(\d{2}):?(\d{2})\b`, func(p *dateParse, m []string) error {
		if !p.haveTime {
			return errNotADate
		}
		if h, min := atoi(m[2]), atoi(m[3]); h > maxOffsetHours || min > 59 || (h == maxOffsetHours && min > 0) {
			return errNotADate
		}
		offset := (atoi(m[2])*60 + atoi(m[3])) * 60
		if m[1] == "-" {
			offset = -offset
		}
		return p.setZone(time.FixedZone("", offset))
	}),
	tok(`(now)\b`, func(p *dateParse, m []string) error { return nil }),
	tok(`(today|midnight)\b`, func(p *dateParse, m []string) error { p.resetTime = true; return nil }),
	tok(`(noon)\b`, func(p *dateParse, m []string) error { return p.setTime(12, 0, 0) }),
	tok(`(tomorrow)\b`, func(p *dateParse, m []string) error { p.relD++; p.resetTime = true; return nil }),
	tok(`(yesterday)\b`, func(p *dateParse, m []string) error { p.relD--; p.resetTime = true; return nil }),
	tok(`(`+relativeText+`)\s+(`+weekdayNames+`)\b`, func(p *dateParse, m []string) error {
		amount, behavior := relativeAmount(m[1])
		if amount > 0 {
			p.relD += (amount - 1) * 7
		} else {
			p.relD += amount * 7
		}
		return p.setWeekday(weekdayNumber(m[2]), behavior)
	}),
	tok(`(`+relativeText+`)\s+(week)\b`, func(p *dateParse, m []string) error {
		amount, _ := relativeAmount(m[1])
		p.relD += amount * 7
		p.weekday, p.weekdayBehavior, p.haveWeekday = 1, 2, true // the Monday of that week
		return nil
	}),
	tok(`(`+relativeText+`)\s+(`+unitNames+`)\b`, func(p *dateParse, m []string) error {
		amount, _ := relativeAmount(m[1])
		p.addRelative(amount, m[2])
		return nil
	}),
	tok(`([+-]?)\s*(\d+)\s*(`+unitNames+`)\b(\s+ago\b)?`, func(p *dateParse, m []string) error {
		n := atoi(m[2])
		if m[1] == "-" {
			n = -n
		}
		p.addRelative(n, m[3])
		if m[4] != "" {
			p.negateRelative()
		}
		return nil
	}),
	tok(`(`+weekdayNames+`)\b`, func(p *dateParse, m []string) error {
		return p.setWeekday(weekdayNumber(m[1]), 1)
	}),
}

// next consumes one token at the start of rest and returns its length.
func (p *dateParse) next(rest string) (int, error) {
	for _, t := range dateTokens {
		if m := t.re.FindStringSubmatch(rest); m != nil {
			if err := t.set(p, m); err != nil {
				return 0, err
			}
			return len(m[0]), nil
		}
	}
	return 0, errNotADate
}

func setYMD(y, m, d int) func(p *dateParse, g []string) error {
	return func(p *dateParse, g []string) error {
		year := 0
		if y > 0 {
			year = atoi(g[y])
			if len(g[y]) == 2 { // PHP: 00-69 are 2000s, 70-99 1900s
				if year < 70 {
					year += 2000
				} else {
					year += 1900
				}
			}
		}
		return p.setDate(year, atoi(g[m]), atoi(g[d]), y == 0)
	}
}

func (p *dateParse) setDate(year, month, day int, yearFromNow bool) error {
	if p.haveDate || month < 1 || month > 12 || day < 1 || day > 31 {
		return errNotADate
	}
	p.haveDate, p.year, p.month, p.day, p.yearFromNow = true, year, month, day, yearFromNow
	return nil
}

func (p *dateParse) setTime(h, m, s int) error {
	if p.haveTime || h > 23 || m > 59 || s > 59 {
		return errNotADate
	}
	p.haveTime, p.hour, p.min, p.sec = true, h, m, s
	return nil
}

func (p *dateParse) setZone(z *time.Location) error {
	if p.zone != nil {
		return errNotADate
	}
	p.zone = z
	return nil
}

func (p *dateParse) setWeekday(day, behavior int) error {
	if p.haveWeekday {
		return errNotADate
	}
	p.weekday, p.weekdayBehavior, p.haveWeekday, p.resetTime = day, behavior, true, true
	return nil
}

func (p *dateParse) addRelative(n int, unit string) {
	switch {
	case strings.HasPrefix(unit, "sec"):
		p.relS += n
	case strings.HasPrefix(unit, "min"):
		p.relMin += n
	case strings.HasPrefix(unit, "hour"):
		p.relH += n
	case strings.HasPrefix(unit, "day"):
		p.relD += n
	case strings.HasPrefix(unit, "week"):
		p.relD += 7 * n
	case strings.HasPrefix(unit, "fortnight"):
		p.relD += 14 * n
	case strings.HasPrefix(unit, "month"):
		p.relM += n
	case strings.HasPrefix(unit, "year"):
		p.relY += n
	}
}

// negateRelative is "ago": it turns every relative amount so far around.
func (p *dateParse) negateRelative() {
	p.relY, p.relM, p.relD, p.relH, p.relMin, p.relS = -p.relY, -p.relM, -p.relD, -p.relH, -p.relMin, -p.relS
}

// resolve applies what was parsed to now, in PHP's order: the date, the time,
// the weekday, then the relative amounts, on the wall clock of the zone.
func (p *dateParse) resolve(now time.Time, loc *time.Location) (time.Time, error) {
	if p.timestamp != nil {
		if p.haveDate || p.haveTime || p.haveWeekday {
			return time.Time{}, errNotADate
		}
		return time.Unix(*p.timestamp, 0).In(loc), nil
	}
	zone := loc
	if p.zone != nil {
		zone = p.zone
	}
	base := now.In(zone)
	y, mo, d := base.Date()
	month := int(mo)
	h, mi, s := base.Clock()
	if p.haveDate {
		month, d = p.month, p.day
		if !p.yearFromNow {
			y = p.year
		}
	}
	if p.haveDate || p.resetTime {
		h, mi, s = 0, 0, 0
	}
	if p.haveTime {
		h, mi, s = p.hour, p.min, p.sec
	}
	if p.haveWeekday {
		d += p.weekdayShift(time.Date(y, time.Month(month), d, 0, 0, 0, 0, time.UTC).Weekday())
	}
	return wallClock(y+p.relY, month+p.relM, d+p.relD, h+p.relH, mi+p.relMin, s+p.relS, zone), nil
}

// wallClock is the instant a (normalized) wall-clock time names in zone. A time
// that a daylight-saving change skips is read with the offset in force before
// the change, as PHP does: 02:30 on a spring-forward night becomes 03:30.
func wallClock(y, mo, d, h, mi, s int, zone *time.Location) time.Time {
	t := time.Date(y, time.Month(mo), d, h, mi, s, 0, zone)
	naive := time.Date(y, time.Month(mo), d, h, mi, s, 0, time.UTC)
	if t.Hour() == naive.Hour() && t.Minute() == naive.Minute() && t.Day() == naive.Day() {
		return t
	}
	_, before := t.Add(-3 * time.Hour).Zone()
	return time.Unix(naive.Unix()-int64(before), 0).In(zone)
}

// weekdayShift is PHP's adjustment of the day for a weekday, from the current one.
func (p *dateParse) weekdayShift(current time.Weekday) int {
	dow, want := int(current), p.weekday
	if p.weekdayBehavior == 2 { // "next week": that week's Monday
		if dow == 0 {
			want -= 7
		}
		return want - dow
	}
	diff := want - dow
	if (p.relD < 0 && diff < 0) || (p.relD >= 0 && diff <= -p.weekdayBehavior) {
		diff += 7
	}
	return diff
}

func relativeAmount(word string) (amount, behavior int) {
	switch word {
	case "next":
		return 1, 0
	case "last", "previous":
		return -1, 0
	}
	return 0, 1 // this
}

func monthNumber(name string) int {
	for i, m := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.HasPrefix(name, m) {
			return i + 1
		}
	}
	return 0
}

func weekdayNumber(name string) int {
	for i, d := range []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"} {
		if strings.HasPrefix(name, d) {
			return i
		}
	}
	return -1
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
