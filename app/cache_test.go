package app_test

import (
	"context"
	"strings"
	"testing"

	"calendar/app"
)

// TestEveryKindOfWriteRenewsWhatIsKept: lists, link counts and rendered
// events are kept per index generation; after each kind of write (posts and
// terms created, updated, trashed, deleted, and another replica's writes
// applied by a catch-up) every answer shows the write, though the same
// question was asked, and kept, just before.
func TestEveryKindOfWriteRenewsWhatIsKept(t *testing.T) {
	ctx := context.Background()
	store, idx := openStoreAndIndex(t)
	a := app.New(store, idx, app.Settings{SiteURL: "http://x"})
	if _, err := a.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		t.Fatal(err)
	}
	user, _ := a.Users.Authenticate(ctx, "", "admin", "a long enough password")
	admin := app.Caller{User: user, Root: "/"}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	hall, err := a.Venues.Create(ctx, admin, app.LinkedInput{PostFields: app.PostFields{Title: ptr("Hall")}})
	must(err)
	ann, err := a.Organizers.Create(ctx, admin, app.LinkedInput{PostFields: app.PostFields{Title: ptr("Ann")}})
	must(err)
	month := app.Dates{"start_date": "2031-01-01", "end_date": "2031-01-31"}
	newEvent := func(title string) *app.EventView {
		e, err := a.Events.Create(ctx, admin, app.EventInput{PostFields: app.PostFields{Title: &title},
			StartDate: ptr("2031-01-05 10:00"), EndDate: ptr("2031-01-05 11:00"),
			Venue: &app.LinkRef{ID: hall.ID}, Organizers: &[]app.LinkRef{{ID: ann.ID}}, Categories: &[]string{"Jazz"}})
		must(err)
		return e
	}
	first := newEvent("First")
	var second *app.EventView

	// What is asked, and kept, before and after every write.
	type answers struct {
		titles, venue, organizers, category string
		count                               int
		hallHasEvents                       bool
	}
	ask := func() answers {
		t.Helper()
		page, err := a.Events.List(ctx, app.Caller{Root: "/"}, app.EventFilter{Dates: month})
		must(err)
		var got answers
		var titles []string
		for _, e := range page.Items {
			titles = append(titles, e.Title)
		}
		got.titles = strings.Join(titles, ",")
		one, err := a.Events.Get(ctx, app.Caller{Root: "/"}, app.PostRef{ID: first.ID}, "")
		if err == nil {
			if v, ok := one.Venue.(app.VenueView); ok {
				got.venue = v.Venue
			}
			for _, o := range one.Organizer {
				got.organizers += o.Organizer
			}
			for _, c := range one.Categories {
				got.category, got.count = c.Name, c.Count
			}
		}
		venues, err := a.Venues.List(ctx, app.Caller{}, app.LinkedFilter{HasEvents: ptr(true)})
		must(err)
		got.hallHasEvents = venues.Total == 1
		return got
	}
	jazz := func() int64 {
		page, err := a.Categories.List(ctx, admin, app.TermFilter{Search: ptr("jazz"), HideEmpty: ptr(false)})
		must(err)
		return page.Items[0].ID
	}()
	steps := []struct {
		name  string
		write func()
		want  answers
	}{
		{"an event created", func() { second = newEvent("Second") },
			answers{"First,Second", "Hall", "Ann", "Jazz", 2, true}},
		{"an event updated", func() {
			_, err := a.Events.Update(ctx, admin, app.PostRef{ID: first.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Renamed")}})
			must(err)
		}, answers{"Renamed,Second", "Hall", "Ann", "Jazz", 2, true}},
		{"its venue updated", func() {
			_, err := a.Venues.Update(ctx, admin, app.PostRef{ID: hall.ID}, app.LinkedInput{PostFields: app.PostFields{Title: ptr("Big hall")}})
			must(err)
		}, answers{"Renamed,Second", "Big hall", "Ann", "Jazz", 2, true}},
		{"its category renamed", func() {
			_, err := a.Categories.Update(ctx, admin, jazz, app.TermInput{Name: ptr("Swing")})
			must(err)
		}, answers{"Renamed,Second", "Big hall", "Ann", "Swing", 2, true}},
		{"a new category", func() {
			_, err := a.Categories.Create(ctx, admin, app.TermInput{Name: ptr("Blues")})
			must(err)
			page, err := a.Categories.List(ctx, admin, app.TermFilter{HideEmpty: ptr(false)})
			must(err)
			if page.Total != 2 {
				t.Fatalf("the new category is not listed: %d", page.Total)
			}
		}, answers{"Renamed,Second", "Big hall", "Ann", "Swing", 2, true}},
		{"an event trashed", func() {
			_, err := a.Events.Delete(ctx, admin, app.PostRef{ID: second.ID}, false)
			must(err)
		}, answers{"Renamed", "Big hall", "Ann", "Swing", 1, true}},
		{"its organizer trashed", func() {
			_, err := a.Organizers.Delete(ctx, admin, app.PostRef{ID: ann.ID}, false)
			must(err)
		}, answers{"Renamed", "Big hall", "", "Swing", 1, true}},
		{"its category deleted", func() {
			_, err := a.Categories.Delete(ctx, admin, jazz)
			must(err)
		}, answers{"Renamed", "Big hall", "", "", 0, true}},
		{"another replica's write, caught up", func() {
			p, err := store.Posts().Get(ctx, hall.ID)
			must(err)
			p.Title = "Hall of another replica"
			must(store.Posts().Update(ctx, p))
			_, err = a.CatchUp(ctx)
			must(err)
		}, answers{"Renamed", "Hall of another replica", "", "", 0, true}},
		{"an event deleted for good", func() {
			_, err := a.Events.Delete(ctx, admin, app.PostRef{ID: first.ID}, true)
			must(err)
		}, answers{"", "", "", "", 0, false}},
	}
	ask() // everything asked is kept
	for _, step := range steps {
		before := ask()
		step.write()
		if got := ask(); got != step.want {
			t.Fatalf("after %s: %+v (before: %+v), want %+v", step.name, got, before, step.want)
		}
	}
}
