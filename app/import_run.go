package app

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"calendar/app/calendar"
)

// A run of a source: at most one at a time per source, on one replica or
// several (the source's Running field and its lease, written by
// compare-and-swap as a webhook's is); its outcome kept on the source, the
// latest maxImportRunsKept runs.

// Triggers of a run.
const (
	TriggerManual    = "manual"
	TriggerScheduled = "scheduled"
)

func errImportRunning() *calendar.Error {
	return calendar.NewError(calendar.KindConflict, "rest_import_running", "The source is being imported already; wait for its run to end.")
}

// Run starts a run of a source now and answers it as begun (its outcome is
// on the source's runs once it ends); 409 while another runs.
func (s *Imports) Run(ctx context.Context, caller Caller, id int64) (*ImportRunView, error) {
	src, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	run, err := s.begin(ctx, src, TriggerManual)
	if err != nil {
		return nil, err
	}
	v := runView(*run)
	return &v, nil
}

// Runs answers a source's latest runs, newest first (one under way first).
func (s *Imports) Runs(ctx context.Context, caller Caller, id int64) ([]ImportRunView, error) {
	src, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	out := []ImportRunView{}
	if src.Running != nil {
		out = append(out, runView(*src.Running))
	}
	for _, r := range src.Runs {
		out = append(out, runView(r))
	}
	return out, nil
}

// begin marks the source as running under this process' lease and starts
// the run in the background.
func (s *Imports) begin(ctx context.Context, src *calendar.ImportSource, trigger string) (*calendar.ImportRun, error) {
	token := newLeaseToken()
	var run calendar.ImportRun
	err := s.editImport(ctx, src, Precondition{}, func(cur *calendar.ImportSource) error {
		if cur.Running != nil && leaseLive(cur.Lease) {
			return errImportRunning()
		}
		if trigger == TriggerScheduled && !isDue(cur, s.now().UTC()) {
			return errImportNotDue
		}
		if cur.Running != nil { // a run whose replica stopped: it ended there
			stopped := *cur.Running
			stopped.Ended, stopped.Error = s.now().UTC(), errRunStopped
			cur.Runs = keepRun(cur.Runs, stopped)
		}
		var last int64
		if len(cur.Runs) > 0 {
			last = cur.Runs[0].ID
		}
		run = calendar.ImportRun{ID: last + 1, Started: s.now().UTC(), Trigger: trigger, Counts: map[string]int{}}
		cur.Running, cur.Lease = &run, leaseFor(token)
		return nil
	})
	if err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithTimeout(s.base, s.settings.Limits.Time)
	s.mu.Lock()
	s.running[src.ID] = cancel
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		s.carry(runCtx, cancel, src.ID, token, run)
		s.mu.Lock()
		delete(s.running, src.ID)
		s.mu.Unlock()
	}()
	return &run, nil
}

// errRunStopped is the error of a run its process stopped before its end.
const errRunStopped = "the process running it stopped"

func keepRun(runs []calendar.ImportRun, r calendar.ImportRun) []calendar.ImportRun {
	runs = append([]calendar.ImportRun{r}, runs...)
	return runs[:min(len(runs), maxImportRunsKept)]
}

// cancelRun stops this process' run of a source, if any.
func (s *Imports) cancelRun(id int64) {
	s.mu.Lock()
	cancel := s.running[id]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Stop ends the runs under way and waits for them.
func (s *Imports) Stop() {
	s.stop()
	s.wg.Wait()
}

// Wait returns once no run of this process is under way (tests).
func (s *Imports) Wait() { s.wg.Wait() }

// carry does one run under its lease, renewed while it goes, and records
// how it went.
func (s *Imports) carry(ctx context.Context, cancel context.CancelFunc, id int64, token string, run calendar.ImportRun) {
	renewed := make(chan struct{})
	go func() { // the lease, renewed while the run goes; lost, the run stops
		defer close(renewed)
		tick := time.NewTicker(leaseTTL / 3)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			src := &calendar.ImportSource{ID: id}
			if err := s.reread(ctx, src); err != nil || s.keepLease(ctx, src, token) != nil {
				cancel()
				return
			}
		}
	}()
	src := &calendar.ImportSource{ID: id}
	err := s.reread(ctx, src)
	var result runResult
	var fetched *Fetched
	if err == nil {
		fetched, result, err = s.runOnce(ctx, src, true)
	}
	cancel()
	<-renewed
	run.Ended, run.Counts, run.Failed = s.now().UTC(), result.counts, result.failed
	stopped := err != nil && s.base.Err() != nil // this process stopping: the run is due again, wherever it runs next
	switch {
	case err == nil:
	case stopped:
		run.Error = errRunStopped
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		run.Error = fmt.Sprintf("the run went past its time limit of %s", s.settings.Limits.Time)
	default:
		run.Error = err.Error()
	}
	done := context.WithoutCancel(ctx)
	final := &calendar.ImportSource{ID: id}
	if s.reread(done, final) != nil {
		return // deleted meanwhile
	}
	_ = s.editImport(done, final, Precondition{}, func(cur *calendar.ImportSource) error {
		if cur.Lease == nil || cur.Lease.Holder != token {
			return errLeaseTaken
		}
		cur.Running, cur.Lease = nil, nil
		cur.Runs = keepRun(cur.Runs, run)
		now := s.now().UTC()
		if stopped {
			return nil // neither a failure nor a success: Next stands
		}
		if err != nil {
			cur.Failures++
			cur.Next = now.Add(backoff(cur.Schedule, cur.Failures))
			return nil
		}
		cur.Failures, cur.LastSuccess = 0, now
		cur.Next = now.Add(scheduleEvery(cur.Schedule))
		if fetched != nil && !fetched.NotModified {
			cur.ETag, cur.LastModified = fetched.ETag, fetched.LastModified
		}
		if cur.Kind == "csv" { // an uploaded file runs once
			cur.Active = false
		}
		return nil
	})
	s.count(id, run)
}

func (s *Imports) reread(ctx context.Context, src *calendar.ImportSource) error {
	cur, err := s.store.Imports().Get(ctx, src.ID)
	if err != nil {
		return err
	}
	*src = *cur
	return nil
}

// keepLease renews this run's lease on the source.
func (s *Imports) keepLease(ctx context.Context, src *calendar.ImportSource, token string) error {
	return s.editImport(ctx, src, Precondition{}, func(cur *calendar.ImportSource) error {
		if cur.Lease == nil || cur.Lease.Holder != token {
			return errLeaseTaken
		}
		cur.Lease = leaseFor(token)
		return nil
	})
}

// scheduleEvery is how often a schedule runs a source.
func scheduleEvery(schedule string) time.Duration {
	switch schedule {
	case "hourly":
		return time.Hour
	case "daily":
		return 24 * time.Hour
	case "weekly":
		return 7 * 24 * time.Hour
	}
	return 0
}

// maxImportBackoff bounds the pause of a source that keeps failing.
const maxImportBackoff = 7 * 24 * time.Hour

// backoff is the pause after failures in a row: the schedule's period,
// doubled after each failure, a week at most (a manual source: an hour,
// doubled so).
func backoff(schedule string, failures int) time.Duration {
	d := max(scheduleEvery(schedule), time.Hour)
	for i := 1; i < failures && d < maxImportBackoff; i++ {
		d *= 2
	}
	return min(d, maxImportBackoff)
}

// runResult is what a run did: counts by outcome, the failed items, and,
// for a preview, each item's outcome.
type runResult struct {
	counts map[string]int
	failed []calendar.ImportFailed
	items  []ImportPreviewItem
}

func (r *runResult) note(outcome string, it *importItem, reason string) {
	if r.counts == nil {
		r.counts = map[string]int{}
	}
	r.counts[outcome]++
	if outcome == OutcomeFailed && len(r.failed) < maxImportFailuresKept {
		r.failed = append(r.failed, calendar.ImportFailed{Key: it.Key, Title: it.Title, Reason: reason})
	}
	if r.items != nil && len(r.items) < maxPreviewItems {
		r.items = append(r.items, ImportPreviewItem{Key: it.Key, Title: it.Title, Start: it.Start, Outcome: outcome, Reason: reason})
	}
}

// runOnce fetches and reads a source and reconciles its items (written,
// or, for a preview, only judged).
func (s *Imports) runOnce(ctx context.Context, src *calendar.ImportSource, write bool) (*Fetched, runResult, error) {
	result := runResult{counts: map[string]int{}}
	if !write {
		result.items = []ImportPreviewItem{}
	}
	fetched, items, err := s.read(ctx, src, write)
	if err != nil || fetched != nil && fetched.NotModified {
		return fetched, result, err
	}
	author, err := s.store.Users().Get(ctx, src.Author)
	if err != nil {
		return fetched, result, fmt.Errorf("the source's author: %w", err)
	}
	r := &reconciler{Imports: s, src: src, caller: Caller{User: author}, write: write, result: &result,
		recovering: len(src.Runs) > 0 && src.Runs[0].Error != ""}
	err = r.reconcile(ctx, items)
	return fetched, result, err
}

// read fetches the source (conditionally, for a run) and reads its items.
func (s *Imports) read(ctx context.Context, src *calendar.ImportSource, conditional bool) (*Fetched, []importItem, error) {
	var data []byte
	var fetched *Fetched
	if src.URL != "" && s.settings.Fetcher == nil && !(src.Kind == "csv" && len(src.File) > 0) {
		return nil, nil, errors.New("this service fetches no source (no fetcher configured)")
	}
	if src.Kind == "rest" { // pages, each fetched in turn
		items, err := s.readRest(ctx, src)
		return nil, items, err
	}
	if src.URL != "" && !(src.Kind == "csv" && len(src.File) > 0) {
		cond := FetchConditions{Accept: acceptOf(src.Kind)}
		if conditional {
			cond.ETag, cond.LastModified = src.ETag, src.LastModified
		}
		f, err := s.settings.Fetcher.FetchSource(ctx, src.URL, cond, s.settings.Limits.FetchBytes)
		if err != nil {
			return nil, nil, err
		}
		if f.NotModified {
			return f, nil, nil
		}
		fetched, data = f, f.Body
	} else {
		data = src.File
	}
	items, err := s.itemsOf(ctx, src, data)
	return fetched, items, err
}

func acceptOf(kind string) string {
	switch kind {
	case "ical":
		return "text/calendar, */*;q=0.5"
	case "rest":
		return "application/json"
	case "jsonld":
		return "text/html, application/ld+json;q=0.9"
	case "csv":
		return "text/csv, */*;q=0.5"
	}
	return "*/*"
}

// itemsOf reads a source's content by its kind.
func (s *Imports) itemsOf(ctx context.Context, src *calendar.ImportSource, data []byte) ([]importItem, error) {
	switch src.Kind {
	case "ical":
		return readICalItems(data, s.site, s.settings.Limits)
	case "jsonld":
		return readJSONLDItems(data, s.site, s.settings.Limits)
	case "csv":
		return readCSVItems(data, s.site, s.settings.Limits)
	}
	return nil, fmt.Errorf("sources of kind %s are not imported yet", src.Kind)
}

// ImportPreviewItem is an item of a preview: what a run would do with it.
type ImportPreviewItem struct {
	Key     string `json:"key"`
	Title   string `json:"title"`
	Start   string `json:"start_date"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
}

// ImportPreview is what a run of a source would do, nothing written.
type ImportPreview struct {
	Counts map[string]int      `json:"counts"`
	Items  []ImportPreviewItem `json:"items"`
	// Error is why a run would fail as a whole ("" when it would not): the
	// source unreachable or refused, unreadable, over its limits.
	Error string `json:"error"`
}

// maxPreviewItems bounds the items a preview lists.
const maxPreviewItems = 1000

// Preview reads a source as given (not stored) and answers what a run of it
// would do; nothing is written. An existing source's ID (previewing its
// next run against what it imported) may be given.
func (s *Imports) Preview(ctx context.Context, caller Caller, id int64, in ImportInput) (*ImportPreview, error) {
	if err := mayImport(caller); err != nil {
		return nil, err
	}
	src := &calendar.ImportSource{Author: caller.User.ID, Schedule: "manual", Status: calendar.StatusDraft, OnRemoved: "keep"}
	if id != 0 {
		stored, err := s.load(ctx, caller, id)
		if err != nil {
			return nil, err
		}
		src = cloneImport(stored)
	}
	if in.Kind == nil && id == 0 {
		return nil, calendar.ErrMissingParams([]string{"kind"})
	}
	if err := s.apply(ctx, caller, src, in); err != nil {
		return nil, err
	}
	if err := s.complete(src); err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithTimeout(ctx, s.settings.Limits.Time)
	defer cancel()
	_, result, err := s.runOnce(runCtx, src, false)
	out := &ImportPreview{Counts: map[string]int{}, Items: result.items}
	if err != nil { // what a run would end with
		out.Error = err.Error()
	}
	for _, o := range ImportOutcomes {
		out.Counts[o] = result.counts[o]
	}
	return out, nil
}

// sortedItems puts each series before the instances it overrides.
func sortedItems(items []importItem) []importItem {
	return slices.SortedStableFunc(slices.Values(items), func(a, b importItem) int {
		switch {
		case a.Series == "" && b.Series != "":
			return -1
		case a.Series != "" && b.Series == "":
			return 1
		}
		return 0
	})
}

// ImportMetric is one source's figures for /metrics, since this process
// started: items by outcome, runs by result, the last success's time.
type ImportMetric struct {
	Source      int64
	Items       map[string]int64
	Runs        map[string]int64 // ok, failed
	LastSuccess time.Time
}

// count adds an ended run to its source's figures.
func (s *Imports) count(id int64, run calendar.ImportRun) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.metrics == nil {
		s.metrics = map[int64]*ImportMetric{}
	}
	m := s.metrics[id]
	if m == nil {
		m = &ImportMetric{Source: id, Items: map[string]int64{}, Runs: map[string]int64{}}
		s.metrics[id] = m
	}
	for o, n := range run.Counts {
		m.Items[o] += int64(n)
	}
	if run.Error != "" {
		m.Runs["failed"]++
		return
	}
	m.Runs["ok"]++
	m.LastSuccess = run.Ended
}

// Metrics are every source's figures, by source.
func (s *Imports) Metrics() []ImportMetric {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ImportMetric, 0, len(s.metrics))
	for _, m := range s.metrics {
		c := *m
		c.Items, c.Runs = maps.Clone(m.Items), maps.Clone(m.Runs)
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b ImportMetric) int { return int(a.Source - b.Source) })
	return out
}
