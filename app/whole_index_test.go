package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
)

// notWhole checks that err is the answer of what needs the index while it is
// not whole: unavailable, with that code and a Retry-After.
func notWhole(t *testing.T, what string, err error, code string) {
	t.Helper()
	var e *calendar.Error
	if !errors.As(err, &e) || e.Kind != calendar.KindUnavailable || e.Code != code || e.RetryAfter <= 0 {
		t.Errorf("%s: %v, want %s (unavailable, with a Retry-After)", what, err, code)
	}
}

// While the index is filled in place, nothing that needs it answers: not
// a list, a search, a feed, a count, nor an item that shows a count, nor a
// write (it would answer with counts, and the store would hold what the
// client was told failed). What the store alone answers, does. Once the fill
// ends well, all of it answers again.
func TestWhileTheIndexIsFilledInPlaceWhatNeedsItAnswersUnavailable(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	hall := w.venue("Hall", app.LinkedInput{})
	jazz := w.term(w.app.Categories, named("Jazz"))
	tagged := w.event("Tagged", "2030-06-01", app.EventInput{Categories: strs("Jazz"), Venue: &app.LinkRef{ID: hall.ID}})
	plain := w.event("Plain", "2030-06-02", app.EventInput{})
	posts := func() int64 { n, err := w.store.Posts().Count(w.ctx); w.must(err); return n }
	before := posts()

	fill, err := w.app.BeginRebuild("a test")
	w.must(err)
	needsIndex := map[string]error{
		"events":           get(w.app.Events.List(w.ctx, visitor, app.EventFilter{})),
		"a search":         get(w.app.Events.List(w.ctx, visitor, app.EventFilter{Search: ptr("Tagged")})),
		"the feed":         get(w.app.Events.Feed(w.ctx, visitor, app.EventFilter{})),
		"venues":           get(w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{})),
		"organizers":       get(w.app.Organizers.List(w.ctx, visitor, app.LinkedFilter{})),
		"categories":       get(w.app.Categories.List(w.ctx, visitor, app.TermFilter{})),
		"tags":             get(w.app.Tags.List(w.ctx, visitor, app.TermFilter{})),
		"media":            get(w.app.Media.List(w.ctx, visitor, app.MediaFilter{})),
		"a term (count)":   get(w.app.Categories.Get(w.ctx, visitor, jazz.ID)),
		"an event (count)": get(w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: tagged.ID}, "")),
		"a venue write":    get(w.app.Venues.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("Annex")}})),
		"an event write":   get(w.app.Events.Create(w.ctx, w.admin(), app.EventInput{PostFields: app.PostFields{Title: ptr("New")}, StartDate: ptr("2030-06-03 10:00:00"), EndDate: ptr("2030-06-03 11:00:00")})),
	}
	for what, err := range needsIndex {
		notWhole(t, what, err, "index_building")
	}
	if n := posts(); n != before {
		t.Errorf("the store holds %d posts, %d before: a refused write wrote", n, before)
	}
	if err := w.app.Ready(w.ctx); err == nil || !strings.Contains(err.Error(), "being rebuilt") {
		t.Errorf("readyz: %v", err)
	}
	for what, err := range map[string]error{
		"a venue":             get(w.app.Venues.Get(w.ctx, visitor, app.PostRef{ID: hall.ID}, "")),
		"an event, no counts": get(w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: plain.ID}, "")),
	} {
		if err != nil {
			t.Errorf("%s, which the store answers: %v", what, err)
		}
	}

	_, err = fill(w.ctx, nil)
	w.must(err)
	if got := w.titles(visitor, app.EventFilter{Dates: month("2030-06")}); got != "Tagged,Plain" {
		t.Fatalf("once whole, the events are %q", got)
	}
	w.must(w.app.Ready(w.ctx))
	w.must(get(w.app.Categories.Get(w.ctx, visitor, jazz.ID)))
	w.venue("Annex", app.LinkedInput{})
}

// A fill in place that fails leaves an index that is not whole: what needs
// it answers unavailable (and readyz 503) until a rebuild ends well, here one
// beside it.
func TestAFailedFillInPlaceAnswersNothingUntilARebuildEndsWell(t *testing.T) {
	t.Parallel()
	ended := make(chan app.ReindexStatus, 4)
	w := newWorld(t, func(s *app.Settings) {
		s.OnReindex = func(st app.ReindexStatus) {
			if st.State == app.ReindexDone || st.State == app.ReindexFailed {
				ended <- st
			}
		}
	})
	w.event("Concert", "2030-06-01", app.EventInput{})
	cancelled, cancel := context.WithCancel(w.ctx)
	cancel()
	if _, err := w.app.Rebuild(cancelled, nil); err == nil {
		t.Fatal("a fill with its context ended went well")
	}
	<-ended
	notWhole(t, "events after a failed fill", get(w.app.Events.List(w.ctx, visitor, app.EventFilter{})), "index_incomplete")
	if err := w.app.Ready(w.ctx); err == nil || !strings.Contains(err.Error(), "failed") {
		t.Errorf("readyz after a failed fill: %v", err)
	}
	_, err := w.app.Reindex(w.ctx, w.admin())
	w.must(err)
	if st := <-ended; st.State != app.ReindexDone {
		t.Fatalf("the rebuild beside: %+v", st)
	}
	if got := w.titles(visitor, app.EventFilter{Dates: month("2030-06")}); got != "Concert" {
		t.Fatalf("after the rebuild, the events are %q", got)
	}
	w.must(w.app.Ready(w.ctx))
}

// An index that has applied changes past the store's last sequence was not
// built from this store: the store was restored (or replaced) under it.
func TestAnIndexAheadOfItsStoreIsOfAnotherStore(t *testing.T) {
	t.Parallel()
	var live *index.Live
	w := newWorldWatched(t, func(idx *index.Live) calendar.Index { live = idx; return idx })
	w.event("Concert", "2030-06-01", app.EventInput{})
	_, err := w.app.CatchUp(w.ctx)
	w.must(err)
	if why, err := w.app.IndexOfAnotherStore(w.ctx); why != "" || err != nil {
		t.Fatalf("an index caught up with its store: %q, %v", why, err)
	}
	last, err := w.store.LastSeq(w.ctx)
	w.must(err)
	w.must(live.SetAppliedSeq(w.ctx, last+1))
	if why, err := w.app.IndexOfAnotherStore(w.ctx); !strings.Contains(why, "restored") || err != nil {
		t.Fatalf("an index ahead of its store: %q, %v", why, err)
	}
}

// An index found, while the service runs, to be of another store state (a
// mongorestore under a running replica) answers nothing from the next sync
// pass on, while its successor is built beside it from the store; then the
// successor answers, of this store.
func TestAnIndexFoundOfAnotherStoreWhileServingIsReplacedAndAnswersNothingMeanwhile(t *testing.T) {
	t.Parallel()
	var live *index.Live
	held, release, ended := make(chan struct{}), make(chan struct{}), make(chan app.ReindexStatus, 4)
	w := newWorldWatched(t, func(idx *index.Live) calendar.Index { live = idx; return idx }, func(s *app.Settings) {
		s.ReindexPace = func(ctx context.Context) {
			select {
			case <-held:
			default:
				close(held)
				<-release
			}
		}
		s.OnReindex = func(st app.ReindexStatus) {
			if st.State == app.ReindexDone || st.State == app.ReindexFailed {
				ended <- st
			}
		}
	})
	w.event("Concert", "2030-06-01", app.EventInput{})
	_, err := w.app.CatchUp(w.ctx)
	w.must(err)
	last, err := w.store.LastSeq(w.ctx)
	w.must(err)
	w.must(live.SetAppliedSeq(w.ctx, last+100)) // as after the store went back under it
	ctx, stop := context.WithCancel(w.ctx)
	synced := make(chan struct{})
	go func() {
		defer close(synced)
		w.app.Sync(ctx, 10*time.Millisecond, func(err error) { t.Errorf("sync: %v", err) })
	}()
	defer func() { stop(); <-synced }()
	select { // a hang detector: the binary's deadline, not a measure
	case <-held:
	case <-time.After(time.Until(deadlineOf(t))):
		t.Fatal("no rebuild started for an index of another store")
	}
	notWhole(t, "events while the index of another store is replaced", get(w.app.Events.List(w.ctx, visitor, app.EventFilter{})), "index_building")
	if err := w.app.Ready(w.ctx); err == nil {
		t.Error("ready while the index of another store is replaced")
	}
	st, err := w.app.ReindexStatus(w.ctx, w.admin())
	w.must(err)
	if st.Reason != app.ReindexStoreRestored || !strings.Contains(st.Why, "restored") {
		t.Errorf("the rebuild's status: %+v", st)
	}
	close(release)
	if st := <-ended; st.State != app.ReindexDone {
		t.Fatalf("the rebuild: %+v", st)
	}
	if got := w.titles(visitor, app.EventFilter{Dates: month("2030-06")}); got != "Concert" {
		t.Fatalf("after the rebuild, the events are %q", got)
	}
	w.must(w.app.Ready(w.ctx))
	if why, err := w.app.IndexOfAnotherStore(w.ctx); why != "" || err != nil {
		t.Fatalf("the new index: %q, %v", why, err)
	}
}

// deadlineOf is shortly before the test binary's deadline (ten minutes
// without one): how long a test waits for what must come.
func deadlineOf(t *testing.T) time.Time {
	if deadline, ok := t.Deadline(); ok {
		return deadline.Add(-20 * time.Second)
	}
	return time.Now().Add(10 * time.Minute)
}
