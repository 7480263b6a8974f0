package recur

// Rules are read on the wall clock of DTSTART's zone, so days are counted as
// civil dates: a day number (days since 1970-01-01) and the year, month and
// day it names. Working on numbers keeps the filters free of time.Date,
// whose zone lookups are the costly part of an expansion.

// date is one civil day, with what the day filters ask of it.
type date struct {
	dn      int64 // days since 1970-01-01
	y, m, d int
	yday    int // 0 for 1 January
	wd      int // 0 for Monday, as rrule-go and WKST count
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func yearLen(y int) int {
	if isLeap(y) {
		return 366
	}
	return 365
}

var monthLens = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

func monthLen(y, m int) int {
	if m == 2 && isLeap(y) {
		return 29
	}
	return monthLens[m]
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// daysFromCivil counts days in 400-year eras of 146097 days, with years
// starting in March so that the leap day ends them.
func daysFromCivil(y, m, d int) int64 {
	yy := int64(y)
	if m <= 2 {
		yy--
	}
	era := floorDiv(yy, 400)
	yoe := yy - era*400
	mp := int64((m + 9) % 12)
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// dateOf is the inverse of daysFromCivil.
func dateOf(dn int64) date {
	z := dn + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := int(doy - (153*mp+2)/5 + 1)
	m := int(mp + 3)
	if m > 12 {
		m -= 12
	}
	y := int(yoe + era*400)
	if m <= 2 {
		y++
	}
	return date{dn: dn, y: y, m: m, d: d, yday: int(dn - daysFromCivil(y, 1, 1)), wd: weekdayOf(dn)}
}

// weekdayOf: 1970-01-01 was a Thursday, 3 counting from Monday.
func weekdayOf(dn int64) int { return int(floorMod(dn+3, 7)) }

// advance moves t to the next day.
func (t *date) advance() {
	t.dn++
	t.d++
	t.yday++
	if t.wd++; t.wd == 7 {
		t.wd = 0
	}
	if t.d > 28 && t.d > monthLen(t.y, t.m) {
		t.d, t.m = 1, t.m+1
		if t.m > 12 {
			t.m, t.y, t.yday = 1, t.y+1, 0
		}
	}
}
