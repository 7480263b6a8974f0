package recur

import "github.com/teambition/rrule-go"

// dayBits marks days by their index from 1 January of one year; a weekly
// period that starts in December runs up to 6 days into the next year.
type dayBits [6]uint64 // 384 > 366 + 7

func (b *dayBits) set(from, to int) {
	for i := max(from, 0); i < to && i < 64*len(b); i++ {
		b[i/64] |= 1 << (i % 64)
	}
}

func (b *dayBits) has(i int) bool { return i >= 0 && i < 64*len(b) && b[i/64]&(1<<(i%64)) != 0 }

// yearView is what the filters that depend on the period's year know about
// it: BYWEEKNO numbers the weeks of the year the period starts in, and a
// BYDAY ordinal counts within the period's month or year.
type yearView struct {
	ready    bool
	year     int
	jan1     int64
	weekNos  dayBits
	ordinals dayBits
}

// keeps tells whether the BYxxx day parts keep day t of a period seen from
// year v. BYWEEKNO and ordinals use v; the other parts read t's own date.
func (r *rule) keeps(t date, v *yearView) bool {
	switch {
	case r.hasMonths && !r.months[t.m],
		len(r.weekNos) > 0 && !v.weekNos.has(int(t.dn-v.jan1)),
		r.hasWeekdays && !r.weekdays[t.wd],
		len(r.ordinals) > 0 && !v.ordinals.has(int(t.dn-v.jan1)),
		r.hasMonthDays && !r.monthDays[t.d] && !r.negMonthDays[monthLen(t.y, t.m)-t.d+1],
		r.hasYearDays && !r.yearDays[t.yday+1] && !r.negYearDays[yearLen(t.y)-t.yday]:
		return false
	}
	return true
}

// see points v at year y, computing its week numbers once per year.
func (r *rule) see(v *yearView, y int) {
	if v.ready && v.year == y {
		return
	}
	*v = yearView{ready: true, year: y, jan1: daysFromCivil(y, 1, 1)}
	if len(r.weekNos) > 0 {
		v.weekNos = weekNumbers(y, r.wkst, r.weekNos)
	}
}

// markOrdinals marks the days BYDAY ordinals select in a YEARLY or MONTHLY
// period: within each BYMONTH month of a yearly rule that has one, else
// within its year; within the month of a monthly rule. An ordinal beyond
// the range selects nothing (rrule-go panics on some, e.g. BYDAY=-6MO).
func (r *rule) markOrdinals(v *yearView, month int) {
	v.ordinals = dayBits{}
	if len(r.ordinals) == 0 {
		return
	}
	mark := func(first, last int64) { // day numbers, inclusive
		for _, o := range r.ordinals {
			var dn int64
			if o.n > 0 {
				dn = first + int64((o.wd-weekdayOf(first)+7)%7) + int64(o.n-1)*7
			} else {
				dn = last - int64((weekdayOf(last)-o.wd+7)%7) + int64(o.n+1)*7
			}
			if dn >= first && dn <= last {
				v.ordinals.set(int(dn-v.jan1), int(dn-v.jan1)+1)
			}
		}
	}
	markMonth := func(m int) {
		first := daysFromCivil(v.year, m, 1)
		mark(first, first+int64(monthLen(v.year, m))-1)
	}
	switch {
	case r.freq == rrule.MONTHLY:
		markMonth(month)
	case len(r.byMonth) > 0:
		for _, m := range r.byMonth {
			markMonth(m)
		}
	default:
		mark(v.jan1, v.jan1+int64(yearLen(v.year))-1)
	}
}

// weekNumbers marks the days of year y (and of the week that runs into the
// next one) whose week BYWEEKNO names. Week 1 is the first with at least
// four days in the year, weeks start on WKST (RFC 5545, 3.3.10).
func weekNumbers(y, wkst int, weekNos []int) dayBits {
	var b dayBits
	ylen := yearLen(y)
	week1, weeks := weekOne(y, wkst)
	for _, n := range weekNos {
		if n < 0 {
			n += weeks + 1
		}
		if n >= 1 && n <= weeks {
			b.set(week1+(n-1)*7, week1+n*7)
		}
	}
	// The last days of y may be week 1 of y+1. As in rrule-go, only
	// BYWEEKNO=1 names them, not the negative number y+1 gives that week.
	if next := week1 + weeks*7; next < ylen && contains(weekNos, 1) {
		b.set(next, next+7)
	}
	if week1 > 0 {
		// The first days of y belong to the last week of y-1.
		last := -1
		if !contains(weekNos, -1) {
			last = weeksBefore(y, wkst, ylen-week1)
		}
		if contains(weekNos, last) {
			b.set(0, week1)
		}
	}
	return b
}

// weekOne gives the index from 1 January of y of the first day of week 1
// (negative when it starts in December) and how many weeks y has.
func weekOne(y, wkst int) (week1, weeks int) {
	week1 = (wkst - weekdayOf(daysFromCivil(y, 1, 1)) + 7) % 7
	if week1 >= 4 {
		week1 -= 7
	}
	span := yearLen(y) - week1
	weeks = span / 7
	if span%7 >= 4 {
		weeks++
	}
	return week1, weeks
}

// weeksBefore is the number rrule-go gives the last week of y-1, spanY being
// the days of y from its week 1 on. When week 1 of y-1 started in y-1 it
// derives it from spanY rather than from y-1, and says 53 where y-1 has 52
// weeks: with WKST=MO, 1 and 2 January 2011 (ISO week 52 of 2010) match
// BYWEEKNO=53 and not BYWEEKNO=52. Kept so that series expand as they did.
func weeksBefore(y, wkst, spanY int) int {
	if week1, weeks := weekOne(y-1, wkst); week1 < 0 {
		return weeks
	}
	return 52 + (spanY%7)/4
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
