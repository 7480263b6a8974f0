package app

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"calendar/app/calendar"
)

// Why a rebuild runs (ReindexStatus.Reason).
const (
	ReindexRequested      = "requested"       // an administrator asked for it
	ReindexMappingVersion = "mapping_version" // the live index is of an older mapping version, which still serves
	ReindexLanguages      = "languages"       // the live index stems in other languages than the service's, and serves
	ReindexNoIndex        = "no_index"        // there was no index this release serves for the store: built in place
	// ReindexStoreRestored: the live index was found, while it served, to be
	// of another state of the store (restored under it): it answers nothing
	// while its successor is built beside it.
	ReindexStoreRestored = "store_restored"
)

// A rebuild's states (ReindexStatus.State).
const (
	ReindexIdle       = "idle" // none since the service started
	ReindexBuilding   = "building"
	ReindexCatchingUp = "catching_up" // applying the writes made since the scan began
	ReindexDone       = "done"
	ReindexFailed     = "failed"
)

// ReindexStatus is how the last rebuild of the index since the service
// started goes, or went.
type ReindexStatus struct {
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
	// Why says, in words, what made the rebuild run: what index was found
	// and what this release builds, or what the store and the index say.
	Why string `json:"why,omitempty"`
	// DocumentsDone of DocumentsTotal (posts and terms, counted when the
	// scan began) are in the new index; writes made meanwhile follow.
	DocumentsDone  int64 `json:"documents_done"`
	DocumentsTotal int64 `json:"documents_total"`
	// StartedAt and FinishedAt are UTC, as WordPress writes times.
	StartedAt  *string `json:"started_at"`
	FinishedAt *string `json:"finished_at"`
	Error      string  `json:"error,omitempty"`
}

// reindexer runs one rebuild of the index at a time and tells how it goes.
type reindexer struct {
	mu      sync.Mutex
	status  ReindexStatus
	running bool
	inPlace bool // the live index is being filled
	stopped bool
	// replacing: the live index cannot answer truly while the rebuild
	// runs (filled in place, or of another store state).
	replacing bool
	// partial: the live index is not whole (being replaced so, or such a
	// rebuild failed), so it answers nothing (wholeIndex), and readyz 503,
	// until a rebuild ends well. Read without the lock on every search;
	// written under it.
	partial atomic.Bool
	started time.Time // of the rebuild running, for the time it has left
	// cancel and done belong to a rebuild beside the live index, which
	// runs on its own goroutine.
	cancel context.CancelFunc
	done   chan struct{}
	// heard, when set, hears the status at each change (Settings.OnReindex).
	heard func(ReindexStatus)
}

func newReindexer(heard func(ReindexStatus)) *reindexer {
	return &reindexer{status: ReindexStatus{State: ReindexIdle}, heard: heard}
}

// begin marks a rebuild started, or says why none may start now. A rebuild
// beside the live index gives what stops it and what says it ended. From a
// rebuild in place, or one for a store restored under the live index, until
// one ends well, the live index answers nothing (wholeIndex).
func (r *reindexer) begin(reason, why string, inPlace bool, cancel context.CancelFunc, done chan struct{}) (ReindexStatus, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return r.status, calendar.NewError(calendar.KindUnavailable, "service_stopping", "The service is stopping.")
	}
	if r.running {
		return r.status, calendar.NewError(calendar.KindConflict, "reindex_running",
			"The index is being rebuilt already: GET this route shows how far it is.")
	}
	now := wordpressNow()
	r.status = ReindexStatus{State: ReindexBuilding, Reason: reason, Why: why, StartedAt: &now}
	r.running, r.inPlace, r.cancel, r.done, r.started = true, inPlace, cancel, done, time.Now()
	r.replacing = inPlace || reason == ReindexStoreRestored
	if r.replacing {
		r.partial.Store(true)
	}
	r.tell()
	return r.status, nil
}

// set changes the status of the rebuild running and returns it.
func (r *reindexer) set(change func(*ReindexStatus)) ReindexStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	change(&r.status)
	r.tell()
	return r.status
}

// end marks the rebuild finished, failed when err is not nil, and returns
// the documents it indexed.
func (r *reindexer) end(err error) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := wordpressNow()
	r.status.FinishedAt = &now
	r.status.State = ReindexDone
	if err != nil {
		r.status.State, r.status.Error = ReindexFailed, err.Error()
	} else {
		r.partial.Store(false) // filled in place, or a whole successor is live
	}
	r.running, r.inPlace, r.replacing = false, false, false
	r.tell()
	return r.status.DocumentsDone
}

func (r *reindexer) tell() {
	if r.heard != nil {
		r.heard(r.status)
	}
}

func (r *reindexer) now() (status ReindexStatus, running, inPlace bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status, r.running, r.inPlace
}

func wordpressNow() string { return time.Now().UTC().Format(wordpressTime) }

// Reindex starts, for an administrator, a rebuild of the index beside the
// live one (StartReindex), and answers its status as it starts.
func (a *App) Reindex(ctx context.Context, caller Caller) (ReindexStatus, error) {
	if !caller.Can(calendar.CapManageOptions) {
		return ReindexStatus{}, calendar.ErrForbidden(caller.User)
	}
	return a.StartReindex(ReindexRequested, "an administrator asked for it")
}

// ReindexStatus tells an administrator how the last rebuild goes or went.
func (a *App) ReindexStatus(ctx context.Context, caller Caller) (ReindexStatus, error) {
	if !caller.Can(calendar.CapManageOptions) {
		return ReindexStatus{}, calendar.ErrForbidden(caller.User)
	}
	st, _, _ := a.reindex.now()
	return st, nil
}

// StartReindex builds a new index beside the live one, on a goroutine of
// its own, while the live one serves every read and takes every write: the
// new one is filled from the store, follows the writes made meanwhile on
// the store's change feed, and is then made the live one at once; the old
// one is removed once the searches running on it end. The service stays
// ready throughout (but for a store restored under the live index: see
// begin). A conflict while another rebuild runs. why says, in words, what
// made it run (ReindexStatus.Why).
func (a *App) StartReindex(reason, why string) (ReindexStatus, error) {
	rebuildable, ok := a.index.(calendar.Rebuildable)
	if !ok {
		return ReindexStatus{}, calendar.NewError(calendar.KindNotImplemented, "reindex_not_supported",
			"This index cannot be rebuilt beside itself.")
	}
	r := a.reindex
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	st, err := r.begin(reason, why, false, cancel, done)
	if err != nil {
		cancel()
		return st, err
	}
	go func() {
		defer close(done)
		defer cancel()
		r.end(a.buildBeside(ctx, rebuildable))
		a.Fields.kick() // the upkeep paused for the rebuild; the new index records the declarations its fill read
	}()
	return st, nil
}

// Stop ends a rebuild running beside the live index (its index is
// discarded), waits for it, and refuses later ones: the service is stopping.
func (a *App) Stop() {
	a.Imports.Stop()
	r := a.reindex
	r.mu.Lock()
	r.stopped = true
	cancel, done := r.cancel, r.done
	r.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// Catch-up passes before the successor is swapped in: the last pass holds
// every write of the service back, so it should have little left to do.
const (
	quietPass     = 1000 // changes: few enough for the last pass
	catchUpPasses = 8    // at most, before the last one anyway
)

// buildBeside fills a successor of the live index from the store on one
// core fewer than the machine has (the live one serves on the other), with
// at most one batch per worker in memory, catches it up on the feed, and
// swaps it in. On any failure the successor is discarded and the live
// index serves on.
func (a *App) buildBeside(ctx context.Context, live calendar.Rebuildable) (err error) {
	next, err := live.Successor()
	if err != nil {
		return err
	}
	promoted := false
	defer func() {
		if !promoted {
			err = errors.Join(err, next.Discard())
		}
	}()
	last, err := a.fill(ctx, next, max(runtime.GOMAXPROCS(0)-1, 1), a.settings.ReindexPace, nil)
	if err != nil {
		return err
	}
	cur := cursorAt(last)
	if err := next.SetAppliedSeq(ctx, last); err != nil {
		return err
	}
	a.reindex.set(func(st *ReindexStatus) { st.State = ReindexCatchingUp })
	s := a.sync
	for pass := 0; pass < catchUpPasses; pass++ {
		n, err := s.follow(ctx, next, &cur, unguarded{})
		if err != nil {
			return err
		}
		if n < quietPass {
			break
		}
	}
	// What a crash leaves must name a complete index: the bulk on disk
	// first, while the service writes on.
	if err := next.Flush(); err != nil {
		return fmt.Errorf("writing the new index to disk: %w", err)
	}
	retire, err := a.swapIn(ctx, next, &cur)
	if err != nil {
		return err
	}
	promoted = true
	a.compact()
	if err := retire(); err != nil {
		return fmt.Errorf("the new index is live; removing the old one: %w", err)
	}
	return nil
}

// swapIn applies the last changes to the successor and makes it the live
// index, with every catch-up of the live index and every write between the
// store and the index held back: a write acknowledged before is in the new
// index, one after goes to it. The live index's feed cursor becomes the
// successor's.
func (a *App) swapIn(ctx context.Context, next calendar.Successor, cur *feedCursor) (retire func() error, err error) {
	s := a.sync
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gate.Lock()
	defer s.gate.Unlock()
	if _, err := s.follow(ctx, next, cur, unguarded{}); err != nil {
		return nil, err
	}
	if retire, err = next.Promote(); err != nil {
		return nil, err
	}
	s.cursor = *cur
	return retire, nil
}

// rebuildState is what readyz says while the live index is not whole (being
// filled in place, or such a fill failed), nil otherwise: a rebuild beside
// it leaves the service ready.
func (a *App) rebuildState() error {
	if err := a.reindex.notWhole(); err != nil {
		return err.Cause
	}
	return nil
}
