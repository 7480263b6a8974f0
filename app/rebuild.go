package app

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"calendar/app/calendar"
)

// Rebuild fills an empty live index from the store in place: every term
// and post, in batches on every core, then the checkpoint of the feed as it
// stood before the scan (what changes during the scan is caught up after).
// progress hears the count done and the total after each batch. The service
// answers readyz 503 meanwhile, and so does everything that needs the index
// (wholeIndex) until the fill ends well: this is for an index that was
// missing, that this release cannot serve, or of another store state; one
// that serves is rebuilt beside itself (StartReindex).
func (a *App) Rebuild(ctx context.Context, progress func(done, total int64)) (int64, error) {
	fill, err := a.BeginRebuild("rebuilt by hand, in place")
	if err != nil {
		return 0, err
	}
	return fill(ctx, progress)
}

// BeginRebuild is Rebuild in two steps: from its return, readyz and what
// needs the index answer 503 and no other rebuild starts (a service calls
// it before it serves); fill, run once, then does the work. why says what
// made it run (ReindexStatus.Why).
func (a *App) BeginRebuild(why string) (fill func(ctx context.Context, progress func(done, total int64)) (int64, error), err error) {
	if _, err := a.reindex.begin(ReindexNoIndex, why, true, nil, nil); err != nil {
		return nil, err
	}
	return a.rebuildInPlace, nil
}

func (a *App) rebuildInPlace(ctx context.Context, progress func(done, total int64)) (int64, error) {
	last, err := a.fill(ctx, a.index, runtime.GOMAXPROCS(0), a.settings.ReindexPace, progress)
	if err == nil {
		s := a.sync
		s.mu.Lock()
		s.cursor = cursorAt(last)
		s.mu.Unlock()
		err = a.index.SetAppliedSeq(ctx, last)
	}
	if err == nil {
		a.reindex.set(func(st *ReindexStatus) { st.State = ReindexCatchingUp })
		_, err = a.CatchUp(ctx)
	}
	if err == nil {
		a.compact()
	}
	defer a.Fields.kick() // a change the fill did not see
	return a.reindex.end(err), err
}

// compact has the live index merge what a fill left, while it serves.
func (a *App) compact() {
	if c, ok := a.index.(calendar.Compactable); ok {
		c.Compact()
	}
}

// fill indexes every term and post of the store into idx, in batches on
// workers goroutines (pace, when set, is called before each batch), and
// returns the store's last sequence as it stood before the scan: what
// changes after it is for the feed to bring.
func (a *App) fill(ctx context.Context, idx calendar.Index, workers int, pace func(context.Context), progress func(done, total int64)) (int64, error) {
	last, err := a.store.LastSeq(ctx)
	if err != nil {
		return 0, err
	}
	// The declarations as they are before the scan: a change during it is
	// a difference the upkeep of custom fields brings after (Fields.Run).
	declared, err := a.Fields.refresh(ctx)
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
	a.reindex.set(func(st *ReindexStatus) { st.DocumentsTotal = posts + terms })
	report := func(n int) {
		st := a.reindex.set(func(st *ReindexStatus) { st.DocumentsDone += int64(n) })
		if progress != nil {
			progress(st.DocumentsDone, st.DocumentsTotal)
		}
	}
	putTerms := idx.PutTerms
	putPosts := func(ctx context.Context, p []*calendar.Post) error { return a.sync.putPosts(ctx, idx, p) }
	if pace != nil {
		putTerms = func(ctx context.Context, t []*calendar.Term) error { pace(ctx); return idx.PutTerms(ctx, t) }
		putPosts = func(ctx context.Context, p []*calendar.Post) error { pace(ctx); return a.sync.putPosts(ctx, idx, p) }
	}
	if err := rebuildCollection(ctx, a.store.Terms(), putTerms, report, workers); err != nil {
		return 0, err
	}
	if err := rebuildCollection(ctx, a.store.Posts(), putPosts, report, workers); err != nil {
		return 0, err
	}
	return last, idx.SetFieldsIndexed(ctx, fieldsIndexedAs(declared))
}

// rebuildCollection scans the collection in ID order and indexes it in
// batches, one per worker at a time: building a batch's segment is the cost.
// Batches of 1,000 built 100k events in 32 CPU seconds, of 2,000 in 36, of
// 5,000 in 44 (larger segments cost more than their share to build, and
// their heap makes the collector work under its soft limit), of 500 in 34.
// At most one batch per worker and one being read are in memory.
func rebuildCollection[T calendar.Document](ctx context.Context, repo calendar.Repo[T], put func(context.Context, []T) error, report func(int), workers int) error {
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
	var running sync.WaitGroup
	for w := 0; w < max(workers, 1); w++ {
		running.Add(1)
		go func() {
			defer running.Done()
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
	running.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return ctx.Err()
	}
}

// IndexOfAnotherStore says why the index cannot be the store's, or "" when
// nothing says so: it has applied changes up to a sequence the store never
// handed out, so the store was restored from a backup (or replaced) under
// it. Such an index would answer for items the store no longer has and miss
// those it has again: it is not served, but built again in place (the
// index's checkpoint is read first, so a write meanwhile cannot make a true
// index look ahead). A store restored and then written past the checkpoint
// cannot be told so: the restore's procedure rebuilds the index.
func (a *App) IndexOfAnotherStore(ctx context.Context) (string, error) {
	applied, err := a.index.AppliedSeq(ctx)
	if err != nil {
		return "", err
	}
	last, err := a.store.LastSeq(ctx)
	if err != nil || applied <= last {
		return "", err
	}
	return fmt.Sprintf("the index has applied the store's changes up to sequence %d, but the store's last is %d: the store was restored (or replaced) under it", applied, last), nil
}

// CatchUpOnStop applies what the index has not yet applied, once the service
// takes no more writes, so that the checkpoint it leaves is the store's last
// sequence (its own writes move it only on the next pass): a store restored
// under it from an older backup is then told at the next start
// (IndexOfAnotherStore). An index that is not whole is left as it is, for the
// next start to build.
func (a *App) CatchUpOnStop(ctx context.Context) error {
	if a.reindex.partial.Load() {
		return nil
	}
	_, err := a.CatchUp(ctx)
	return err
}

// replaceIfOfAnotherStore starts, when the live index is found to be of
// another store state while the service runs (a mongorestore under it), a
// rebuild beside it: from then on it answers nothing (wholeIndex) until its
// successor, built from the store as it is now, is live. Nothing is started
// while a rebuild runs (its successor is checked again once live) or after
// one failed (the index answers nothing until someone rebuilds it).
func (a *App) replaceIfOfAnotherStore(ctx context.Context) error {
	if _, running, _ := a.reindex.now(); running || a.reindex.partial.Load() {
		return nil
	}
	why, err := a.IndexOfAnotherStore(ctx)
	if err != nil || why == "" {
		return err
	}
	_, err = a.StartReindex(ReindexStoreRestored, why)
	return err
}
