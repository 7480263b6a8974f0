package app_test

import (
	"context"
	"sync/atomic"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// countingFetcher serves one image for every URL and counts the fetches.
type countingFetcher struct {
	image   []byte
	fetches atomic.Int32
}

func (f *countingFetcher) Fetch(context.Context, string, int64) ([]byte, error) {
	f.fetches.Add(1)
	return f.image, nil
}

// TestSideloadingIsAStepOfTheWriteAfterItsChecks: a foreign image URL is
// fetched into the library once the write of an event, a venue or an
// organizer is permitted, before it is written, and once per URL; a write
// refused first (input that is not valid, a post or an author the caller
// may not write as, a precondition that no longer holds) fetches nothing.
func TestSideloadingIsAStepOfTheWriteAfterItsChecks(t *testing.T) {
	t.Parallel()
	fetcher := &countingFetcher{image: testJPEG(t, 40, 30)}
	w := newWorld(t, func(s *app.Settings) { s.Sideload = fetcher })
	author := w.callers[calendar.RoleAuthor]
	adminID := w.admin().User.ID
	venue := w.venue("Hall", app.LinkedInput{})
	event := w.event("Gig", "2030-06-01", app.EventInput{})
	stale := app.Caller{User: w.admin().User, Root: visitor.Root, Expect: app.Precondition{Revisions: []int64{1}}}

	imageOfEvent := func(e *app.EventView, err error) (int64, error) {
		if err != nil {
			return 0, err
		}
		img, _ := e.Image.(*app.ImageView)
		if img == nil {
			return 0, nil
		}
		return img.ID, nil
	}
	imageOfVenue := func(v app.VenueView, err error) (int64, error) {
		if err != nil || v.Image == nil {
			return 0, err
		}
		return v.Image.ID, nil
	}
	fields := func(url string, f app.PostFields) app.PostFields { f.Image = &url; return f }
	eventIn := func(url string, f app.PostFields) app.EventInput {
		return app.EventInput{PostFields: fields(url, f), StartDate: ptr("2030-06-02 10:00"), EndDate: ptr("2030-06-02 11:00")}
	}
	cases := []struct {
		name    string
		write   func(url string) (int64, error)
		refused bool
	}{
		{"an event created", func(url string) (int64, error) {
			title := "Created"
			return imageOfEvent(w.app.Events.Create(w.ctx, author, eventIn(url, app.PostFields{Title: &title})))
		}, false},
		{"an event updated", func(url string) (int64, error) {
			return imageOfEvent(w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: event.ID}, eventIn(url, app.PostFields{})))
		}, false},
		{"a venue created", func(url string) (int64, error) {
			title := "Club"
			return imageOfVenue(w.app.Venues.Create(w.ctx, author, app.LinkedInput{PostFields: fields(url, app.PostFields{Title: &title})}))
		}, false},
		{"a venue updated", func(url string) (int64, error) {
			return imageOfVenue(w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: venue.ID}, app.LinkedInput{PostFields: fields(url, app.PostFields{})}))
		}, false},
		{"an organizer created", func(url string) (int64, error) {
			title := "Ann"
			o, err := w.app.Organizers.Create(w.ctx, author, app.LinkedInput{PostFields: fields(url, app.PostFields{Title: &title})})
			if err != nil || o.Image == nil {
				return 0, err
			}
			return o.Image.ID, nil
		}, false},
		{"an event by an author as another author", func(url string) (int64, error) {
			title := "Theirs"
			return imageOfEvent(w.app.Events.Create(w.ctx, author, eventIn(url, app.PostFields{Title: &title, Author: &adminID})))
		}, true},
		{"an event whose dates are not dates", func(url string) (int64, error) {
			in := eventIn(url, app.PostFields{})
			in.StartDate = ptr("not a date")
			return imageOfEvent(w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: event.ID}, in))
		}, true},
		{"an event updated by an author who may not edit it", func(url string) (int64, error) {
			return imageOfEvent(w.app.Events.Update(w.ctx, author, app.PostRef{ID: event.ID}, eventIn(url, app.PostFields{})))
		}, true},
		{"a venue by an author as another author", func(url string) (int64, error) {
			title := "Theirs"
			return imageOfVenue(w.app.Venues.Create(w.ctx, author, app.LinkedInput{PostFields: fields(url, app.PostFields{Title: &title, Author: &adminID})}))
		}, true},
		{"an event updated on a revision it is no longer at", func(url string) (int64, error) {
			return imageOfEvent(w.app.Events.Update(w.ctx, stale, app.PostRef{ID: event.ID}, eventIn(url, app.PostFields{})))
		}, true},
		{"a venue updated on a revision it is no longer at", func(url string) (int64, error) {
			return imageOfVenue(w.app.Venues.Update(w.ctx, stale, app.PostRef{ID: venue.ID}, app.LinkedInput{PostFields: fields(url, app.PostFields{})}))
		}, true},
	}
	for _, c := range cases {
		url := "https://images.example/" + c.name + ".jpg"
		before := fetcher.fetches.Load()
		first, err := c.write(url)
		if c.refused {
			if err == nil || fetcher.fetches.Load() != before {
				t.Errorf("%s: err %v after %d fetches, want refused before any", c.name, err, fetcher.fetches.Load()-before)
			}
			continue
		}
		if err != nil || first == 0 || fetcher.fetches.Load() != before+1 {
			t.Errorf("%s: image %d, err %v, after %d fetches; want an attachment fetched once", c.name, first, err, fetcher.fetches.Load()-before)
			continue
		}
		if again, err := c.write(url); err != nil || again != first || fetcher.fetches.Load() != before+1 {
			t.Errorf("%s again: image %d, err %v, after %d fetches; want attachment %d, not fetched again", c.name, again, err, fetcher.fetches.Load()-before, first)
		}
	}
}
