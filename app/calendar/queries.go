package calendar

import "time"

// Link names what an event links to: its terms, its venue or its organizers.
type Link int

const (
	LinkTerms Link = iota
	LinkVenue
	LinkOrganizers
)

// MaxTerms bounds one taxonomy's term list as the index returns it.
const MaxTerms = 10000

// TermQuery selects terms of one taxonomy. Empty fields do not filter.
type TermQuery struct {
	Taxonomy string
	// Search matches names or slugs that contain it, without regard to case.
	Search string
	// Name matches names equal to it without regard to case.
	Name    string
	Include []int64
	Exclude []int64
	Parent  *int64
	// Parents, when not nil, keeps the children of these terms.
	Parents []int64
	Slug    string
	// OrderBy is id, name, slug, parent or description (name when empty).
	OrderBy string
	Desc    bool
}

// PostQuery selects posts of one type. Empty fields do not filter.
type PostQuery struct {
	Type     string
	Statuses []string
	// Reader keeps what the caller may read (the zero value: published
	// posts only), as part of the query, so totals and pages hold only that.
	Reader ReadRule
	// Fragments must all occur, case-insensitively, within one of the type's
	// searchable fields (title, content, excerpt, meta).
	Fragments []string
	// TitleKey matches titles equal to it after FoldTitle.
	TitleKey string
	// Words must each occur, case-insensitively, in the title, the content or
	// the excerpt (an event search).
	Words []string
	// Relevance, when set, ranks the search: every word of it must occur as
	// a word, a word's prefix or with one typo (five letters or more), accents
	// folded (or, with Words set too, every fragment of Words: see Tolerant);
	// the best matches come first (title hits above the others, matches of
	// Words alone last) and Order breaks ties. Runs of a script written without spaces (Chinese,
	// Thai...) match by their pairs of characters.
	Relevance string
	// Tolerant widens Words in every order (an event search): a post
	// matches when it holds every fragment of Words, as the plugin's search
	// finds them, or when it matches Tolerant as Relevance matches its words
	// (words, prefixes, one typo from five letters, stems in Language). With
	// Relevance set, Words widen it the same way: a search matches the same
	// posts whatever the order.
	Tolerant string
	// Synonyms are, for a word of the search (folded), the words it is
	// also looked for as, each as Relevance and Tolerant look for a word.
	Synonyms map[string][]string
	// Language, when the index stems in it, lets a word of Relevance match
	// by its stem in that language too, and its stop words select nothing.
	Language string
	// IDs restricts to these posts (nil: no restriction, empty: none);
	// ExcludeIDs leaves these out.
	IDs        []int64
	ExcludeIDs []int64
	// Event filters: bounds on the start and end, linked posts and terms (OR
	// within each list), the featured flag, listing visibility. Start and end
	// are bounded, and ordered, as wall-clock times (WallClock): each event's
	// in its own zone, against the bound's in the site's.
	StartAfter, StartBefore, EndAfter, EndBefore *Bound
	Venues, Organizers, Categories, Tags         []int64
	// Authors keeps the posts of these authors; Images those whose image is
	// one of these attachments; Source the attachment sideloaded from it.
	Authors  []int64
	Images   []int64
	Source   string
	Featured *bool
	// EventStatuses keeps events of these statuses (EventStatuses; any of them).
	EventStatuses []string
	Parent        *int64
	// Series keeps the events of this series: itself and its occurrences.
	Series *int64
	// SeriesOnly keeps events that recur (have rules).
	SeriesOnly bool
	// OncePerSeries keeps, of the matches that are events of one series
	// (the series and its occurrences), only the first in start order (then
	// publication date, then ID), whatever Order the page comes in: a list
	// that shows each series once, as its first occurrence within the
	// window and the caller's read rule. Totals, pages and facets count
	// the series once.
	OncePerSeries bool
	// Near keeps posts within a great-circle radius of a point (venues by their
	// position, events by their venue's); HasGeo keeps those with (or without)
	// a position.
	Near   *GeoNear
	HasGeo *bool
	// NotPlacedAt keeps posts indexed at another position than this one
	// (PositionKey: an event at its venue's public position, a venue at
	// its own): with Venues, the events to index again now that their
	// venue's public position is this one.
	NotPlacedAt *string
	// Within keeps posts whose position lies in the box (events by their
	// venue's, as Near).
	Within *GeoBox
	// GeoGrid, from 1 to 12, asks for the matching posts that have a
	// position counted per geohash cell of that many characters (PostPage.Grid).
	GeoGrid    int
	ListedOnly bool
	Order      PostOrder
	Offset     int
	Limit      int // 0: count only
	// Facets asks for the counts of every value of these facets (Facet*)
	// among all the matching posts.
	Facets []string
	// FacetSearch, with one facet in Facets, counts the values of that
	// facet whose names may hold what a reader typed (folded): those with
	// a word of their name or slug beginning with its first word, or, for
	// a word of five letters or more, one whose beginning is one typo from
	// it, each counted whatever its rank among the facet's values (a
	// custom field's values: all of them, being their own names); the
	// caller decides which truly match. Within MaxSearchTerms terms read,
	// else ErrFacetSearchTooBroad.
	FacetSearch string

	// Days asks for the matching events on each day of the span
	// (PostPage.Days), an event counted on every day its local times cover.
	Days *DaySpan

	// ModifiedAfter keeps posts last modified after it.
	ModifiedAfter *Bound

	// Custom keeps the posts each filter keeps (all of them); HasCustom
	// those that hold a value of that custom field, filterable or not.
	Custom    []CustomFilter
	HasCustom string
	// OrderCustom, with OrderByCustom, is the custom field whose first
	// value orders the list (then the event start); posts without it last.
	OrderCustom string
}

// Span is the byte range [Start, End) of a text.
type Span struct{ Start, End int }

// Bound is one side of a time range.
type Bound struct {
	T         time.Time
	Inclusive bool
}

// PostOrder is the order a post list comes in.
type PostOrder int

const (
	// OrderNewest: publication date descending, then ID descending (venues, organizers).
	OrderNewest PostOrder = iota
	// OrderStart: event start ascending (its wall-clock time, as the
	// plugin's default time-zone mode orders), then publication date, then ID.
	OrderStart
	// OrderPublished: publication date ascending, then ID.
	OrderPublished
	// OrderDistance: nearest to Near first, then event start, publication date, ID.
	OrderDistance
	// OrderModified: modification ascending, then ID, for paging forward.
	OrderModified
	// OrderByCustom: the custom field OrderCustom ascending, then as OrderStart.
	OrderByCustom
)

// GeoNear is a point and a radius in kilometres.
type GeoNear struct {
	Lat, Lng, Km float64
}

// GeoBox is a rectangle of latitudes and longitudes, edges included. West is
// greater than East when it crosses the antimeridian (from 170 to -170: the
// 20 degrees around it).
type GeoBox struct {
	South, West, North, East float64
}

// Contains reports whether the point lies in the box.
func (b GeoBox) Contains(lat, lng float64) bool {
	if lat < b.South || lat > b.North {
		return false
	}
	if b.West > b.East {
		return lng >= b.West || lng <= b.East
	}
	return lng >= b.West && lng <= b.East
}

// MaxGeoPrecision is the longest geohash cell: 12 characters, a few
// centimetres.
const MaxGeoPrecision = 12

// MaxGeoCells bounds the cells of a grid: those with the most posts are kept.
const MaxGeoCells = 1000

// GeoGrid is the matching posts that have a position, counted per geohash
// cell: the cells holding the most first (then by geohash), at most
// MaxGeoCells; the others are counted in Omitted and OmittedPosts.
type GeoGrid struct {
	Cells                 []GeoCell
	Omitted, OmittedPosts int
}

// GeoCell is one cell of a grid: its geohash, how many posts lie in it, and
// their mean position.
type GeoCell struct {
	Geohash  string
	Count    int
	Lat, Lng float64
}

// PostPage is one page of a PostQuery: IDs newest first (then highest ID), and
// how many posts match in all.
type PostPage struct {
	IDs   []int64
	Total int
	// Facets: per facet asked for, its values and their counts.
	Facets map[string][]FacetCount
	// Grid is there when the query asked for a GeoGrid.
	Grid *GeoGrid
	// Days are the matches on each day of the query's Days, in order.
	Days []int
}

// DaySpan is Count days of wall-clock time from First (00:00 of the first
// day, written as if in UTC, as WallClock writes it): the days of a month
// grid, which holds each event on the days of its own local times as the
// list bounds and orders them.
type DaySpan struct {
	First time.Time
	Count int
	// Zone, when set, makes the days those of that zone (a reader's; a
	// name ParseZone reads, so that the query stays data its JSON tells
	// whole, as the kept answers are keyed): a timed event is on each
	// local day its instants cover there, an all-day event on its own
	// dates still.
	Zone string
}

// SearchableMeta lists, per post type, the meta fields a search looks into.
var SearchableMeta = map[string][]string{
	PostTypeVenue:     {"address", "city", "province", "state", "stateprovince", "zip", "phone"},
	PostTypeOrganizer: {"phone", "email", "website"},
}

// The facets of an event list, in the order an answer lists them.
const (
	FacetCategories = "categories"
	FacetTags       = "tags"
	FacetVenue      = "venue"
	FacetOrganizer  = "organizer"
	FacetFeatured   = "featured"
)

// FacetGeoGrid asks an event list for its map's clusters (PostQuery.GeoGrid),
// beside the facets of values.
const FacetGeoGrid = "geo_grid"

// FacetDays asks an event list for its matches per day of its window
// (PostQuery.Days), beside the facets of values.
const FacetDays = "days"

// FacetNames are the facets of values an event list may ask for.
var FacetNames = []string{FacetCategories, FacetTags, FacetVenue, FacetOrganizer, FacetFeatured}

// MaxFacetValues bounds the values of one facet: more categories, tags, venues
// or organizers than a site has in use.
const MaxFacetValues = 1000

// FacetCount is one value of a facet as the index holds it (an ID or
// true/false) and how many matching posts have it.
type FacetCount struct {
	Value string
	Count int
}
