package strtotime

import "strings"

// What the relative forms of the grammar set. Most only record amounts and
// adjustments in p.rel; resolve applies them to the date, in PHP's order.
// Which of them reset the time to midnight, and whether they add to what came
// before or replace it, is PHP's and sometimes surprising: "tomorrow" sets
// the day offset to 1 (so "+3 days tomorrow" is tomorrow), and a weekday name
// after a time resets it ("9am monday" is Monday at midnight).

func actYesterday(p *dateParse, _ string) error {
	p.unsetTime()
	p.rel.d = -1
	return nil
}

func actTomorrow(p *dateParse, _ string) error {
	p.unsetTime()
	p.rel.d = 1
	return nil
}

func actNoon(p *dateParse, _ string) error {
	p.unsetTime()
	p.haveTime, p.h = 1, 12
	return nil
}

// @1700000000 and @1700000000.5: 1970-01-01 UTC plus that many seconds.
// Whatever date or time came before is dropped.
func actTimestamp(p *dateParse, tok string) error {
	p.haveDate, p.y, p.m, p.d = false, 0, 0, 0
	p.unsetTime()
	if proceed, err := p.setHaveZone(); !proceed {
		return err
	}
	r := &tokenReader{s: tok}
	negative := strings.HasPrefix(tok, "@-")
	secs, err := r.signedNumber(24)
	if err != nil {
		return err
	}
	if r.peek() == '.' {
		before := r.i
		us, err := r.signedNumber(6)
		if err != nil {
			return err
		}
		for n := r.i - before; n < 7; n++ {
			us *= 10
		}
		if negative {
			us = -us
		}
		p.rel.us = us
	}
	p.y, p.m, p.d = 1970, 1, 1
	p.rel.s = addClamped(p.rel.s, secs)
	p.setZone(0)
	p.zoneFromTimestamp = true
	return nil
}

// "first day of" and "last day of" apply to the month the rest names (this
// one by default), after every relative amount; the time stays as it is.
func actFirstLastDayOf(p *dateParse, tok string) error {
	p.rel.firstLast = firstDayOfMonth
	if tok[0] == 'l' || tok[0] == 'L' {
		p.rel.firstLast = lastDayOfMonth
	}
	return nil
}

// "back of 7pm" is 19:15, "front of 7pm" 18:45. PHP tells them apart by a
// lower-case "b" only: "Back of 7pm" is 18:45 too.
func actBackFrontOf(p *dateParse, tok string) error {
	p.unsetTime()
	p.haveTime = 1
	r := &tokenReader{s: tok}
	p.h, _ = r.number(2)
	if tok[0] == 'b' {
		p.i = 15
	} else {
		p.h--
		p.i = 45
	}
	if r.peek() != 0 {
		r.skipSpaces()
		p.h += r.meridian(p.h)
	}
	return nil
}

// "first monday of", "third friday of", "last sunday of": the month is the
// one the rest names; resolve counts from its first day.
func actWeekdayOf(p *dateParse, tok string) error {
	r := &tokenReader{s: tok}
	behavior := int64(0)
	n := r.relativeText(&behavior)
	r.skipSpaces()
	p.rel.haveSpecial = true
	if n > 0 {
		p.rel.specialType = specialDayOfWeekInMonth
		p.setRelative(r, n, 1, resetTime)
	} else { // last, previous, and (oddly) this
		p.rel.specialType = specialLastDayOfWeekMonth
		p.setRelative(r, n, behavior, resetTime)
	}
	return nil
}

// "ago" turns every amount read so far around (not milliseconds), and the
// weekday too.
func actAgo(p *dateParse, _ string) error {
	rel := &p.rel
	rel.y, rel.m, rel.d, rel.h, rel.i, rel.s = -rel.y, -rel.m, -rel.d, -rel.h, -rel.i, -rel.s
	rel.weekday = -rel.weekday
	if rel.weekday == 0 {
		rel.weekday = -7
	}
	if rel.haveSpecial && rel.specialType == specialWeekday {
		rel.specialAmount = -rel.specialAmount
	}
	return nil
}

// A weekday name alone: that day, today included, at midnight. "weekday"
// alone is Monday (PHP reads its unit number as a day).
func actDayText(p *dateParse, tok string) error {
	p.rel.haveWeekday = true
	p.unsetTime()
	if u, ok := relUnits[asciiLower(unitWord(&tokenReader{s: tok}))]; ok {
		p.rel.weekday = u.n
	}
	if p.rel.weekdayBehavior != 2 {
		p.rel.weekdayBehavior = 1
	}
	return nil
}

// "next week", "last week", "this week": a week on, back or none, and that
// week's Monday unless a weekday name says which day.
func actRelativeTextWeek(p *dateParse, tok string) error {
	r := &tokenReader{s: tok}
	for r.peek() != 0 {
		start := r.i
		behavior := int64(0)
		n := r.relativeText(&behavior)
		r.skipSpaces()
		p.setRelative(r, n, behavior, resetTime)
		p.rel.weekdayBehavior = 2
		if !p.rel.haveWeekday {
			p.rel.haveWeekday, p.rel.weekday = true, 1
		}
		if r.i == start {
			break
		}
	}
	return nil
}

// "next month", "third day", "last year", "next monday", "this friday".
func actRelativeText(p *dateParse, tok string) error {
	r := &tokenReader{s: tok}
	for r.peek() != 0 {
		start := r.i
		behavior := int64(0)
		n := r.relativeText(&behavior)
		r.skipSpaces()
		p.setRelative(r, n, behavior, resetTime)
		if r.i == start {
			break
		}
	}
	return nil
}

// "+5 days", "-2 weeks", "3 months", "+1 week", "2 mondays", "3 weekdays".
func actRelative(p *dateParse, tok string) error {
	r := &tokenReader{s: tok}
	for r.peek() != 0 {
		start := r.i
		n := r.toggledNumber(24)
		r.skipSpaces()
		p.setRelative(r, n, 1, keepTime)
		if r.i == start {
			break
		}
	}
	return nil
}

// Units of relative amounts, as timelib_relunit_lookup has them.
type relUnit struct {
	kind byte // 'u' microseconds, 's', 'i' minutes, 'h', 'd', 'm', 'y', 'w' weekday, 'x' special
	n    int64
}

var relUnits = func() map[string]relUnit {
	units := map[string]relUnit{}
	add := func(u relUnit, names ...string) {
		for _, name := range names {
			units[name] = u
		}
	}
	add(relUnit{'u', 1000}, "ms", "msec", "msecs", "millisecond", "milliseconds")
	add(relUnit{'u', 1}, "µs", "usec", "usecs", "µsec", "µsecs", "microsecond", "microseconds")
	add(relUnit{'s', 1}, "sec", "secs", "second", "seconds")
	add(relUnit{'i', 1}, "min", "mins", "minute", "minutes")
	add(relUnit{'h', 1}, "hour", "hours")
	add(relUnit{'d', 1}, "day", "days")
	add(relUnit{'d', 7}, "week", "weeks")
	add(relUnit{'d', 14}, "fortnight", "fortnights", "forthnight", "forthnights")
	add(relUnit{'m', 1}, "month", "months")
	add(relUnit{'y', 1}, "year", "years")
	for i, day := range []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"} {
		full := day + []string{"day", "day", "sday", "nesday", "rsday", "day", "urday"}[i]
		add(relUnit{'w', int64(i)}, day, full, full+"s")
	}
	add(relUnit{'x', specialWeekday}, "weekday", "weekdays")
	return units
}()

// unitWord reads a unit's name: up to a space or punctuation.
func unitWord(r *tokenReader) string {
	start := r.i
	for c := r.peek(); c != 0 && strings.IndexByte(" ,\t;:/.-()", c) < 0; c = r.peek() {
		r.i++
	}
	return r.s[start:r.i]
}

// asciiLower lower-cases ASCII letters only, as strcasecmp compares them.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// setRelative is timelib_set_relative: amount of the unit that follows.
func (p *dateParse) setRelative(r *tokenReader, amount, behavior int64, part timePart) {
	u, ok := relUnits[asciiLower(unitWord(r))]
	if !ok {
		return
	}
	rel := &p.rel
	switch u.kind {
	case 'u':
		rel.us = addClamped(rel.us, mulClamped(amount, u.n))
	case 's':
		rel.s = addClamped(rel.s, amount)
	case 'i':
		rel.i = addClamped(rel.i, amount)
	case 'h':
		rel.h = addClamped(rel.h, amount)
	case 'd':
		rel.d = addClamped(rel.d, mulClamped(amount, u.n))
	case 'm':
		rel.m = addClamped(rel.m, amount)
	case 'y':
		rel.y = addClamped(rel.y, amount)
	case 'w':
		// "next monday" is the coming Monday, "second monday" one week on
		// from it, "last monday" the one before: resolve finds the day.
		rel.haveWeekday = true
		if part == resetTime {
			p.unsetTime()
		}
		weeks := amount
		if amount > 0 {
			weeks--
		}
		rel.d = addClamped(rel.d, mulClamped(weeks, 7))
		rel.weekday, rel.weekdayBehavior = u.n, behavior
	case 'x':
		rel.haveSpecial = true
		if part == resetTime {
			p.unsetTime()
		}
		rel.specialType, rel.specialAmount = int(u.n), amount
	}
}

// relativeText reads first..twelfth, next, last, previous or this as a
// count; "this" is 0 and counts today (behavior 1).
func (r *tokenReader) relativeText(behavior *int64) int64 {
	for c := r.peek(); c == ' ' || c == '\t' || c == '-' || c == '/'; c = r.peek() {
		r.i++
	}
	switch w := r.word(); w {
	case "this":
		*behavior = 1
		return 0
	case "last", "previous":
		*behavior = 0
		return -1
	case "next":
		*behavior = 0
		return 1
	default:
		for i, ordinal := range []string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"} {
			if w == ordinal {
				*behavior = 0
				return int64(i + 1)
			}
		}
		if w == "eight" {
			*behavior = 0
			return 8
		}
	}
	return 0
}

// Amounts saturate instead of wrapping; resolve refuses the huge ones.
func addClamped(a, b int64) int64 {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		if a > 0 {
			return 1<<63 - 1
		}
		return -1 << 63
	}
	return s
}

func mulClamped(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	p := a * b
	if a == -1<<63 || b == -1<<63 || p/b != a {
		if (a > 0) == (b > 0) {
			return 1<<63 - 1
		}
		return -1 << 63
	}
	return p
}
