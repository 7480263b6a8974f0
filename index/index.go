// Package index is the bleve implementation of app's Index: a versioned
// mapping (bump MappingVersion and the index is rebuilt), kept under the
// data dir, and rebuilt beside itself while it serves (live.go, layout.go).
package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"calendar/app/calendar"
)

// Index implements app's port.
var _ calendar.Index = (*Index)(nil)

var versionKey = []byte("mapping_version")

// Index wraps one bleve index, opened with unsafe batches: a write returns
// once searchable and reaches the disk with the persister's next snapshot,
// instead of each write waiting for its own segment's fsync. The store, not
// the index, is what a crash must not lose: on start the index catches up on
// the store's change feed from a checkpoint that is itself written in a batch,
// and scorch persists whole snapshots in order, so the checkpoint on disk
// never runs ahead of the documents on disk. Close waits for the persister.
// A rebuild of 100k events took 22 % less CPU so. The service serves one
// through Live (live.go), which swaps it for a successor built beside it.
type Index struct {
	bleve      bleve.Index
	generation atomic.Uint64
	writes     writes
	// persistFailed hears the persister's errors: it retries a failed
	// snapshot forever and calls no batch's callback meanwhile.
	persistFailed chan error
	dir           string
	// languages are those the index stems in (Languages).
	languages []string
	// version is the mapping version it was built with: one older than
	// this release's may lack a field a question reads (utcDaysFrom).
	version int
	// compaction guards stopCompaction and compactDone, set once a background merge of the
	// segments started (compact.go).
	compaction     sync.Mutex
	stopCompaction func()
	compactDone    chan struct{}
	// series keeps each segment's table of events of series (seriestable.go).
	series seriesTables
}

// openExisting opens the index at path and reads how it was built: its
// mapping version and the languages it stems in; a path holding no index is
// bleve.ErrorIndexPathDoesNotExist.
func openExisting(path string) (*Index, int, error) {
	idx, err := bleve.OpenUsing(path, scorchConfig())
	if err != nil {
		return nil, 0, err
	}
	raw, err := idx.GetInternal(versionKey)
	if err != nil {
		_ = idx.Close()
		return nil, 0, err
	}
	number, languages, _ := strings.Cut(string(raw), " ")
	version, _ := strconv.Atoi(number) // none or garbage: 0, which no release serves
	var stems []string
	if languages != "" {
		stems = strings.Split(languages, ",")
	}
	return watched(idx, path, stems, version), version, nil
}

// create makes an empty index of the current mapping, stemming in the
// versions' languages, at path.
func create(path string, versions Versions) (*Index, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, err
	}
	idx, err := bleve.NewUsing(path, newMapping(versions.Languages), bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, scorchConfig())
	if err != nil {
		return nil, fmt.Errorf("creating index %s: %w", path, err)
	}
	if err := idx.SetInternal(versionKey, []byte(recordOf(versions))); err != nil {
		_ = idx.Close()
		return nil, err
	}
	return watched(idx, path, versions.Languages, versions.Mapping), nil
}

// recordOf is what an index records of how it was built: the mapping's
// version, and the languages it stems in ("23", "23 fr,de").
func recordOf(versions Versions) string {
	v := strconv.Itoa(versions.Mapping)
	if len(versions.Languages) > 0 {
		v += " " + strings.Join(versions.Languages, ",")
	}
	return v
}

// scorchConfig is a new map for each index: bleve writes into the one it is
// given, so two indexes opened at once must not share one.
func scorchConfig() map[string]any {
	return map[string]any{"unsafe_batch": true, "asyncErrorCallbackName": asyncErrors}
}

// asyncErrors names the callback scorch calls with its background errors
// (by default it calls none, and a persister failing forever is silent); it
// passes the index's path, which leads to the open Index.
const asyncErrors = "calendar"

var openIndexes sync.Map // path -> *Index

func init() {
	scorch.RegistryAsyncErrorCallbacks[asyncErrors] = func(err error, path string) {
		if i, ok := openIndexes.Load(filepath.Dir(path)); ok { // scorch's path is the index's "store"
			select {
			case i.(*Index).persistFailed <- err:
			default: // one unread failure is enough to tell
			}
		}
	}
}

func watched(idx bleve.Index, path string, languages []string, version int) *Index {
	i := &Index{bleve: idx, persistFailed: make(chan error, 1), dir: path, languages: slices.Clone(languages), version: version}
	openIndexes.Store(path, i)
	return i
}

var appliedKey = []byte("applied_seq")

// AppliedSeq reads the checkpoint of the change feed applied to the index.
func (i *Index) AppliedSeq(ctx context.Context) (int64, error) {
	v, err := i.bleve.GetInternal(appliedKey)
	if err != nil || v == nil {
		return 0, err
	}
	return strconv.ParseInt(string(v), 10, 64)
}

// SetAppliedSeq records the checkpoint of the change feed applied.
func (i *Index) SetAppliedSeq(ctx context.Context, seq int64) error {
	b := i.bleve.NewBatch()
	b.SetInternal(appliedKey, []byte(strconv.FormatInt(seq, 10)))
	return i.applyBatch(b, false)
}

var fieldsIndexedKey = []byte("fields_indexed")

// FieldsIndexed reads what the index records of the custom field
// declarations its posts are indexed under.
func (i *Index) FieldsIndexed(ctx context.Context) (calendar.FieldsIndexed, error) {
	var f calendar.FieldsIndexed
	v, err := i.bleve.GetInternal(fieldsIndexedKey)
	if err != nil || v == nil {
		return f, err
	}
	return f, json.Unmarshal(v, &f)
}

// SetFieldsIndexed records it, after the writes before it (bleve persists
// snapshots in order: on disk it is never ahead of the documents).
func (i *Index) SetFieldsIndexed(ctx context.Context, f calendar.FieldsIndexed) error {
	v, err := json.Marshal(f)
	if err != nil {
		return err
	}
	b := i.bleve.NewBatch()
	b.SetInternal(fieldsIndexedKey, v)
	return i.applyBatch(b, false)
}

// Generation changes with every write to the index.
func (i *Index) Generation() uint64 { return i.generation.Load() }

// DocCount is how many entries, posts and terms, the index holds.
func (i *Index) DocCount(ctx context.Context) (int64, error) {
	n, err := i.bleve.DocCount()
	return int64(n), err
}

// Segments is how many segments the index has on disk, and whether bleve is
// merging some now: a rebuild leaves many small ones that it goes on merging
// for a while, and lists are fastest once that is done.
func (i *Index) Segments() (files int, merging bool) {
	stats, _ := i.bleve.StatsMap()["index"].(map[string]any)
	count := func(key string) uint64 { n, _ := stats[key].(uint64); return n }
	return int(count("num_root_filesegments")), count("TotFileMergeZapBeg") != count("TotFileMergeZapEnd")
}

// Ping reports whether the index answers.
func (i *Index) Ping(ctx context.Context) error {
	_, err := i.bleve.DocCount()
	return err
}

// Close returns once every write made so far is on disk: scorch's own Close
// drops the snapshots its persister has not written yet. When the persister
// fails, or takes longer than closeWait, Close gives up waiting: what was not
// written is caught up from the store's change feed at the next start, since
// the checkpoint on disk is only as new as the documents on disk.
func (i *Index) Close() error {
	i.stopCompacting()
	err := i.persist(closeWait)
	openIndexes.CompareAndDelete(i.dir, i)
	return errors.Join(err, i.bleve.Close())
}

// closeNow closes the index without waiting for its persister: for an
// index about to be removed.
func (i *Index) closeNow() error {
	i.stopCompacting()
	openIndexes.CompareAndDelete(i.dir, i)
	return i.bleve.Close()
}

// closeWait bounds the wait for the persister at Close.
var closeWait = 30 * time.Second

var persistedKey = []byte("persisted")

// persist introduces one more batch and waits for the persister to write the
// snapshot holding it, and with it everything introduced before.
func (i *Index) persist(wait time.Duration) error {
	select { // a failure before this batch says nothing about it
	case <-i.persistFailed:
	default:
	}
	done := make(chan error, 1)
	b := i.bleve.NewBatch()
	b.SetInternal(persistedKey, []byte(time.Now().UTC().Format(time.RFC3339Nano)))
	b.SetPersistedCallback(func(err error) { done <- err })
	if err := i.bleve.Batch(b); err != nil {
		return err
	}
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	select {
	case err := <-done:
		return err
	case err := <-i.persistFailed:
		return fmt.Errorf("index not written to disk (the next start catches it up from the store): %w", err)
	case <-timeout.C:
		return fmt.Errorf("index not written to disk within %s (the next start catches it up from the store)", wait)
	}
}
