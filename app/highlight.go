package app

import (
	"html"
	"strings"
	"unicode/utf8"

	"calendar/app/calendar"
)

// EventHighlight shows why an event matched a search: its title, and a
// snippet of its description's text around the first match, each matched
// word in <mark>...</mark> and every other character HTML-escaped, so a
// page shows both as they are.
type EventHighlight struct {
	Title       string `json:"title"`
	Description string `json:"description"`
}

// A snippet is at most snippetRunes characters of the description's text
// (and an ellipsis at a cut end), beginning up to snippetLead characters
// before its first match.
const (
	snippetRunes = 160
	snippetLead  = 40
	ellipsis     = "…"
)

// highlight gives each event of a page (the views the caller is answered,
// so a masked description shows nothing) its highlight of the search q
// made: the index reads the texts as it read the search. The work is
// bounded by the page (50 events at most) and the bounds of a title and a
// description.
func (s *Events) highlight(q calendar.PostQuery, items []EventView) {
	texts := make([]string, 0, 2*len(items))
	for _, v := range items {
		texts = append(texts, v.Title, strings.Join(strings.Fields(plainText(v.Description)), " "))
	}
	spans := s.index.Highlight(q, texts)
	for k := range items {
		title, description := texts[2*k], texts[2*k+1]
		items[k].Highlight = &EventHighlight{Title: marked(title, spans[2*k]), Description: snippet(description, spans[2*k+1])}
	}
}

// snippet cuts text to a window around its first match (its beginning when
// none), at spaces where it can, and marks the matches within.
func snippet(text string, spans []calendar.Span) string {
	if utf8.RuneCountInString(text) <= snippetRunes {
		return marked(text, spans)
	}
	first := 0
	if len(spans) > 0 {
		first = spans[0].Start
	}
	start := back(text, first, snippetLead)
	end := forward(text, start, snippetRunes)
	if end == len(text) { // the window ends with the text: it begins earlier
		start = back(text, end, snippetRunes)
	}
	// Whole words at the cut ends, unless that would cut the first match.
	if start > 0 {
		if i := strings.IndexByte(text[start:], ' '); i >= 0 && start+i < first {
			start += i + 1
		}
	}
	if end < len(text) {
		if i := strings.LastIndexByte(text[start:end], ' '); i > 0 && (len(spans) == 0 || start+i >= spans[0].End) {
			end = start + i
		}
	}
	var window []calendar.Span
	for _, sp := range spans {
		if sp.End > start && sp.Start < end {
			window = append(window, calendar.Span{Start: max(sp.Start, start) - start, End: min(sp.End, end) - start})
		}
	}
	out := marked(text[start:end], window)
	if start > 0 {
		out = ellipsis + out
	}
	if end < len(text) {
		out += ellipsis
	}
	return out
}

// back is where n characters before i begin (0 at most).
func back(text string, i, n int) int {
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(text[:i])
		i -= size
	}
	return i
}

// forward is where the n characters from i end (the text's end at most).
func forward(text string, i, n int) int {
	for ; n > 0 && i < len(text); n-- {
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return i
}

// marked is text HTML-escaped with each span in <mark>.
func marked(text string, spans []calendar.Span) string {
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		b.WriteString(html.EscapeString(text[at:sp.Start]))
		b.WriteString("<mark>" + html.EscapeString(text[sp.Start:sp.End]) + "</mark>")
		at = sp.End
	}
	b.WriteString(html.EscapeString(text[at:]))
	return b.String()
}
