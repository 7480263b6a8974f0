package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"calendar/app"
)

// rebuild fills the index from the store, logging progress (count, rate, time
// left) every few seconds, and drawing a progress line on bar when not nil.
func rebuild(ctx context.Context, a *app.App, logger *slog.Logger, bar io.Writer) error {
	start := time.Now()
	lastLog := start
	logger.Info("building the index from the store")
	n, err := a.Rebuild(ctx, func(done, total int64) {
		elapsed := time.Since(start)
		rate := float64(done) / max(elapsed.Seconds(), 0.001)
		left := time.Duration(float64(total-done)/max(rate, 1)) * time.Second
		if bar != nil {
			fmt.Fprintf(bar, "\r%s %d/%d documents, %.0f/s, %s left   ", progressBar(done, total), done, total, rate, left.Round(time.Second))
		}
		if time.Since(lastLog) >= 5*time.Second || done == total {
			lastLog = time.Now()
			logger.Info("indexing", "done", done, "total", total, "per_second", int(rate), "left", left.Round(time.Second).String())
		}
	})
	if bar != nil {
		fmt.Fprintln(bar)
	}
	if err != nil {
		return err
	}
	logger.Info("built the index from the store", "documents", n, "took", time.Since(start).Round(time.Millisecond).String())
	return nil
}

func progressBar(done, total int64) string {
	const width = 30
	filled := width
	if total > 0 {
		filled = int(done * width / total)
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
