package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"calendar/app"
	"calendar/index"
)

// What answers while a rebuild runs, as its first log line says it
// (meanwhile): the old index, or nothing (503 with Retry-After, readyz
// included, until the new one is whole).
const (
	meanwhileNothing   = "503: readyz, lists, searches, feeds, counts and writes answer 503 with Retry-After until the new index is whole; the progress lines say how long is left"
	meanwhileOldIndex  = "the old index: it serves every read and takes every write until the new one is live, then they swap; readyz stays 200"
	meanwhileNoService = "nothing: the service is stopped while calendar reindex runs"
)

// rebuildLine is what the first log line of a rebuild says besides its
// message: its cause (an index.Cause*, or app.ReindexRequested), why in
// words, from which mapping version and languages to which ("none": no
// language; from_version 0: no index), and what answers meanwhile.
func rebuildLine(cause, why string, fromVersion, toVersion int, fromLanguages, toLanguages []string, meanwhile string) []any {
	return []any{"cause", cause, "why", why, "from_version", fromVersion, "to_version", toVersion,
		"from_languages", languageNames(fromLanguages), "to_languages", languageNames(toLanguages), "meanwhile", meanwhile}
}

func languageNames(languages []string) string {
	if len(languages) == 0 {
		return "none"
	}
	return strings.Join(languages, ",")
}

// rebuild fills the index from the store in place (fill: from
// app.BeginRebuild), logging why it runs (line: rebuildLine's attributes),
// then its progress (count, rate, time left) every few seconds, and drawing
// a progress line on bar when not nil.
func rebuild(ctx context.Context, fill func(context.Context, func(done, total int64)) (int64, error), logger *slog.Logger, bar io.Writer, line []any) error {
	progress := newProgressLog(logger, bar)
	logger.Info("building the index from the store in place: until it is whole, readyz and what needs the index answer 503", line...)
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
// new mapping version's or languages', or one for a store restored under
// the live index): when it starts (rebuildLine: from the live index's
// version and languages, as live says them, to the service's, to), its
// progress every few seconds, and how it ends. rebuild logs one in place.
func logReindex(logger *slog.Logger, live *index.Live, to index.Versions) func(app.ReindexStatus) {
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
			starts, meanwhile := "building a new index beside the live one, which serves meanwhile", meanwhileOldIndex
			if st.Reason == app.ReindexStoreRestored {
				starts, meanwhile = "building a new index beside the live one, which is of another store state: until the new one is live, readyz and what needs the index answer 503", meanwhileNothing
			}
			logger.Info(starts, rebuildLine(st.Reason, st.Why, live.ServingVersion(), to.Mapping, live.ServingLanguages(), to.Languages, meanwhile)...)
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
