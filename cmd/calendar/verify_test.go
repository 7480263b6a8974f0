package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
	"calendar/repository/bolt"
)

// TestVerifyTellsWhereTheIndexDiffersFromTheStore: calendar verify passes on
// an index that follows the store, and names a post written behind its back.
func TestVerifyTellsWhereTheIndexDiffersFromTheStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	store, err := bolt.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(store, idx, app.Settings{SiteURL: "http://x"})
	if _, err := a.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		t.Fatal(err)
	}
	admin, _ := a.Users.Authenticate(ctx, "", "admin", "a long enough password")
	name := "Indexed"
	if _, err := a.Venues.Create(ctx, app.Caller{User: admin}, app.LinkedInput{PostFields: app.PostFields{Title: &name}}); err != nil {
		t.Fatal(err)
	}
	behind := &calendar.Post{Type: calendar.PostTypeVenue, Slug: "behind", Title: "Behind the index's back", Status: calendar.StatusPublish, Date: time.Now()}
	check := func() (string, error) {
		if err := idx.Close(); err != nil {
			t.Fatal(err)
		}
		if err := store.Close(ctx); err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		verified := verify(ctx, nil, env(map[string]string{"CALENDAR_DATA_DIR": dir}), &out)
		var err error
		if store, err = bolt.Open(dir); err != nil {
			t.Fatal(err)
		}
		if idx, err = index.Open(dir); err != nil {
			t.Fatal(err)
		}
		return out.String(), verified
	}
	if out, err := check(); err != nil || !strings.Contains(out, "1 posts") {
		t.Fatalf("a true index: %v\n%s", err, out)
	}
	// A write the index missed (a crash between the two) is what the next
	// start applies: verify applies it too, says so, and finds no fault.
	if err := store.Posts().Insert(ctx, behind); err != nil {
		t.Fatal(err)
	}
	if out, err := check(); err != nil || !strings.Contains(out, "1 posts differed by changes the index had not applied yet") || !strings.Contains(out, "2 posts") {
		t.Fatalf("a change the index had not applied: %v\n%s", err, out)
	}
	// An index that disagrees with a store it has caught up with, about a
	// change older than any catch-up re-reads, is a fault.
	for i := range 300 {
		later := &calendar.Post{Type: calendar.PostTypeVenue, Slug: fmt.Sprint("later-", i), Title: "Later", Status: calendar.StatusPublish, Date: time.Now()}
		if err := store.Posts().Insert(ctx, later); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := check(); err != nil {
		t.Fatalf("after 300 more writes: %v\n%s", err, out)
	}
	wrong := *behind
	wrong.Title = "Not what the store says"
	if err := idx.PutPosts(ctx, []*calendar.Post{&wrong}); err != nil {
		t.Fatal(err)
	}
	out, err := check()
	if err == nil || !strings.Contains(out, "Behind the index's back") || !strings.Contains(err.Error(), "run reindex") {
		t.Fatalf("an index that differs from the store: %v\n%s", err, out)
	}
	idx.Close()
	store.Close(ctx)
}
