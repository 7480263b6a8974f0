// Package ical writes iCalendar (RFC 5545) content lines and the VTIMEZONE
// of a zone, whose transitions Go's tz database does not list.
package ical

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// lineOctets is RFC 5545's limit for one physical line, CRLF excluded.
const lineOctets = 75

// Writer writes content lines: CRLF ends, folded at 75 octets.
type Writer struct{ buf bytes.Buffer }

// Len is how many bytes are written so far.
func (w *Writer) Len() int { return w.buf.Len() }

// Truncate drops everything written after the first n bytes.
func (w *Writer) Truncate(n int) { w.buf.Truncate(n) }

// Bytes is what was written.
func (w *Writer) Bytes() []byte { return w.buf.Bytes() }

// Append copies content lines another Writer wrote.
func (w *Writer) Append(lines []byte) { w.buf.Write(lines) }

// Line writes name, its parameters (each already ";KEY=value") and a value
// already escaped for its type.
func (w *Writer) Line(name, params, value string) {
	w.fold(name + params + ":" + value)
}

// Text writes a TEXT property, escaped; nothing when the value is empty.
func (w *Writer) Text(name, value string) {
	if value != "" {
		w.Line(name, "", Text(value))
	}
}

// fold cuts a line into chunks of at most 75 octets, each continuation led by
// a space, never inside a UTF-8 sequence (continuation bytes are 10xxxxxx).
func (w *Writer) fold(s string) {
	limit := lineOctets
	for len(s) > limit {
		cut := limit
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		w.buf.WriteString(s[:cut])
		w.buf.WriteString("\r\n ")
		s = s[cut:]
		limit = lineOctets - 1
	}
	w.buf.WriteString(s)
	w.buf.WriteString("\r\n")
}

var textEscaper = strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\r", `\n`, "\n", `\n`)

// Text escapes a TEXT value; control characters TEXT may not hold are dropped.
func Text(s string) string {
	return textEscaper.Replace(strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f {
			return -1
		}
		return r
	}, s))
}

// Param is a parameter value: always quoted, so ; : and , are safe inside;
// a quoted value cannot hold DQUOTE or control characters.
func Param(s string) string {
	return `"` + strings.Map(func(r rune) rune {
		if r == '"' || r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s) + `"`
}

// UTC, Local and Date are an instant as a DATE-TIME in UTC, a local DATE-TIME
// (its zone named by TZID), and a DATE.
func UTC(t time.Time) string   { return t.UTC().Format("20060102T150405Z") }
func Local(t time.Time) string { return t.Format("20060102T150405") }
func Date(t time.Time) string  { return t.Format("20060102") }

// Offset is a UTC offset as ±hhmm, or ±hhmmss when it has seconds.
func Offset(seconds int) string {
	sign := "+"
	if seconds < 0 {
		sign, seconds = "-", -seconds
	}
	out := sign + pad2(seconds/3600) + pad2(seconds/60%60)
	if seconds%60 != 0 {
		out += pad2(seconds % 60)
	}
	return out
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
