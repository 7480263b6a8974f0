package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"calendar/app/calendar"
)

// syncMargin is how far below its checkpoint the index re-reads the change
// feed: a write that took its sequence number before a later one but committed
// after it (in flight on another replica) is still found.
const syncMargin = 256

// indexSync keeps the index equal to the store: it applies the store's change
// feed from the index's checkpoint, at start and then on an interval, so writes
// of other replicas and writes a crash cut off between store and index arrive.
type indexSync struct {
	store calendar.Store
	index calendar.Index
	// gate orders catch-up against the service's own writes: a write holds it
	// shared from its store write to its index write; applying a batch holds it
	// exclusively from reading the store to writing the index, so it never
	// writes an older state over a newer one.
	gate  sync.RWMutex
	order indexOrder
	mu    sync.Mutex // one catch-up at a time
	// applied holds the sequences applied in the margin below the checkpoint.
	applied    map[int64]bool
	checkpoint int64
	loaded     bool
	// rebuilding is set while the index is being filled from scratch.
	rebuilding atomic.Bool
	progress   atomic.Int64
	total      atomic.Int64
}

// writeThrough is the one path of every write of the service: the store,
// then, if that worked, the index, with the gate held between them, so that a
// catch-up never writes an older state of the document over the one just
// written. Two writes of one document reach the index in the order of their
// store writes (see indexOrder). doc is the document of the collection
// written (its ID and, after toStore, its new sequence); gone says the
// write deleted it.
func (s *indexSync) writeThrough(collection string, doc calendar.Document, gone bool, toStore, toIndex func() error) error {
	s.gate.RLock()
	defer s.gate.RUnlock()
	if err := toStore(); err != nil {
		return err
	}
	seq := doc.DocSeq()
	if gone {
		seq = math.MaxInt64 // nothing written before a delete is indexed after it
	}
	return s.order.put(docKey{collection, doc.DocID()}, seq, toIndex)
}

// indexOrder keeps the index writes of each document in the order of its
// store writes. The store orders them (a compare-and-swap waits for the
// write before it to commit), but the index writes that follow run side by
// side: the second could land first and the first then put back an older
// state. Each document's index writes pass under a lock of its stripe,
// which remembers the newest sequence indexed, and an older one is skipped.
type indexOrder struct {
	stripes [64]orderStripe
}

type orderStripe struct {
	mu   sync.Mutex
	last map[docKey]int64
}

type docKey struct {
	collection string
	id         int64
}

// orderMemory bounds what a stripe remembers: only writes in flight need
// ordering, so forgetting everything past it costs nothing in practice.
const orderMemory = 1024

func (o *indexOrder) put(key docKey, seq int64, toIndex func() error) error {
	st := &o.stripes[uint64(key.id)%uint64(len(o.stripes))]
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.last[key] > seq {
		return nil // a later write of the document is indexed already
	}
	if err := toIndex(); err != nil {
		return err
	}
	if st.last == nil || len(st.last) >= orderMemory {
		st.last = map[docKey]int64{}
	}
	st.last[key] = seq
	return nil
}

// ignoreMissing: deleting what is already gone is not an error.
func ignoreMissing(err error) error {
	if errors.Is(err, calendar.ErrNotFound) {
		return nil
	}
	return err
}

// CatchUp applies every change above the index's checkpoint (less the margin)
// and returns how many changes it applied.
func (a *App) CatchUp(ctx context.Context) (int, error) { return a.sync.catchUpCount(ctx) }

// catchUp is CatchUp for a job that must see every write committed before
// it started, on any replica (a series job, which finds occurrences through
// the index).
func (s *indexSync) catchUp(ctx context.Context) error {
	_, err := s.catchUpCount(ctx)
	return err
}

func (s *indexSync) catchUpCount(ctx context.Context) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded {
		cp, err := s.index.AppliedSeq(ctx)
		if err != nil {
			return 0, err
		}
		s.checkpoint, s.applied, s.loaded = cp, map[int64]bool{}, true
	}
	from := max(s.checkpoint-syncMargin, 0)
	n := 0
	for {
		changes, err := s.store.Changes(ctx, from, 1000)
		if err != nil || len(changes) == 0 {
			return n, err
		}
		var fresh []calendar.Change
		for _, c := range changes {
			if !s.applied[c.Seq] {
				fresh = append(fresh, c)
			}
		}
		pending, err := s.apply(ctx, fresh)
		if err != nil {
			return n, err
		}
		for _, c := range fresh {
			if !pending[c.Seq] {
				s.applied[c.Seq] = true
			}
			s.checkpoint = max(s.checkpoint, c.Seq)
		}
		n += len(fresh)
		from = changes[len(changes)-1].Seq
		for seq := range s.applied {
			if seq <= s.checkpoint-syncMargin {
				delete(s.applied, seq)
			}
		}
		if err := s.index.SetAppliedSeq(ctx, s.checkpoint); err != nil {
			return n, err
		}
	}
}

// apply makes the index hold what the store holds now for each changed
// document: its current state, or nothing when it is gone. It returns the
// tombstones whose document is still in the store: a delete whose tombstone
// is written before the document goes; they are read again on later passes
// while they are inside the margin.
func (s *indexSync) apply(ctx context.Context, changes []calendar.Change) (pending map[int64]bool, err error) {
	postIDs, termIDs := changedIDs(changes)
	if len(postIDs)+len(termIDs) == 0 {
		return nil, nil
	}
	s.gate.Lock()
	defer s.gate.Unlock()
	live := map[string]map[int64]bool{calendar.CollectionPosts: {}, calendar.CollectionTerms: {}}
	posts, err := s.store.Posts().GetMany(ctx, postIDs)
	if err != nil {
		return nil, err
	}
	if err := s.index.PutPosts(ctx, posts); err != nil {
		return nil, err
	}
	for _, p := range posts {
		live[calendar.CollectionPosts][p.ID] = true
	}
	for _, id := range missing(postIDs, live[calendar.CollectionPosts]) {
		if err := s.index.DeletePost(ctx, id); err != nil {
			return nil, err
		}
	}
	terms, err := s.store.Terms().GetMany(ctx, termIDs)
	if err != nil {
		return nil, err
	}
	if err := s.index.PutTerms(ctx, terms); err != nil {
		return nil, err
	}
	for _, t := range terms {
		live[calendar.CollectionTerms][t.ID] = true
	}
	for _, id := range missing(termIDs, live[calendar.CollectionTerms]) {
		if err := s.index.DeleteTerm(ctx, id); err != nil {
			return nil, err
		}
	}
	pending = map[int64]bool{}
	for _, c := range changes {
		if c.Deleted && live[c.Collection][c.ID] {
			pending[c.Seq] = true
		}
	}
	return pending, nil
}

// missing returns the wanted IDs that are not present.
func missing(wanted []int64, present map[int64]bool) []int64 {
	var out []int64
	for _, id := range wanted {
		if !present[id] {
			out = append(out, id)
		}
	}
	return out
}

// Sync catches up on an interval until ctx ends; onError hears each failure.
func (a *App) Sync(ctx context.Context, interval time.Duration, onError func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := a.CatchUp(ctx); err != nil && !errors.Is(err, context.Canceled) {
				onError(err)
			}
		}
	}
}

// Rebuild fills an empty index from the store: every term and post, in
// batches, then the checkpoint of the feed as it stood before the scan (what
// changes during the scan is caught up after). progress hears the count done
// and the total after each batch. The service answers readyz 503 meanwhile.
func (a *App) Rebuild(ctx context.Context, progress func(done, total int64)) (int64, error) {
	s := a.sync
	s.rebuilding.Store(true)
	defer s.rebuilding.Store(false)
	last, err := a.store.LastSeq(ctx)
	if err != nil {
		return 0, err
	}
	posts, err := a.store.Posts().Count(ctx)
	if err != nil {
		return 0, err
	}
	terms, err := a.store.Terms().Count(ctx)
	if err != nil {
		return 0, err
	}
	s.total.Store(posts + terms)
	s.progress.Store(0)
	var reporting sync.Mutex // batches finish on several goroutines; progress hears them one at a time
	report := func(n int) {
		reporting.Lock()
		defer reporting.Unlock()
		done := s.progress.Add(int64(n))
		if progress != nil {
			progress(done, s.total.Load())
		}
	}
	if err := rebuildCollection(ctx, a.store.Terms(), a.index.PutTerms, report); err != nil {
		return s.progress.Load(), err
	}
	if err := rebuildCollection(ctx, a.store.Posts(), a.index.PutPosts, report); err != nil {
		return s.progress.Load(), err
	}
	s.mu.Lock()
	s.checkpoint, s.applied, s.loaded = last, map[int64]bool{}, true
	s.mu.Unlock()
	if err := a.index.SetAppliedSeq(ctx, last); err != nil {
		return s.progress.Load(), err
	}
	_, err = a.CatchUp(ctx)
	return s.progress.Load(), err
}

// rebuildCollection scans the collection in ID order and indexes it in
// batches, one per core at a time: building a batch's segment is the cost.
// Batches of 1,000 built 100k events in 32 CPU seconds, of 2,000 in 36, of
// 5,000 in 44 (larger segments cost more than their share to build, and
// their heap makes the collector work under its soft limit), of 500 in 34.
func rebuildCollection[T calendar.Document](ctx context.Context, repo calendar.Repo[T], put func(context.Context, []T) error, report func(int)) error {
	const batch = 1000
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []T)
	errs := make(chan error, 1)
	fail := func(err error) {
		select {
		case errs <- err:
		default:
		}
		cancel()
	}
	var workers sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for docs := range batches {
				if err := put(ctx, docs); err != nil {
					fail(err)
					return
				}
				report(len(docs))
			}
		}()
	}
	var after int64
	for ctx.Err() == nil {
		docs, err := repo.Scan(ctx, after, batch)
		if err != nil {
			fail(err)
			break
		}
		if len(docs) == 0 {
			break
		}
		select {
		case batches <- docs:
		case <-ctx.Done():
		}
		after = docs[len(docs)-1].DocID()
	}
	close(batches)
	workers.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return ctx.Err()
	}
}

// changedIDs splits changes into the posts and the terms they name; users are
// neither indexed nor listed.
func changedIDs(changes []calendar.Change) (postIDs, termIDs []int64) {
	for _, c := range changes {
		switch c.Collection {
		case calendar.CollectionPosts:
			postIDs = append(postIDs, c.ID)
		case calendar.CollectionTerms:
			termIDs = append(termIDs, c.ID)
		}
	}
	return postIDs, termIDs
}

// rebuildState is what readyz says while a rebuild runs, nil otherwise.
func (a *App) rebuildState() error {
	if !a.sync.rebuilding.Load() {
		return nil
	}
	return fmt.Errorf("the index is being rebuilt: %d of %d documents", a.sync.progress.Load(), a.sync.total.Load())
}
