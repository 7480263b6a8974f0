package app_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/repository/bolt"
)

// The one write loop (app/writes.go): compare-and-swap, applied again on a
// newer state, given up after a bound; conditional writes; index writes in
// the order of the store's.

// holdingStore lets a test hold a post's update after it committed, before
// the service goes on to the index.
type holdingStore struct {
	*bolt.Store
	posts *holdingPosts
}

func (s *holdingStore) Posts() calendar.Repo[*calendar.Post] { return s.posts }

type holdingPosts struct {
	calendar.Repo[*calendar.Post]
	mu sync.Mutex
	// hold, when it returns a channel for a post being written, makes the
	// update wait on it once committed; committed hears that it is.
	hold      func(p *calendar.Post) chan struct{}
	committed chan struct{}
	// stale makes every update answer ErrStale without writing; vanish
	// makes it delete the post first, as another request would meanwhile.
	stale, vanish bool
}

func (r *holdingPosts) Update(ctx context.Context, p *calendar.Post) error {
	r.mu.Lock()
	stale, vanish, hold := r.stale, r.vanish, r.hold
	r.mu.Unlock()
	if vanish {
		if err := r.Repo.Delete(ctx, p.ID, p.Seq); err != nil {
			return err
		}
	}
	if stale || vanish {
		return calendar.ErrStale
	}
	err := r.Repo.Update(ctx, p)
	if hold != nil && err == nil {
		if release := hold(p); release != nil {
			r.committed <- struct{}{}
			<-release
		}
	}
	return err
}

func newHoldingWorld(t *testing.T) (*world, *holdingPosts) {
	store, idx := openStoreAndIndex(t)
	posts := &holdingPosts{Repo: store.Posts(), committed: make(chan struct{})}
	w := &world{t: t, ctx: context.Background(), store: store, callers: map[calendar.Role]app.Caller{}}
	w.app = app.New(&holdingStore{Store: store, posts: posts}, idx, app.Settings{SiteURL: "http://x"})
	if _, err := w.app.Users.EnsureAdmin(w.ctx, "a long enough password"); err != nil {
		t.Fatal(err)
	}
	admin, err := w.app.Users.Authenticate(w.ctx, "", "admin", "a long enough password")
	w.must(err)
	w.callers[calendar.RoleAdministrator] = app.Caller{User: admin, Root: visitor.Root}
	return w, posts
}

func TestTheIndexHoldsTheLastStoredStateWhenIndexWritesComeOutOfOrder(t *testing.T) {
	w, posts := newHoldingWorld(t)
	soon := time.Now().AddDate(0, 1, 0).Format("2006-01-02")
	e := w.event("Opening", soon, app.EventInput{})
	release := make(chan struct{})
	posts.mu.Lock()
	posts.hold = func(p *calendar.Post) chan struct{} {
		if p.Title == "Earlier" {
			return release
		}
		return nil
	}
	posts.mu.Unlock()
	// The first write commits, then stalls before its index write; the
	// second commits after it and is indexed first.
	done := make(chan error)
	go func() {
		_, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: e.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Earlier")}})
		done <- err
	}()
	<-posts.committed
	_, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: e.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Later")}})
	w.must(err)
	close(release)
	w.must(<-done)
	for title, want := range map[string]int{"Later": 1, "Earlier": 0} {
		page, err := w.app.Events.List(w.ctx, w.admin(), app.EventFilter{Search: ptr(title)})
		w.must(err)
		if page.Total != want {
			t.Fatalf("a search for %q finds %d events, want %d: the index holds an older write than the store", title, page.Total, want)
		}
	}
}

func TestAWriteThatKeepsLosingIsAConflictAfterABoundedNumberOfAttempts(t *testing.T) {
	w, posts := newHoldingWorld(t)
	e := w.event("Opening", "2030-06-01", app.EventInput{})
	posts.mu.Lock()
	posts.stale = true
	posts.mu.Unlock()
	_, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: e.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Never")}})
	var appErr *calendar.Error
	if !errors.As(err, &appErr) || appErr.Kind != calendar.KindConflict {
		t.Fatalf("a write that always finds the event changed: err = %v, want a conflict", err)
	}
}

func TestAWriteWhoseItemIsDeletedMeanwhileSaysSo(t *testing.T) {
	w, posts := newHoldingWorld(t)
	e := w.event("Opening", "2030-06-01", app.EventInput{})
	posts.mu.Lock()
	posts.vanish = true
	posts.mu.Unlock()
	_, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: e.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Gone")}})
	if appErr := calendar.AsError(err); appErr.Kind != calendar.KindConflict {
		t.Fatalf("a write of an event deleted meanwhile: %v, answered as %s, want a conflict (its retry finds it missing)", err, appErr.Code)
	}
}

func TestConditionalWritesAskTheRevisionAndTheModificationTime(t *testing.T) {
	w := newWorld(t)
	e := w.event("Opening", "2030-06-01", app.EventInput{})
	stored, err := w.store.Posts().Get(w.ctx, e.ID)
	w.must(err)
	rename := func(expect app.Precondition, title string) error {
		caller := w.admin()
		caller.Expect = expect
		_, err := w.app.Events.Update(w.ctx, caller, app.PostRef{ID: e.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr(title)}})
		return err
	}
	failed := func(err error) bool {
		var appErr *calendar.Error
		return errors.As(err, &appErr) && appErr.Kind == calendar.KindPreconditionFailed && appErr.Code == "rest_precondition_failed"
	}
	for _, c := range []struct {
		name   string
		expect app.Precondition
		ok     bool
	}{
		{"no precondition", app.Precondition{}, true},
		{"a revision it no longer has", app.Precondition{Revisions: []int64{stored.Seq}}, false},
		{"no revision at all", app.Precondition{Revisions: []int64{}}, false},
		{"unmodified since before its modification", app.Precondition{UnmodifiedSince: stored.Modified.Add(-time.Second)}, false},
		{"unmodified since its modification", app.Precondition{UnmodifiedSince: time.Now().Add(time.Hour)}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := rename(c.expect, c.name)
			if c.ok && err != nil || !c.ok && !failed(err) {
				t.Fatalf("err = %v, want ok = %v", err, c.ok)
			}
		})
	}
	current, err := w.store.Posts().Get(w.ctx, e.ID)
	w.must(err)
	w.must(rename(app.Precondition{Revisions: []int64{1, current.Seq}}, "named by one of its tags"))
	if current, _ = w.store.Posts().Get(w.ctx, e.ID); current.Title != "named by one of its tags" {
		t.Fatalf("title = %q", current.Title)
	}
}
