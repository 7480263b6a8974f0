package strtotime

import (
	"regexp"
	"strings"
)

// The scanner follows timelib's re2c scanner (parse_date.re, as PHP 8.2
// bundles it): at each position every rule is tried, the longest match wins
// and, between matches of the same length, the rule listed first. Scanning
// PHP's way matters beyond the forms themselves: "jan 5 9am" is not a date
// because "jan 5 9" (a year 9) is longer than "jan 5", and "first day of"
// beats "first day" (+1 day) because it is longer.
//
// re2c reads single-quoted strings without regard to case and everything else
// as written, so the fragments below use (?i:...) only where timelib does.

// Fragments of the grammar, named as in parse_date.re.
const (
	reSpace    = `(?:[ \t]+|(?:\x{a0})+|(?:\x{202f})+)`
	reFrac     = `\.[0-9]+`
	reHour24   = `(?:[01]?[0-9]|2[0-4])`
	reHour24lz = `(?:[01][0-9]|2[0-4])`
	reHour12   = `(?:0?[1-9]|1[0-2])`
	reMinute   = `[0-5]?[0-9]`
	reMinuteLz = `[0-5][0-9]`
	reSecond   = `(?:[0-5]?[0-9]|60)`
	reSecondLz = `(?:[0-5][0-9]|60)`
	// A meridian must be followed by a space, a tab or the end of the input.
	reMeridian = `[AaPp]\.?[Mm]\.?[\x00\t ]`
	reTz       = `(?:\(?[A-Za-z]{1,6}\)?|[A-Z][a-z]+(?:[_/-][A-Za-z]+)+)`
	reTzCorr   = `(?:GMT)?[+-](?:` + reHour24 + `(?::?` + reMinute + `)?|` + reHour24lz + reMinuteLz + reSecondLz +
		`|` + reHour24lz + `:` + reMinuteLz + `:` + reSecondLz + `)`

	reDaySuf        = `(?:st|nd|rd|th)`
	reMonth         = `(?:0?[0-9]|1[0-2])`
	reDay           = `(?:[0-2]?[0-9]|3[01])` + reDaySuf + `?`
	reYear          = `[0-9]{1,4}`
	reYear2         = `[0-9]{2}`
	reYear4         = `[0-9]{4}`
	reYear4WithSign = `[+-]?[0-9]{4}`
	reYearX         = `[+-][0-9]{5,19}`
	reDayOfYear     = `(?:00[1-9]|0[1-9][0-9]|[12][0-9][0-9]|3[0-5][0-9]|36[0-6])`
	reWeekOfYear    = `(?:0[1-9]|[1-4][0-9]|5[0-3])`
	reMonthLz       = `(?:0[0-9]|1[0-2])`
	reDayLz         = `(?:0[0-9]|[12][0-9]|3[01])`

	reDayFulls   = `(?i:sundays|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays)`
	reDayFull    = `(?i:sunday|monday|tuesday|wednesday|thursday|friday|saturday)`
	reDayAbbr    = `(?i:sun|mon|tue|wed|thu|fri|sat)`
	reDaySpecial = `(?i:weekdays?)`
	reDayText    = `(?:` + reDayFulls + `|` + reDayFull + `|` + reDayAbbr + `|` + reDaySpecial + `)`
	reMonthFull  = `(?i:january|february|march|april|may|june|july|august|september|october|november|december)`
	reMonthAbbr  = `(?i:jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)`
	reMonthRoman = `(?:I|II|III|IV|V|VI|VII|VIII|IX|X|XI|XII)`
	reMonthText  = `(?:` + reMonthFull + `|` + reMonthAbbr + `|` + reMonthRoman + `)`

	reTimeTiny12  = reHour12 + reSpace + `?` + reMeridian
	reTimeShort12 = reHour12 + `[:.]` + reMinuteLz + reSpace + `?` + reMeridian
	reTimeLong12  = reHour12 + `[:.]` + reMinute + `[:.]` + reSecondLz + reSpace + `?` + reMeridian
	reTimeTiny24  = `(?i:t)` + reHour24
	reTimeShort24 = `(?i:t)?` + reHour24 + `[:.]` + reMinute
	reTimeLong24  = `(?i:t)?` + reHour24 + `[:.]` + reMinute + `[:.]` + reSecond
	reISOLong     = `(?i:t)?` + reHour24 + `[:.]` + reMinute + `[:.]` + reSecond + reFrac
	reISONormTz   = `(?i:t)?` + reHour24 + `[:.]` + reMinute + `[:.]` + reSecondLz + reSpace + `?(?:` + reTzCorr + `|` + reTz + `)`
	reGNUNoColon  = `(?i:t)?` + reHour24lz + reMinuteLz
	reISONoColon  = `(?i:t)?` + reHour24lz + reMinuteLz + reSecondLz

	// Dates.
	reAmerican       = reMonth + `/` + reDay + `(?:/` + reYear + `)?` // americanshort | american
	reISODate4       = reYear4WithSign + `-` + reMonthLz + `-` + reDayLz
	reISODateSlash   = reYear4 + `/` + reMonthLz + `/` + reDayLz + `/?`
	reDateSlash      = reYear4 + `/` + reMonth + `/` + reDay
	reISODate2       = reYear2 + `-` + reMonthLz + `-` + reDayLz
	reISODateX       = reYearX + `-` + reMonthLz + `-` + reDayLz
	reGNUDateShorter = reYear4 + `-` + reMonth
	reGNUDateShort   = reYear + `-` + reMonth + `-` + reDay
	rePointedDate4   = reDay + `[.\t-]` + reMonth + `[.-]` + reYear4
	rePointedDate2   = reDay + `[.\t]` + reMonth + `\.` + reYear2
	reDateFull       = reDay + `[ \t.-]*` + reMonthText + `[ \t.-]*` + reYear
	reDateNoDay      = reMonthText + `[ .\t-]*` + reYear4
	reDateNoDayRev   = reYear4 + `[ .\t-]*` + reMonthText
	reDateTextual    = reMonthText + `[ .\t-]*` + reDay + `[,.stndrh\t ]+` + reYear
	reDateNoYear     = reMonthText + `[ .\t-]*` + reDay + `(?:[,.stndrh\t ]+|\x00)`
	reDateNoYearRev  = reDay + `[ .\t-]*` + reMonthText
	reDateNoColon    = reYear4 + reMonthLz + reDayLz
	rePGYearDay      = reYear4 + `[.-]?` + reDayOfYear
	reISOWeekDay     = reYear4 + `-?W` + reWeekOfYear + `-?[0-7]`
	reISOWeek        = reYear4 + `-?W` + reWeekOfYear
	rePGTextShort    = reMonthAbbr + `-` + reDayLz + `-` + reYear
	rePGTextReverse  = reYear + `-` + reMonthAbbr + `-` + reDayLz

	// A date and a time in one.
	reXMLRPC        = reYear4 + reMonthLz + reDayLz + `T` + reHour24 + `:` + reMinuteLz + `:` + reSecondLz
	reXMLRPCNoColon = reYear4 + reMonthLz + reDayLz + `(?i:t)` + reHour24 + reMinuteLz + reSecondLz
	reSOAP          = reYear4 + `-` + reMonthLz + `-` + reDayLz + `T` + reHour24lz + `:` + reMinuteLz + `:` + reSecondLz + reFrac + `(?:` + reTzCorr + `)?`
	reWDDX          = reYear4 + `-` + reMonth + `-` + reDay + `T` + reHour24 + `:` + reMinute + `:` + reSecond
	reEXIF          = reYear4 + `:` + reMonthLz + `:` + reDayLz + ` ` + reHour24lz + `:` + reMinuteLz + `:` + reSecondLz
	reCLF           = reDay + `/` + reMonthAbbr + `/` + reYear4 + `:` + reHour24lz + `:` + reMinuteLz + `:` + reSecondLz + reSpace + reTzCorr
	reMSSQLTime     = reHour12 + `:` + reMinuteLz + `:` + reSecondLz + `[:.][0-9]+` + reMeridian

	// Relative forms.
	reRelTextNumber = `(?i:first|second|third|fourth|fifth|sixth|seventh|eighth|eight|ninth|tenth|eleventh|twelfth)`
	reRelTextText   = `(?i:next|last|previous|this)`
	reRelTextUnit   = `(?:(?i:ms)|µ[sS]|(?:(?i:msec|millisecond|microsecond|usec|sec|second|min|minute|hour|day|fortnight|forthnight|month|year)|µ(?i:sec))(?i:s)?|(?i:weeks)|` + reDayText + `)`
	reRelNumber     = `[+-]*[ \t]*[0-9]{1,13}`
	reBackFrontOf   = `(?i:back of |front of )` + reHour24 + `(?:` + reSpace + `?` + reMeridian + `)?`
	reWeekdayOf     = `(?:` + reRelTextNumber + `|` + reRelTextText + `)` + reSpace + `(?:` + reDayFulls + `|` + reDayFull + `|` + reDayAbbr + `)` + reSpace + `(?i:of)`
	reRelTextWeek   = reRelTextText + reSpace + `(?i:week)`
	reRelText       = `(?:` + reRelTextNumber + `|` + reRelTextText + `)` + reSpace + reRelTextUnit
	reRelative      = reRelNumber + reSpace + `?(?:` + reRelTextUnit + `|(?i:week))`
)

// dateRule is one rule of the grammar: a pattern, anchored at the start of
// what is left of the input, and what a match sets. A nil action skips.
type dateRule struct {
	name string // as in parse_date.re
	re   *regexp.Regexp
	act  func(p *dateParse, tok string) error
}

func rule(name string, act func(p *dateParse, tok string) error, patterns ...string) dateRule {
	re := regexp.MustCompile(`^(?:` + strings.Join(patterns, `|`) + `)`)
	re.Longest()
	return dateRule{name: name, re: re, act: act}
}

// dateRules is in timelib's order, which settles matches of equal length.
var dateRules = []dateRule{
	rule("yesterday", actYesterday, `(?i:yesterday)`),
	rule("now", func(*dateParse, string) error { return nil }, `(?i:now)`),
	rule("noon", actNoon, `(?i:noon)`),
	rule("midnight | today", func(p *dateParse, _ string) error { p.unsetTime(); return nil }, `(?i:midnight|today)`),
	rule("tomorrow", actTomorrow, `(?i:tomorrow)`),
	rule("timestamp", actTimestamp, `@-?[0-9]+`),
	rule("timestampms", actTimestamp, `@-?[0-9]+\.[0-9]{0,6}`),
	rule("firstdayof | lastdayof", actFirstLastDayOf, `(?i:first day of|last day of)`),
	rule("backof | frontof", actBackFrontOf, reBackFrontOf),
	rule("weekdayof", actWeekdayOf, reWeekdayOf),
	rule("timetiny12 | timeshort12 | timelong12", actTime12, reTimeTiny12, reTimeShort12, reTimeLong12),
	rule("mssqltime", actMSSQLTime, reMSSQLTime),
	rule("timetiny24 | timeshort24 | timelong24 | iso8601long", actTime24, reTimeTiny24, reTimeShort24, reTimeLong24, reISOLong),
	rule("gnunocolon", actGNUNoColon, reGNUNoColon),
	rule("iso8601nocolon", actISONoColon, reISONoColon),
	rule("americanshort | american", actAmerican, reAmerican),
	rule("iso8601date4 | iso8601dateslash | dateslash", actISODate4, reISODate4, reISODateSlash, reDateSlash),
	rule("iso8601date2", actISODate2, reISODate2),
	rule("iso8601datex", actISODateX, reISODateX),
	rule("gnudateshorter", actGNUDateShorter, reGNUDateShorter),
	rule("gnudateshort", actGNUDateShort, reGNUDateShort),
	rule("datefull", actDateFull, reDateFull),
	rule("pointeddate4", actPointedDate4, rePointedDate4),
	rule("pointeddate2", actPointedDate2, rePointedDate2),
	rule("datenoday", actDateNoDay, reDateNoDay),
	rule("datenodayrev", actDateNoDayRev, reDateNoDayRev),
	rule("datetextual | datenoyear", actDateTextual, reDateTextual, reDateNoYear),
	rule("datenoyearrev", actDateNoYearRev, reDateNoYearRev),
	rule("datenocolon", actDateNoColon, reDateNoColon),
	rule("xmlrpc | xmlrpcnocolon | soap | wddx | exif", actDateTime, reXMLRPC, reXMLRPCNoColon, reSOAP, reWDDX, reEXIF),
	rule("pgydotd", actPGYearDay, rePGYearDay),
	rule("isoweekday", actISOWeekDay, reISOWeekDay),
	rule("isoweek", actISOWeekDay, reISOWeek),
	rule("pgtextshort", actPGTextShort, rePGTextShort),
	rule("pgtextreverse", actPGTextReverse, rePGTextReverse),
	rule("clf", actCLF, reCLF),
	rule("year4", actYear4, reYear4),
	rule("ago", actAgo, `(?i:ago)`),
	rule("daytext", actDayText, reDayText),
	rule("relativetextweek", actRelativeTextWeek, reRelTextWeek),
	rule("relativetext", actRelativeText, reRelText),
	rule("monthfull | monthabbr", actMonth, reMonthFull, reMonthAbbr),
	rule("tzcorrection | tz", actZone, reTzCorr, reTz),
	rule("dateshortwithtimeshort12 | dateshortwithtimelong12", actDateShortWithTime12,
		reDateNoYear+reTimeShort12, reDateNoYear+reTimeLong12),
	rule("dateshortwithtimeshort | dateshortwithtimelong | dateshortwithtimelongtz", actDateShortWithTime24,
		reDateNoYear+reTimeShort24, reDateNoYear+reTimeLong24, reDateNoYear+reISONormTz),
	rule("relative", actRelative, reRelative),
	rule("[.,]", nil, `[.,]`),
	rule("space", nil, reSpace),
	rule(`"\000" | "\n"`, nil, `[\x00\n]`),
}

// scan reads the whole input, token by token, into p. Like timelib, it sees
// the input followed by a NUL, which some forms (a meridian, a month and day)
// may end with.
func (p *dateParse) scan(in string) error {
	text := in + "\x00"
	for pos := 0; pos < len(in); {
		best, length := -1, 0
		for i, r := range dateRules {
			if loc := r.re.FindStringIndex(text[pos:]); loc != nil && loc[1] > length {
				best, length = i, loc[1]
			}
		}
		if best < 0 {
			return errNotADate // timelib: "Unexpected character"
		}
		if act := dateRules[best].act; act != nil {
			if err := act(p, text[pos:pos+length]); err != nil {
				return err
			}
		}
		pos += length
	}
	return nil
}

// tokenReader walks one matched token the way timelib's helpers walk their
// copy of it: at its end, or at a NUL in it, they see '\0'.
type tokenReader struct {
	s string
	i int
}

func (r *tokenReader) peek() byte { return r.at(0) }

func (r *tokenReader) at(k int) byte {
	if r.i+k < len(r.s) {
		return r.s[r.i+k]
	}
	return 0
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// number is timelib_get_nr_ex: it skips to the next digit and reads at most
// max of them; it returns unset when there is none, and how many it read.
func (r *tokenReader) number(max int) (int64, int) {
	for !isDigit(r.peek()) {
		if r.peek() == 0 {
			return unset, 0
		}
		r.i++
	}
	start := r.i
	for isDigit(r.peek()) && r.i-start < max {
		r.i++
	}
	n, _ := atoiClamped(r.s[start:r.i])
	return n, r.i - start
}

// atoiClamped reads digits as strtoll does, stopping at the int64 limit;
// fits says whether it had to.
func atoiClamped(digits string) (n int64, fits bool) {
	for i := 0; i < len(digits); i++ {
		d := int64(digits[i] - '0')
		if n > (1<<63-1-d)/10 {
			return 1<<63 - 1, false
		}
		n = n*10 + d
	}
	return n, true
}

// toggledNumber is timelib_get_unsigned_nr, which relative amounts use: each
// '-' before the digits turns the sign around, so "--5 days" is +5 days.
func (r *tokenReader) toggledNumber(max int) int64 {
	for c := r.peek(); !isDigit(c) && c != '+' && c != '-'; c = r.peek() {
		if c == 0 {
			return unset
		}
		r.i++
	}
	sign := int64(1)
	for c := r.peek(); c == '+' || c == '-'; c = r.peek() {
		if c == '-' {
			sign = -sign
		}
		r.i++
	}
	n, _ := r.number(max)
	return sign * n
}

// signedNumber is timelib_get_signed_nr, which timestamps use: one sign, then
// digits that must be there and must fit in 64 bits.
func (r *tokenReader) signedNumber(max int) (int64, error) {
	for c := r.peek(); !isDigit(c) && c != '+' && c != '-'; c = r.peek() {
		if c == 0 {
			return 0, errNotADate
		}
		r.i++
	}
	negative := r.peek() == '-'
	if c := r.peek(); c == '+' || c == '-' {
		r.i++
	}
	for !isDigit(r.peek()) {
		if r.peek() == 0 {
			return 0, errNotADate
		}
		r.i++
	}
	start := r.i
	for isDigit(r.peek()) && r.i-start < max {
		r.i++
	}
	n, fits := atoiClamped(r.s[start:r.i])
	if !fits {
		return 0, errNotADate // strtoll's ERANGE
	}
	if negative {
		n = -n
	}
	return n, nil
}

// fraction is timelib_get_frac_nr: the digits after a '.' or ':' as
// microseconds.
func (r *tokenReader) fraction() int64 {
	for c := r.peek(); c != '.' && c != ':' && !isDigit(c); c = r.peek() {
		if c == 0 {
			return unset
		}
		r.i++
	}
	start := r.i
	for c := r.peek(); c == '.' || c == ':' || isDigit(c); c = r.peek() {
		r.i++
	}
	digits := r.s[start+1 : r.i]
	if len(digits) > 6 {
		digits = digits[:6]
	}
	us, _ := atoiClamped(digits)
	for n := len(digits); n < 6; n++ {
		us *= 10
	}
	return us
}

// skipSpaces is timelib_eat_spaces: blanks, tabs, and (narrow) no-break spaces.
func (r *tokenReader) skipSpaces() {
	for {
		switch {
		case r.peek() == ' ' || r.peek() == '\t':
			r.i++
		case strings.HasPrefix(r.s[r.i:], "\u202f"):
			r.i += len("\u202f")
		case strings.HasPrefix(r.s[r.i:], "\u00a0"):
			r.i += len("\u00a0")
		default:
			return
		}
	}
}

// skipDaySuffix skips the "st", "nd", "rd" or "th" after a day number.
func (r *tokenReader) skipDaySuffix() {
	if strings.IndexByte(" \t\n\v\f\r", r.peek()) >= 0 {
		return
	}
	if r.i+2 <= len(r.s) {
		switch strings.ToLower(r.s[r.i : r.i+2]) {
		case "nd", "rd", "st", "th":
			r.i += 2
		}
	}
}

// word reads letters, as timelib's lookups of month names and ordinals do.
func (r *tokenReader) word() string {
	start := r.i
	for isLetter(r.peek()) {
		r.i++
	}
	return strings.ToLower(r.s[start:r.i])
}

// month is timelib_get_month: 0 when the word is no month.
func (r *tokenReader) month() int64 {
	for strings.IndexByte(" \t-./", r.peek()) >= 0 {
		r.i++
	}
	return monthNumbers[r.word()]
}

var monthNumbers = map[string]int64{
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
	"january": 1, "february": 2, "march": 3, "april": 4, "june": 6, "july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10, "xi": 11, "xii": 12,
}

// meridian is timelib_meridian: what to add to hour h for the "am" or "pm"
// that follows. Note that PHP reads anything but an "a" as "pm".
func (r *tokenReader) meridian(h int64) int64 {
	for c := r.peek(); c != 0 && strings.IndexByte("AaPp", c) < 0; c = r.peek() {
		r.i++
	}
	var add int64
	switch {
	case r.peek() == 'a' || r.peek() == 'A':
		if h == 12 {
			add = -12
		}
	case h != 12:
		add = 12
	}
	r.i++
	for _, c := range []string{".", "mM", "."} {
		if r.peek() != 0 && strings.IndexByte(c, r.peek()) >= 0 {
			r.i++
		}
	}
	return add
}
