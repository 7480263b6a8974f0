package app

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"calendar/app/calendar"
)

// Suggestions complete what a reader types in a search box: the titles of
// the events coming soonest that the search finds (each series once), then
// the categories, tags, venues and cities that the most upcoming events
// have, whose names begin with it (or are one typo from it). Everything is
// what the caller may read: the events by the list's read rule, the values
// as the facets name them (app/facets.go), the cities of the venues named
// there without a password. Index searches in the default window from
// yesterday to two years ahead (the list's; a facet search of each of
// categories, tags and venues, app/facet_search.go, which finds a value by
// its name's words whatever its rank among the facet's values; the venues'
// counts, for their cities) and bounded store reads answer it.

// MaxSuggestions bounds each half of the answer: events, then the others.
const MaxSuggestions = 5

// Suggestion is one completion: its kind (event, category, tag, venue,
// city), its text, the text with the matching words in <mark> (the rest
// HTML-escaped), the item's ID (but a city's), and for the values the
// upcoming events that have them; an event's start.
type Suggestion struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	Highlight string `json:"highlight"`
	ID        int64  `json:"id,omitempty"`
	Count     int    `json:"count,omitempty"`
	StartDate string `json:"start_date,omitempty"`
}

var suggestedFacets = map[string]string{calendar.FacetCategories: "category", calendar.FacetTags: "tag", calendar.FacetVenue: "venue"}

// Suggest answers the completions of typed.
func (s *Events) Suggest(ctx context.Context, caller Caller, typed string) ([]Suggestion, error) {
	ctx = searchingAs(ctx, caller)
	folded := foldSearch(strings.TrimSpace(typed))
	out := []Suggestion{}
	if folded == "" {
		return out, nil
	}
	events, err := s.suggestEvents(ctx, caller, typed)
	if err != nil {
		return nil, err
	}
	values, err := s.suggestValues(ctx, caller, folded)
	if err != nil {
		return nil, err
	}
	return append(append(out, events...), values...), nil
}

// suggestEvents are the soonest events the search finds, each series once.
func (s *Events) suggestEvents(ctx context.Context, caller Caller, typed string) ([]Suggestion, error) {
	q, _, err := s.listQuery(ctx, caller, EventFilter{Search: &typed, HideSubsequentRecurrences: true})
	if err != nil {
		return nil, err
	}
	q.Limit = MaxSuggestions
	found, err := s.index.SearchPosts(ctx, q)
	if err != nil {
		return nil, err
	}
	posts, err := s.store.Posts().GetMany(ctx, found.IDs)
	if err != nil {
		return nil, err
	}
	views, err := s.render(ctx, caller, posts, "", false)
	if err != nil {
		return nil, err
	}
	titles := make([]string, len(views))
	for k, v := range views {
		titles[k] = v.Title
	}
	spans := s.index.Highlight(q, titles)
	out := make([]Suggestion, len(views))
	for k, v := range views {
		out[k] = Suggestion{Type: "event", Text: v.Title, Highlight: marked(v.Title, spans[k]), ID: v.ID, StartDate: v.StartDate}
	}
	return out, nil
}

// suggestValues are the categories, tags, venues and cities of the upcoming
// events that match folded, those of the most events first. The categories,
// tags and venues are facet searches (searchFacet: by their names' words,
// whatever their rank among the facet's values); a kind whose search is
// refused as too broad (calendar.ErrTooBroad: the typed word begins too many
// indexed words) is left out, the others answered. The cities are those of
// the venues of the upcoming events, the most frequent as facets= counts
// them: a city is no venue's name.
func (s *Events) suggestValues(ctx context.Context, caller Caller, folded string) ([]Suggestion, error) {
	q, _, err := s.listQuery(ctx, caller, EventFilter{})
	if err != nil {
		return nil, err
	}
	kinds := []string{calendar.FacetCategories, calendar.FacetTags, calendar.FacetVenue}
	found := make([][]FacetValue, len(kinds))
	var cityValues []Suggestion
	g, gctx := errgroup.WithContext(ctx)
	for k, facet := range kinds {
		g.Go(func() (err error) {
			found[k], err = s.searchFacet(gctx, caller, q, facet, folded)
			if errors.Is(err, calendar.ErrTooBroad) {
				found[k], err = nil, nil
			}
			return err
		})
	}
	g.Go(func() (err error) {
		cityValues, err = s.suggestCities(gctx, caller, q, folded)
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var out []Suggestion
	for k, values := range found {
		for _, v := range values {
			out = append(out, Suggestion{Type: suggestedFacets[kinds[k]], Text: v.Name, Highlight: markWords(v.Name, folded), ID: v.ID, Count: v.Count})
		}
	}
	out = append(out, cityValues...)
	slices.SortStableFunc(out, func(a, b Suggestion) int { return cmp.Compare(b.Count, a.Count) })
	return out[:min(len(out), MaxSuggestions)], nil
}

// suggestCities are the cities that match folded of the venues of q's
// matches (the most frequent, as facets= names them: readable, read once).
func (s *Events) suggestCities(ctx context.Context, caller Caller, q calendar.PostQuery, folded string) ([]Suggestion, error) {
	q.Facets, q.Limit = []string{calendar.FacetVenue}, 0
	found, err := s.index.SearchPosts(ctx, q)
	if err != nil {
		return nil, err
	}
	named, venues, err := s.facetsAndPosts(ctx, caller.User, q.Facets, found.Facets)
	if err != nil {
		return nil, err
	}
	var venueIDs []int64
	venueEvents := map[int64]int{}
	for _, v := range named[0].Values {
		venueIDs, venueEvents[v.ID] = append(venueIDs, v.ID), v.Count
	}
	var out []Suggestion
	for _, c := range cities(venueIDs, venues, venueEvents) {
		if nameMatch(folded, c.Text, "") != noMatch {
			c.Highlight = markWords(c.Text, folded)
			out = append(out, c)
		}
	}
	return out, nil
}

// cities are the cities of the venues (those the facets named: readable,
// read once for both), each with the events of its venues; a
// password-protected venue's city is what its password protects.
func cities(venueIDs []int64, venues map[int64]*calendar.Post, events map[int64]int) []Suggestion {
	counts := map[string]int{}
	var names []string
	for _, id := range venueIDs {
		v := venues[id]
		city := strings.TrimSpace(v.Meta["city"])
		if city == "" || v.Password != "" {
			continue
		}
		if _, seen := counts[city]; !seen {
			names = append(names, city)
		}
		counts[city] += events[v.ID]
	}
	out := make([]Suggestion, len(names))
	for k, name := range names {
		out[k] = Suggestion{Type: "city", Text: name, Count: counts[name]}
	}
	return out
}

// markWords marks the words of text whose folded form begins with folded
// (or is one typo from it): all of them when folded begins the whole text.
func markWords(text, folded string) string {
	var spans []calendar.Span
	start := -1
	flush := func(end int) {
		if start >= 0 {
			if nameMatch(folded, text[start:end], "") != noMatch {
				spans = append(spans, calendar.Span{Start: start, End: end})
			}
			start = -1
		}
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
	if len(spans) == 0 && nameMatch(folded, text, "") != noMatch && utf8.ValidString(text) {
		spans = []calendar.Span{{Start: 0, End: len(text)}}
	}
	return marked(text, spans)
}
