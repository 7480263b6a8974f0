package index

// The index's mapping in one place: its version, the field names, how each
// field is mapped, and the documents built from posts and terms. Searching
// is elsewhere (posts.go, terms.go, relevance.go, timefield.go, near.go).

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/datetime/flexible"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/mapping"

	"calendar/app/calendar"
)

// MappingVersion changes whenever the mapping or the indexed document changes:
// the index is then rebuilt from the store.
const MappingVersion = 31 // 23: events start and end at their local wall-clock times; 24: spaceless scripts in pairs, marks in words, words folded after tokenizing, stems per language; 25: venues and events marked with the venue's public position (place), events placed from their venue as stored when indexed; 26: the parts of words (word_parts), which the plugin's search reads; 27: events' event_status, which the list's filter reads; 28: the parts of the words of venues', organizers' and attachments' searchable fields (parts_*), which their search reads, in place of the whole values (text_*); 29: events of a series marked with their series and start (in_series, series_start), which a list showing each series once reads; 30: custom fields (cf_has, cf.<key>, cfs.<key>), which no index before held since no post had any; 31: events' UTC start and end (start_utc, end_utc) and all-day events marked (all_day), which per-day counts in another zone (tz) read; the words of the names and slugs of venues, organizers and terms (name_words), which a facet search reads

// ServesFrom is the oldest mapping version whose index this release's
// queries answer correctly, and whose mapping takes this release's
// documents: such an index keeps serving, and receiving writes, while its
// successor is built beside it, and the service stays ready. An index of an
// older version (or a newer one: a rollback) cannot answer truly, so it is
// discarded and rebuilt in its place while /readyz answers 503. Whoever
// bumps MappingVersion decides: keep ServesFrom when the old index still
// answers every query right (a field added for sorting or speed, a
// faster key encoding the queries do not read), raise it to
// MappingVersion when it would answer wrong or leak (a field a filter now
// reads, a document that must no longer be found: 22 was such a change, and
// 23, whose date windows read local times, another; 24's words are split
// otherwise, so a 23 index would not find a Chinese or Thai search; 25's
// near me reads the venues' place, which a 24 index lacks, and a 24
// index's events may still carry the position of a venue hidden since; 26's
// event search reads word_parts, which a 25 index does not have; 27's
// event_status filter reads a field a 26 index lacks; 28's venue,
// organizer and media searches read parts_* fields, which a 27 index does
// not have; 29's list showing each series once reads series_start, which a
// 28 index lacks). 31's per-day counts in a zone of the caller's (tz)
// read the events' UTC times, which a 29 or 30 index lacks: that one
// question is answered 503 by such an index (utcDaysFrom) while its
// successor is built, everything else as ever; its facet search reads the
// names' words (name_words), and such an index searches a facet's values
// as before, among its 1,000 most frequent (facetsearch.go).
const ServesFrom = 29

// utcDaysFrom is the first mapping version whose events hold their UTC
// times and their all-day mark, which per-day counts in a zone read;
// nameWordsFrom the first whose values of facets hold their names' words,
// which a facet search reads.
const (
	utcDaysFrom   = 31
	nameWordsFrom = 31
)

// Versions are the mapping versions a release builds and serves, and the
// languages its index stems in (some of Languages): an index stemming in
// others serves, without those stems, while its successor is built.
type Versions struct {
	Mapping    int // what it builds
	ServesFrom int // the oldest it serves while it builds a successor
	Languages  []string
}

// WithLanguages is v for an index stemming in those languages.
func (v Versions) WithLanguages(languages []string) Versions {
	v.Languages = slices.Clone(languages)
	return v
}

// ThisRelease is this release's Versions.
var ThisRelease = Versions{Mapping: MappingVersion, ServesFrom: ServesFrom}

// serves says whether an index of that mapping version answers this
// release's queries truly.
func (v Versions) serves(version int) bool {
	return version >= v.ServesFrom && version <= v.Mapping
}

// unserved says why an index of that version is rebuilt in place.
func (v Versions) unserved(version int) string {
	return fmt.Sprintf("the index is of mapping version %d, which this release does not serve: it builds version %d and serves versions %d to %d",
		version, v.Mapping, v.ServesFrom, v.Mapping)
}

// outdated says why an index of that version, stemming in those languages,
// which this release serves, is rebuilt beside itself; "" when it is not.
func (v Versions) outdated(version int, languages []string) string {
	var why []string
	if version != v.Mapping {
		why = append(why, fmt.Sprintf("the index is of mapping version %d, older than version %d this release builds, which still serves versions %d to %d",
			version, v.Mapping, v.ServesFrom, v.Mapping))
	}
	if !slices.Equal(languages, v.Languages) {
		why = append(why, fmt.Sprintf("the index stems in %s, the service in %s", languageList(languages), languageList(v.Languages)))
	}
	return strings.Join(why, "; ")
}

func languageList(languages []string) string {
	if len(languages) == 0 {
		return "no language"
	}
	return strings.Join(languages, ",")
}

// Field names of an indexed post or term. A term's text fields hold its
// whole lower-cased name or slug as one term, so a fragment matches as a
// substring with a wildcard query; a post's searchable fields are held as
// their words' parts (partsField).
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
	fieldEventSt  = "event_status" // scheduled when none was set
	fieldListed   = "listed"
	fieldGeo      = "geo"
	fieldHasGeo   = "has_geo"
	fieldPlace    = "place"     // calendar.PositionKey of a venue's public position (an event's: its venue's)
	fieldImage    = "image"     // the attachment a post's image is
	fieldSource   = "source"    // the URL an attachment was sideloaded from
	fieldSeries   = "series"    // "true" on an event that recurs
	fieldSeriesOf = "series_of" // an occurrence's series
	// An event of a series (the series or an occurrence): "true", and the
	// series' ID then its start key, for a list that shows each series once
	// (series.go).
	fieldInSeries    = "in_series"
	fieldSeriesStart = "series_start"
	fieldID          = "id" // terms only: posts are found by their document IDs
	// One keyword each for the two post orders: sorting by a single doc
	// value is several times faster than by start, then date, then ID
	// (125 ms against 22 ms for 90,000 events).
	fieldStartKey = "start_key"
	fieldDateKey  = "date_key"
	fieldAllDay   = "all_day" // "true" on an all-day event, which a day of any zone holds on its own dates
	textPrefix    = "text_"
	partsPrefix   = "parts_"
	// Custom fields (calendar.IndexedField): the keys a post holds values
	// of (cf_has, whether the field is filterable or not: a change of its
	// declaration finds them by it), and, of its filterable fields, the
	// values as terms (cf.<key>, filters and facets) and the key that
	// orders them (cfs.<key>, ranges and orders), in sub-documents indexed
	// dynamically as keywords with doc values.
	fieldCustomHas = "cf_has"
	customTerms    = "cf"
	customSort     = "cfs"
	// noDates is the date parser of the dynamic fields: none, so that a
	// custom date (2026-05-01) is kept as the keyword it is.
	noDates = "no_dates"
)

// customField is the field of a custom field's terms or sort key.
func customField(sub, key string) string { return sub + "." + key }

// postDoc is what the index keeps of a post.
type postDoc map[string]any

// newMapping is the mapping of an index that stems in languages.
func newMapping(languages []string) mapping.IndexMapping {
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
	for _, f := range []string{fieldHasGeo, fieldPlace, fieldListed, fieldKind, fieldType, fieldStatus, fieldAuthor, fieldTitleKey, fieldNameKey, fieldImage, fieldSource, fieldSeries, fieldSeriesOf, fieldEventSt, fieldInSeries} {
		doc.AddFieldMappingsAt(f, keywordField)
	}
	for _, f := range []string{fieldStartKey, fieldSeriesStart, fieldDateKey, fieldVenue, fieldOrgs, fieldCats, fieldTags, fieldFeatured, fieldSlug, fieldNameSort, fieldDescSort} {
		doc.AddFieldMappingsAt(f, &sortableKeyword)
	}
	mapTime(doc, keywordField, startTime, endTime, startUTC, endUTC)
	for _, f := range []string{endTime.exact, startUTC.exact, endUTC.exact, fieldAllDay} { // the start's is its sort key
		doc.AddFieldMappingsAt(f, keywordField)
	}
	doc.AddFieldMappingsAt(fieldID, sortableNumeric)
	doc.AddFieldMappingsAt(fieldParent, sortableNumeric)
	mapModified(doc, keywordField, &sortableKeyword)
	for _, f := range []string{textPrefix + "name", textPrefix + "slug"} {
		doc.AddFieldMappingsAt(f, keywordField)
	}
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = keyword.Name
	if err := m.AddCustomAnalyzer(wordsAnalyzer, map[string]any{"type": custom.Name, "tokenizer": wordsTokenizer,
		"token_filters": []any{lowercase.Name}}); err != nil {
		panic(err)
	}
	addRelevanceMapping(m, doc, languages)
	addWordPartsMapping(m, doc, partsFields())
	addCustomMapping(m, doc, keywordField)
	return m
}

// addCustomMapping maps the custom fields: cf_has a keyword, cf and cfs
// dynamic sub-documents whose fields are keywords with doc values (the
// index's default analyzer, no date parsing), stored nowhere.
func addCustomMapping(m *mapping.IndexMappingImpl, doc *mapping.DocumentMapping, keywordField *mapping.FieldMapping) {
	doc.AddFieldMappingsAt(fieldCustomHas, keywordField)
	for _, sub := range []string{customTerms, customSort} {
		dynamic := bleve.NewDocumentMapping()
		dynamic.DefaultAnalyzer = keyword.Name
		doc.AddSubDocumentMapping(sub, dynamic)
	}
	m.StoreDynamic, m.IndexDynamic, m.DocValuesDynamic = false, true, true
	if err := m.AddCustomDateTimeParser(noDates, map[string]any{"type": flexible.Name, "layouts": []any{}}); err != nil {
		panic(err)
	}
	m.DefaultDateTimeParser = noDates
}

// wordsAnalyzer splits text into words (wordsTokenizer), lower-cased.
const wordsAnalyzer = "words"

// fieldWords holds the words of an event's title, content and excerpt, folded
// (foldedAnalyzer): the plugin's search finds a fragment in any of them, and a
// relevance search a word, so one field (a small dictionary of words to match
// "*word*" against, one posting per word and event) serves both.
const fieldWords = "words"

// searchedFields are the fields a search of postType's posts looks into
// (but an event's: its words).
func searchedFields(postType string) []string {
	return append([]string{"title", "content", "excerpt"}, calendar.SearchableMeta[postType]...)
}

// partsField holds the parts of the words of a post's searchable field
// (searchedFields): a search finds its fragments all within one field, so
// each has its own.
func partsField(name string) string { return partsPrefix + name }

// partsFields are the parts fields of every post type.
func partsFields() []string {
	fields := []string{partsField("title"), partsField("content"), partsField("excerpt")}
	for _, metas := range calendar.SearchableMeta {
		for _, m := range metas {
			if f := partsField(m); !slices.Contains(fields, f) {
				fields = append(fields, f)
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

// newPostDoc is what an index that stems in languages keeps of a post.
func newPostDoc(p *calendar.Post, languages []string) postDoc {
	d := postDoc{
		fieldKind:    kindPost,
		fieldType:    p.Type,
		fieldStatus:  p.Status,
		fieldAuthor:  docID(p.Author),
		fieldDateKey: sortKey(p.Date) + idKey(p.ID),
	}
	addModified(d, p)
	if p.ImageID != 0 {
		d[fieldImage] = docID(p.ImageID)
	}
	if source := p.Meta[calendar.MetaSource]; p.Type == calendar.PostTypeAttachment && source != "" {
		d[fieldSource] = source
	}
	if p.Type != calendar.PostTypeEvent { // venues and organizers are found by title when an event names them
		d[fieldTitleKey] = calendar.FoldTitle(p.Title)
	}
	if p.Type == calendar.PostTypeVenue || p.Type == calendar.PostTypeOrganizer {
		d[fieldNameWords] = p.Title + "\n" + p.Slug
	}
	geo := p.Geo
	switch p.Type {
	case calendar.PostTypeEvent: // the app sets VenueGeo from the venue as stored when it indexes the event
		geo = p.VenueGeo
		d[fieldPlace] = calendar.PositionKey(p.VenueGeo)
	case calendar.PostTypeVenue:
		d[fieldPlace] = calendar.PositionKey(calendar.PublicPosition(p))
	}
	if p.Password != "" { // where it is is part of what the password protects
		geo = nil
	}
	d[fieldHasGeo] = strconv.FormatBool(geo != nil)
	if geo != nil {
		d[fieldGeo] = map[string]any{"lat": geo.Lat, "lon": geo.Lng} // bleve reads a geopoint from map[string]any only
	}
	if p.Type == calendar.PostTypeEvent {
		// The plugin orders and bounds events by their local times (its
		// default time-zone mode); queries bound them by wall clocks too.
		start, end := p.LocalSchedule()
		d[startTime.buckets] = bucketsOf(start)
		d[fieldStartKey] = sortKey(start) + sortKey(p.Date) + idKey(p.ID)
		d[endTime.buckets] = bucketsOf(end)
		d[endTime.exact] = sortKey(end)
		addInstants(d, p)
		d[fieldCats], d[fieldTags], d[fieldOrgs] = idStrings(p.Categories), idStrings(p.Tags), idStrings(p.Organizers)
		if p.Venue != 0 {
			d[fieldVenue] = docID(p.Venue)
		}
		d[fieldFeatured] = strconv.FormatBool(p.Featured)
		d[fieldEventSt] = p.EventStatusOf()
		if p.Parent != 0 { // a keyword, set on occurrences only: a number costs every event 16 terms
			d[fieldSeriesOf] = docID(p.Parent)
		}
		if len(p.Recurrence) > 0 {
			d[fieldSeries] = "true"
		}
		if series := seriesOf(p); series != 0 {
			d[fieldInSeries] = "true"
			d[fieldSeriesStart] = seriesStartTerm(series, d[fieldStartKey].(string))
		}
		d[fieldListed] = strconv.FormatBool(!p.HideFromListings)
	}
	text := map[string]string{"title": p.Title}
	if p.Password == "" { // what a password protects is found by no search, by anyone
		text["content"], text["excerpt"] = p.Content, p.Excerpt
		for _, m := range calendar.SearchableMeta[p.Type] {
			text[m] = p.Meta[m]
		}
	}
	var words []string
	for _, name := range []string{"title", "content", "excerpt"} {
		if v := text[name]; v != "" && p.Type == calendar.PostTypeEvent {
			words = append(words, v)
		}
	}
	if len(words) > 0 {
		d[fieldWords] = strings.Join(words, "\n")
		d[fieldWordParts] = d[fieldWords]
		for _, lang := range languages {
			d[stemsField(lang)] = d[fieldWords]
		}
	}
	for name, v := range text {
		// An event search reads the parts of its words (fieldWordParts):
		// parts of each field of its own would only weigh on its index.
		if v != "" && p.Type != calendar.PostTypeEvent {
			d[partsField(name)] = capText(v)
		}
	}
	addRelevanceFields(d, p)
	addCustomFields(d, p)
	return d
}

// addCustomFields keeps what the app set of p's custom values (p.Indexed),
// and the keys it holds values of.
func addCustomFields(d postDoc, p *calendar.Post) {
	if len(p.Custom) == 0 {
		return
	}
	d[fieldCustomHas] = slices.Sorted(maps.Keys(p.Custom))
	if len(p.Indexed) == 0 {
		return
	}
	terms, sorts := map[string]any{}, map[string]any{}
	for _, f := range p.Indexed {
		terms[f.Key], sorts[f.Key] = f.Terms, f.Sort
	}
	d[customTerms], d[customSort] = terms, sorts
}

// addInstants keeps a timed event's start and end as instants (UTC), which
// the days of a zone other than its own are counted by; an all-day event
// is marked instead: it is on its own dates in every zone, as calendar
// apps show it (days.go).
func addInstants(d postDoc, p *calendar.Post) {
	if p.AllDay {
		d[fieldAllDay] = "true"
		return
	}
	d[startUTC.buckets], d[startUTC.exact] = bucketsOf(p.Start), sortKey(p.Start)
	d[endUTC.buckets], d[endUTC.exact] = bucketsOf(p.End), sortKey(p.End)
}

// seriesOf is the series an event belongs to (itself for a series), 0 for
// none.
func seriesOf(p *calendar.Post) int64 {
	if p.Parent != 0 {
		return p.Parent
	}
	if len(p.Recurrence) > 0 {
		return p.ID
	}
	return 0
}

// capText keeps the first app.MaxIndexedTextBytes of a searchable field of
// a venue, an organizer or an attachment: a field's parts grow with its text.
func capText(s string) string {
	if len(s) <= calendar.MaxIndexedTextBytes {
		return s
	}
	cut := calendar.MaxIndexedTextBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

const (
	kindPost      = "post"
	kindTerm      = "term"
	fieldSlug     = "slug"
	fieldNameSort = "name_sort"
	fieldDescSort = "description_sort"
	fieldParent   = "parent"
	fieldNameKey  = "name_key"
)

// termDocID keeps term entries apart from post entries, whose IDs are bare numbers.
func termDocID(id int64) string { return "t" + docID(id) }

func newTermDoc(t *calendar.Term) postDoc {
	return postDoc{
		fieldKind:           kindTerm,
		fieldType:           t.Taxonomy,
		fieldID:             float64(t.ID),
		fieldParent:         float64(t.Parent),
		fieldSlug:           t.Slug,
		fieldNameSort:       strings.ToLower(t.Name),
		fieldNameKey:        strings.ToLower(t.Name),
		fieldDescSort:       strings.ToLower(t.Description),
		textPrefix + "name": strings.ToLower(t.Name),
		textPrefix + "slug": strings.ToLower(t.Slug),
		fieldNameWords:      t.Name + "\n" + t.Slug,
	}
}

// fieldModifiedKey (modification|ID) is the order a syncing client pages in,
// one sort key as for the other orders, and the exact end of modifiedTime.
const fieldModifiedKey = "modified_key"

func mapModified(doc *mapping.DocumentMapping, keyword, sortableKeyword *mapping.FieldMapping) {
	mapTime(doc, keyword, modifiedTime)
	doc.AddFieldMappingsAt(fieldModifiedKey, sortableKeyword)
}

func addModified(d postDoc, p *calendar.Post) {
	d[modifiedTime.buckets] = bucketsOf(p.Modified)
	d[fieldModifiedKey] = sortKey(p.Modified) + idKey(p.ID)
}

// foldedAnalyzer is wordsAnalyzer with each word folded (foldFilter), so
// that "cafe" and "café" are one word, as they are to WordPress' database
// collation.
const foldedAnalyzer = "folded_words"

// fieldNameWords holds the words of the name and slug of a facet's value
// (a venue, an organizer, a category, a tag), folded: a facet search
// finds the values whose names have a word beginning with what was typed,
// or one typo from it, by walking the words that do (facetsearch.go).
const fieldNameWords = "name_words"

// fieldFoldedTitle holds the words of an event's title a second time
// (fieldWords has them all), so that a title hit weighs more.
const fieldFoldedTitle = "folded_title"

// rankedFields are where a relevance search looks, with the weight of a hit.
var rankedFields = []struct {
	field string
	boost float64
}{{fieldFoldedTitle, 4}, {fieldWords, 1}}

// minFuzzyRunes: shorter words have too many neighbours one edit away ("rock",
// "rick", "rack") for a typo to be told from another word.
const minFuzzyRunes = 5

func addRelevanceMapping(m *mapping.IndexMappingImpl, doc *mapping.DocumentMapping, languages []string) {
	if err := m.AddCustomAnalyzer(foldedAnalyzer, map[string]any{"type": custom.Name, "tokenizer": wordsTokenizer,
		"token_filters": []any{foldFilter, lowercase.Name}}); err != nil {
		panic(err)
	}
	words := textField(foldedAnalyzer)
	doc.AddFieldMappingsAt(fieldWords, words)
	doc.AddFieldMappingsAt(fieldFoldedTitle, words)
	doc.AddFieldMappingsAt(fieldNameWords, words)
	for _, lang := range languages {
		doc.AddFieldMappingsAt(stemsField(lang), textField(stemsAnalyzer(lang)))
	}
}

// textField is an analysed field that is only searched: nothing stored, no
// term vectors (no phrase searches, no highlighting by the index), no doc values.
func textField(analyzer string) *mapping.FieldMapping {
	f := bleve.NewTextFieldMapping()
	f.Analyzer = analyzer
	f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = false, false, false, false
	return f
}

func addRelevanceFields(d postDoc, p *calendar.Post) {
	if p.Type == calendar.PostTypeEvent && p.Title != "" {
		d[fieldFoldedTitle] = p.Title
	}
}
