package app_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
)

// upkeepIndex is the real index, seen by a test: the posts put while
// counting, and each record of the declarations it is indexed under.
type upkeepIndex struct {
	*index.Live
	mu       sync.Mutex
	counting bool
	put      map[int64]int
	recorded func(calendar.FieldsIndexed)
}

func (u *upkeepIndex) PutPosts(ctx context.Context, posts []*calendar.Post) error {
	u.mu.Lock()
	if u.counting {
		for _, p := range posts {
			u.put[p.ID]++
		}
	}
	u.mu.Unlock()
	return u.Live.PutPosts(ctx, posts)
}

func (u *upkeepIndex) SetFieldsIndexed(ctx context.Context, f calendar.FieldsIndexed) error {
	err := u.Live.SetFieldsIndexed(ctx, f)
	u.mu.Lock()
	hear := u.recorded
	u.mu.Unlock()
	if err == nil && hear != nil {
		hear(f)
	}
	return err
}

// hangDetector bounds a wait that should end at once.
const hangDetector = 2 * time.Minute

// A declaration change is brought to the index in batches, each recorded in
// the index: the service's stop ends the job after a batch, and the next
// start (another App on the same store and index) resumes after it, so
// every holder ends indexed under the new declaration, each exactly once.
func TestADeclarationChangeStoppedByTheStopResumesAtTheNextStartAndIndexesNothingTwice(t *testing.T) {
	t.Parallel()
	var watched *upkeepIndex
	settings := func(s *app.Settings) { s.FieldsBatch = 2 }
	w := newWorldWatched(t, func(idx *index.Live) calendar.Index {
		watched = &upkeepIndex{Live: idx, put: map[int64]int{}}
		return watched
	}, settings)
	w.declare("lang", "Language", calendar.FieldSelect, app.FieldInput{Options: strs("en", "fr"), Public: ptr(true)})
	var holders []int64
	for i := range 5 {
		e := w.event(fmt.Sprint("Concert ", i), "2030-06-01", app.EventInput{PostFields: app.PostFields{CustomFields: map[string]any{"lang": "fr"}}})
		holders = append(holders, e.ID)
	}
	w.must(w.app.Fields.Settle(w.ctx)) // the index records the declarations as they are

	service, stop := context.WithCancel(w.ctx)
	defer stop()
	watched.mu.Lock()
	watched.counting = true
	watched.recorded = func(f calendar.FieldsIndexed) {
		if f.Job != nil && f.Job.After > 0 {
			stop() // the service stops once the first batch is recorded
		}
	}
	watched.mu.Unlock()
	ran := make(chan struct{})
	go func() { defer close(ran); w.app.Fields.Run(service) }()
	_, err := w.app.Fields.Update(w.ctx, w.admin(), "lang", app.FieldInput{Filterable: ptr(true)}, false, false)
	w.must(err)
	select {
	case <-ran:
	case <-time.After(hangDetector):
		t.Fatal("the job did not stop with the service")
	}
	stopped, err := watched.FieldsIndexed(w.ctx)
	w.must(err)
	if stopped.Job == nil || stopped.Job.After != holders[1] {
		t.Fatalf("stopped, the index records %+v, want the job after the first batch (post %d)", stopped, holders[1])
	}

	// The next start: another App, the same store and index.
	done := make(chan struct{})
	watched.mu.Lock()
	watched.recorded = func(f calendar.FieldsIndexed) {
		if f.Job == nil && f.Revision > stopped.Revision {
			close(done)
		}
	}
	watched.mu.Unlock()
	var s app.Settings
	settings(&s)
	s.SiteURL = "http://x"
	next := app.New(w.store, watched, s)
	service, stop = context.WithCancel(w.ctx)
	ran = make(chan struct{})
	go func() { defer close(ran); next.Fields.Run(service) }()
	select {
	case <-done:
	case <-time.After(hangDetector):
		t.Fatal("the next start did not finish the job")
	}
	stop()
	<-ran
	watched.mu.Lock()
	put := watched.put
	watched.mu.Unlock()
	for _, id := range holders {
		if put[id] != 1 {
			t.Errorf("post %d indexed %d times by the job, want once (all: %v)", id, put[id], put)
		}
	}
	page, err := next.Events.List(w.ctx, visitor, app.EventFilter{Dates: month("2030-06"), Custom: map[string]app.CustomParam{"lang": {Values: []string{"fr"}}}})
	w.must(err)
	if page.Total != len(holders) {
		t.Fatalf("cf[lang]=fr lists %d events, want %d", page.Total, len(holders))
	}
}

// A second replica (its own index, the same store) follows the
// declarations and the synonyms from the change feed: its next catch-up
// pass makes its answers follow a change made on the first, and its upkeep
// (Fields.Run) bring its own index in line, with no wait for a cache to
// expire.
func TestAReplicaFollowsDeclarationsAndSynonymsFromTheFeed(t *testing.T) {
	t.Parallel()
	a := newWorld(t)
	live, err := index.Open(t.TempDir())
	a.must(err)
	t.Cleanup(func() { live.Close() })
	records := make(chan calendar.FieldsIndexed, 16)
	idx := &upkeepIndex{Live: live, recorded: func(f calendar.FieldsIndexed) {
		select {
		case records <- f:
		default: // never blocks the job: the test reads the ones it waits for
		}
	}}
	b := &world{t: t, ctx: a.ctx, store: a.store, callers: a.callers,
		app: app.New(a.store, idx, app.Settings{SiteURL: "http://x", SearchBudget: 2 * time.Minute})}
	settled := func(revision int64) {
		t.Helper()
		for {
			select {
			case f := <-records:
				if f.Job == nil && f.Revision == revision {
					return
				}
			case <-time.After(hangDetector):
				t.Fatalf("b's index never recorded revision %d", revision)
			}
		}
	}
	declared := a.declare("lang", "Language", calendar.FieldSelect, app.FieldInput{Options: strs("en", "fr"), Public: ptr(true)})
	a.event("Concert", "2030-06-01", app.EventInput{PostFields: app.PostFields{CustomFields: map[string]any{"lang": "fr"}}})
	_, err = b.app.CatchUp(b.ctx)
	b.must(err)
	service, stop := context.WithCancel(b.ctx)
	ran := make(chan struct{})
	go func() { defer close(ran); b.app.Fields.Run(service) }()
	defer func() { stop(); <-ran }()
	settled(declared.Revision()) // b's start
	inFrench := app.EventFilter{Dates: month("2030-06"), Custom: map[string]app.CustomParam{"lang": {Values: []string{"fr"}}}, Facets: strs("cf.lang")}
	_, err = b.app.Events.List(b.ctx, visitor, inFrench)
	invalid(t, err) // not filterable yet
	if got := b.titles(visitor, app.EventFilter{Dates: month("2030-06"), Search: ptr("gig")}); got != "" {
		t.Fatalf("before any synonym, gig finds %q", got)
	}

	changed, err := a.app.Fields.Update(a.ctx, a.admin(), "lang", app.FieldInput{Filterable: ptr(true)}, false, false)
	a.must(err)
	_, err = a.app.Synonyms.Create(a.ctx, a.admin(), app.SynonymInput{Words: &[]string{"concert", "gig"}})
	a.must(err)
	_, err = b.app.CatchUp(b.ctx) // b's next pass
	b.must(err)
	settled(changed.Revision())
	page, err := b.app.Events.List(b.ctx, visitor, inFrench)
	b.must(err)
	if got := facetText(page.Facets); page.Total != 1 || got != "cf.lang: fr=1" {
		t.Fatalf("on b, cf[lang]=fr lists %d events, facets %q", page.Total, got)
	}
	if got := b.titles(visitor, app.EventFilter{Dates: month("2030-06"), Search: ptr("gig")}); got != "Concert" {
		t.Fatalf("on b, gig finds %q", got)
	}
}
