package calendar

import (
	"context"
	"io"
	"time"
)

// Document is what a Store keeps: a record with an integer ID, the change
// sequence number of its last write (which is also its revision: every write
// takes a new one, so a writer knows whether the record changed since it
// read it), and the values that must be unique within its collection (field
// name -> its values: at least one, every value non-empty and held by no
// other document; a field may hold several, as a user's password hashes).
type Document interface {
	DocID() int64
	SetDocID(id int64)
	DocSeq() int64
	SetSeq(seq int64)
	UniqueKeys() map[string][]string
}

// Repo is one collection of documents of type T (a pointer type). IDs are
// allocated by the collection: 1, 2, 3..., never reused. Every write takes the
// next number of one store-wide change sequence.
type Repo[T Document] interface {
	// Insert assigns the next ID and sequence to doc and stores it.
	// ErrConflict when a unique key is taken (no ID is consumed then, or one is
	// skipped; IDs are never reused either way).
	Insert(ctx context.Context, doc T) error
	// InsertMany inserts docs as Insert does each, in their order (IDs
	// and sequences ascending with it), in one write of the store: one
	// transaction of the embedded store, one ordered bulk insert on
	// MongoDB. A unique key taken, by a stored document or an earlier one
	// of docs, answers ErrConflict. On any error the docs stored are
	// exactly those left with an ID, a prefix of docs (none on the
	// embedded store); the others have ID 0. Its caller bounds docs (their
	// count and bytes: one write holds them all).
	InsertMany(ctx context.Context, docs []T) error
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
// another; users have a third; guards a fourth.
type Store interface {
	Users() Repo[*User]
	Posts() Repo[*Post]
	Terms() Repo[*Term]
	// Guards are the guards of changes that span records (guard.go), one
	// per name. Their writes take sequence numbers as any write does; the
	// readers of the change feed skip them, as they skip users.
	Guards() Repo[*Guard]
	// Webhooks are the subscriptions to the change feed (webhook.go); the
	// readers of the feed skip their writes too.
	Webhooks() Repo[*Webhook]
	// WebhookMarks are the events a filtered subscription's receiver holds.
	WebhookMarks() Repo[*WebhookMark]
	// Synonyms are the groups of words searches treat alike (synonym.go);
	// their writes are in the feed, so that every replica follows them.
	Synonyms() Repo[*Synonym]
	// Imports are the sources of events kept in step (imports.go);
	// ImportItems what their items became here. The readers of the feed
	// skip their writes too.
	Imports() Repo[*ImportSource]
	ImportItems() Repo[*ImportItem]
	// Fields holds the one set of custom field declarations (fields.go);
	// its writes are in the feed, so that every replica follows them.
	Fields() Repo[*FieldSet]
	// Files keeps the files of uploaded media.
	Files() Files
	// Changes returns up to limit changes with a sequence above afterSeq, in
	// sequence order: the latest write of each live document, and a tombstone
	// for each document deleted for good; users, posts, terms, the field set
	// and synonyms at least (the other collections may be left out).
	Changes(ctx context.Context, afterSeq int64, limit int) ([]Change, error)
	// LastSeq is the highest sequence number handed out so far.
	LastSeq(ctx context.Context) (int64, error)
	// PruneChanges removes the tombstones of the deletes made before the
	// instant (a tombstone stored without its time is given now's, and goes
	// a retention later) and answers the feed's horizon.
	PruneChanges(ctx context.Context, before time.Time) (horizon int64, err error)
	// Horizon is the highest sequence of a tombstone removed so far (0:
	// none): a reader of the feed from below it may miss a delete.
	Horizon(ctx context.Context) (int64, error)
	// Ping reports whether the store is reachable.
	Ping(ctx context.Context) error
	Close(ctx context.Context) error
}

// Exclusive is implemented by a Store that one process alone opens (the
// embedded store): its change feed gains entries in sequence order only
// (a write takes its number and commits at once), and no other process
// writes it, so no record's lease can be another replica's.
type Exclusive interface{ Exclusive() }

// Archiver is implemented by a Store that can write a backup of itself
// while it serves (the embedded store; MongoDB has its own tools, mongodump
// and mongorestore).
type Archiver interface {
	// Backup writes an archive of the store to w as it reads it: every record
	// as of one instant, and every uploaded file those records name, even
	// one deleted while the archive is written. Writes go on meanwhile.
	Backup(ctx context.Context, w io.Writer) error
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
	// The custom field declarations and the synonym groups: in the feed so
	// that every replica follows their changes (neither is indexed).
	CollectionFields   = "fields"
	CollectionSynonyms = "synonyms"
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
	// Standing is who could read a deleted post (what DocStanding said), so
	// a feed tells the delete only to them; zero when the store did not
	// keep it (a term's tombstone, or one written before).
	Standing Standings
}

// Kinded documents name their kind (post type, taxonomy) for tombstones.
type Kinded interface{ DocKind() string }

// ReadLimited documents (posts) are readable to some callers only: their
// tombstones keep who could read them.
type ReadLimited interface{ DocStanding() Standings }

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
	// Highlight finds, in each text, the words that q's search (its Words,
	// or its Relevance in its Language) matches, as the search itself reads
	// them: spans in order, none overlapping.
	Highlight(q PostQuery, texts []string) [][]Span
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
	// FieldsIndexed is what the index records of the custom field
	// declarations its posts are indexed under (the zero value: nothing
	// recorded); SetFieldsIndexed records it. Kept with the index, as its
	// feed checkpoint is: each replica's index is its own.
	FieldsIndexed(ctx context.Context) (FieldsIndexed, error)
	SetFieldsIndexed(ctx context.Context, f FieldsIndexed) error
	// DocCount is how many entries (posts and terms) the index holds.
	DocCount(ctx context.Context) (int64, error)
	Ping(ctx context.Context) error
	Close() error
}

// Rebuildable is an Index that can build its successor beside itself while
// it serves, for a rebuild that keeps the service ready (a new mapping, an
// administrator's reindex).
type Rebuildable interface {
	// Successor makes an empty index of the current mapping beside the
	// live one; one at a time.
	Successor() (Successor, error)
}

// Compactable is an Index that can merge, in the background, what a fill
// left (a rebuild writes many small parts) into few, which every search then
// reads faster; closing the index stops it.
type Compactable interface {
	Compact()
}

// Successor is an index being filled beside the live one: nothing but its
// builder writes it until it is promoted.
type Successor interface {
	Index
	// Flush returns once everything written to it so far is on disk.
	Flush() error
	// Promote makes it the live index at once for every call that begins
	// from then on, durably (a crash after it opens this one). No write of
	// the live index may be under way meanwhile. retire then closes and
	// removes the index it replaced, once the calls that began on that one
	// have ended.
	Promote() (retire func() error, err error)
	// Discard closes and removes it, unpromoted.
	Discard() error
}
