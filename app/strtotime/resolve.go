package strtotime

import "time"

// resolve applies what was parsed to now, as PHP's strtotime does after
// parsing (timelib_fill_holes, then timelib_update_ts):
//
//  1. fields the input did not give are now's, read on loc's wall clock
//     (a date without a time is at midnight);
//  2. "first <weekday> of" moves to the 1st of its month and "last <weekday>
//     of" to the 1st of the month after, the relative months counted first
//     (but not the years: "first monday of next year" is a year after this
//     month's first Monday); "first/last day of" to the first/last day;
//  3. a weekday moves to that day, counting from the date;
//  4. the relative amounts are added, years, months and days at once, so
//     Jan 31 + 1 month is Mar 3 (or 2): the day overflows, as PHP's does;
//  5. "first/last day of" apply again, to the month the amounts reached;
//  6. a number of weekdays (business days) is counted;
//
// normalizing the wall clock after each step. Only then is the wall clock
// read in its zone.
func (p *dateParse) resolve(now time.Time, loc *time.Location) (time.Time, error) {
	if p.haveDate && p.haveTime == 0 {
		p.h, p.i, p.s, p.us = 0, 0, 0, 0
	}
	if p.us == unset {
		p.us = 0
	}
	n := now.In(loc)
	for _, f := range []struct {
		field *int64
		now   int
	}{{&p.y, n.Year()}, {&p.m, int(n.Month())}, {&p.d, n.Day()}, {&p.h, n.Hour()}, {&p.i, n.Minute()}, {&p.s, n.Second()}} {
		if *f.field == unset {
			*f.field = int64(f.now)
		}
	}
	if !p.bounded() {
		return time.Time{}, errNotADate
	}

	p.adjustSpecialEarly()
	p.adjustRelative()
	p.adjustSpecial()

	if p.y < 1 || p.y > 9999 {
		return time.Time{}, errNotADate
	}
	y, mo, d, h, mi, s := int(p.y), int(p.m), int(p.d), int(p.h), int(p.i), int(p.s)
	if p.zone == nil {
		return WallClock(y, mo, d, h, mi, s, loc), nil
	}
	if p.zoneOffset > maxOffsetHours*3600 || p.zoneOffset < -maxOffsetHours*3600 {
		return time.Time{}, errNotADate
	}
	t := time.Date(y, time.Month(mo), d, h, mi, s, 0, p.zone)
	if p.zoneFromTimestamp {
		t = t.In(loc)
	}
	return t, nil
}

// maxField bounds every field and amount before they are added up, so that
// no sum overflows. A bigger one could only land outside years 1 to 9999
// (microseconds, which "ms" multiplies by 1000, get more room).
const maxField = int64(1e15)

func (p *dateParse) bounded() bool {
	r := &p.rel
	for _, v := range []int64{p.y, p.m, p.d, p.h, p.i, p.s, r.y, r.m, r.d, r.h, r.i, r.s, r.specialAmount} {
		if v > maxField || v < -maxField {
			return false
		}
	}
	return p.us <= 100*maxField && p.us >= -100*maxField && r.us <= 100*maxField && r.us >= -100*maxField
}

// adjustSpecialEarly is timelib's do_adjust_special_early. "first monday of
// next month" takes the relative months now, and starts from the 1st; "last
// monday of" starts from the 1st of the month after, and steps back a week.
func (p *dateParse) adjustSpecialEarly() {
	if p.rel.haveSpecial {
		switch p.rel.specialType {
		case specialDayOfWeekInMonth:
			p.d = 1
			p.m += p.rel.m
			p.rel.m = 0
		case specialLastDayOfWeekMonth:
			p.d = 1
			p.m += p.rel.m + 1
			p.rel.m = 0
		}
	}
	p.applyFirstLastDayOf()
	p.normalize()
}

func (p *dateParse) applyFirstLastDayOf() {
	switch p.rel.firstLast {
	case firstDayOfMonth:
		p.d = 1
	case lastDayOfMonth:
		p.d = 0 // the day before the first of the next month
		p.m++
	}
}

// adjustRelative is timelib's do_adjust_relative.
func (p *dateParse) adjustRelative() {
	if p.rel.haveWeekday {
		p.adjustForWeekday()
	}
	p.normalize()
	r := &p.rel
	p.us += r.us
	p.s += r.s
	p.i += r.i
	p.h += r.h
	p.d += r.d
	p.m += r.m
	p.y += r.y
	p.applyFirstLastDayOf()
	p.normalize()
}

// adjustForWeekday is timelib's do_adjust_for_weekday: it moves the date to
// the weekday asked for. Behavior 0 ("next monday") skips today, 1 ("monday")
// keeps it; a negative relative day count ("last monday") looks from the
// next such day and steps back. Behavior 2 ("monday next week") takes that
// day of the date's own week, Monday to Sunday.
func (p *dateParse) adjustForWeekday() {
	r := &p.rel
	dow := weekdayOf(p.y, p.m, p.d)
	if r.weekdayBehavior == 2 {
		weekday := r.weekday
		if dow == 0 && weekday != 0 {
			weekday -= 7 // on a Sunday, "this week" is the one ending today
		}
		if weekday == 0 && dow != 0 {
			weekday = 7 // "sunday this week" ends the week
		}
		p.d += weekday - dow
		return
	}
	diff := r.weekday - dow
	if (r.d < 0 && diff < 0) || (r.d >= 0 && diff <= -r.weekdayBehavior) {
		diff += 7
	}
	if r.weekday >= 0 {
		p.d += diff
	} else { // after "ago"
		p.d -= 7 - (abs(r.weekday) - dow)
	}
}

// adjustSpecial is timelib's do_adjust_special: it counts weekdays (Monday to
// Friday), whole weeks of five first, then the rest, skipping the weekend.
func (p *dateParse) adjustSpecial() {
	if p.rel.haveSpecial && p.rel.specialType == specialWeekday {
		count := p.rel.specialAmount
		dow := weekdayOf(p.y, p.m, p.d)
		p.d += count / 5 * 7
		rem := count % 5
		if count > 0 {
			switch {
			case rem == 0 && dow == 0:
				p.d -= 2 // five weekdays on from a weekend lands on Friday
			case rem == 0 && dow == 6:
				p.d--
			case rem == 0:
			case dow == 6:
				p.d++
			case dow+rem > 5:
				p.d += 2
			}
		} else { // the mirror image, which also moves 0 weekdays off a weekend
			switch {
			case rem == 0 && dow == 6:
				p.d += 2
			case rem == 0 && dow == 0:
				p.d++
			case rem == 0:
			case dow == 0:
				p.d--
			case dow+rem < 1:
				p.d -= 2
			}
		}
		p.d += rem
	}
	p.normalize()
}

// normalize carries each field's overflow into the next, as timelib_do_normalize
// does: 61 seconds is a minute and a second, day 0 the last of the month before,
// month 13 January of the next year.
func (p *dateParse) normalize() {
	carry := func(low, high *int64, size int64) {
		*high += floorDiv(*low, size)
		*low -= floorDiv(*low, size) * size
	}
	carry(&p.us, &p.s, 1e6)
	carry(&p.s, &p.i, 60)
	carry(&p.i, &p.h, 60)
	carry(&p.h, &p.d, 24)
	p.m--
	carry(&p.m, &p.y, 12)
	p.m++
	p.y, p.m, p.d = civilFromDays(daysFromCivil(p.y, p.m, 1) + p.d - 1)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// daysFromCivil counts days from 1970-01-01 to a proleptic Gregorian date
// (Howard Hinnant's algorithm, exact for any year an int64 can carry here).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// weekdayOf is 0 for Sunday to 6 for Saturday.
func weekdayOf(y, m, d int64) int64 {
	w := (daysFromCivil(y, m, d) + 4) % 7 // 1970-01-01 was a Thursday
	if w < 0 {
		w += 7
	}
	return w
}

// WallClock is the instant a normalized wall-clock time names in zone, found
// as timelib's do_adjust_timezone finds it. A time that a daylight-saving
// change skips is read with the offset in force before the change (02:30 on a
// spring-forward night becomes 03:30); a time that happens twice is the first
// one west of UTC (America/New_York) and the second one east of it
// (Europe/Rome), because PHP takes the offset in force at that wall-clock time
// read as UTC.
func WallClock(y, mo, d, h, mi, s int, zone *time.Location) time.Time {
	sse := time.Date(y, time.Month(mo), d, h, mi, s, 0, time.UTC).Unix()
	current, _, _ := zoneAt(sse, zone)
	after, transition, known := zoneAt(sse-current, zone)
	inTransition := known && sse-after >= transition+(current-after) && sse-after < transition
	offset := current
	if current != after && !inTransition {
		offset = after
	}
	return time.Unix(sse-offset, 0).In(zone)
}

// zoneAt is the offset in force at instant sse and when it began.
func zoneAt(sse int64, zone *time.Location) (offset, since int64, known bool) {
	t := time.Unix(sse, 0).In(zone)
	_, off := t.Zone()
	start, _ := t.ZoneBounds()
	return int64(off), start.Unix(), !start.IsZero()
}
