package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"calendar/app"
)

// rebuild fills the index from the store in place (fill: from
// app.BeginRebuild), logging why it runs (why: the attributes of its first
// line), then its progress (count, rate, time left) every few seconds, and
// drawing a progress line on bar when not nil.
func rebuild(ctx context.Context, fill func(context.Context, func(done, total int64)) (int64, error), logger *slog.Logger, bar io.Writer, why ...any) error {
	progress := newProgressLog(logger, bar)
	logger.Info("building the index from the store in place: until it is whole, readyz and what needs the index answer 503", why...)
	n, err := fill(ctx, progress.heard)
	if bar != nil {
		fmt.Fprintln(bar)
	}
	if err != nil {
		return err
	}
	logger.Info("built the index from the store", "documents", n, "took", time.Since(progress.start).Round(time.Millisecond).String())
	return nil
}

// logReindex logs a rebuild beside the live index (an administrator's, a
// new mapping version's, or one for a store restored under the live index):
// when it starts (why, and from the live index's version, as from says it,
// to this release's, to), its progress every few seconds, and how it ends.
// rebuild logs one in place.
func logReindex(logger *slog.Logger, from func() int, to int) func(app.ReindexStatus) {
	var progress *progressLog
	state := app.ReindexIdle
	return func(st app.ReindexStatus) { // one at a time: the app tells under its lock
		if st.Reason == app.ReindexNoIndex {
			return
		}
		changed := st.State != state
		state = st.State
		switch {
		case changed && st.State == app.ReindexBuilding:
			progress = newProgressLog(logger, nil)
			starts := "building a new index beside the live one, which serves meanwhile"
			if st.Reason == app.ReindexStoreRestored {
				starts = "building a new index beside the live one, which is of another store state: until the new one is live, readyz and what needs the index answer 503"
			}
			logger.Info(starts, "reason", st.Reason, "why", st.Why, "from_version", from(), "to_version", to)
		case changed && st.State == app.ReindexCatchingUp:
			logger.Info("new index filled: applying the writes made meanwhile", "documents", st.DocumentsDone)
		case changed && st.State == app.ReindexDone:
			logger.Info("the new index is live; the old one is removed", "documents", st.DocumentsDone,
				"took", time.Since(progress.start).Round(time.Millisecond).String())
		case changed && st.State == app.ReindexFailed:
			logger.Error("building a new index failed: the old one serves on", "error", st.Error)
		case st.State == app.ReindexBuilding:
			progress.heard(st.DocumentsDone, st.DocumentsTotal)
		}
	}
}

// progressLog logs a rebuild's progress every few seconds, and draws it on
// bar when not nil.
type progressLog struct {
	logger         *slog.Logger
	bar            io.Writer
	start, lastLog time.Time
}

func newProgressLog(logger *slog.Logger, bar io.Writer) *progressLog {
	now := time.Now()
	return &progressLog{logger: logger, bar: bar, start: now, lastLog: now}
}

func (p *progressLog) heard(done, total int64) {
	elapsed := time.Since(p.start)
	rate := float64(done) / max(elapsed.Seconds(), 0.001)
	left := time.Duration(float64(max(total-done, 0))/max(rate, 1)) * time.Second
	if p.bar != nil {
		fmt.Fprintf(p.bar, "\r%s %d/%d documents, %.0f/s, %s left   ", progressBar(done, total), done, total, rate, left.Round(time.Second))
	}
	if time.Since(p.lastLog) >= 5*time.Second || done == total {
		p.lastLog = time.Now()
		p.logger.Info("indexing", "done", done, "total", total, "per_second", int(rate), "left", left.Round(time.Second).String())
	}
}

func progressBar(done, total int64) string {
	const width = 30
	filled := width
	if total > 0 {
		filled = min(int(done*width/total), width)
	}
	bar := make([]byte, width)
	for i := range bar {
		bar[i] = '.'
		if i < filled {
			bar[i] = '#'
		}
	}
	return "[" + string(bar) + "]"
}
