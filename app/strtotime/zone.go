package strtotime

import "strings"

// Zones in the input: the service knows offsets and UTC by its names.

// Z, UTC, GMT, (UTC), +02:00, -0530, GMT+2
func actZone(p *dateParse, tok string) error {
	if proceed, err := p.setHaveZone(); !proceed {
		return err
	}
	r := &tokenReader{s: tok}
	r.skipSpaces()
	return p.readZone(r)
}

// readZone is timelib_parse_zone for the zones this service knows: offsets,
// and UTC under its names. PHP knows many more abbreviations (EST, CET...)
// and zone names (Europe/Rome); they are refused here.
func (p *dateParse) readZone(r *tokenReader) error {
	for c := r.peek(); c == ' ' || c == '\t' || c == '('; c = r.peek() {
		r.i++
	}
	if strings.HasPrefix(r.s[r.i:], "GMT+") || strings.HasPrefix(r.s[r.i:], "GMT-") {
		r.i += 3
	}
	switch c := r.peek(); c {
	case '+', '-':
		r.i++
		offset, ok := r.offset()
		if !ok {
			return errNotADate
		}
		if c == '-' {
			offset = -offset
		}
		p.setZone(offset)
	default:
		start := r.i
		for c := r.peek(); c != 0 && c != ')' && c != ' '; c = r.peek() {
			r.i++
		}
		switch strings.ToLower(r.s[start:r.i]) {
		case "utc", "gmt", "z":
			p.setZone(0)
		default:
			return errNotADate
		}
	}
	return nil
}

// offset is timelib_parse_tz_cor: the digits (and colons) of an offset read
// by their count: H, HH, H:M, HHMM, HH:MM, HHMMSS or HH:MM:SS, in seconds.
func (r *tokenReader) offset() (int, bool) {
	start := r.i
	for c := r.peek(); isDigit(c) || c == ':'; c = r.peek() {
		r.i++
	}
	s := r.s[start:r.i]
	num := func(from int) int { return leadingInt(s[from:]) }
	switch len(s) {
	case 1, 2:
		return num(0) * 3600, true
	case 3, 4:
		switch {
		case s[1] == ':':
			return num(0)*3600 + num(2)*60, true
		case s[2] == ':':
			return num(0)*3600 + num(3)*60, true
		}
		n := num(0)
		return n/100*3600 + n%100*60, true
	case 5:
		return num(0)*3600 + num(3)*60, s[2] == ':'
	case 6:
		n := num(0)
		return n/10000*3600 + n/100%100*60 + n%100, true
	case 8:
		return num(0)*3600 + num(3)*60 + num(6), s[2] == ':' && s[5] == ':'
	}
	return 0, false
}

// leadingInt is strtol on the digits that start s.
func leadingInt(s string) int {
	n := 0
	for i := 0; i < len(s) && isDigit(s[i]); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
