package index

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// PutTerms indexes the terms in one batch.
func (i *Index) PutTerms(ctx context.Context, terms []*calendar.Term) error {
	b := i.bleve.NewBatch()
	for _, t := range terms {
		if err := b.Index(termDocID(t.ID), newTermDoc(t)); err != nil {
			return err
		}
	}
	return i.applyBatch(b, true)
}

// DeleteTerm removes a term from the index.
func (i *Index) DeleteTerm(ctx context.Context, id int64) error {
	b := i.bleve.NewBatch()
	b.Delete(termDocID(id))
	return i.applyBatch(b, true)
}

var termSortFields = map[string]string{
	"": fieldNameSort, "name": fieldNameSort, "slug": fieldSlug, "id": fieldID,
	"parent": fieldParent, "description": fieldDescSort,
}

// SearchTerms translates a TermQuery into one bleve query and returns every
// matching ID in order.
func (i *Index) SearchTerms(ctx context.Context, q calendar.TermQuery) ([]int64, error) {
	must := []query.Query{term(fieldKind, kindTerm), term(fieldType, q.Taxonomy)}
	if q.Search != "" {
		pattern := ".*" + regexp.QuoteMeta(strings.ToLower(q.Search)) + ".*"
		var either []query.Query
		for _, f := range []string{"name", "slug"} {
			r := bleve.NewRegexpQuery(pattern)
			r.SetField(textPrefix + f)
			either = append(either, r)
		}
		must = append(must, bleve.NewDisjunctionQuery(either...))
	}
	if q.Name != "" {
		must = append(must, term(fieldNameKey, strings.ToLower(q.Name)))
	}
	if q.Include != nil {
		must = append(must, idsQuery(q.Include))
	}
	if q.Parent != nil {
		must = append(must, numberIs(fieldParent, float64(*q.Parent)))
	}
	if q.Parents != nil {
		either := make([]query.Query, 0, len(q.Parents))
		for _, p := range q.Parents {
			either = append(either, numberIs(fieldParent, float64(p)))
		}
		must = append(must, bleve.NewDisjunctionQuery(either...))
	}
	if q.Slug != "" {
		must = append(must, term(fieldSlug, q.Slug))
	}
	root := query.Query(bleve.NewConjunctionQuery(must...))
	if len(q.Exclude) > 0 {
		b := bleve.NewBooleanQuery()
		b.AddMust(root)
		b.AddMustNot(idsQuery(q.Exclude))
		root = b
	}
	sortField, ok := termSortFields[q.OrderBy]
	if !ok {
		return nil, fmt.Errorf("index cannot order terms by %q", q.OrderBy)
	}
	if q.Desc {
		sortField = "-" + sortField
	}
	req := bleve.NewSearchRequestOptions(root, calendar.MaxTerms, 0, false)
	req.SortBy([]string{sortField, fieldID})
	req.Score = "none"
	res, err := i.bleve.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("index search: %w", err)
	}
	ids := make([]int64, 0, len(res.Hits))
	for _, h := range res.Hits {
		id, err := strconv.ParseInt(strings.TrimPrefix(h.ID, "t"), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("index holds a bad term ID %q", h.ID)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// idsQuery matches entries whose id field is one of ids (none when empty).
func idsQuery(ids []int64) query.Query {
	if len(ids) == 0 {
		return bleve.NewMatchNoneQuery()
	}
	var any []query.Query
	for _, id := range ids {
		any = append(any, numberIs(fieldID, float64(id)))
	}
	return bleve.NewDisjunctionQuery(any...)
}

func numberIs(field string, v float64) query.Query {
	inclusive := true
	q := bleve.NewNumericRangeInclusiveQuery(&v, &v, &inclusive, &inclusive)
	q.SetField(field)
	return q
}

// linkFields are the event fields behind each app.Link (categories and tags
// share one sequence of IDs, so their counts never collide).
var linkFields = map[calendar.Link][]string{calendar.LinkTerms: {fieldCats, fieldTags}, calendar.LinkVenue: {fieldVenue}, calendar.LinkOrganizers: {fieldOrgs}}

// maxLinkFacet bounds how many distinct linked IDs one count returns.
const maxLinkFacet = 1 << 20

// CountLinks counts events per linked ID: the events among the query's
// matches that hold each term of the link's fields, read from the bitmaps
// (bitmaps.go), where bleve's facets read every match's doc values (a
// third of the CPU of a cold list of events with categories at a million
// events: each rendering counts the events of its terms).
func (i *Index) CountLinks(ctx context.Context, link calendar.Link, among calendar.PostQuery) (counts map[int64]int, err error) {
	among.Type = calendar.PostTypeEvent
	s, release, err := i.openSegments(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, release()) }()
	matches, err := s.eval(i.filter(among, nil))
	if err != nil {
		return nil, err
	}
	counts = map[int64]int{}
	for _, field := range linkFields[link] {
		err := s.termCounts(matches, field, func(term string, n int) bool {
			if id, err := strconv.ParseInt(term, 10, 64); err == nil { // else not a link
				counts[id] += n
			}
			return len(counts) < maxLinkFacet
		})
		if err != nil {
			return nil, err
		}
	}
	return counts, nil
}
