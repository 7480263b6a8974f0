package app

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// icalLineOctets is RFC 5545's limit for one physical line, CRLF excluded.
const icalLineOctets = 75

// icalWriter writes content lines: CRLF ends, folded at 75 octets.
type icalWriter struct{ buf bytes.Buffer }

// line writes name, its parameters (each already ";KEY=value") and a value
// already escaped for its type.
func (w *icalWriter) line(name, params, value string) {
	w.fold(name + params + ":" + value)
}

// text writes a TEXT property, escaped; nothing when the value is empty.
func (w *icalWriter) text(name, value string) {
	if value != "" {
		w.line(name, "", icalText(value))
	}
}

// fold cuts a line into chunks of at most 75 octets, each continuation led by
// a space, never inside a UTF-8 sequence (continuation bytes are 10xxxxxx).
func (w *icalWriter) fold(s string) {
	limit := icalLineOctets
	for len(s) > limit {
		cut := limit
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		w.buf.WriteString(s[:cut])
		w.buf.WriteString("\r\n ")
		s = s[cut:]
		limit = icalLineOctets - 1
	}
	w.buf.WriteString(s)
	w.buf.WriteString("\r\n")
}

var icalTextEscaper = strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\r", `\n`, "\n", `\n`)

// icalText escapes a TEXT value; control characters TEXT may not hold are dropped.
func icalText(s string) string {
	return icalTextEscaper.Replace(strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f {
			return -1
		}
		return r
	}, s))
}

// icalParam is a parameter value: always quoted, so ; : and , are safe inside;
// a quoted value cannot hold DQUOTE or control characters.
func icalParam(s string) string {
	return `"` + strings.Map(func(r rune) rune {
		if r == '"' || r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s) + `"`
}

func icalUTC(t time.Time) string   { return t.UTC().Format("20060102T150405Z") }
func icalLocal(t time.Time) string { return t.Format("20060102T150405") }
func icalDate(t time.Time) string  { return t.Format("20060102") }

// icalOffset is a UTC offset as ±hhmm, or ±hhmmss when it has seconds.
func icalOffset(seconds int) string {
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

var (
	lineBreakTag  = regexp.MustCompile(`(?i)<br\s*/?>\s*`)
	paragraphEnd  = regexp.MustCompile(`(?i)</p>\s*`)
	extraNewlines = regexp.MustCompile(`\n{3,}`)
)

// plainText turns a rendered HTML description into text: paragraphs become
// blank-line separated, line breaks newlines, tags go, entities are decoded.
func plainText(html string) string {
	s := lineBreakTag.ReplaceAllString(html, "\n")
	s = paragraphEnd.ReplaceAllString(s, "\n\n")
	return extraNewlines.ReplaceAllString(stripTags(s), "\n\n")
}
