package index

import (
	"slices"
	"strings"

	"calendar/app/calendar"
)

// Highlight finds in each text the words q's search matches, by the plan
// that searched (planOf): the text read by the same analyzers, each word
// compared as its part of the query compares it. Optional words (stop
// words) are not shown. The work is the texts' length: no dictionary is read.
func (i *Index) Highlight(q calendar.PostQuery, texts []string) [][]calendar.Span {
	plans := i.plansOf(q)
	matchers := make([]matcher, len(plans))
	for k, p := range plans {
		matchers[k] = p.matcher()
	}
	out := make([][]calendar.Span, len(texts))
	for k, text := range texts {
		var spans []calendar.Span
		for n, p := range plans {
			spans = append(spans, p.spans(matchers[n], text)...)
		}
		out[k] = merged(spans)
	}
	return out
}

// plansOf are the plans of q's search: its Relevance or Tolerant text as
// relevance reads it, and its Words as the plugin's search does (a
// tolerant search matches by either).
func (i *Index) plansOf(q calendar.PostQuery) []searchPlan {
	var plans []searchPlan
	for _, text := range []string{q.Relevance, q.Tolerant} {
		if text != "" {
			plans = append(plans, i.rankedPlan(text, q.Language, q.Synonyms))
		}
	}
	if len(q.Words) > 0 {
		plans = append(plans, i.plainPlan(q.Words))
	}
	return plans
}

func (p searchPlan) spans(m matcher, text string) []calendar.Span {
	if m.empty() || text == "" {
		return nil
	}
	var spans []calendar.Span
	for _, tok := range p.folded.Analyze([]byte(text)) {
		if m.matches(string(tok.Term)) {
			spans = append(spans, calendar.Span{Start: tok.Start, End: tok.End})
		}
	}
	if len(m.stems) > 0 {
		for _, tok := range p.stems.Analyze([]byte(text)) {
			if m.stems[string(tok.Term)] {
				spans = append(spans, calendar.Span{Start: tok.Start, End: tok.End})
			}
		}
	}
	return merged(spans)
}

// matcher is a plan's parts (but its optional words') ready to compare
// with the terms of a text: per term, a lookup and a few comparisons.
type matcher struct {
	whole, stems map[string]bool
	within       []string
	wordLike     []likeWord
}

type likeWord struct {
	term  string
	runes []rune
}

func (p searchPlan) matcher() matcher {
	m := matcher{whole: map[string]bool{}, stems: map[string]bool{}}
	for _, found := range p.words {
		if found.optional {
			continue
		}
		for _, w := range append([]wordPlan{found}, found.synonyms...) {
			for _, part := range w.parts {
				switch part.how {
				case wholeTerm:
					m.whole[part.term] = true
				case inWord:
					m.within = append(m.within, part.term)
				default:
					m.wordLike = append(m.wordLike, likeWord{part.term, []rune(part.term)})
				}
			}
			for _, s := range w.stems {
				m.stems[s] = true
			}
		}
	}
	return m
}

func (m matcher) empty() bool {
	return len(m.whole) == 0 && len(m.stems) == 0 && len(m.within) == 0 && len(m.wordLike) == 0
}

// matches says whether a text's term is one the plan's query finds: a
// pair itself, a word holding a fragment, a word a relevance word begins or
// is one typo from.
func (m matcher) matches(term string) bool {
	if m.whole[term] {
		return true
	}
	for _, frag := range m.within {
		if strings.Contains(term, frag) {
			return true
		}
	}
	var runes []rune
	for _, w := range m.wordLike {
		if strings.HasPrefix(term, w.term) {
			return true
		}
		if len(w.runes) >= minFuzzyRunes {
			if runes == nil {
				runes = []rune(term)
			}
			if calendar.WithinOneEdit(runes, w.runes) {
				return true
			}
		}
	}
	return false
}

// merged sorts spans and joins those that overlap (a spaceless run's pairs).
func merged(spans []calendar.Span) []calendar.Span {
	slices.SortFunc(spans, func(a, b calendar.Span) int { return a.Start - b.Start })
	var out []calendar.Span
	for _, s := range spans {
		if n := len(out); n > 0 && s.Start < out[n-1].End {
			out[n-1].End = max(out[n-1].End, s.End)
			continue
		}
		out = append(out, s)
	}
	return out
}
