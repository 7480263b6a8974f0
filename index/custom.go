package index

import (
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// customClauses are the clauses of a query's custom field filters: any of
// a field's terms, its sort key within bounds (numbers and dates, which
// hold one value), and the posts holding a field.
func customClauses(q calendar.PostQuery) []query.Query {
	var must []query.Query
	if q.HasCustom != "" {
		must = append(must, term(fieldCustomHas, q.HasCustom))
	}
	for _, f := range q.Custom {
		if f.Terms != nil {
			must = append(must, anyOf(customField(customTerms, f.Key), f.Terms))
		}
		if f.Min != nil || f.Max != nil {
			min, max, inclusive := "", "", true
			if f.Min != nil {
				min = *f.Min
			}
			if f.Max != nil {
				max = *f.Max
			}
			r := bleve.NewTermRangeInclusiveQuery(min, max, &inclusive, &inclusive)
			r.SetField(customField(customSort, f.Key))
			must = append(must, r)
		}
	}
	return must
}
