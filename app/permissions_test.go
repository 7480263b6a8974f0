package app_test

import (
	"errors"
	"fmt"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// The permission rules, tested in the domain on one world: who may read,
// edit and delete a post of each status, their own or another's, as
// WordPress' capabilities say. controllers/matrix_test.go checks that every
// route answers these decisions with the right status.

// mayRead: published posts for anyone; the rest for editors and
// administrators, and their own (but trash) for authors and contributors.
func mayRead(role calendar.Role, own bool, status string) bool {
	switch {
	case status == calendar.StatusPublish:
		return true
	case role == "":
		return false
	case role.Has(calendar.CapEditOthersPosts):
		return true
	}
	return own && status != calendar.StatusTrash && role.Has(calendar.CapEditPosts)
}

// mayChange: another's post takes the "others" capability; one's own
// published (or private) post the "published" one; one's own other posts the
// plain one.
func mayChange(role calendar.Role, own bool, status string, others, published, plain calendar.Capability) bool {
	switch {
	case role == "":
		return false
	case !own:
		return role.Has(others)
	case status == calendar.StatusPublish || status == calendar.StatusPrivate:
		return role.Has(published)
	}
	return role.Has(plain)
}

func TestWhoMayReadEditAndDeleteAPostOfEachStatus(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	statuses := []string{calendar.StatusPublish, calendar.StatusDraft, calendar.StatusPending, calendar.StatusPrivate, calendar.StatusTrash}
	n := 0
	// venue makes a venue of the owner in the status (trash: published, then trashed).
	venue := func(owner app.Caller, status string) app.VenueView {
		n++
		stored := status
		if status == calendar.StatusTrash {
			stored = calendar.StatusPublish
		}
		v := w.venue(fmt.Sprintf("Hall %d", n), app.LinkedInput{PostFields: app.PostFields{Status: stored, Author: &owner.User.ID}})
		if status == calendar.StatusTrash {
			_, err := w.app.Venues.Delete(w.ctx, w.admin(), app.PostRef{ID: v.ID}, false)
			w.must(err)
		}
		return v
	}
	checked := 0
	for _, role := range append([]calendar.Role{""}, calendar.Roles...) {
		caller := visitor
		if role != "" {
			caller = w.callers[role]
		}
		for _, own := range []bool{false, true} {
			if own && !role.Has(calendar.CapEditPosts) {
				continue // callers who cannot own posts
			}
			owner := w.callers[calendar.RoleAdministrator]
			if role == calendar.RoleAdministrator {
				owner = w.callers[calendar.RoleEditor]
			}
			if own {
				owner = caller
			}
			for _, status := range statuses {
				name := fmt.Sprintf("%q on %s %s", role, map[bool]string{true: "its own", false: "another's"}[own], status)
				v := venue(owner, status)
				_, err := w.app.Venues.Get(w.ctx, caller, app.PostRef{ID: v.ID}, "")
				expect(t, name+": read", err, mayRead(role, own, status), "")
				_, err = w.app.Venues.Update(w.ctx, caller, app.PostRef{ID: v.ID}, app.LinkedInput{PostFields: app.PostFields{Excerpt: ptr("changed")}})
				expect(t, name+": edit", err, mayChange(role, own, status, calendar.CapEditOthersPosts, calendar.CapEditPublishedPosts, calendar.CapEditPosts), "")
				_, err = w.app.Venues.Delete(w.ctx, caller, app.PostRef{ID: v.ID}, false)
				gone := ""
				if status == calendar.StatusTrash {
					gone = "already trashed"
				}
				expect(t, name+": delete", err, mayChange(role, own, status, calendar.CapDeleteOthersPosts, calendar.CapDeletePublishedPosts, calendar.CapDeletePosts), gone)
				checked += 3
			}
		}
	}
	t.Logf("%d decisions checked", checked)
}

// expect checks one decision: allowed is no error (or, when a permitted
// action finds nothing to do, a 410); refused is a 401 for a visitor, a 403
// for the others, never another kind of error.
func expect(t *testing.T, name string, err error, allowed bool, whenAllowed string) {
	t.Helper()
	var e *calendar.Error
	switch {
	case allowed && whenAllowed == "" && err != nil:
		t.Errorf("%s: refused (%v), want it allowed", name, err)
	case allowed && whenAllowed != "" && (!errors.As(err, &e) || e.Kind != calendar.KindGone):
		t.Errorf("%s: %v, want a 410 (%s)", name, err, whenAllowed)
	case !allowed && (!errors.As(err, &e) || (e.Kind != calendar.KindForbidden && e.Kind != calendar.KindUnauthorized)):
		t.Errorf("%s: %v, want it refused", name, err)
	}
}
