package index

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// PutPosts indexes the posts in one batch.
func (i *Index) PutPosts(ctx context.Context, posts []*calendar.Post) error {
	b := i.bleve.NewBatch()
	for _, p := range posts {
		if err := b.Index(docID(p.ID), newPostDoc(p, i.languages)); err != nil {
			return err
		}
	}
	return i.applyBatch(b, true)
}

// DeletePost removes a post from the index.
func (i *Index) DeletePost(ctx context.Context, id int64) error {
	b := i.bleve.NewBatch()
	b.Delete(docID(id))
	return i.applyBatch(b, true)
}

// SearchPosts answers a PostQuery: the total, the facets and one page of IDs.
func (i *Index) SearchPosts(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	near, err := i.placeClause(ctx, q)
	if err != nil {
		return calendar.PostPage{}, err
	}
	// A facet search (facetsearch.go) counts its facet apart; an index
	// without the names' words counts it as facets= does, the caller
	// finding names among its most frequent values.
	searched := q.FacetSearch != "" && len(q.Facets) == 1 && i.version >= nameWordsFrom
	facets := q.Facets
	if searched {
		q.Facets = []string{}
	}
	// A count (no page) with a facet search is the facet search's: its
	// matches tell the total, the filter evaluated once.
	countOnly := searched && q.Limit == 0 && fromBitmaps(q)
	var page calendar.PostPage
	switch {
	case countOnly:
		page.IDs = []int64{}
	case fromBitmaps(q):
		page, err = i.searchBitmaps(ctx, q, near)
	default:
		page, err = i.searchBleve(ctx, q, near)
	}
	if err == nil && searched {
		var values []calendar.FacetCount
		var total int
		if values, total, err = i.facetSearch(ctx, q, facets[0], near); err == nil {
			page.Facets = map[string][]calendar.FacetCount{facets[0]: values}
		}
		if countOnly {
			page.Total = total
		}
	}
	if err == nil && q.Days != nil {
		page.Days, err = i.dayCounts(ctx, q, near)
	}
	if err == nil && q.GeoGrid > 0 {
		if q, err = i.withoutDropped(ctx, q, near); err == nil {
			page.Grid, err = i.geoGrid(ctx, q, near)
		}
	}
	return page, err
}

// searchBleve answers a query bleve runs (relevance, another order than by
// start). Showing each series once, the matches the collapse drops are left
// out by ID (found from the bitmaps, as a page by start does), and the
// facets are counted from the bitmaps too: bleve's would count only what the
// collapse leaves (facetsOnce).
func (i *Index) searchBleve(ctx context.Context, q calendar.PostQuery, near query.Query) (page calendar.PostPage, err error) {
	var facets map[string][]calendar.FacetCount
	if q.OncePerSeries {
		dropped, counted, err := i.droppedByOncePerSeries(ctx, q, near)
		if err != nil {
			return calendar.PostPage{}, err
		}
		q.OncePerSeries, facets, q.Facets = false, counted, nil
		q.ExcludeIDs = append(slices.Clip(q.ExcludeIDs), dropped...)
	}
	res, err := i.searchQuery(ctx, q, near)
	if err != nil {
		return calendar.PostPage{}, err
	}
	if page, err = pageOf(res, q.Facets); facets != nil {
		page.Facets = facets
	}
	return page, err
}

// withoutDropped is q leaving out by ID what q.OncePerSeries drops, for the
// searches bleve runs; q itself when it shows every event.
func (i *Index) withoutDropped(ctx context.Context, q calendar.PostQuery, near query.Query) (calendar.PostQuery, error) {
	if !q.OncePerSeries {
		return q, nil
	}
	q.Facets = nil
	dropped, _, err := i.droppedByOncePerSeries(ctx, q, near)
	if err != nil {
		return q, err
	}
	q.OncePerSeries = false
	q.ExcludeIDs = append(slices.Clip(q.ExcludeIDs), dropped...)
	return q, nil
}

// searchQuery runs the bleve search of q (near stands for q.Near).
func (i *Index) searchQuery(ctx context.Context, q calendar.PostQuery, near query.Query) (*bleve.SearchResult, error) {
	req, err := i.request(q, near)
	if err != nil {
		return nil, err
	}
	return i.search(ctx, req)
}

func (i *Index) search(ctx context.Context, req *bleve.SearchRequest) (*bleve.SearchResult, error) {
	res, err := i.bleve.SearchInContext(withTermBudget(ctx), req)
	if err != nil {
		return nil, fmt.Errorf("index search: %w", err)
	}
	return res, nil
}

func pageOf(res *bleve.SearchResult, facets []string) (calendar.PostPage, error) {
	page := calendar.PostPage{Total: int(res.Total), IDs: make([]int64, 0, len(res.Hits)), Facets: readFacets(res, facets)}
	for _, h := range res.Hits {
		id, err := strconv.ParseInt(h.ID, 10, 64)
		if err != nil {
			return calendar.PostPage{}, fmt.Errorf("index holds a non-numeric ID %q", h.ID)
		}
		page.IDs = append(page.IDs, id)
	}
	return page, nil
}

// request is the bleve search of a PostQuery: its filter, page, order and
// facets. Nothing is scored but a relevance search, so that every clause can
// be answered from bitmaps (bleve's "unadorned" conjunctions and disjunctions
// need that, and terms queries rather than one-clause disjunctions).
func (i *Index) request(q calendar.PostQuery, near query.Query) (*bleve.SearchRequest, error) {
	req := bleve.NewSearchRequestOptions(i.matching(q, near), q.Limit, q.Offset, false)
	addFacets(req, q.Facets)
	switch {
	case q.Limit == 0:
		// Only the total: bleve would still read every match's sort key.
	case q.Order == calendar.OrderDistance:
		if q.Near == nil {
			return nil, fmt.Errorf("ordering by distance needs a point")
		}
		nearest, err := search.NewSortGeoDistance(fieldGeo, "km", q.Near.Lng, q.Near.Lat, false)
		if err != nil {
			return nil, err
		}
		req.SortByCustom(search.SortOrder{nearest, &search.SortField{Field: fieldStartKey}})
	case q.Order == calendar.OrderStart:
		req.SortBy([]string{fieldStartKey})
	case q.Order == calendar.OrderPublished:
		req.SortBy([]string{fieldDateKey})
	case q.Order == calendar.OrderModified:
		req.SortBy(modifiedOrder)
	case q.Order == calendar.OrderByCustom:
		req.SortByCustom(search.SortOrder{&search.SortField{Field: customField(customSort, q.OrderCustom), Missing: search.SortFieldMissingLast},
			&search.SortField{Field: fieldStartKey}})
	default:
		req.SortBy([]string{"-" + fieldDateKey})
	}
	req.Score = "none"
	if q.Relevance != "" {
		rankFirst(req)
	}
	return req, nil
}

// matching is the query of what q selects, ranked when q asks for relevance.
func (i *Index) matching(q calendar.PostQuery, near query.Query) query.Query {
	root := i.filter(q, near)
	if q.Relevance != "" {
		var plain query.Query
		if p := i.plainPlan(q.Words); len(p.words) > 0 {
			plain = unscored{ownBudget{bleve.NewConjunctionQuery(p.filterClauses(fieldWordParts, fieldWords)...)}}
		}
		root = i.rankedPlan(q.Relevance, q.Language, q.Synonyms).rankedQuery(root, plain)
	}
	return root
}

// filter is the query that selects what q selects; near stands for the
// clause of q.Near and q.Within (placeClause).
func (i *Index) filter(q calendar.PostQuery, near query.Query) query.Query {
	var must []query.Query
	if q.Type != "" {
		must = append(must, term(fieldType, q.Type)) // post types are never taxonomies: the kind is implied
	} else {
		must = append(must, term(fieldKind, kindPost))
	}
	if len(q.Statuses) > 0 {
		must = append(must, anyOf(fieldStatus, q.Statuses))
	}
	if r := readable(q.Reader, q.Statuses); r != nil {
		must = append(must, r)
	}
	if q.TitleKey != "" {
		must = append(must, term(fieldTitleKey, q.TitleKey))
	}
	if len(q.Fragments) > 0 {
		must = append(must, i.fragmentsQuery(q.Type, q.Fragments))
	}
	must = append(must, i.searchClauses(q)...)
	if q.IDs != nil {
		must = append(must, postIDsQuery(q.IDs))
	}
	if r := timeRange(startTime, q.StartAfter, q.StartBefore); r != nil {
		must = append(must, r)
	}
	if r := timeRange(endTime, q.EndAfter, q.EndBefore); r != nil {
		must = append(must, r)
	}
	for _, link := range []struct {
		field string
		ids   []int64
	}{{fieldVenue, q.Venues}, {fieldOrgs, q.Organizers}, {fieldCats, q.Categories}, {fieldTags, q.Tags},
		{fieldAuthor, q.Authors}, {fieldImage, q.Images}} {
		if link.ids != nil {
			must = append(must, anyOf(link.field, idStrings(link.ids)))
		}
	}
	if q.SeriesOnly {
		must = append(must, term(fieldSeries, "true"))
	}
	if q.Source != "" {
		must = append(must, term(fieldSource, q.Source))
	}
	if q.Featured != nil {
		must = append(must, term(fieldFeatured, strconv.FormatBool(*q.Featured)))
	}
	if q.EventStatuses != nil {
		must = append(must, anyOf(fieldEventSt, q.EventStatuses))
	}
	if q.ListedOnly {
		must = append(must, term(fieldListed, "true"))
	}
	must = append(must, customClauses(q)...)
	if q.Parent != nil {
		must = append(must, term(fieldSeriesOf, docID(*q.Parent)))
	}
	if q.Series != nil {
		must = append(must, bleve.NewDisjunctionQuery(postIDsQuery([]int64{*q.Series}), term(fieldSeriesOf, docID(*q.Series))))
	}
	if q.HasGeo != nil {
		must = append(must, term(fieldHasGeo, strconv.FormatBool(*q.HasGeo)))
	}
	if q.NotPlacedAt != nil {
		b := bleve.NewBooleanQuery()
		b.AddMust(term(fieldKind, kindPost))
		b.AddMustNot(term(fieldPlace, *q.NotPlacedAt))
		must = append(must, b)
	}
	if near != nil {
		must = append(must, near)
	}
	if m := modifiedQuery(q); m != nil {
		must = append(must, m)
	}
	root := query.Query(bleve.NewConjunctionQuery(must...))
	if len(q.ExcludeIDs) > 0 {
		b := bleve.NewBooleanQuery()
		b.AddMust(root)
		b.AddMustNot(postIDsQuery(q.ExcludeIDs))
		root = b
	}
	return root
}

// readable is the clause of a read rule: published posts, or the reader's
// own in the statuses an author reads. None when the rule reads everything,
// or when the statuses asked for are all public anyway (a visitor's list: the
// status clause already says it).
func readable(r calendar.ReadRule, statuses []string) query.Query {
	if r.All || (len(statuses) > 0 && allIn(statuses, calendar.PublicStatuses)) {
		return nil
	}
	public := anyOf(fieldStatus, calendar.PublicStatuses)
	if r.Author == 0 {
		return public
	}
	own := bleve.NewConjunctionQuery(term(fieldAuthor, docID(r.Author)), anyOf(fieldStatus, calendar.OwnStatuses))
	return bleve.NewDisjunctionQuery(public, own)
}

func allIn(values, set []string) bool {
	for _, v := range values {
		if !slices.Contains(set, v) {
			return false
		}
	}
	return true
}

// postIDsQuery matches the posts of ids (none when empty) by document ID: a
// numeric ID field would cost every post 16 more terms to index.
func postIDsQuery(ids []int64) query.Query {
	if len(ids) == 0 {
		return bleve.NewMatchNoneQuery()
	}
	return bleve.NewDocIDQuery(idStrings(ids))
}

func idStrings(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = docID(id)
	}
	return out
}

// anyOf matches entries whose field holds one of values (none when empty).
func anyOf(field string, values []string) query.Query {
	switch len(values) {
	case 0:
		return bleve.NewMatchNoneQuery()
	case 1:
		return term(field, values[0])
	}
	var any []query.Query
	for _, v := range values {
		any = append(any, term(field, v))
	}
	return bleve.NewDisjunctionQuery(any...)
}

func term(field, value string) query.Query {
	t := bleve.NewTermQuery(value)
	t.SetField(field)
	return t
}

// fragmentsQuery selects the posts of postType with one searchable field
// that holds every fragment (the plugin's venue, organizer and media
// search). A fragment is found within a word of the field's parts as an
// event's within its words' (plainPlan, filterClauses): term lookups and
// walks of the terms it begins, from the search's one budget of terms,
// never a walk of a field's whole dictionary (a wildcard compiled an
// automaton per fragment and field, 35 ms for four fragments on an empty
// index: docs/benchmarks.md).
func (i *Index) fragmentsQuery(postType string, fragments []string) query.Query {
	plan := i.plainPlan(fragments)
	var any []query.Query
	for _, f := range searchedFields(postType) {
		field := partsField(f)
		any = append(any, bleve.NewConjunctionQuery(plan.filterClauses(field, field)...))
	}
	return bleve.NewDisjunctionQuery(any...)
}
