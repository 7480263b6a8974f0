package index

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app"
)

// Field names of an indexed post. Text fields hold the whole lower-cased value
// as one term, so a fragment matches as a substring with a wildcard query.
const (
	fieldKind     = "kind" // "post" or "term"
	fieldType     = "type"
	fieldStatus   = "status"
	fieldAuthor   = "author"
	fieldTitleKey = "title_key"
	fieldVenue    = "venue"
	fieldOrgs     = "organizers"
	fieldCats     = "categories"
	fieldTags     = "tags"
	fieldFeatured = "featured"
	fieldListed   = "listed"
	fieldGeo      = "geo"
	fieldHasGeo   = "has_geo"
	fieldID       = "id" // terms only: posts are found by their document IDs
	// One keyword each for the two post orders: sorting by a single doc
	// value is several times faster than by start, then date, then ID
	// (125 ms against 22 ms for 90,000 events).
	fieldStartKey = "start_key"
	fieldDateKey  = "date_key"
	textPrefix    = "text_"
)

// postDoc is what the index keeps of a post.
type postDoc map[string]any

func newMapping() mapping.IndexMapping {
	// Doc values (a column per field, for sorting and facets) only where
	// something sorts or counts by the field: elsewhere they only made the
	// index bigger and its rebuild slower.
	keywordField := bleve.NewKeywordFieldMapping()
	keywordField.Analyzer = keyword.Name
	keywordField.Store, keywordField.IncludeInAll, keywordField.DocValues = false, false, false
	sortableKeyword := *keywordField
	sortableKeyword.DocValues = true
	sortableNumeric := bleve.NewNumericFieldMapping()
	sortableNumeric.Store, sortableNumeric.IncludeInAll = false, false
	geo := bleve.NewGeoPointFieldMapping()
	geo.Store, geo.IncludeInAll = false, false // doc values kept: the order by distance reads them

	doc := bleve.NewDocumentStaticMapping()
	doc.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping()) // nothing searches every field at once
	doc.AddFieldMappingsAt(fieldGeo, geo)
	for _, f := range []string{fieldHasGeo, fieldListed, fieldKind, fieldType, fieldStatus, fieldAuthor, fieldTitleKey, fieldNameKey} {
		doc.AddFieldMappingsAt(f, keywordField)
	}
	for _, f := range []string{fieldStartKey, fieldDateKey, fieldVenue, fieldOrgs, fieldCats, fieldTags, fieldFeatured, fieldSlug, fieldNameSort, fieldDescSort} {
		doc.AddFieldMappingsAt(f, &sortableKeyword)
	}
	mapTime(doc, keywordField, startTime, endTime)
	doc.AddFieldMappingsAt(endTime.exact, keywordField) // the start's is its sort key
	doc.AddFieldMappingsAt(fieldID, sortableNumeric)
	doc.AddFieldMappingsAt(fieldParent, sortableNumeric)
	mapModified(doc, keywordField, &sortableKeyword)
	for _, f := range textFields() {
		doc.AddFieldMappingsAt(f, keywordField)
	}
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = keyword.Name
	if err := m.AddCustomAnalyzer(wordsAnalyzer, map[string]any{"type": custom.Name, "tokenizer": wordsTokenizer,
		"token_filters": []any{lowercase.Name}}); err != nil {
		panic(err)
	}
	addRelevanceMapping(m, doc)
	return m
}

// wordsAnalyzer splits text into words of letters, digits and hyphens, lower-cased.
const wordsAnalyzer = "words"

// fieldWords holds the words of an event's title, content and excerpt, folded
// (foldedAnalyzer): the plugin's search finds a fragment in any of them, and a
// relevance search a word, so one field (a small dictionary of words to match
// "*word*" against, one posting per word and event) serves both.
const fieldWords = "words"

// wordSources are the texts of an event that fieldWords holds.
var wordSources = map[string]bool{"title": true, "content": true, "excerpt": true}

// textFields are the searchable fields of every post type.
func textFields() []string {
	seen := map[string]bool{}
	fields := []string{textPrefix + "title", textPrefix + "content", textPrefix + "excerpt", textPrefix + "name", textPrefix + "slug"}
	for _, metas := range app.SearchableMeta {
		for _, m := range metas {
			if !seen[m] {
				seen[m] = true
				fields = append(fields, textPrefix+m)
			}
		}
	}
	return fields
}

func docID(id int64) string { return strconv.FormatInt(id, 10) }

// sortKey writes an instant so that byte order is time order: seconds offset
// to be positive from year 1 to 9999, zero-padded to 12 digits. An instant
// outside those years is written as the nearest one within them.
func sortKey(t time.Time) string { return sortKeySecond(clampSecond(t.Unix())) }

func idKey(id int64) string { return fmt.Sprintf("%019d", id) }

func newPostDoc(p *app.Post) postDoc {
	d := postDoc{
		fieldKind:    kindPost,
		fieldType:    p.Type,
		fieldStatus:  p.Status,
		fieldAuthor:  docID(p.Author),
		fieldDateKey: sortKey(p.Date) + idKey(p.ID),
	}
	addModified(d, p)
	if p.Type != app.PostTypeEvent { // venues and organizers are found by title when an event names them
		d[fieldTitleKey] = app.FoldTitle(p.Title)
	}
	geo := p.Geo
	if p.Type == app.PostTypeEvent {
		geo = p.VenueGeo
	}
	d[fieldHasGeo] = strconv.FormatBool(geo != nil)
	if geo != nil {
		d[fieldGeo] = map[string]any{"lat": geo.Lat, "lon": geo.Lng} // bleve reads a geopoint from map[string]any only
	}
	if p.Type == app.PostTypeEvent {
		d[startTime.buckets] = bucketsOf(p.Start)
		d[fieldStartKey] = sortKey(p.Start) + sortKey(p.Date) + idKey(p.ID)
		d[endTime.buckets] = bucketsOf(p.End)
		d[endTime.exact] = sortKey(p.End)
		d[fieldCats], d[fieldTags], d[fieldOrgs] = idStrings(p.Categories), idStrings(p.Tags), idStrings(p.Organizers)
		if p.Venue != 0 {
			d[fieldVenue] = docID(p.Venue)
		}
		d[fieldFeatured] = strconv.FormatBool(p.Featured)
		d[fieldListed] = strconv.FormatBool(!p.HideFromListings)
	}
	text := map[string]string{"title": p.Title}
	if p.Password == "" { // what a password protects is found by no search, by anyone
		text["content"], text["excerpt"] = p.Content, p.Excerpt
		for _, m := range app.SearchableMeta[p.Type] {
			text[m] = p.Meta[m]
		}
	}
	var words []string
	for _, name := range []string{"title", "content", "excerpt"} {
		if v := text[name]; v != "" && p.Type == app.PostTypeEvent {
			words = append(words, v)
		}
	}
	if len(words) > 0 {
		d[fieldWords] = strings.Join(words, "\n")
	}
	for name, v := range text {
		// An event search matches words; the whole-text terms that substring
		// searches of venues and organizers need would only weigh on its index.
		if v != "" && !(p.Type == app.PostTypeEvent && wordSources[name]) {
			d[textPrefix+name] = capText(strings.ToLower(v))
		}
	}
	addRelevanceFields(d, p)
	return d
}

// capText keeps the first app.MaxIndexedTextBytes of a whole-value text field:
// a substring search reads every such term of its field.
func capText(s string) string {
	if len(s) <= app.MaxIndexedTextBytes {
		return s
	}
	cut := app.MaxIndexedTextBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// PutPosts indexes the posts in one batch.
func (i *Index) PutPosts(ctx context.Context, posts []*app.Post) error {
	b := i.bleve.NewBatch()
	for _, p := range posts {
		if err := b.Index(docID(p.ID), newPostDoc(p)); err != nil {
			return err
		}
	}
	return i.apply(b, true)
}

// DeletePost removes a post from the index.
func (i *Index) DeletePost(ctx context.Context, id int64) error {
	b := i.bleve.NewBatch()
	b.Delete(docID(id))
	return i.apply(b, true)
}

// SearchPosts answers a PostQuery: the total, the facets and one page of IDs.
func (i *Index) SearchPosts(ctx context.Context, q app.PostQuery) (app.PostPage, error) {
	near, err := i.nearClause(ctx, q)
	if err != nil {
		return app.PostPage{}, err
	}
	if startWindowed(q) {
		return i.searchStartWindows(ctx, q, near)
	}
	res, err := i.searchQuery(ctx, q, near)
	if err != nil {
		return app.PostPage{}, err
	}
	return pageOf(res, q.Facets)
}

// searchQuery runs the bleve search of q (near stands for q.Near).
func (i *Index) searchQuery(ctx context.Context, q app.PostQuery, near query.Query) (*bleve.SearchResult, error) {
	req, err := i.request(q, near)
	if err != nil {
		return nil, err
	}
	return i.search(ctx, req)
}

func (i *Index) search(ctx context.Context, req *bleve.SearchRequest) (*bleve.SearchResult, error) {
	res, err := i.bleve.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("index search: %w", err)
	}
	return res, nil
}

func pageOf(res *bleve.SearchResult, facets []string) (app.PostPage, error) {
	page := app.PostPage{Total: int(res.Total), IDs: make([]int64, 0, len(res.Hits)), Facets: readFacets(res, facets)}
	for _, h := range res.Hits {
		id, err := strconv.ParseInt(h.ID, 10, 64)
		if err != nil {
			return app.PostPage{}, fmt.Errorf("index holds a non-numeric ID %q", h.ID)
		}
		page.IDs = append(page.IDs, id)
	}
	return page, nil
}

// request is the bleve search of a PostQuery: its filter, page, order and
// facets. Nothing is scored but a relevance search, so that every clause can
// be answered from bitmaps (bleve's "unadorned" conjunctions and disjunctions
// need that, and terms queries rather than one-clause disjunctions).
func (i *Index) request(q app.PostQuery, near query.Query) (*bleve.SearchRequest, error) {
	root := filter(q, near)
	if q.Relevance != "" {
		root = i.rankedQuery(root, q.Relevance)
	}
	req := bleve.NewSearchRequestOptions(root, q.Limit, q.Offset, false)
	addFacets(req, q.Facets)
	switch {
	case q.Limit == 0:
		// Only the total: bleve would still read every match's sort key.
	case q.Order == app.OrderDistance:
		if q.Near == nil {
			return nil, fmt.Errorf("ordering by distance needs a point")
		}
		nearest, err := search.NewSortGeoDistance(fieldGeo, "km", q.Near.Lng, q.Near.Lat, false)
		if err != nil {
			return nil, err
		}
		req.SortByCustom(search.SortOrder{nearest, &search.SortField{Field: fieldStartKey}})
	case q.Order == app.OrderStart:
		req.SortBy([]string{fieldStartKey})
	case q.Order == app.OrderPublished:
		req.SortBy([]string{fieldDateKey})
	case q.Order == app.OrderModified:
		req.SortBy(modifiedOrder)
	default:
		req.SortBy([]string{"-" + fieldDateKey})
	}
	req.Score = "none"
	if q.Relevance != "" {
		rankFirst(req)
	}
	return req, nil
}

// filter is the query that selects what q selects; near stands for q.Near.
func filter(q app.PostQuery, near query.Query) query.Query {
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
		must = append(must, fragmentsQuery(q.Type, q.Fragments))
	}
	for _, w := range q.Words {
		wq := bleve.NewWildcardQuery("*" + w + "*") // app.SearchFragments yields [a-z0-9-] only
		wq.SetField(fieldWords)
		must = append(must, wq)
	}
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
	}{{fieldVenue, q.Venues}, {fieldOrgs, q.Organizers}, {fieldCats, q.Categories}, {fieldTags, q.Tags}} {
		if link.ids != nil {
			must = append(must, anyOf(link.field, idStrings(link.ids)))
		}
	}
	if q.Featured != nil {
		must = append(must, term(fieldFeatured, strconv.FormatBool(*q.Featured)))
	}
	if q.ListedOnly {
		must = append(must, term(fieldListed, "true"))
	}
	if q.Parent != nil {
		must = append(must, numberIs(fieldParent, float64(*q.Parent)))
	}
	if q.HasGeo != nil {
		must = append(must, term(fieldHasGeo, strconv.FormatBool(*q.HasGeo)))
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
func readable(r app.ReadRule, statuses []string) query.Query {
	if r.All || (len(statuses) > 0 && allIn(statuses, app.PublicStatuses)) {
		return nil
	}
	public := anyOf(fieldStatus, app.PublicStatuses)
	if r.Author == 0 {
		return public
	}
	own := bleve.NewConjunctionQuery(term(fieldAuthor, docID(r.Author)), anyOf(fieldStatus, app.OwnStatuses))
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

// fragmentsQuery: all fragments within one searchable field of the type.
func fragmentsQuery(postType string, fragments []string) query.Query {
	fields := []string{"title", "content", "excerpt"}
	fields = append(fields, app.SearchableMeta[postType]...)
	var any []query.Query
	for _, f := range fields {
		var all []query.Query
		for _, frag := range fragments {
			// app.SearchFragments yields only [a-z0-9-]: nothing to escape.
			w := bleve.NewWildcardQuery("*" + frag + "*")
			w.SetField(textPrefix + f)
			all = append(all, w)
		}
		any = append(any, bleve.NewConjunctionQuery(all...))
	}
	return bleve.NewDisjunctionQuery(any...)
}
