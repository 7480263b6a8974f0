package app

import (
	"context"
	"slices"
	"strings"
	"unicode"

	"calendar/app/calendar"
)

// Facet search finds, in a long facet (300 venues in a sidebar, or 30,000),
// the values whose names begin with what the reader types, or are one typo
// from it, with their counts as the list's facet counts them: under every
// filter of the list but the facet's own (disjunctive), only what the
// caller may read (app/facets.go names them). The index finds the values
// whose names may match by their words, whatever their rank among the
// facet's values, and counts each (calendar.PostQuery.FacetSearch, within
// calendar.MaxSearchTerms words and values read); the names of at most
// calendar.MaxFacetValues of them, the most frequent, are read from the
// store and decide. Nothing typed: the facet's most frequent values, as
// facets= lists them.

// SearchableFacets are the facets GET /events/facets/<facet> searches,
// besides a custom field's (cf.<key>: one the caller may facet by, as the
// list decides it).
var SearchableFacets = []string{calendar.FacetVenue, calendar.FacetOrganizer, calendar.FacetCategories, calendar.FacetTags}

// FacetSearch answers the values of facet whose name matches prefix
// (nothing typed: every value), prefix matches first, then those one typo
// away, each group most frequent first.
func (s *Events) FacetSearch(ctx context.Context, caller Caller, facet, prefix string, f EventFilter) ([]FacetValue, error) {
	custom := strings.HasPrefix(facet, calendar.FacetCustomPrefix)
	if !custom && !slices.Contains(SearchableFacets, facet) {
		return nil, calendar.ErrInvalidParam("facet", "facet must be one of "+strings.Join(SearchableFacets, ", ")+" or "+calendar.FacetCustomPrefix+"<key>.")
	}
	ctx = searchingAs(ctx, caller)
	f.Facets, f.DaysZone = nil, nil // the answer is the one facet
	if custom {
		f.Facets = &[]string{facet} // checked as the list checks it: a field the caller may facet by
	}
	q, _, err := s.listQuery(ctx, caller, f)
	if err != nil {
		return nil, err
	}
	return s.searchFacet(ctx, caller, q, facet, foldSearch(strings.TrimSpace(prefix)))
}

// searchFacet answers the facet search of facet for typed (folded) among
// the matches of q, a list's query: what FacetSearch answers.
func (s *Events) searchFacet(ctx context.Context, caller Caller, q calendar.PostQuery, facet, typed string) ([]FacetValue, error) {
	q.Facets, q.Offset, q.Limit, q.GeoGrid, q.Days, q.FacetSearch = []string{facet}, 0, 0, 0, nil, typed
	found, err := s.searchFaceted(ctx, q)
	if err != nil {
		return nil, err
	}
	named, err := s.facets(ctx, caller.User, q.Facets, found.Facets)
	if err != nil {
		return nil, err
	}
	var begins, near []FacetValue
	for _, v := range named[0].Values {
		switch nameMatch(typed, v.Name, v.Slug) {
		case beginsWith:
			begins = append(begins, v)
		case oneTypo:
			near = append(near, v)
		}
	}
	return append(append([]FacetValue{}, begins...), near...), nil
}

type match int

const (
	noMatch match = iota
	beginsWith
	oneTypo
)

// minTypoRunes: what is typed is one typo from a word from five letters
// on, as a relevance search reads a word (index/mapping.go's minFuzzyRunes).
const minTypoRunes = 5

// nameMatch says how a value's name (or slug) matches what was typed
// (folded): the name, one of its words or its slug begins with it, or a
// word's beginning as long as it is one typo from it.
func nameMatch(typed, name, slug string) match {
	if typed == "" {
		return beginsWith
	}
	folded := foldSearch(name)
	if strings.HasPrefix(folded, typed) || strings.HasPrefix(slug, typed) {
		return beginsWith
	}
	words := strings.FieldsFunc(folded, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	for _, w := range words {
		if strings.HasPrefix(w, typed) {
			return beginsWith
		}
	}
	t := []rune(typed)
	if len(t) < minTypoRunes || strings.ContainsRune(typed, ' ') {
		return noMatch
	}
	for _, w := range words {
		r := []rune(w)
		for _, n := range []int{len(t) - 1, len(t), len(t) + 1} { // the word's beginning, a letter more or less
			if n <= len(r) && calendar.WithinOneEdit(r[:n], t) {
				return oneTypo
			}
		}
	}
	return noMatch
}
