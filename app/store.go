package app

import (
	"context"
	"io"
	"time"
)

// Document is what a Store keeps: a record with an integer ID, the change
// sequence number of its last write (which is also its revision: every write
// takes a new one, so a writer knows whether the record changed since it
// read it), and the values that must be unique within its collection (field
// name -> value; every value non-empty).
type Document interface {
	DocID() int64
	SetDocID(id int64)
	DocSeq() int64
	SetSeq(seq int64)
	UniqueKeys() map[string]string
}

// Repo is one collection of documents of type T (a pointer type). IDs are
// allocated by the collection: 1, 2, 3..., never reused. Every write takes the
// next number of one store-wide change sequence.
type Repo[T Document] interface {
	// Insert assigns the next ID and sequence to doc and stores it.
	// ErrConflict when a unique key is taken (no ID is consumed then, or one is
	// skipped; IDs are never reused either way).
	Insert(ctx context.Context, doc T) error
	// Update replaces the stored document with the same ID if it is still at
	// the revision doc carries (its DocSeq, as it was read): a compare-and-swap.
	// ErrStale when another write came in between (nothing is written then),
	// ErrNotFound, ErrConflict. On success doc carries its new revision.
	Update(ctx context.Context, doc T) error
	// Delete removes the document with that ID if it is still at revision seq.
	// ErrStale, ErrNotFound.
	Delete(ctx context.Context, id, seq int64) error
	// Get loads one document. ErrNotFound.
	Get(ctx context.Context, id int64) (T, error)
	// GetMany loads documents in the order of ids, skipping the missing ones.
	GetMany(ctx context.Context, ids []int64) ([]T, error)
	// FindByKey loads the document whose unique field has that value. ErrNotFound.
	FindByKey(ctx context.Context, field, value string) (T, error)
	// Scan returns up to limit documents with IDs above afterID, in ID order.
	Scan(ctx context.Context, afterID int64, limit int) ([]T, error)
	// Count returns the number of documents.
	Count(ctx context.Context) (int64, error)
}

// Store is the storage the service needs. Posts (events, venues, organizers)
// share one collection and so one ID sequence; terms (categories and tags) share
// another; users have a third.
type Store interface {
	Users() Repo[*User]
	Posts() Repo[*Post]
	Terms() Repo[*Term]
	// Files keeps the files of uploaded media.
	Files() Files
	// Changes returns up to limit changes with a sequence above afterSeq, in
	// sequence order: the latest write of each live document, and a tombstone
	// for each document deleted for good.
	Changes(ctx context.Context, afterSeq int64, limit int) ([]Change, error)
	// LastSeq is the highest sequence number handed out so far.
	LastSeq(ctx context.Context) (int64, error)
	// Ping reports whether the store is reachable.
	Ping(ctx context.Context) error
	Close(ctx context.Context) error
}

// Files keeps uploaded files under names such as "2026/11/poster-150x150.jpg",
// each with the ID of the record that owns it (its attachment), so a file
// whose record was never written (a crash mid-upload) can be told and swept.
type Files interface {
	// PutFile stores data under name, whole or not at all: after a crash the
	// file is either complete or absent. ErrConflict when the name is taken
	// (the caller picks another); nothing is written then.
	PutFile(ctx context.Context, name string, owner int64, data []byte) error
	// OpenFile opens a stored file for reading. ErrNotFound.
	OpenFile(ctx context.Context, name string) (StoredFile, error)
	// StatFile describes a stored file without reading it. ErrNotFound.
	StatFile(ctx context.Context, name string) (FileInfo, error)
	// DeleteFile removes a file; a missing one is not an error.
	DeleteFile(ctx context.Context, name string) error
	// ListFiles returns every file stored before the instant, with its owner,
	// in name order, for the sweep of files no record names.
	ListFiles(ctx context.Context, before time.Time) ([]FileInfo, error)
}

// StoredFile is an open stored file: readable from any offset (ranges).
type StoredFile interface {
	io.ReadSeekCloser
	Info() FileInfo
}

// FileInfo describes a stored file.
type FileInfo struct {
	Name    string
	Owner   int64
	Size    int64
	Written time.Time
}

// Collections of the store, as Changes names them.
const (
	CollectionPosts = "posts"
	CollectionTerms = "terms"
	CollectionUsers = "users"
)

// Change is one entry of the store's change feed.
type Change struct {
	Collection string
	ID         int64
	Seq        int64
	Deleted    bool
	// Kind is a tombstone's post type or taxonomy (what DocKind said), so a
	// feed can name what was deleted; "" when the store did not keep it.
	Kind string
}

// Kinded documents name their kind (post type, taxonomy) for tombstones.
type Kinded interface{ DocKind() string }

// Index is the search index that answers list queries: the store holds the
// documents, the index finds them, counts them and orders them.
type Index interface {
	// PutPosts adds or replaces the posts' entries.
	PutPosts(ctx context.Context, posts []*Post) error
	// DeletePost removes a post's entry; a missing one is not an error.
	DeletePost(ctx context.Context, id int64) error
	// SearchPosts returns one page of matching post IDs, in order, and the total.
	SearchPosts(ctx context.Context, q PostQuery) (PostPage, error)
	// PutTerms adds or replaces the terms' entries; DeleteTerm removes one.
	PutTerms(ctx context.Context, terms []*Term) error
	DeleteTerm(ctx context.Context, id int64) error
	// SearchTerms returns every matching term ID (at most MaxTerms), in order.
	SearchTerms(ctx context.Context, q TermQuery) ([]int64, error)
	// CountLinks counts, per linked term, venue or organizer ID, the events that
	// carry it among those among selects (its statuses, reader and start
	// bound; never a page); IDs no such event carries are absent.
	CountLinks(ctx context.Context, link Link, among PostQuery) (map[int64]int, error)
	// Generation changes whenever the index changes, so answers computed from
	// it can be reused until then.
	Generation() uint64
	// AppliedSeq is the checkpoint of the store's change feed the index has
	// applied; SetAppliedSeq records a new one.
	AppliedSeq(ctx context.Context) (int64, error)
	SetAppliedSeq(ctx context.Context, seq int64) error
	// DocCount is how many entries (posts and terms) the index holds.
	DocCount(ctx context.Context) (int64, error)
	Ping(ctx context.Context) error
	Close() error
}

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
	// Relevance, when set, replaces Words: every word of it must occur as a
	// word, a word's prefix or with one typo (five letters or more), accents
	// folded; the best matches come first (title hits above the others) and
	// Order breaks ties.
	Relevance string
	// IDs restricts to these posts (nil: no restriction, empty: none);
	// ExcludeIDs leaves these out.
	IDs        []int64
	ExcludeIDs []int64
	// Event filters: bounds on the start and end instants, linked posts and
	// terms (OR within each list), the featured flag, listing visibility.
	StartAfter, StartBefore, EndAfter, EndBefore *Bound
	Venues, Organizers, Categories, Tags         []int64
	// Authors keeps the posts of these authors; Images those whose image is
	// one of these attachments; Source the attachment sideloaded from it.
	Authors  []int64
	Images   []int64
	Source   string
	Featured *bool
	Parent   *int64
	// SeriesOnly keeps events that recur (have rules).
	SeriesOnly bool
	// Near keeps posts within a great-circle radius of a point (venues by their
	// position, events by their venue's); HasGeo keeps those with (or without)
	// a position.
	Near       *GeoNear
	HasGeo     *bool
	ListedOnly bool
	Order      PostOrder
	Offset     int
	Limit      int // 0: count only
	// Facets asks for the counts of every value of these facets (Facet*)
	// among all the matching posts.
	Facets []string

	// ModifiedAfter keeps posts last modified after it.
	ModifiedAfter *Bound
}

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
	// OrderStart: event start ascending, then publication date, then ID.
	OrderStart
	// OrderPublished: publication date ascending, then ID.
	OrderPublished
	// OrderDistance: nearest to Near first, then event start, publication date, ID.
	OrderDistance
	// OrderModified: modification ascending, then ID, for paging forward.
	OrderModified
)

// GeoNear is a point and a radius in kilometres.
type GeoNear struct {
	Lat, Lng, Km float64
}

// PostPage is one page of a PostQuery: IDs newest first (then highest ID), and
// how many posts match in all.
type PostPage struct {
	IDs   []int64
	Total int
	// Facets: per facet asked for, its values and their counts.
	Facets map[string][]FacetCount
}

// SearchableMeta lists, per post type, the meta fields a search looks into.
var SearchableMeta = map[string][]string{
	PostTypeVenue:     {"address", "city", "province", "state", "stateprovince", "zip", "phone"},
	PostTypeOrganizer: {"phone", "email", "website"},
}
