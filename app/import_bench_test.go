package app_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"calendar/app"
	"calendar/index"
	"calendar/repository/bolt"
)

// BenchmarkImportFeed imports an iCalendar feed of 10,000 events (each at
// one of 50 venues, in 3 categories, with a description) into an empty
// site, then runs the same source again with the feed unchanged but for
// its ETag (so the feed is fetched and read again, and nothing written).
// It reports each run's time and the peak of the heap in use, sampled
// every millisecond.
//
//	go test ./app -run '^$' -bench BenchmarkImportFeed -benchtime 1x
func BenchmarkImportFeed(b *testing.B) {
	const events = 10_000
	ctx := context.Background()
	dir := b.TempDir()
	store, err := bolt.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close(ctx)
	idx, err := index.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	f := &feeds{}
	a := app.New(store, idx, app.Settings{SiteURL: "http://x", Imports: app.ImportSettings{Fetcher: f}})
	defer a.Stop()
	if _, err := a.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		b.Fatal(err)
	}
	admin, err := a.Users.Authenticate(ctx, "", "admin", "a long enough password")
	if err != nil {
		b.Fatal(err)
	}
	caller := app.Caller{User: admin}
	var feed strings.Builder
	feed.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n")
	start := time.Date(2027, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := range events {
		at := start.Add(time.Duration(i) * 3 * time.Hour)
		fmt.Fprintf(&feed, "BEGIN:VEVENT\r\nUID:bench-%d@example.org\r\nDTSTART:%s\r\nDTEND:%s\r\nSUMMARY:Event %d\r\n"+
			"DESCRIPTION:A description of event %d\\, long enough to be a paragraph of text.\r\nLOCATION:Hall %d\\, %d Main Street\\, Springfield\r\n"+
			"CATEGORIES:Kind %d\r\nSEQUENCE:0\r\nEND:VEVENT\r\n", i, at.Format("20060102T150405Z"), at.Add(time.Hour).Format("20060102T150405Z"), i, i, i%50, i%50, i%3)
	}
	feed.WriteString("END:VCALENDAR\r\n")
	const url = "https://bench.example.org/feed.ics"
	f.set(url, feed.String())
	src, err := a.Imports.Create(ctx, caller, app.ImportInput{Kind: ptr("ical"), URL: ptr(url), Status: ptr("publish")})
	if err != nil {
		b.Fatal(err)
	}
	run := func(name string) {
		var peak atomic.Uint64
		done := make(chan struct{})
		var sampled sync.WaitGroup
		sampled.Add(1)
		go func() {
			defer sampled.Done()
			var m runtime.MemStats
			for {
				runtime.ReadMemStats(&m)
				if m.HeapInuse > peak.Load() {
					peak.Store(m.HeapInuse)
				}
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond):
				}
			}
		}()
		began := time.Now()
		if _, err := a.Imports.Run(ctx, caller, src.ID); err != nil {
			b.Fatal(err)
		}
		a.Imports.Wait()
		took := time.Since(began)
		close(done)
		sampled.Wait()
		runs, _ := a.Imports.Runs(ctx, caller, src.ID)
		if runs[0].Error != "" {
			b.Fatal(runs[0].Error)
		}
		b.ReportMetric(took.Seconds(), name+"-s")
		b.ReportMetric(float64(peak.Load())/(1<<20), name+"-peak-heap-MiB")
		b.Logf("%s run: %s, peak heap %.0f MiB, counts %v", name, took.Round(time.Millisecond), float64(peak.Load())/(1<<20), runs[0].Counts)
	}
	for b.Loop() {
		run("first")
		f.set(url, feed.String()+"\r\n") // another ETag: fetched and read again
		run("unchanged")
	}
}
