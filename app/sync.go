package app

import (
	"context"
	"errors"
	"math"
	"sync"
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
	// fields say what the index keeps of posts' custom values; they and
	// the synonyms hear of their changes from the feed.
	fields   *Fields
	synonyms *Synonyms
	// gate orders catch-up against the service's own writes: a write holds it
	// shared from its store write to its index write; applying a batch holds it
	// exclusively from reading the store to writing the index, so it never
	// writes an older state over a newer one. Promoting a successor holds it
	// too: no write is then between the store and the index.
	gate  sync.RWMutex
	order indexOrder
	mu    sync.Mutex // one catch-up of the live index at a time; guards cursor
	// cursor is how far the live index has followed the store's feed.
	cursor feedCursor
	// rebuilds says whether the live index is whole: no write goes through
	// while it is not (wholeIndex).
	rebuilds *reindexer
	// written, when set, hears of every write to the store (the dispatcher
	// of webhooks delivers it at once).
	written func()
}

// feedCursor is how far an index has followed the store's change feed: its
// checkpoint, and the sequences applied in the margin below it.
type feedCursor struct {
	applied    map[int64]bool
	checkpoint int64
	loaded     bool
}

// cursorAt is the cursor of an index that holds every change up to seq.
func cursorAt(seq int64) feedCursor {
	return feedCursor{checkpoint: seq, applied: map[int64]bool{}, loaded: true}
}

// writeThrough is the one path of every write of the service: the store,
// then, if that worked, the index, with the gate held between them, so that a
// catch-up never writes an older state of the document over the one just
// written. Two writes of one document reach the index in the order of their
// store writes (see indexOrder). doc is the document of the collection
// written (its ID and, after toStore, its new sequence); gone says the
// write deleted it. While the index is not whole nothing is written: the
// write answers as what needs the index does (wholeIndex).
func (s *indexSync) writeThrough(collection string, doc calendar.Document, gone bool, toStore, toIndex func() error) error {
	if err := s.rebuilds.notWhole(); err != nil {
		return err
	}
	s.gate.RLock()
	defer s.gate.RUnlock()
	if err := toStore(); err != nil {
		return err
	}
	if s.written != nil {
		s.written()
	}
	seq := doc.DocSeq()
	if gone {
		seq = math.MaxInt64 // nothing written before a delete is indexed after it
	}
	return s.order.put(docKey{collection, doc.DocID()}, seq, toIndex)
}

// writeThroughMany is writeThrough for documents of one collection that
// one write of the store inserts together (Repo.InsertMany): their index
// writes go as one batch (toIndex is given the positions of those to
// index). When the store stored only some of them (a prefix, on MongoDB),
// those are indexed before its error is answered.
func (s *indexSync) writeThroughMany(collection string, docs []calendar.Document, toStore func() error, toIndex func(stored []int) error) error {
	if err := s.rebuilds.notWhole(); err != nil {
		return err
	}
	s.gate.RLock()
	defer s.gate.RUnlock()
	stored := toStore()
	keys := make([]docKey, 0, len(docs))
	seqs := make([]int64, 0, len(docs))
	for _, d := range docs {
		if d.DocID() != 0 {
			keys, seqs = append(keys, docKey{collection, d.DocID()}), append(seqs, d.DocSeq())
		}
	}
	if len(keys) == 0 {
		return stored
	}
	if s.written != nil {
		s.written()
	}
	positions := make([]int, 0, len(keys))
	for i, d := range docs {
		if d.DocID() != 0 {
			positions = append(positions, i)
		}
	}
	err := s.order.putMany(keys, seqs, func(fresh []int) error {
		picked := make([]int, len(fresh))
		for i, n := range fresh {
			picked[i] = positions[n]
		}
		return toIndex(picked)
	})
	return errors.Join(stored, err)
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

// putMany is put for several documents indexed in one write: their
// stripes are taken in ascending order (put takes one at a time, so no two
// writers wait on each other in a circle), and toIndex is given the
// positions of those no later write has indexed already.
func (o *indexOrder) putMany(keys []docKey, seqs []int64, toIndex func(fresh []int) error) error {
	var taken [len(o.stripes)]bool
	for _, key := range keys {
		taken[uint64(key.id)%uint64(len(o.stripes))] = true
	}
	for i := range o.stripes {
		if taken[i] {
			o.stripes[i].mu.Lock()
			defer o.stripes[i].mu.Unlock()
		}
	}
	var fresh []int
	for i, key := range keys {
		if o.stripes[uint64(key.id)%uint64(len(o.stripes))].last[key] <= seqs[i] {
			fresh = append(fresh, i)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	if err := toIndex(fresh); err != nil {
		return err
	}
	for _, i := range fresh {
		st := &o.stripes[uint64(keys[i].id)%uint64(len(o.stripes))]
		if st.last == nil || len(st.last) >= orderMemory {
			st.last = map[docKey]int64{}
		}
		st.last[keys[i]] = seqs[i]
	}
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

// catchUpTo is catchUp for a reader that needs the index to hold every
// change up to seq: nothing when it does already.
func (s *indexSync) catchUpTo(ctx context.Context, seq int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cursor.loaded && s.cursor.checkpoint >= seq {
		return nil
	}
	_, err := s.follow(ctx, s.index, &s.cursor, &s.gate)
	return err
}

func (s *indexSync) catchUpCount(ctx context.Context) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.follow(ctx, s.index, &s.cursor, &s.gate)
}

// follow applies to idx every change above its cursor (less the margin),
// holding gate while it reads the store and writes idx, and returns how
// many it applied.
func (s *indexSync) follow(ctx context.Context, idx calendar.Index, cur *feedCursor, gate sync.Locker) (int, error) {
	if !cur.loaded {
		cp, err := idx.AppliedSeq(ctx)
		if err != nil {
			return 0, err
		}
		*cur = cursorAt(cp)
	}
	from := max(cur.checkpoint-syncMargin, 0)
	n := 0
	for {
		changes, err := s.store.Changes(ctx, from, 1000)
		if err != nil || len(changes) == 0 {
			return n, err
		}
		var fresh []calendar.Change
		for _, c := range changes {
			if !cur.applied[c.Seq] {
				fresh = append(fresh, c)
			}
		}
		if err := s.hear(ctx, fresh); err != nil {
			return n, err
		}
		pending, err := s.applyChanges(ctx, idx, fresh, gate)
		if err != nil {
			return n, err
		}
		for _, c := range fresh {
			if !pending[c.Seq] {
				cur.applied[c.Seq] = true
			}
			cur.checkpoint = max(cur.checkpoint, c.Seq)
		}
		n += len(fresh)
		from = changes[len(changes)-1].Seq
		for seq := range cur.applied {
			if seq <= cur.checkpoint-syncMargin {
				delete(cur.applied, seq)
			}
		}
		if err := idx.SetAppliedSeq(ctx, cur.checkpoint); err != nil {
			return n, err
		}
	}
}

// hear tells the declarations of custom fields and the synonyms that the
// feed has a change of them (another replica's write, as a rule), before
// the posts of the same changes are indexed: a replica answers and indexes
// by them within a pass of its catch-up.
func (s *indexSync) hear(ctx context.Context, changes []calendar.Change) error {
	for _, c := range changes {
		switch c.Collection {
		case calendar.CollectionFields:
			if _, err := s.fields.refresh(ctx); err != nil {
				return err
			}
		case calendar.CollectionSynonyms:
			s.synonyms.forget()
		}
	}
	return nil
}

// applyChanges makes idx hold what the store holds now for each changed
// document: its current state, or nothing when it is gone. It returns the
// tombstones whose document is still in the store: a delete whose tombstone
// is written before the document goes; they are read again on later passes
// while they are inside the margin.
func (s *indexSync) applyChanges(ctx context.Context, idx calendar.Index, changes []calendar.Change, gate sync.Locker) (pending map[int64]bool, err error) {
	postIDs, termIDs := changedIDs(changes)
	if len(postIDs)+len(termIDs) == 0 {
		return nil, nil
	}
	gate.Lock()
	defer gate.Unlock()
	live := map[string]map[int64]bool{calendar.CollectionPosts: {}, calendar.CollectionTerms: {}}
	posts, err := s.store.Posts().GetMany(ctx, postIDs)
	if err != nil {
		return nil, err
	}
	if err := s.putPosts(ctx, idx, posts); err != nil {
		return nil, err
	}
	if err := s.placeEventsOf(ctx, idx, posts); err != nil {
		return nil, err
	}
	for _, p := range posts {
		live[calendar.CollectionPosts][p.ID] = true
	}
	for _, id := range missing(postIDs, live[calendar.CollectionPosts]) {
		if err := idx.DeletePost(ctx, id); err != nil {
			return nil, err
		}
	}
	terms, err := s.store.Terms().GetMany(ctx, termIDs)
	if err != nil {
		return nil, err
	}
	if err := idx.PutTerms(ctx, terms); err != nil {
		return nil, err
	}
	for _, t := range terms {
		live[calendar.CollectionTerms][t.ID] = true
	}
	for _, id := range missing(termIDs, live[calendar.CollectionTerms]) {
		if err := idx.DeleteTerm(ctx, id); err != nil {
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

// putPosts is how posts reach an index: each event placed where its venue
// is public as the store holds the venue now (placeEvents).
func (s *indexSync) putPosts(ctx context.Context, idx calendar.Index, posts []*calendar.Post) error {
	if err := placeEvents(ctx, s.store.Posts(), posts); err != nil {
		return err
	}
	if err := s.fields.forIndex(ctx, posts); err != nil {
		return err
	}
	return idx.PutPosts(ctx, posts)
}

// placeEventsOf indexes again, as the store holds them, the events that
// idx holds placed elsewhere than where each venue among posts now is public:
// a venue hidden, moved or shown again, and an event indexed while its
// venue changed (its write read the venue before, on this replica or
// another). Every catch-up does it for the venues it applies, so it holds on
// every replica; the caller holds the gate exclusively, so no event write is
// between its venue read and its index write meanwhile.
func (s *indexSync) placeEventsOf(ctx context.Context, idx calendar.Index, posts []*calendar.Post) error {
	for _, v := range posts {
		if v.Type != calendar.PostTypeVenue {
			continue
		}
		at := calendar.PositionKey(calendar.PublicPosition(v))
		q := calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: calendar.PostStatuses, Reader: calendar.ReadEverything,
			Venues: []int64{v.ID}, NotPlacedAt: &at, Limit: placeBatch}
		var ids []int64
		for { // every one first: placing them changes what the query finds
			found, err := idx.SearchPosts(ctx, q)
			if err != nil {
				return err
			}
			ids = append(ids, found.IDs...)
			if len(found.IDs) < q.Limit {
				break
			}
			q.Offset += q.Limit
		}
		for start := 0; start < len(ids); start += placeBatch {
			events, err := s.store.Posts().GetMany(ctx, ids[start:min(start+placeBatch, len(ids))])
			if err != nil {
				return err
			}
			if err := s.putPosts(ctx, idx, events); err != nil {
				return err
			}
		}
	}
	return nil
}

// placeBatch is how many events placeEventsOf finds and indexes at a time.
const placeBatch = 1000

// unguarded is the gate of an index nothing else writes: a successor
// being built, or one whose writers the caller holds off already.
type unguarded struct{}

func (unguarded) Lock()   {}
func (unguarded) Unlock() {}

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

// Sync catches up on an interval until ctx ends, first replacing an index
// found to be of another store state (replaceIfOfAnotherStore); onError
// hears each failure.
func (a *App) Sync(ctx context.Context, interval time.Duration, onError func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := a.replaceIfOfAnotherStore(ctx); err != nil && !errors.Is(err, context.Canceled) {
				onError(err)
			}
			if _, err := a.CatchUp(ctx); err != nil && !errors.Is(err, context.Canceled) {
				onError(err)
			}
		}
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
