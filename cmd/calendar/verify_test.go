package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/index"
	"calendar/repository"
)

// TestVerifyTellsWhereTheIndexDiffersFromTheStore: calendar verify passes on
// an index that follows the store, and names a post written behind its back.
func TestVerifyTellsWhereTheIndexDiffersFromTheStore(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	store, err := repository.OpenBolt(dir)
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
	behind := &app.Post{Type: app.PostTypeVenue, Slug: "behind", Title: "Behind the index's back", Status: app.StatusPublish, Date: time.Now()}
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
		if store, err = repository.OpenBolt(dir); err != nil {
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
	if err := store.Posts().Insert(ctx, behind); err != nil {
		t.Fatal(err)
	}
	out, err := check()
	if err == nil || !strings.Contains(out, "Behind the index's back") {
		t.Fatalf("a post the index does not hold: %v\n%s", err, out)
	}
	idx.Close()
	store.Close(ctx)
}
