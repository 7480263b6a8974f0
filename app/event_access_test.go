package app_test

import (
	"fmt"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// Events read, written and deleted by each caller, without HTTP; their
// costs as written, and their order by local times. Every route by every
// role is controllers' matrix_test.go.

func TestWhoMayWriteEvents(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	future := func(title string) app.EventInput {
		return app.EventInput{PostFields: app.PostFields{Title: &title}, StartDate: ptr("2031-01-01 10:00:00"), EndDate: ptr("2031-01-01 11:00:00")}
	}
	for role, want := range map[calendar.Role]string{calendar.RoleContributor: "draft", calendar.RoleAuthor: "publish", calendar.RoleEditor: "publish"} {
		if e, err := w.app.Events.Create(w.ctx, w.callers[role], future("by "+string(role))); err != nil || e.Status != want {
			t.Errorf("%s created an event: %v (%v), want %s", role, e, err, want)
		}
	}
	asks := future("asks publish")
	asks.Status = calendar.StatusPublish
	if e, err := w.app.Events.Create(w.ctx, w.callers[calendar.RoleContributor], asks); err != nil || e.Status != calendar.StatusPending {
		t.Errorf("a contributor asking publish: %v (%v), want pending", e, err)
	}
	admins := w.event("admin's", "2031-01-01", app.EventInput{})
	excerpt := app.EventInput{PostFields: app.PostFields{Excerpt: ptr("x")}}
	for _, ref := range []app.PostRef{{ID: admins.ID}, {Slug: admins.Slug}} {
		for _, role := range []calendar.Role{"", calendar.RoleSubscriber, calendar.RoleContributor, calendar.RoleAuthor} {
			caller, kind := visitor, calendar.KindUnauthorized
			if role != "" {
				caller, kind = w.callers[role], calendar.KindForbidden
			}
			kindAndCode(t, fmt.Sprintf("%q updating another's %+v", role, ref), get(w.app.Events.Update(w.ctx, caller, ref, excerpt)), kind, "rest_forbidden")
			kindAndCode(t, fmt.Sprintf("%q deleting another's %+v", role, ref), get(w.app.Events.Delete(w.ctx, caller, ref, false)), kind, "rest_forbidden")
		}
		_, err := w.app.Events.Update(w.ctx, w.callers[calendar.RoleEditor], ref, excerpt)
		w.must(err)
	}
	contributor := w.callers[calendar.RoleContributor]
	own, err := w.app.Events.Create(w.ctx, contributor, future("contrib"))
	w.must(err)
	_, err = w.app.Events.Update(w.ctx, contributor, app.PostRef{ID: own.ID}, excerpt)
	w.must(err)
	w.edit(own.ID, app.EventInput{PostFields: app.PostFields{Status: calendar.StatusPublish}})
	kindAndCode(t, "a contributor updating its published event", get(w.app.Events.Update(w.ctx, contributor, app.PostRef{ID: own.ID}, excerpt)),
		calendar.KindForbidden, "rest_forbidden")
	kindAndCode(t, "a contributor deleting its published event", get(w.app.Events.Delete(w.ctx, contributor, app.PostRef{ID: own.ID}, false)),
		calendar.KindForbidden, "rest_forbidden")
	missing := app.PostRef{ID: 99999}
	kindAndCode(t, "a visitor deleting a missing event", get(w.app.Events.Delete(w.ctx, visitor, missing, false)), calendar.KindUnauthorized, "rest_forbidden")
	kindAndCode(t, "the administrator deleting it", get(w.app.Events.Delete(w.ctx, w.admin(), missing, false)), calendar.KindNotFound, "rest-event-not-found")
	kindAndCode(t, "the administrator updating it", get(w.app.Events.Update(w.ctx, w.admin(), missing, excerpt)), calendar.KindNotFound, "rest-event-not-found")
}

func TestSingleEventReads(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	contributor := w.callers[calendar.RoleContributor]
	draft, err := w.app.Events.Create(w.ctx, contributor, app.EventInput{PostFields: app.PostFields{Title: ptr("Draft")},
		StartDate: ptr("2031-01-01 10:00:00"), EndDate: ptr("2031-01-01 11:00:00")})
	w.must(err)
	secret := w.event("Secret", "2031-01-02", app.EventInput{PostFields: app.PostFields{Password: ptr("sesame"), Description: ptr("hidden")}})
	trashed := w.event("Gone", "2031-01-03", app.EventInput{})
	w.deleteEvent(trashed.ID, false)
	venue := w.venue("V", app.LinkedInput{})
	author, editor := w.callers[calendar.RoleAuthor], w.callers[calendar.RoleEditor]
	for _, c := range []struct {
		name     string
		ref      app.PostRef
		caller   app.Caller
		password string
		kind     calendar.Kind
		code     string // "" when read
	}{
		{"missing", app.PostRef{ID: 99999}, visitor, "", calendar.KindNotFound, "rest-event-not-found"},
		{"not an event", app.PostRef{ID: venue.ID}, visitor, "", calendar.KindInvalid, "rest-invalid-event-id"},
		{"an unknown slug", app.PostRef{Slug: "nope"}, visitor, "", calendar.KindInvalid, "rest_invalid_param"},
		{"a draft, by a visitor", app.PostRef{ID: draft.ID}, visitor, "", calendar.KindForbidden, "event-not-accessible"},
		{"a draft, by another author", app.PostRef{ID: draft.ID}, author, "", calendar.KindForbidden, "event-not-accessible"},
		{"a draft, by its contributor", app.PostRef{ID: draft.ID}, contributor, "", 0, ""},
		{"a draft, by an editor, by slug", app.PostRef{Slug: draft.Slug}, editor, "", 0, ""},
		{"protected, without the password", app.PostRef{ID: secret.ID}, visitor, "", calendar.KindForbidden, "event-password-protected"},
		{"protected, with the password", app.PostRef{ID: secret.ID}, visitor, "sesame", 0, ""},
		{"protected, with a wrong password", app.PostRef{ID: secret.ID}, visitor, "open", calendar.KindForbidden, "event-password-protected"},
		{"trashed, by an author", app.PostRef{ID: trashed.ID}, author, "", calendar.KindForbidden, "event-no-longer-available"},
		{"trashed, by an editor", app.PostRef{ID: trashed.ID}, editor, "", 0, ""},
	} {
		_, err := w.app.Events.Get(w.ctx, c.caller, c.ref, c.password)
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		kindAndCode(t, c.name, err, c.kind, c.code)
	}
}

func TestEventUpdatesChangeOnlyWhatTheySend(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	e := w.event("Full", "", app.EventInput{StartDate: ptr("2031-02-01 10:00:00"), EndDate: ptr("2031-02-01 12:00:00"), Timezone: ptr("Europe/Rome"),
		PostFields: app.PostFields{Status: calendar.StatusDraft, Image: ptr("https://img.example/a.png"), Excerpt: ptr("Kept excerpt")},
		Cost:       strs("15€"), Website: ptr("https://full.example"), Flags: map[string]bool{"featured": true, "sticky": true},
		Venue:      &app.LinkRef{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr("Kept hall")}}},
		Organizers: &[]app.LinkRef{{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr("Kept")}}}}, Categories: strs("Kept cat")})
	u := w.edit(e.ID, app.EventInput{PostFields: app.PostFields{Title: ptr("Renamed")}})
	for _, k := range []string{"status", "start_date", "end_date", "utc_start_date", "timezone", "cost", "website", "featured", "sticky", "excerpt", "date", "slug",
		"image", "venue", "organizer", "categories"} {
		if string(jsonAt(t, u, k)) != string(jsonAt(t, e, k)) {
			t.Errorf("%s changed from %s to %s", k, jsonAt(t, e, k), jsonAt(t, u, k))
		}
	}
	if u.Title != "Renamed" {
		t.Fatalf("after a title update: %+v", u)
	}
	cleared := w.edit(e.ID, app.EventInput{Venue: &app.LinkRef{}, Organizers: &[]app.LinkRef{}, Categories: strs(), Website: ptr("")})
	if string(jsonAt(t, cleared, "venue")) != "[]" || len(cleared.Organizer) != 0 || len(cleared.Categories) != 0 || cleared.Website != "" {
		t.Fatalf("empty values sent did not clear: %+v", cleared)
	}
	invalid(t, get(w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: e.ID}, app.EventInput{EndDate: ptr("2031-01-01")})))
}

func TestAnEventIsTrashedThenDeletedForGood(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	e := w.event("Doomed", "2030-06-01", app.EventInput{})
	ref := app.PostRef{ID: e.ID}
	if got := w.titles(visitor, app.EventFilter{Dates: month("2030-06")}); got != "Doomed" {
		t.Fatalf("a new event is not listed at once: %q", got)
	}
	trashed, err := w.app.Events.Delete(w.ctx, w.admin(), ref, false)
	w.must(err)
	if trashed.Trashed == nil || trashed.Trashed.Status != calendar.StatusTrash || w.titles(visitor, app.EventFilter{Dates: month("2030-06")}) != "" {
		t.Fatalf("after a delete: %+v", trashed)
	}
	kindAndCode(t, "trashing it again", get(w.app.Events.Delete(w.ctx, w.admin(), ref, false)), calendar.KindGone, "event-is-in-trash")
	gone, err := w.app.Events.Delete(w.ctx, w.admin(), ref, true)
	w.must(err)
	if d := gone.ForGood; d == nil || !d.Deleted || d.Previous.Title != "Doomed" {
		t.Fatalf("deleted for good: %+v", gone)
	}
	kindAndCode(t, "reading it", get(w.app.Events.Get(w.ctx, w.admin(), ref, "")), calendar.KindNotFound, "rest-event-not-found")
}

// A range written in one value keeps its symbol (not "10–20 € – 20–20 €"), a
// thousands separator leaves the value a number (the plugin's "1250"), a
// text cost gives its slug as its value (the plugin's key, "free"). The
// whole table, against the plugin's own answers, is cost_test.go's.
func TestCostsReadAsWritten(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, c := range []struct{ cost, text, details string }{
		{"10–20 €", "10€ – 20€", `{"currency_symbol":"€","currency_code":"","currency_position":"postfix","values":["10","20"]}`},
		{"$1,250", "$1,250", `{"currency_symbol":"$","currency_code":"","currency_position":"prefix","values":["1250"]}`},
		{"1.250,50 €", "1.250,50€", `{"currency_symbol":"€","currency_code":"","currency_position":"postfix","values":["1250.50"]}`},
		{"Free", "Free", `{"currency_symbol":"","currency_code":"","currency_position":"","values":["free"]}`},
	} {
		e := w.event("Priced", "2030-01-01", app.EventInput{Cost: strs(c.cost)})
		read, err := w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: e.ID}, "")
		w.must(err)
		if details := string(jsonAt(t, read, "cost_details")); read.Cost != c.text || details != c.details {
			t.Errorf("%q: %q %s, want %q %s", c.cost, read.Cost, details, c.text, c.details)
		}
	}
}

// The plugin, in its default time-zone mode, orders and bounds events by
// their local start and end as written (the _EventStartDate and
// _EventEndDate meta), whatever their zones, and reads a date bound as a
// wall-clock time of the site's zone: its event repository's constructor
// takes the local meta keys and the site zone as the "normal" zone unless
// the site mode is on (src/Tribe/Repositories/Event.php), and every
// starts_*/ends_* filter formats its bound in that zone.
func TestEventsAreOrderedAndBoundedByTheirLocalTimes(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, func(s *app.Settings) { s.TimeZone = berlin })
	for _, e := range []struct{ title, zone, start, end string }{
		{"Tokyo 10:00", "Asia/Tokyo", "2030-05-01 10:00:00", "2030-05-01 11:00:00"},                // 01:00 UTC
		{"New York 09:00", "America/New_York", "2030-05-01 09:00:00", "2030-05-01 10:00:00"},       // 13:00 UTC
		{"Paris 09:30", "Europe/Paris", "2030-05-01 09:30:00", "2030-05-01 10:30:00"},              // 07:30 UTC
		{"Auckland 08:00", "Pacific/Auckland", "2030-05-01 08:00:00", "2030-05-01 09:00:00"},       // April 30, 20:00 UTC
		{"Los Angeles 22:00", "America/Los_Angeles", "2030-04-30 22:00:00", "2030-04-30 23:00:00"}, // May 1, 05:00 UTC
	} {
		w.event(e.title, "", app.EventInput{StartDate: &e.start, EndDate: &e.end, Timezone: &e.zone})
	}
	day := app.Dates{"start_date": "2030-05-01", "end_date": "2030-05-01"}
	for _, tc := range []struct {
		name string
		f    app.EventFilter
		want string
	}{
		{"a day holds the events whose local start is on it, by local start", app.EventFilter{Dates: day},
			"Auckland 08:00,New York 09:00,Paris 09:30,Tokyo 10:00"},
		{"pages cut that order", app.EventFilter{Dates: day, Page: app.PageRequest{PerPage: 2}}, "Auckland 08:00,New York 09:00"},
		{"the next page goes on from it", app.EventFilter{Dates: day, Page: app.PageRequest{Page: 2, PerPage: 2}}, "Paris 09:30,Tokyo 10:00"},
		{"the day before holds the event local to it", app.EventFilter{Dates: app.Dates{"start_date": "2030-04-30", "end_date": "2030-04-30"}}, "Los Angeles 22:00"},
		// 07:15 UTC is 09:15 in Berlin: the bound is that wall-clock time.
		{"a strict bound is the site's wall-clock time of the instant",
			app.EventFilter{StrictDates: true, Dates: app.Dates{"start_date": "2030-05-01T07:15:00Z", "end_date": "2030-05-02"}}, "Paris 09:30,Tokyo 10:00"},
		// A zone-less strict value is a UTC instant: 07:00 UTC is 09:00 in
		// Berlin, and end_date bounds the end.
		{"a strict end bound too",
			app.EventFilter{StrictDates: true, Dates: app.Dates{"start_date": "2030-04-30", "end_date": "2030-05-01 07:00:00"}}, "Los Angeles 22:00,Auckland 08:00"},
	} {
		if got := w.titles(visitor, tc.f); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
