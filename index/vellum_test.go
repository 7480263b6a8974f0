package index

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"runtime"
	"testing"

	"calendar/app/calendar"
	"github.com/blevesearch/vellum"
)

// TestADictionaryBuilderClearsASmallRegistry: bleve builds every field's
// dictionary with vellum's default options, whose registry of frozen nodes
// is cleared for each field of each segment; the index makes it
// vellumRegistryBuckets × 2 cells of 16 bytes (32 KiB), not vellum's
// 10,000 × 2 (320 KiB), which a builder allocates whole.
func TestADictionaryBuilderClearsASmallRegistry(t *testing.T) {
	// The process's allocations are counted, other goroutines' too (an
	// index's merger): the least of a few tries is the builder's.
	least := uint64(math.MaxUint64)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var buf bytes.Buffer
		if _, err := vellum.New(&buf, nil); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	if most := uint64(64 << 10); least > most {
		t.Errorf("a dictionary builder allocates %d bytes, more than %d: vellum's default registry is not the index's", least, most)
	}
}

// BenchmarkAWriteOfOneEvent is the index's part of a write: one event put
// into an index of 10,000, the merges it causes included (cpu-ns/op is the
// process's CPU, the merger's goroutines too).
func BenchmarkAWriteOfOneEvent(b *testing.B) {
	idx, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	ctx := context.Background()
	if err := idx.PutPosts(ctx, tenThousandEvents()); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	before, id := cpuTime(b), int64(10_000)
	for b.Loop() {
		id++
		p := seriesEvent(id, 0, int(id*7919%730), id%20+1, id%7+1)
		p.Content = fmt.Sprintf("<p>An evening of chamber music, number %d, with a talk before the concert.</p>", id)
		p.Venue, p.Organizers, p.Tags = id%200+20_000, []int64{id%50 + 30_000}, []int64{id%100 + 40_000}
		if err := idx.PutPosts(ctx, []*calendar.Post{p}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-before)/float64(b.N), "cpu-ns/op")
}
