package index

import (
	"context"
	"syscall"
	"testing"
	"time"

	"calendar/app/calendar"
)

// BenchmarkEachSeriesOnce lists each series once (the first page of ten and
// its total, then with the categories' counts; every event for reference)
// over 10,000 single events and either one series of 1,000 daily
// occurrences or one single event more: the series should cost what the
// single event costs.
func BenchmarkEachSeriesOnce(b *testing.B) {
	for _, c := range []struct {
		name  string
		extra func() []*calendar.Post
	}{
		{"one single event", func() []*calendar.Post { return []*calendar.Post{seriesEvent(50_000, 0, 1, 1)} }},
		{"one series of 1,000 occurrences", func() []*calendar.Post {
			var posts []*calendar.Post
			for n := range 1000 {
				posts = append(posts, seriesEvent(50_000+int64(n), 50_000, 1+n, 1))
			}
			return posts
		}},
	} {
		idx, err := Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		if err := idx.PutPosts(ctx, append(tenThousandEvents(), c.extra()...)); err != nil {
			b.Fatal(err)
		}
		if err := idx.current.Load().idx.persist(closeWait); err != nil { // on disk
			b.Fatal(err)
		}
		list := calendar.PostQuery{Type: calendar.PostTypeEvent, Order: calendar.OrderStart, Limit: 10, OncePerSeries: true,
			EndAfter: &calendar.Bound{T: seriesBase.Add(-time.Hour)}}
		faceted, every := list, list
		faceted.Facets, every.OncePerSeries = []string{calendar.FacetCategories}, false
		for _, q := range []struct {
			name string
			q    calendar.PostQuery
		}{{"each series once", list}, {"each series once with facets", faceted}, {"every event", every}} {
			b.Run(c.name+", "+q.name, func(b *testing.B) {
				b.ReportAllocs()
				before := cpuTime(b)
				for b.Loop() {
					if page, err := idx.SearchPosts(ctx, q.q); err != nil || len(page.IDs) != 10 {
						b.Fatal(page, err)
					}
				}
				// The process' CPU time, which a busy machine inflates less
				// than the time on the clock.
				b.ReportMetric(float64(cpuTime(b)-before)/float64(b.N), "cpu-ns/op")
			})
		}
		if err := idx.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// tenThousandEvents are single events over two years, in 20 categories.
func tenThousandEvents() []*calendar.Post {
	var posts []*calendar.Post
	for id := int64(1); id <= 10_000; id++ {
		posts = append(posts, seriesEvent(id, 0, int(id*7919%730), id%20+1))
	}
	return posts
}

// cpuTime is the CPU time the process has used, in nanoseconds.
func cpuTime(b *testing.B) int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
