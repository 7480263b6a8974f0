package strtotime

// What the absolute forms of the grammar set: dates, times and zones. Each
// action reads its token as timelib's does, with the same helpers, so that
// odd but accepted tokens ("5/6th/2018", "t1600") come out the same.

// yearFromDigits is TIMELIB_PROCESS_YEAR: a year of fewer than four digits
// below 100 is 2000-2069 or 1970-1999.
func yearFromDigits(y int64, digits int) int64 {
	switch {
	case y == unset || digits >= 4 || y >= 100:
		return y
	case y < 70:
		return y + 2000
	}
	return y + 1900
}

func isTimeSep(c byte) bool { return c == ':' || c == '.' }

// 9pm, 9:30 pm, 9.30.15pm
func actTime12(p *dateParse, tok string) error {
	if err := p.setHaveTime(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.h, _ = r.number(2)
	if isTimeSep(r.peek()) {
		p.i, _ = r.number(2)
		if isTimeSep(r.peek()) {
			p.s, _ = r.number(2)
		}
	}
	r.skipSpaces()
	p.h += r.meridian(p.h)
	return nil
}

// 10:00:00.123pm (MS SQL)
func actMSSQLTime(p *dateParse, tok string) error {
	if err := p.setHaveTime(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.h, _ = r.number(2)
	p.i, _ = r.number(2)
	if isTimeSep(r.peek()) {
		p.s, _ = r.number(2)
		if isTimeSep(r.peek()) {
			p.us = r.fraction()
		}
	}
	r.skipSpaces()
	p.h += r.meridian(p.h)
	return nil
}

// t9, 16:00, 16:00:00, 16:00:00.250
func actTime24(p *dateParse, tok string) error {
	if err := p.setHaveTime(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.h, _ = r.number(2)
	if isTimeSep(r.peek()) {
		p.i, _ = r.number(2)
		if isTimeSep(r.peek()) {
			p.s, _ = r.number(2)
			if r.peek() == '.' {
				p.us = r.fraction()
			}
		}
	}
	return nil
}

// 1600 is a time, unless a time was given: then it is a year.
func actGNUNoColon(p *dateParse, tok string) error {
	r := &tokenReader{s: tok}
	switch p.haveTime {
	case 0:
		p.h, _ = r.number(2)
		p.i, _ = r.number(2)
		p.s = 0
	case 1:
		p.y, _ = r.number(4)
	default:
		return errNotADate
	}
	p.haveTime++
	return nil
}

// A year alone: 2099 (but 2028 is 20:28, gnunocolon, which comes first).
func actYear4(p *dateParse, tok string) error {
	p.y, _ = (&tokenReader{s: tok}).number(4)
	return nil
}

// 160000
func actISONoColon(p *dateParse, tok string) error {
	if err := p.setHaveTime(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.h, _ = r.number(2)
	p.i, _ = r.number(2)
	p.s, _ = r.number(2)
	return nil
}

// 1/5, 1/5/18, 01/05/2018
func actAmerican(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.m, _ = r.number(2)
	p.d, _ = r.number(2)
	if r.peek() == '/' {
		y, n := r.number(4)
		p.y = yearFromDigits(y, n)
	}
	return nil
}

// readYMD reads year, month and day in that order, the year with sign.
func (p *dateParse) readYMD(tok string, yearDigits int) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.y = r.toggledNumber(yearDigits)
	p.m, _ = r.number(2)
	p.d, _ = r.number(2)
	return nil
}

// 2018-01-05, 2018/01/05, 2018/1/5
func actISODate4(p *dateParse, tok string) error { return p.readYMD(tok, 4) }

// +10000-01-05
func actISODateX(p *dateParse, tok string) error { return p.readYMD(tok, 19) }

// 18-01-05, and 2018-1-5 or 18-1-5th (gnudateshort)
func actISODate2(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	y, n := r.number(4)
	p.m, _ = r.number(2)
	p.d, _ = r.number(2)
	p.y = yearFromDigits(y, n)
	return nil
}

var actGNUDateShort = actISODate2

// 2018-1: the first of that month
func actGNUDateShorter(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	y, n := r.number(4)
	p.m, _ = r.number(2)
	p.d = 1
	p.y = yearFromDigits(y, n)
	return nil
}

// 5 January 2018, 5th-jan-18, 5 IV 2018
func actDateFull(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.d, _ = r.number(2)
	r.skipDaySuffix()
	p.m = r.month()
	y, n := r.number(4)
	p.y = yearFromDigits(y, n)
	return nil
}

// 05.01.2018, 05-01-2018 (day first)
func actPointedDate4(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.d, _ = r.number(2)
	p.m, _ = r.number(2)
	p.y, _ = r.number(4)
	return nil
}

// 05.01.18
func actPointedDate2(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.d, _ = r.number(2)
	p.m, _ = r.number(2)
	y, n := r.number(2)
	p.y = yearFromDigits(y, n)
	return nil
}

// March 2019: the first of that month
func actDateNoDay(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.m = r.month()
	y, n := r.number(4)
	p.d = 1
	p.y = yearFromDigits(y, n)
	return nil
}

// 2019 March
func actDateNoDayRev(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	y, n := r.number(4)
	p.m = r.month()
	p.d = 1
	p.y = yearFromDigits(y, n)
	return nil
}

// January 5, 2018; jan 5 (the year then is now's)
func actDateTextual(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.m = r.month()
	p.d, _ = r.number(2)
	y, n := r.number(4)
	p.y = yearFromDigits(y, n)
	return nil
}

// Jan-05-2018
var actPGTextShort = actDateTextual

// 5 jan, 5th-jan (the year then is now's)
func actDateNoYearRev(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.d, _ = r.number(2)
	r.skipDaySuffix()
	p.m = r.month()
	return nil
}

// 20180105
func actDateNoColon(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.y, _ = r.number(4)
	p.m, _ = r.number(2)
	p.d, _ = r.number(2)
	return nil
}

// 2018-01-05T16:00:00 and the XML-RPC, SOAP and EXIF forms: a date and a time
// in one token, the SOAP one with a fraction and an offset.
func actDateTime(p *dateParse, tok string) error {
	if err := p.setHaveTime(); err != nil {
		return err
	}
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.y, _ = r.number(4)
	for _, f := range []*int64{&p.m, &p.d, &p.h, &p.i, &p.s} {
		*f, _ = r.number(2)
	}
	if r.peek() == '.' {
		p.us = r.fraction()
		if r.peek() != 0 {
			return p.readZone(r)
		}
	}
	return nil
}

// 2018-123: the 123rd day of 2018
func actPGYearDay(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	y, n := r.number(4)
	p.d, _ = r.number(3)
	p.m = 1
	p.y = yearFromDigits(y, n)
	return nil
}

// 2018-W10, 2018W105: ISO week (and day, Monday when not given)
func actISOWeekDay(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.y, _ = r.number(4)
	week, _ := r.number(2)
	day, _ := r.number(1)
	if day == unset {
		day = 1
	}
	p.m, p.d = 1, 1
	// timelib_daynr_from_weeknr: week 1 holds the year's first Thursday.
	dow := weekdayOf(p.y, 1, 1)
	if dow > 4 {
		dow -= 7
	}
	p.rel.d = -dow + (week-1)*7 + day
	return nil
}

// 2018-Jan-05
func actPGTextReverse(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	y, n := r.number(4)
	p.m = r.month()
	p.d, _ = r.number(2)
	p.y = yearFromDigits(y, n)
	return nil
}

// 10/Oct/2000:13:55:36 -0700 (Common Log Format)
func actCLF(p *dateParse, tok string) error {
	if err := p.setHaveTime(); err != nil {
		return err
	}
	if err := p.setHaveDate(); err != nil {
		return err
	}
	r := &tokenReader{s: tok}
	p.d, _ = r.number(2)
	p.m = r.month()
	p.y, _ = r.number(4)
	p.h, _ = r.number(2)
	p.i, _ = r.number(2)
	p.s, _ = r.number(2)
	r.skipSpaces()
	return p.readZone(r)
}

// A month name alone: that month, this day of it.
func actMonth(p *dateParse, tok string) error {
	if err := p.setHaveDate(); err != nil {
		return err
	}
	p.m = monthNumbers[(&tokenReader{s: tok}).word()]
	return nil
}

// Jan 5 9:30am, Jan 5th 9.30.15 pm
func actDateShortWithTime12(p *dateParse, tok string) error {
	r, err := p.readMonthDayThenTime(tok)
	if err != nil {
		return err
	}
	if isTimeSep(r.peek()) {
		p.s, _ = r.number(2)
		if r.peek() == '.' {
			p.us = r.fraction()
		}
	}
	p.h += r.meridian(p.h)
	return nil
}

// Jan 5 16:00, Jan 5 16:00:00 +0100
func actDateShortWithTime24(p *dateParse, tok string) error {
	r, err := p.readMonthDayThenTime(tok)
	if err != nil {
		return err
	}
	if r.peek() == ':' {
		p.s, _ = r.number(2)
		if r.peek() == '.' {
			p.us = r.fraction()
		}
	}
	if r.peek() != 0 {
		return p.readZone(r)
	}
	return nil
}

func (p *dateParse) readMonthDayThenTime(tok string) (*tokenReader, error) {
	if err := p.setHaveDate(); err != nil {
		return nil, err
	}
	r := &tokenReader{s: tok}
	p.m = r.month()
	p.d, _ = r.number(2)
	if err := p.setHaveTime(); err != nil {
		return nil, err
	}
	p.h, _ = r.number(2)
	p.i, _ = r.number(2)
	return r, nil
}
