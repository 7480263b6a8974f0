// Package strtotime reads dates as PHP's strtotime does (the oracle table in
// testdata/ was written by PHP itself, with generate.php beside it).
package strtotime

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// errNotADate is the answer to an input Parse does not understand.
var errNotADate = errors.New("not a date")

// maxInputBytes bounds the work one input can ask for; no date needs more.
const maxInputBytes = 100

// Parse reads a date the way PHP's strtotime does, relative to now. It
// follows PHP's grammar (timelib's parse_date.re) token by token, longest
// match first, and then applies what was read to now in PHP's order. It reads:
//
//   - absolute dates: 2018-01-01, 2018/01/05, 01/05/2018, 1/5/18, 05-01-2018,
//     05.01.2018, January 5, 2018, 5 jan, March 2019, 2026-123, 2026-W10-5...
//   - times: 4pm, 9:30 am, 16:00, 16:00:00.250, t1600, noon, midnight,
//     back of 7pm (19:15), front of 7pm (18:45);
//   - offsets and UTC: Z, UTC, GMT, +02:00, -0530, GMT+2;
//   - keywords: now, today, tomorrow, yesterday;
//   - weekdays: monday, next monday, last friday, this sunday, monday next week;
//   - relative amounts: +5 days, -2 weeks, 3 months ago, +1 week 2 days, next
//     month, third day, 3 weekdays;
//   - first day of / last day of (next month, january 2028...), and ordinal
//     weekdays of a month: first monday of january 2028, last friday of next month;
//   - @timestamps, and any mix of these (2028-01-10 +2 days, monday next week 9am).
//
// PHP's quirks come along: "9am tomorrow" is tomorrow at midnight (a day
// name or keyword after a time resets it), "first day of next month" keeps
// the time of day, "jan 31 +1 month" is March 3, "jan 5 9am" is refused.
//
// A string of digits alone is a Unix timestamp (PHP would read a time or a
// year in some of them). Zone-less values are wall-clock times in loc; a value
// with an offset keeps it. Named zones other than UTC, GMT and Z are refused.
//
// Instants outside years 1 to 9999, in UTC, in loc or in their own offset,
// are refused: every date the service writes has four digits of year. So are
// offsets beyond ±14:00, which no zone has.
func Parse(s string, now time.Time, loc *time.Location) (time.Time, error) {
	t, err := parseDate(s, now, loc)
	if err != nil || !writableYear(t) || !writableYear(t.UTC()) || !writableYear(t.In(loc)) {
		return time.Time{}, errNotADate
	}
	return t, nil
}

func writableYear(t time.Time) bool { return t.Year() >= 1 && t.Year() <= 9999 }

func parseDate(s string, now time.Time, loc *time.Location) (time.Time, error) {
	// PHP trims what C's isspace calls space, no more.
	in := strings.Trim(s, " \t\n\v\f\r")
	if in == "" || len(in) > maxInputBytes {
		return time.Time{}, errNotADate
	}
	if digitsOnly(in) {
		n, err := strconv.ParseInt(in, 10, 64)
		if err != nil {
			return time.Time{}, errNotADate
		}
		return time.Unix(n, 0).In(loc), nil
	}
	// Go's case-insensitive matching folds these two into "s" and "k"; PHP's
	// does not, and no form of its grammar has them.
	if strings.ContainsAny(in, "\u017f\u212a") {
		return time.Time{}, errNotADate
	}
	p := newDateParse()
	if err := p.scan(in); err != nil {
		return time.Time{}, err
	}
	return p.resolve(now, loc)
}

func digitsOnly(s string) bool {
	s = strings.TrimPrefix(s, "-")
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

// unset marks a field the input did not give (timelib's TIMELIB_UNSET).
const unset = int64(-1 << 62)

// Kinds of "special" relative, as timelib numbers them.
const (
	specialWeekday            = 1 // "3 weekdays": business days
	specialDayOfWeekInMonth   = 2 // "first monday of"
	specialLastDayOfWeekMonth = 3 // "last monday of"
)

// Values of relative.firstLast.
const (
	firstDayOfMonth = 1
	lastDayOfMonth  = 2
)

// timePart says whether a weekday unit resets the time to midnight: "next
// monday" does, "+2 mondays" keeps the time of day.
type timePart bool

const (
	keepTime  timePart = true
	resetTime timePart = false
)

// relative is timelib's timelib_rel_time: the amounts and adjustments the
// input asks to apply to the date it names (or to now).
type relative struct {
	y, m, d, h, i, s, us int64
	// weekday is 0 (Sunday) to 6, or negative after "ago"; weekdayBehavior
	// is 0 (today does not count), 1 (today counts) or 2 (that week's day).
	weekday, weekdayBehavior int64
	haveWeekday              bool
	haveSpecial              bool
	specialType              int
	specialAmount            int64
	firstLast                int
}

// dateParse is what the tokens of an input set, as timelib's timelib_time
// holds it while parsing: each field is unset until a token gives it.
type dateParse struct {
	y, m, d, h, i, s, us int64
	haveTime             int // 0, 1, or 2 after a second bare HHMM (read as a year)
	haveDate             bool
	haveZone             int
	zone                 *time.Location // nil: loc's wall clock
	zoneOffset           int            // seconds east of UTC, when zone is set
	zoneFromTimestamp    bool
	rel                  relative
}

func newDateParse() *dateParse {
	return &dateParse{y: unset, m: unset, d: unset, h: unset, i: unset, s: unset, us: unset}
}

// setHaveTime is TIMELIB_HAVE_TIME: a second time is an error.
func (p *dateParse) setHaveTime() error {
	if p.haveTime != 0 {
		return errNotADate
	}
	p.haveTime = 1
	p.h, p.i, p.s, p.us = 0, 0, 0, 0
	return nil
}

// unsetTime is TIMELIB_UNHAVE_TIME: midnight, and a later time may be given.
func (p *dateParse) unsetTime() {
	p.haveTime = 0
	p.h, p.i, p.s, p.us = 0, 0, 0, 0
}

// setHaveDate is TIMELIB_HAVE_DATE: a second date is an error.
func (p *dateParse) setHaveDate() error {
	if p.haveDate {
		return errNotADate
	}
	p.haveDate = true
	return nil
}

// setHaveZone is TIMELIB_HAVE_TZ. PHP only warns about a second zone and
// ignores it (proceed is false); a third one is an error.
func (p *dateParse) setHaveZone() (proceed bool, err error) {
	p.haveZone++
	switch p.haveZone {
	case 1:
		return true, nil
	case 2:
		return false, nil
	}
	return false, errNotADate
}

// setZone records an offset from UTC; resolve refuses those no zone has.
func (p *dateParse) setZone(offset int) {
	p.zoneOffset = offset
	if offset == 0 {
		p.zone = time.UTC
	} else {
		p.zone = time.FixedZone("", offset)
	}
}
