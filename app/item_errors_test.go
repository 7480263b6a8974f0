package app_test

import (
	"errors"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// TestEachResourceAnswersItsOwnErrorForAnItemItCannotGive walks the table in
// item_errors.go: a missing ID, another resource's ID, a post the caller may
// not read, a slug that names nothing or a hidden post.
func TestEachResourceAnswersItsOwnErrorForAnItemItCannotGive(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	reader := w.callers[calendar.RoleSubscriber] // signed in, not an editor
	draft := w.event("Hidden", "2030-06-01", app.EventInput{PostFields: app.PostFields{Status: calendar.StatusDraft}, Tags: strs("unannounced")})
	trashed := w.event("Gone", "2030-06-02", app.EventInput{})
	_, err := w.app.Events.Delete(w.ctx, w.admin(), app.PostRef{ID: trashed.ID}, false)
	w.must(err)
	hall := w.venue("Hall", app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusPrivate}})
	tag, err := w.app.Tags.Create(w.ctx, w.admin(), app.TermInput{Name: ptr("jazz")})
	w.must(err)
	draftView, err := w.app.Events.Get(w.ctx, w.admin(), app.PostRef{ID: draft.ID}, "")
	w.must(err)
	hiddenTag := draftView.Tags[0].ID
	const nowhere = 999999

	cases := []struct {
		name, status string
		code         string
		err          error
	}{
		{"an event that does not exist", "404", "rest-event-not-found", get(w.app.Events.Get(w.ctx, reader, app.PostRef{ID: nowhere}, ""))},
		{"an event ID that is a venue's", "400", "rest-invalid-event-id", get(w.app.Events.Get(w.ctx, reader, app.PostRef{ID: hall.ID}, ""))},
		{"an event the caller may not read", "403", "event-not-accessible", get(w.app.Events.Get(w.ctx, reader, app.PostRef{ID: draft.ID}, ""))},
		{"a trashed event, for a subscriber", "403", "event-no-longer-available", get(w.app.Events.Get(w.ctx, reader, app.PostRef{ID: trashed.ID}, ""))},
		{"an event slug that names nothing", "400", "rest_invalid_param", get(w.app.Events.Get(w.ctx, reader, app.PostRef{Slug: "nothing"}, ""))},
		{"an event slug that names a hidden event", "400", "rest_invalid_param", get(w.app.Events.Get(w.ctx, reader, app.PostRef{Slug: draft.Slug}, ""))},
		{"venue 0", "404", "venue-not-found", get(w.app.Venues.Get(w.ctx, reader, app.PostRef{ID: 0}, ""))},
		{"a venue that does not exist", "400", "rest_invalid_param", get(w.app.Venues.Get(w.ctx, reader, app.PostRef{ID: nowhere}, ""))},
		{"a venue ID that is an event's", "400", "rest_invalid_param", get(w.app.Venues.Get(w.ctx, reader, app.PostRef{ID: draft.ID}, ""))},
		{"a venue the caller may not read", "403", "venue-not-accessible", get(w.app.Venues.Get(w.ctx, reader, app.PostRef{ID: hall.ID}, ""))},
		{"organizer 0", "404", "organizer-not-found", get(w.app.Organizers.Get(w.ctx, reader, app.PostRef{ID: 0}, ""))},
		{"tag 0", "404", "rest_term_invalid", get(w.app.Tags.Get(w.ctx, reader, 0))},
		{"a tag that does not exist", "400", "rest_invalid_param", get(w.app.Tags.Get(w.ctx, reader, nowhere))},
		{"a tag ID that is a category's", "400", "rest_invalid_param", get(w.app.Categories.Get(w.ctx, reader, tag.ID))},
		{"a tag only a hidden event carries", "400", "rest_invalid_param", get(w.app.Tags.Get(w.ctx, reader, hiddenTag))},
		{"an attachment that does not exist", "404", "rest_post_invalid_id", get(w.app.Media.Get(w.ctx, reader, nowhere))},
		{"an attachment ID that is an event's", "404", "rest_post_invalid_id", get(w.app.Media.Get(w.ctx, reader, draft.ID))},
		{"a user that does not exist", "404", "rest_user_invalid_id", get(w.app.Users.Delete(w.ctx, w.admin(), nowhere))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var e *calendar.Error
			if !errors.As(c.err, &e) || e.Code != c.code {
				t.Fatalf("err = %v, want %s", c.err, c.code)
			}
			if got := statusOf(e.Kind); got != c.status {
				t.Fatalf("%s is a %s, want a %s", e.Code, got, c.status)
			}
		})
	}
}

// statusOf is the status the controllers give an error's kind, for the table.
func statusOf(k calendar.Kind) string {
	switch k {
	case calendar.KindNotFound:
		return "404"
	case calendar.KindForbidden:
		return "403"
	case calendar.KindInvalid:
		return "400"
	}
	return "another status"
}
