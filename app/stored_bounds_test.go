package app_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/app/strtotime"
)

// TestAWritesFieldsAreBoundedWhateverTheEntryPoint: what a write stores is
// bounded by the domain, not only by the routes, so a write that comes
// another way (an importer calling the use cases) is refused alike, with
// the failure the routes' checker answers (rest_too_long, in bytes); a
// field at its bound is stored.
func TestAWritesFieldsAreBoundedWhateverTheEntryPoint(t *testing.T) {
	w := newWorld(t)
	text := func(n int) *string { return ptr(strings.Repeat("a", n)) }
	event := func(in app.EventInput) error {
		in.StartDate, in.EndDate = ptr("2030-06-01 10:00"), ptr("2030-06-01 11:00")
		if in.Title == nil {
			in.Title = ptr("Bounded")
		}
		_, err := w.app.Events.Create(w.ctx, w.admin(), in)
		return err
	}
	venue := func(in app.LinkedInput) error {
		if in.Title == nil {
			in.Title = ptr("Bounded hall")
		}
		_, err := w.app.Venues.Create(w.ctx, w.admin(), in)
		return err
	}
	term := func(in app.TermInput) error {
		_, err := w.app.Categories.Create(w.ctx, w.admin(), in)
		return err
	}
	for _, c := range []struct {
		name, field   string
		bound         int
		past, atBound error
	}{
		{"an event's title", "title", calendar.MaxTitleBytes,
			event(app.EventInput{PostFields: app.PostFields{Title: text(calendar.MaxTitleBytes + 1)}}),
			event(app.EventInput{PostFields: app.PostFields{Title: text(calendar.MaxTitleBytes)}})},
		{"an event's excerpt", "excerpt", calendar.MaxExcerptBytes,
			event(app.EventInput{PostFields: app.PostFields{Excerpt: text(calendar.MaxExcerptBytes + 1)}}),
			event(app.EventInput{PostFields: app.PostFields{Excerpt: text(calendar.MaxExcerptBytes)}})},
		{"a venue's city", "city", calendar.MaxFieldBytes,
			venue(app.LinkedInput{Meta: map[string]string{"city": *text(calendar.MaxFieldBytes + 1)}}),
			venue(app.LinkedInput{Meta: map[string]string{"city": *text(calendar.MaxFieldBytes)}})},
		{"a category's name", "name", calendar.MaxShortBytes,
			term(app.TermInput{Name: text(calendar.MaxShortBytes + 1)}),
			term(app.TermInput{Name: text(calendar.MaxShortBytes)})},
	} {
		t.Run(c.name, func(t *testing.T) {
			var e *calendar.Error
			if !errors.As(c.past, &e) || e.Code != "rest_invalid_param" {
				t.Fatalf("past the bound: %v, want rest_invalid_param", c.past)
			}
			reason := e.Data["params"].(map[string]string)[c.field]
			detail, _ := e.Data["details"].(map[string]any)[c.field].(map[string]any)
			if want := c.field + " must be at most " + calendar.Thousands(int64(c.bound)) + " bytes long."; reason != want || detail["code"] != "rest_too_long" {
				t.Fatalf("past the bound: %q, %v; want %q, rest_too_long", reason, detail, want)
			}
			if c.atBound != nil {
				t.Fatalf("at the bound: %v", c.atBound)
			}
		})
	}
}

// TestADateBoundIsWhatTheDateReaderTakes: calendar.MaxDateBytes, the bound
// the routes and the writes declare, is the longest input strtotime reads:
// a date that long is read, one byte more is not.
func TestADateBoundIsWhatTheDateReaderTakes(t *testing.T) {
	now := time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC)
	spaced := func(n int) string { // a day and a time, n bytes apart
		return "2030-06-02" + strings.Repeat(" ", n-len("2030-06-02")-len("10:00")) + "10:00"
	}
	if _, err := strtotime.Parse(spaced(calendar.MaxDateBytes), now, time.UTC); err != nil {
		t.Fatalf("a date of %d bytes: %v", calendar.MaxDateBytes, err)
	}
	if _, err := strtotime.Parse(spaced(calendar.MaxDateBytes+1), now, time.UTC); err == nil {
		t.Fatalf("a date of %d bytes was read", calendar.MaxDateBytes+1)
	}
}
