// Package index is the bleve implementation of app.Index: a versioned mapping
// (bump MappingVersion and the index is rebuilt), kept under the data dir.
package index

import (
	"context"
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
// A rebuild of 100k events took 22 % less CPU so.
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
	// Fresh is true when the index was created empty by Open and must be filled
	// from the store.
	Fresh bool
}

// Open opens the index under dir, creating it when missing or when it was built
// with another mapping version or other languages. The index stems its
// events' words in each of languages (some of Languages) besides.
func Open(dir string, languages ...string) (*Index, error) {
	if err := checkLanguages(languages); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "index")
	version := versionOf(languages)
	idx, err := bleve.OpenUsing(path, scorchConfig())
	switch {
	case err == nil:
		if v, _ := idx.GetInternal(versionKey); string(v) == version {
			return watched(idx, path, languages, false), nil
		}
		_ = idx.Close()
		if err := os.RemoveAll(path); err != nil {
			return nil, err
		}
	case errors.Is(err, bleve.ErrorIndexPathDoesNotExist):
	default:
		return nil, fmt.Errorf("opening index %s: %w", path, err)
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	idx, err = bleve.NewUsing(path, newMapping(languages), bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, scorchConfig())
	if err != nil {
		return nil, fmt.Errorf("creating index %s: %w", path, err)
	}
	if err := idx.SetInternal(versionKey, []byte(version)); err != nil {
		_ = idx.Close()
		return nil, err
	}
	return watched(idx, path, languages, true), nil
}

// versionOf is what an index records of how it was built: the mapping's
// version, and the languages it stems in ("23", "23 fr,de").
func versionOf(languages []string) string {
	v := strconv.Itoa(MappingVersion)
	if len(languages) > 0 {
		v += " " + strings.Join(languages, ",")
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

func watched(idx bleve.Index, path string, languages []string, fresh bool) *Index {
	i := &Index{bleve: idx, Fresh: fresh, persistFailed: make(chan error, 1), dir: path, languages: slices.Clone(languages)}
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
	return i.apply(b, false)
}

// Remove deletes the index under dir, so the next Open builds a new one.
func Remove(dir string) error {
	return os.RemoveAll(filepath.Join(dir, "index"))
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
	err := i.persist(closeWait)
	openIndexes.CompareAndDelete(i.dir, i)
	return errors.Join(err, i.bleve.Close())
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
