package index

import (
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

// addFacets asks the search for the counts of each facet's values among all
// the matches, not only the page.
func addFacets(req *bleve.SearchRequest, facets []string) {
	for _, name := range facets {
		if field, ok := facetFields[name]; ok {
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
