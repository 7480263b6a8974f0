package app

import (
	"context"
	"errors"
	"time"

	"calendar/app/calendar"
)

// Scheduled runs: each replica looks for due sources every importPoll and
// begins their runs; a run takes the source's lease first (begin), so one
// replica alone runs it, and what is due is kept on the source (Next), so
// a restart loses nothing: a run the stopping process cut short leaves its
// source due, and a due source is checked again as its run is taken, so a
// replica that read it before another ran it does not run it twice. A source that fails backs off (backoff) without
// holding up the others: each run is its own.

// importPoll is how often the scheduler looks for due sources.
const importPoll = 30 * time.Second

// Schedule runs due sources until ctx ends.
func (s *Imports) Schedule(ctx context.Context) {
	tick := time.NewTicker(importPoll)
	defer tick.Stop()
	for {
		if _, err := s.RunDue(ctx); err != nil && ctx.Err() == nil {
			s.logf("imports: looking for due sources: %v", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// RunDue begins the runs of the active scheduled sources that are due and
// not running, and answers how many it began.
func (s *Imports) RunDue(ctx context.Context) (int, error) {
	now := s.now().UTC()
	var due []*calendar.ImportSource
	err := s.each(ctx, func(src *calendar.ImportSource) {
		if isDue(src, now) {
			due = append(due, src)
		}
	})
	if err != nil {
		return 0, err
	}
	began := 0
	for _, src := range due {
		_, err := s.begin(ctx, src, TriggerScheduled)
		switch {
		case err == nil:
			began++
		case errors.Is(err, calendar.ErrNotFound) || errors.Is(err, errImportNotDue) ||
			calendar.AsError(err).Code == "rest_import_running" || calendar.AsError(err).Code == "rest_import_invalid_id":
			// deleted, or begun (or run to its end) by another replica meanwhile
		default:
			return began, err
		}
	}
	return began, nil
}

// isDue: an active scheduled source whose time has come, which no live run
// holds.
func isDue(src *calendar.ImportSource, now time.Time) bool {
	return src.Active && src.Schedule != "manual" && !now.Before(src.Next) && (src.Running == nil || !leaseLive(src.Lease))
}

// errImportNotDue: a scheduled run found its source no longer due when it
// came to take it (another replica ran it since the source was read).
var errImportNotDue = errors.New("the source is not due")

func (s *Imports) logf(format string, args ...any) {
	if s.settings.Log != nil {
		s.settings.Log(format, args...)
	}
}
