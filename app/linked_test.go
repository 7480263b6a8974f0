package app_test

import (
	"testing"

	"calendar/app"
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
	v := w.venue("Keep", app.LinkedInput{PostFields: app.PostFields{Status: app.StatusDraft},
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
