package main

import (
	"context"
	"log/slog"
	"time"

	"calendar/app"
)

// sideloadTimeout bounds one fetch of a foreign image.
const sideloadTimeout = 15 * time.Second

// housekeeping runs at start and then every hour: it removes what
// unfinished uploads left (a crash mid-upload), the change feed's deletes
// older than its retention, and makes the occurrences of series that time
// brought within their horizon. The embedded store has one
// process: what was unfinished before this one started will never be
// finished. Replicas of a MongoDB store may be writing theirs: only what is
// older than app.SweepGrace goes.
func housekeeping(ctx context.Context, a *app.App, logger *slog.Logger, backend string, started time.Time) {
	before := started.Add(-app.SweepGrace)
	if backend == "embedded" {
		before = started
	}
	for first := true; ; first = false {
		records, files, err := a.Media.Sweep(ctx, before)
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Warn("sweeping unfinished uploads failed", "error", err)
		case err == nil && (first || records+files > 0): // the first says the start's sweep is done
			logger.Info("swept unfinished uploads", "records", records, "files", files)
		}
		if horizon, err := a.PruneChanges(ctx); err != nil && ctx.Err() == nil {
			logger.Warn("pruning the change feed's old deletes failed", "error", err)
		} else if err == nil && first {
			logger.Info("the change feed keeps deletes after its horizon", "horizon", horizon)
		}
		extended, err := a.Events.ExtendSeries(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Warn("extending series failed", "error", err)
		case err == nil && extended > 0:
			logger.Info("extended series", "series", extended)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Hour):
		}
		before = time.Now().Add(-app.SweepGrace)
	}
}
