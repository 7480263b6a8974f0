package index

import (
	"cmp"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"

	"calendar/app/calendar"
)

// facetFields are the keyword fields that hold each facet's values.
var facetFields = map[string]string{
	calendar.FacetCategories: fieldCats,
	calendar.FacetTags:       fieldTags,
	calendar.FacetVenue:      fieldVenue,
	calendar.FacetOrganizer:  fieldOrgs,
	calendar.FacetFeatured:   fieldFeatured,
}

// facetField is the keyword field of a facet: one of facetFields, or a
// custom field's terms (cf.<key>, a name the app checked).
func facetField(name string) (string, bool) {
	if key, ok := strings.CutPrefix(name, calendar.FacetCustomPrefix); ok {
		return customField(customTerms, key), true
	}
	field, ok := facetFields[name]
	return field, ok
}

// addFacets asks the search for the counts of each facet's values among all
// the matches, not only the page.
func addFacets(req *bleve.SearchRequest, facets []string) {
	for _, name := range facets {
		if field, ok := facetField(name); ok {
			req.AddFacet(name, bleve.NewFacetRequest(field, calendar.MaxFacetValues))
		}
	}
}

func readFacets(res *bleve.SearchResult, facets []string) map[string][]calendar.FacetCount {
	if len(facets) == 0 {
		return nil
	}
	out := make(map[string][]calendar.FacetCount, len(facets))
	for _, name := range facets {
		counts := []calendar.FacetCount{}
		if f := res.Facets[name]; f != nil && f.Terms != nil {
			for _, t := range f.Terms.Terms() {
				counts = append(counts, calendar.FacetCount{Value: t.Term, Count: t.Count})
			}
		}
		out[name] = counts
	}
	return out
}

// facets counts each facet's values among the matches from the bitmaps, in
// bleve's order (most matches first, then by value), at most
// MaxFacetValues a facet.
func (s *segments) facets(matches docSet, names []string) (map[string][]calendar.FacetCount, error) {
	if len(names) == 0 {
		return nil, nil
	}
	out := make(map[string][]calendar.FacetCount, len(names))
	for _, name := range names {
		values := []calendar.FacetCount{}
		if field, ok := facetField(name); ok {
			counts := map[string]int{}
			err := s.termCounts(matches, field, func(term string, n int) bool { counts[term] += n; return true })
			if err != nil {
				return nil, err
			}
			for term, n := range counts {
				values = append(values, calendar.FacetCount{Value: term, Count: n})
			}
			slices.SortFunc(values, func(a, b calendar.FacetCount) int { return cmp.Or(b.Count-a.Count, cmp.Compare(a.Value, b.Value)) })
			values = values[:min(len(values), calendar.MaxFacetValues)]
		}
		out[name] = values
	}
	return out, nil
}
