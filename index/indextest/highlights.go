package indextest

import (
	"fmt"
	"testing"

	"calendar/app/calendar"
)

// runHighlights: the words of each text that a search matches, as it
// matches them (a fragment within a word, a prefix, a typo, accents
// folded): byte spans, in order.
func runHighlights(t *testing.T, idx calendar.Index) {
	for _, c := range []struct {
		name  string
		q     calendar.PostQuery
		texts []string
		want  [][]calendar.Span
	}{
		{"the words holding a fragment; none in a text without", calendar.PostQuery{Words: []string{"azz"}},
			[]string{"Late Jazz", "Rock in Lyon", ""}, [][]calendar.Span{{{Start: 5, End: 9}}, nil, nil}},
		{"every word searched", calendar.PostQuery{Words: []string{"bebop", "dawn"}},
			[]string{"Bebop till dawn"}, [][]calendar.Span{{{Start: 0, End: 5}, {Start: 11, End: 15}}}},
		{"a word one typo away", calendar.PostQuery{Relevance: "sesion"},
			[]string{"Weekly jazz session"}, [][]calendar.Span{{{Start: 12, End: 19}}}},
		{"a word with accents, in bytes", calendar.PostQuery{Relevance: "soiree"},
			[]string{"Soirée New York"}, [][]calendar.Span{{{Start: 0, End: 7}}}},
		{"no typo under five letters", calendar.PostQuery{Relevance: "jazs"},
			[]string{"Jazz"}, [][]calendar.Span{nil}},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := c.q
			q.Type = calendar.PostTypeEvent
			got := idx.Highlight(q, c.texts)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("%v, want %v", got, c.want)
			}
		})
	}
}
