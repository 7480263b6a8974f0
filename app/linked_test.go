package app_test

import (
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

func TestCreateReturnsTheExistingPostOfTheSameName(t *testing.T) {
	w := newWorld(t)
	described := func(name, description string) app.LinkedInput {
		in := app.LinkedInput{PostFields: app.PostFields{Title: &name}}
		if description != "" {
			in.Description = &description
		}
		return in
	}
	create := func(in app.LinkedInput) app.VenueView {
		v, err := w.app.Venues.Create(w.ctx, w.admin(), in)
		w.must(err)
		return v
	}
	first := create(described("Café Central", "Old house"))
	for name, in := range map[string]app.LinkedInput{
		"other case and accents":    described("CAFE central", ""),
		"same name and description": described("Café Central", "old house"),
	} {
		t.Run(name, func(t *testing.T) {
			if again := create(in); again.ID != first.ID {
				t.Fatalf("got a new venue %v, want the existing %v", again.ID, first.ID)
			}
		})
	}
	other := create(described("Café Central", "Another place"))
	if other.ID == first.ID || other.Slug != "cafe-central-2" {
		t.Fatalf("a different description should make a new venue with a unique slug: %+v", other)
	}
	for _, id := range []int64{first.ID, other.ID} {
		_, err := w.app.Venues.Delete(w.ctx, w.admin(), app.PostRef{ID: id}, false)
		w.must(err)
	}
	if fresh := create(described("Café Central", "")); fresh.ID == first.ID || fresh.ID == other.ID {
		t.Fatal("a trashed venue was reused as a duplicate")
	}
}

func TestUpdatesChangeOnlyWhatTheySend(t *testing.T) {
	w := newWorld(t)
	v := w.venue("Keep", app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusDraft},
		Meta: map[string]string{"address": "1 Road", "city": "Lyon"}, ShowMap: ptr(false)})
	ref := app.PostRef{Slug: v.Slug}
	m, err := w.app.Venues.Update(w.ctx, w.admin(), ref, app.LinkedInput{Meta: map[string]string{"city": "Paris", "phone": ""}})
	w.must(err)
	if m.City != "Paris" || m.Address != "1 Road" || m.Status != "draft" || *m.ShowMap || m.Venue != "Keep" {
		t.Fatalf("after updating the city: %+v", m)
	}
	cleared, err := w.app.Venues.Update(w.ctx, w.admin(), ref, app.LinkedInput{Meta: map[string]string{"address": ""}})
	w.must(err)
	if cleared.Address != "" {
		t.Fatalf("an empty string did not clear the address: %+v", cleared)
	}
	_, err = w.app.Venues.Update(w.ctx, w.admin(), ref, app.LinkedInput{PostFields: app.PostFields{Title: ptr("")}})
	invalid(t, err)
}

// The plugin writes the details of a venue or organizer sent again onto the
// one it finds, when the caller may edit it; its name, description and
// status stay. A caller who may not edit it gets it unchanged.
func TestSendingAnExistingOneAgainAppliesWhatTheCallerMayEdit(t *testing.T) {
	w := newWorld(t)
	hall := w.venue("Hall", app.LinkedInput{PostFields: app.PostFields{Description: ptr("Old house")},
		Meta: map[string]string{"address": "1 Road", "city": "Lyon"}})
	again := func(caller app.Caller, in app.LinkedInput) app.VenueView {
		t.Helper()
		in.Title = ptr("HALL")
		v, err := w.app.Venues.Create(w.ctx, caller, in)
		w.must(err)
		if v.ID != hall.ID {
			t.Fatalf("a new venue %d, want the existing %d", v.ID, hall.ID)
		}
		return v
	}
	stored := func(id int64) app.VenueView {
		t.Helper()
		v, err := w.app.Venues.Get(w.ctx, w.admin(), app.PostRef{ID: id}, "")
		w.must(err)
		return v
	}

	got := again(w.admin(), app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusDraft, Excerpt: ptr("new excerpt")},
		Meta: map[string]string{"address": "2 Avenue", "phone": "555"}, ShowMap: ptr(false)})
	want := func(v app.VenueView, who string) {
		t.Helper()
		if v.Address != "2 Avenue" || v.Phone != "555" || v.City != "Lyon" || *v.ShowMap ||
			v.Venue != "Hall" || v.Status != calendar.StatusPublish || v.Description != "<p>Old house</p>" || v.Excerpt != "" {
			t.Fatalf("%s: %+v", who, v)
		}
	}
	want(got, "the answer")
	want(stored(hall.ID), "the stored venue")

	got = again(w.callers[calendar.RoleContributor], app.LinkedInput{Meta: map[string]string{"address": "3 Street"}})
	if got.Address != "2 Avenue" || stored(hall.ID).Address != "2 Avenue" {
		t.Fatalf("a contributor changed another's venue: answer %q, stored %q", got.Address, stored(hall.ID).Address)
	}

	contributor := w.callers[calendar.RoleContributor]
	mine, err := w.app.Organizers.Create(w.ctx, contributor, app.LinkedInput{PostFields: app.PostFields{Title: ptr("Mine")}})
	w.must(err)
	second, err := w.app.Organizers.Create(w.ctx, contributor, app.LinkedInput{PostFields: app.PostFields{Title: ptr("mine")},
		Meta: map[string]string{"email": "me@example.org"}})
	w.must(err)
	if second.ID != mine.ID || second.Email != "me@example.org" {
		t.Fatalf("the contributor's own organizer sent again: %+v", second)
	}
}
