package index

import (
	"cmp"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
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
			values = ranked(counts)
		}
		out[name] = values
	}
	return out, nil
}

// facetsOnce counts each facet's values among the matches of a list showing
// each series once, as facets: each value counts what the list's total
// would count were the list filtered on it (what a facet promises), so a
// series counts once for every value one of its matches holds, not only
// its first match's (an occurrence edited on its own into another category
// counts its series there). matches are the list's before the collapse.
func (s *segments) facetsOnce(matches docSet, names []string) (map[string][]calendar.FacetCount, error) {
	if len(names) == 0 {
		return nil, nil
	}
	v := s.seriesView()
	out := make(map[string][]calendar.FacetCount, len(names))
	for _, name := range names {
		field, ok := facetField(name)
		if !ok {
			out[name] = []calendar.FacetCount{}
			continue
		}
		counts := map[string]int{}
		series := map[string]*roaring.Bitmap{} // by value: the numbers of the series counted
		for seg, m := range matches {
			if m == nil {
				continue
			}
			t, err := v.table(seg)
			if err != nil {
				return nil, err
			}
			alone, inSeries := m, (*roaring.Bitmap)(nil)
			var last []int32 // by local series: the last term (numbered from 1) that counted it
			if t != nil {
				alone, inSeries, last = roaring.AndNot(m, t.all), roaring.And(m, t.all), make([]int32, len(t.ids))
			}
			terms := int32(0)
			err = s.termsIn(seg, field, "", "", func(term string) (bool, error) {
				bm, err := s.postings(seg, field, []byte(term))
				if err != nil || bm == nil {
					return false, err
				}
				if n := int(alone.AndCardinality(bm)); n > 0 {
					counts[term] += n
				}
				if inSeries == nil || !inSeries.Intersects(bm) {
					return false, s.ctx.Err()
				}
				terms++
				for it := roaring.And(inSeries, bm).Iterator(); it.HasNext(); {
					if k, _ := t.seriesOf(it.Next()); last[k] != terms {
						last[k] = terms
						numbers := series[term]
						if numbers == nil {
							numbers = roaring.New()
							series[term] = numbers
						}
						numbers.Add(uint32(v.numberOf(seg, k)))
					}
				}
				return false, s.ctx.Err()
			})
			if err != nil {
				return nil, err
			}
		}
		for term, numbers := range series {
			counts[term] += int(numbers.GetCardinality())
		}
		out[name] = ranked(counts)
	}
	return out, nil
}

// ranked are a facet's counts in bleve's order (most matches first, then by
// value), at most MaxFacetValues.
func ranked(counts map[string]int) []calendar.FacetCount {
	values := make([]calendar.FacetCount, 0, len(counts))
	for term, n := range counts {
		values = append(values, calendar.FacetCount{Value: term, Count: n})
	}
	slices.SortFunc(values, func(a, b calendar.FacetCount) int { return cmp.Or(b.Count-a.Count, cmp.Compare(a.Value, b.Value)) })
	return values[:min(len(values), calendar.MaxFacetValues)]
}
