package calendar

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// ImportSource is a source of events this site keeps in step with: an
// iCalendar feed, another site's events API, a page of schema.org events
// or an uploaded CSV file. What it creates is written as its Author would
// write it; every write of the source, its manager's and a run's, is a
// compare-and-swap, as a webhook's is.
type ImportSource struct {
	ID   int64  `bson:"_id"`
	Seq  int64  `bson:"seq"`
	Kind string `bson:"kind"`
	URL  string `bson:"url,omitempty"`
	// File is an uploaded file's content (csv), kept until its one run.
	File []byte `bson:"file,omitempty"`
	// Schedule is manual, hourly, daily or weekly.
	Schedule string `bson:"schedule"`
	Active   bool   `bson:"active"`
	// What the events it creates are given: Status (draft by default),
	// Categories and Tags (IDs, slugs or names), Author (who the writes are
	// made as).
	Status     string   `bson:"status"`
	Categories []string `bson:"categories,omitempty"`
	Tags       []string `bson:"tags,omitempty"`
	Author     int64    `bson:"author"`
	// OnRemoved is what happens to an event that left the source: keep,
	// trash or cancel (event_status canceled).
	OnRemoved           string    `bson:"on_removed"`
	OverwriteLocalEdits bool      `bson:"overwrite_local_edits,omitempty"`
	Description         string    `bson:"description,omitempty"`
	Owner               int64     `bson:"owner"`
	Created             time.Time `bson:"created"`
	Modified            time.Time `bson:"modified"`

	// ETag and LastModified are the validators of the last fetch, sent
	// back as If-None-Match and If-Modified-Since.
	ETag         string `bson:"etag,omitempty"`
	LastModified string `bson:"last_modified,omitempty"`
	// Running is the run under way (nil: none); Runs the latest runs,
	// newest first.
	Running *ImportRun  `bson:"running,omitempty"`
	Runs    []ImportRun `bson:"runs,omitempty"`
	// Failures counts the runs failed in a row; Next is when a scheduled
	// run is due (backed off after failures).
	Failures    int       `bson:"failures,omitempty"`
	Next        time.Time `bson:"next,omitempty"`
	LastSuccess time.Time `bson:"last_success,omitempty"`
	// Lease is held by the replica running it.
	Lease *Lease `bson:"lease,omitempty"`
}

// ImportRun is one run of a source: when it began and ended, how many
// items had each outcome, and the items that failed and why.
type ImportRun struct {
	ID      int64     `bson:"id"`
	Started time.Time `bson:"started"`
	Ended   time.Time `bson:"ended,omitempty"`
	// Trigger is manual or scheduled.
	Trigger string         `bson:"trigger"`
	Counts  map[string]int `bson:"counts,omitempty"`
	Failed  []ImportFailed `bson:"failed,omitempty"`
	// Error is why the run as a whole failed ("" when it did not).
	Error string `bson:"error,omitempty"`
}

// ImportFailed is an item a run could not write.
type ImportFailed struct {
	Key    string `bson:"key"`
	Title  string `bson:"title,omitempty"`
	Reason string `bson:"reason"`
}

func (s *ImportSource) DocID() int64      { return s.ID }
func (s *ImportSource) SetDocID(id int64) { s.ID = id }
func (s *ImportSource) SetSeq(seq int64)  { s.Seq = seq }
func (s *ImportSource) DocSeq() int64     { return s.Seq }

// UniqueKeys: none; one URL may be imported twice, with other defaults.
func (s *ImportSource) UniqueKeys() map[string][]string { return nil }

// ImportItem is what a source's item became here: the event (Post) made
// from the item its source names Key (an iCalendar UID with its
// RECURRENCE-ID, a global_id, a JSON-LD @id or URL, a CSV row's key), the
// version the source gave it and the hash of what was written, and the
// event's count of edits (Post.Revisions) as the import left it: a higher
// one is a local edit. One record per source and key, found by both.
type ImportItem struct {
	ID     int64  `bson:"_id"`
	Seq    int64  `bson:"seq"`
	Source int64  `bson:"source"`
	Key    string `bson:"key"`
	Post   int64  `bson:"post"`
	// Kind is the post's type (event, venue, organizer): venues and
	// organizers are matched by their identity at the source too.
	Kind      string `bson:"kind"`
	Version   string `bson:"version,omitempty"`
	Hash      string `bson:"hash"`
	Revisions int64  `bson:"revisions"`
	Removed   bool   `bson:"removed,omitempty"`
}

func (i *ImportItem) DocID() int64      { return i.ID }
func (i *ImportItem) SetDocID(id int64) { i.ID = id }
func (i *ImportItem) SetSeq(seq int64)  { i.Seq = seq }
func (i *ImportItem) DocSeq() int64     { return i.Seq }

// UniqueKeys: one item per source, kind and key.
func (i *ImportItem) UniqueKeys() map[string][]string {
	return map[string][]string{ImportItemKey: {ImportItemOf(i.Source, i.Kind, i.Key)}}
}

// ImportItemKey is the unique key items are found by, ImportItemOf its value.
const ImportItemKey = "source_item"

// A key longer than maxItemKeyBytes is named by its digest (an index's
// entry has a bound of its own on MongoDB).
func ImportItemOf(source int64, kind, key string) string {
	if len(key) > maxItemKeyBytes {
		sum := sha256.Sum256([]byte(key))
		key = "sha256:" + hex.EncodeToString(sum[:])
	}
	return strconv.FormatInt(source, 10) + "/" + kind + "/" + key
}

const maxItemKeyBytes = 200
