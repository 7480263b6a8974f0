package app_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"calendar/app"
	"calendar/index"
	"calendar/repository"
	"calendar/repository/ferretdbtest"
)

// replica is one service process: its own index and clock over a shared
// MongoDB store.
type replica struct {
	app   *app.App
	clock *atomic.Int64
}

func newReplica(t *testing.T, store app.Store) *replica {
	t.Helper()
	idx, err := index.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	r := &replica{clock: &atomic.Int64{}}
	r.clock.Store(time.Now().Unix())
	r.app = app.New(store, idx, app.Settings{SiteURL: "http://x", Now: func() time.Time { return time.Unix(r.clock.Load(), 0) }})
	if _, err := r.app.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTwoReplicasExtendAnEndlessSeriesOnceAsTimePasses: an endless weekly
// series is made two years ahead; two months later both replicas extend it
// at the same moment, and every week has exactly one occurrence, up to two
// years from the new today.
func TestTwoReplicasExtendAnEndlessSeriesOnceAsTimePasses(t *testing.T) {
	ctx := context.Background()
	store, err := repository.OpenMongo(ctx, ferretdbtest.Start(t), "calendar")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(ctx)
	a := newReplica(t, store)
	if _, err := a.app.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		t.Fatal(err)
	}
	admin, err := a.app.Users.Authenticate(ctx, "", "admin", "a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	b := newReplica(t, store)
	caller := app.Caller{User: admin}
	title, start, end, zone := "Weekly", "next monday 18:00", "next monday 19:00", "Europe/Paris"
	created, err := a.app.Events.Create(ctx, caller, app.EventInput{PostFields: app.PostFields{Title: &title},
		StartDate: &start, EndDate: &end, Timezone: &zone, Recurrence: &[]string{"RRULE:FREQ=WEEKLY"}})
	if err != nil {
		t.Fatal(err)
	}
	weeks := func() map[int64]int {
		t.Helper()
		n := map[int64]int{}
		for after := int64(0); ; {
			posts, err := store.Posts().Scan(ctx, after, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if len(posts) == 0 {
				return n
			}
			for _, p := range posts {
				after = p.ID
				if p.Parent == created.ID {
					n[p.Occurrence.Unix()]++
				}
			}
		}
	}
	first := len(weeks())
	if first < 103 || first > 105 { // two years of weeks, the first one being the series
		t.Fatalf("%d occurrences made at first, want two years' worth", first)
	}

	later := time.Now().AddDate(0, 2, 0).Unix()
	a.clock.Store(later)
	b.clock.Store(later)
	if _, err := b.app.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, r := range []*replica{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if n, err := r.app.Events.ExtendSeries(ctx); err != nil || n != 1 {
				t.Errorf("ExtendSeries: %d series, %v", n, err)
			}
		}()
	}
	wg.Wait()
	got := weeks()
	last := time.Time{}
	for start, count := range got {
		if count != 1 {
			t.Fatalf("the week of %s has %d occurrences", time.Unix(start, 0), count)
		}
		if time.Unix(start, 0).After(last) {
			last = time.Unix(start, 0)
		}
	}
	if len(got) < first+8 || last.Before(time.Unix(later, 0).Add(app.SeriesHorizon-8*24*time.Hour)) {
		t.Fatalf("after two months: %d occurrences up to %s, want about %d up to two years from then", len(got), last, first+8)
	}
	if n, err := a.app.Events.ExtendSeries(ctx); err != nil || n != 0 {
		t.Fatalf("a second extension at the same time extended %d series (%v)", n, err)
	}
}

// TestAnHourlySeriesIsMadeOnlyAThousandAhead: the cap keeps a frequent
// rule from making two years of occurrences at once.
func TestAnHourlySeriesIsMadeOnlyAThousandAhead(t *testing.T) {
	w := newWorld(t)
	title, start, end := "Hourly", "tomorrow 10:00", "tomorrow 10:30"
	created, err := w.app.Events.Create(w.ctx, w.admin(), app.EventInput{PostFields: app.PostFields{Title: &title},
		StartDate: &start, EndDate: &end, Recurrence: &[]string{"RRULE:FREQ=HOURLY"}})
	w.must(err)
	page, err := w.app.Events.List(w.ctx, w.admin(), app.EventFilter{Parent: &created.ID, Page: app.PageRequest{PerPage: 1}})
	w.must(err)
	if page.Total != app.MaxOccurrencesAhead {
		t.Fatalf("%d occurrences made, want %d", page.Total, app.MaxOccurrencesAhead)
	}
}
