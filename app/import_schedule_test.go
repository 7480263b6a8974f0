package app_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"calendar/app"
	"calendar/index"
)

// stallingFeed answers an empty calendar, but for its first stalls fetches,
// which wait for their run to end (a process stopping, a time limit) and
// answer why; began hears each fetch as it begins.
type stallingFeed struct {
	mu      sync.Mutex
	stalls  int
	fetches int
	began   chan struct{}
}

func (f *stallingFeed) FetchSource(ctx context.Context, _ string, _ app.FetchConditions, _ int64) (*app.Fetched, error) {
	f.mu.Lock()
	f.fetches++
	stall := f.fetches <= f.stalls
	f.mu.Unlock()
	if f.began != nil {
		f.began <- struct{}{}
	}
	if stall {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return &app.Fetched{Body: []byte("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")}, nil
}

// replica is another process of the service on the world's store (a
// restart, or a second replica), with the fetcher given.
func (w *world) replica(f app.ImportFetcher) *app.App {
	w.t.Helper()
	idx, err := index.Open(w.t.TempDir())
	w.must(err)
	a := app.New(w.store, idx, app.Settings{SiteURL: "http://x", Imports: app.ImportSettings{Fetcher: f}})
	w.t.Cleanup(func() { a.Imports.Stop(); idx.Close() })
	return a
}

// A run past the run's time limit is stopped there, and ends as a failure
// that says so.
func TestARunPastItsTimeLimitEndsWithItsError(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *app.Settings) {
		s.Imports.Fetcher = &stallingFeed{stalls: 1}
		s.Imports.Limits.Time = 50 * time.Millisecond
	})
	src, err := w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("ical"), URL: ptr(feedURL)})
	w.must(err)
	_, err = w.app.Imports.Run(w.ctx, w.admin(), src.ID)
	w.must(err)
	w.app.Imports.Wait()
	runs, err := w.app.Imports.Runs(w.ctx, w.admin(), src.ID)
	w.must(err)
	if len(runs) != 1 || runs[0].Ended == nil || runs[0].Error != "the run went past its time limit of 50ms" {
		t.Fatalf("runs: %+v", runs)
	}
	if v, _ := w.app.Imports.Get(w.ctx, w.admin(), src.ID); v.Running || v.Failures != 1 {
		t.Errorf("the source after its run: %+v", v)
	}
}

// An hourly source due when its process stops mid-run is run once after the
// restart: not never (the cut run leaves it due, in the store) and not
// twice (two replicas on the store take turns under its lease, and a
// replica that read it as due before the other ran it finds it no longer
// due).
func TestAScheduledRunDueAcrossARestartHappensOnce(t *testing.T) {
	t.Parallel()
	first := &stallingFeed{stalls: 1, began: make(chan struct{}, 1)}
	w := newWorld(t, func(s *app.Settings) { s.Imports.Fetcher = first })
	created, err := w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("ical"), URL: ptr(feedURL), Schedule: ptr("hourly")})
	w.must(err)
	if began, err := w.app.Imports.RunDue(w.ctx); err != nil || began != 1 {
		t.Fatalf("the first process began %d runs: %v", began, err)
	}
	<-first.began
	w.app.Imports.Stop() // the process stops mid-run
	stored, err := w.store.Imports().Get(w.ctx, created.ID)
	w.must(err)
	if stored.Running != nil || stored.Failures != 0 || len(stored.Runs) != 1 || stored.Runs[0].Error != "the process running it stopped" ||
		time.Now().Before(stored.Next) {
		t.Fatalf("after the stop: running %v, failures %d, runs %+v, next %s", stored.Running, stored.Failures, stored.Runs, stored.Next)
	}

	feed := &stallingFeed{}
	restarted, other := w.replica(feed), w.replica(feed)
	var wg sync.WaitGroup
	began := make([]int, 2)
	for i, a := range []*app.App{restarted, other} { // both look for due sources at once, as their schedulers start
		wg.Go(func() {
			n, err := a.Imports.RunDue(w.ctx)
			if err != nil {
				t.Error(err)
			}
			began[i] = n
		})
	}
	wg.Wait()
	restarted.Imports.Wait()
	other.Imports.Wait()
	if began[0]+began[1] != 1 || feed.fetches != 1 {
		t.Fatalf("after the restart: %v runs began, %d fetches; want one", began, feed.fetches)
	}
	if err := other.Imports.BeginScheduled(w.ctx, stored); err == nil { // read as due before the run
		t.Error("a replica holding the source as it was read before the run ran it again")
	}
	for _, a := range []*app.App{restarted, other} {
		if n, err := a.Imports.RunDue(w.ctx); err != nil || n != 0 {
			t.Errorf("began %d runs again: %v", n, err)
		}
		a.Imports.Wait()
	}
	runs, err := restarted.Imports.Runs(w.ctx, w.admin(), created.ID)
	w.must(err)
	if len(runs) != 2 || runs[0].Error != "" || runs[0].Trigger != app.TriggerScheduled || runs[0].Ended == nil || feed.fetches != 1 {
		t.Errorf("runs %+v, %d fetches", runs, feed.fetches)
	}
}
