package app_test

import (
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

func (w *world) organizerNames(caller app.Caller, f app.LinkedFilter) string {
	w.t.Helper()
	page, err := w.app.Organizers.List(w.ctx, caller, f)
	w.must(err)
	var out []string
	for _, o := range page.Items {
		out = append(out, o.Organizer)
	}
	return sortedNames(strings.Join(out, ","))
}

func (w *world) termNames(terms *app.Terms, f app.TermFilter) string {
	w.t.Helper()
	page, err := terms.List(w.ctx, visitor, f)
	w.must(err)
	var out []string
	for _, t := range page.Items {
		out = append(out, t.Name)
	}
	return strings.Join(out, ",")
}

func TestVenueAndOrganizerListsByTheirEvents(t *testing.T) {
	w := newWorld(t)
	hall, club, lonely := w.venue("Hall", app.LinkedInput{}), w.venue("Club", app.LinkedInput{}), w.venue("Lonely", app.LinkedInput{})
	backstage := w.venue("Backstage", app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusDraft}})
	ann, bob := w.organizer("Ann"), w.organizer("Bob")
	soon := time.Now().UTC().AddDate(0, 1, 0)
	upcoming := between(soon.Format(app.DateFormat), soon.Add(time.Hour).Format(app.DateFormat))
	at := func(venue int64, organizers ...int64) app.EventInput {
		in := app.EventInput{Venue: &app.LinkRef{ID: venue}}
		if organizers != nil {
			refs := []app.LinkRef{}
			for _, id := range organizers {
				refs = append(refs, app.LinkRef{ID: id})
			}
			in.Organizers = &refs
		}
		return in
	}
	past := w.event("past", "2020-01-01", at(hall.ID, ann.ID))
	u := at(club.ID, bob.ID, ann.ID)
	u.StartDate, u.EndDate = upcoming.StartDate, upcoming.EndDate
	next := w.event("upcoming", "", u)
	draft := at(lonely.ID)
	draft.Status = calendar.StatusDraft
	w.event("draft", "2020-02-01", draft)
	b := at(backstage.ID)
	b.StartDate, b.EndDate = upcoming.StartDate, upcoming.EndDate
	withDraftVenue := w.event("backstage", "", b)
	bare := w.event("bare", "2020-03-01", app.EventInput{})

	editor := w.callers[calendar.RoleEditor]
	cases := []struct {
		name   string
		f      app.LinkedFilter
		caller app.Caller
		want   string
	}{
		{"the venue of an event", app.LinkedFilter{Event: &past.ID}, visitor, "Hall"},
		{"an event without a venue", app.LinkedFilter{Event: &bare.ID}, visitor, ""},
		{"an event's draft venue, to a visitor", app.LinkedFilter{Event: &withDraftVenue.ID}, visitor, ""},
		{"an event's draft venue, to an editor", app.LinkedFilter{Event: &withDraftVenue.ID}, editor, "Backstage"},
		{"with events", app.LinkedFilter{HasEvents: ptr(true)}, visitor, "Club,Hall"},
		{"with events, to an editor", app.LinkedFilter{HasEvents: ptr(true)}, editor, "Backstage,Club,Hall"},
		{"without events", app.LinkedFilter{HasEvents: ptr(false)}, visitor, "Lonely"},
		{"with upcoming events", app.LinkedFilter{OnlyWithUpcoming: true}, visitor, "Club"},
		{"with upcoming events, to an editor", app.LinkedFilter{OnlyWithUpcoming: true}, editor, "Backstage,Club"},
		{"with events, upcoming ones", app.LinkedFilter{HasEvents: ptr(true), OnlyWithUpcoming: true}, visitor, "Club"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page, err := w.app.Venues.List(w.ctx, c.caller, c.f)
			w.must(err)
			var names []string
			for _, v := range page.Items {
				names = append(names, v.Venue)
			}
			if got := sortedNames(strings.Join(names, ",")); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	for name, id := range map[string]int64{"a venue": hall.ID, "nothing": 99999} {
		t.Run("event= names "+name, func(t *testing.T) {
			_, err := w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{Event: &id})
			invalid(t, err)
		})
	}
	if got := w.organizerNames(visitor, app.LinkedFilter{Event: &next.ID}); got != "Ann,Bob" {
		t.Fatalf("organizers of an event: %q", got)
	}
	if got := w.organizerNames(visitor, app.LinkedFilter{OnlyWithUpcoming: true}); got != "Ann,Bob" {
		t.Fatalf("organizers with upcoming events: %q", got)
	}
}

func TestTermListsByEvent(t *testing.T) {
	w := newWorld(t)
	jazz := w.event("j", "2030-01-01", app.EventInput{Categories: strs("Jazz", "Blues"), Tags: strs("late")})
	rock := w.event("r", "2030-01-02", app.EventInput{Categories: strs("Rock")})
	cases := []struct {
		name string
		f    app.TermFilter
		want string
	}{
		{"an event's categories", app.TermFilter{Event: &jazz.ID}, "Blues,Jazz"},
		{"another's", app.TermFilter{Event: &rock.ID}, "Rock"},
		{"an event's, within include", app.TermFilter{Event: &jazz.ID, Include: strs("jazz", "rock")}, "Jazz"},
		{"hide_empty does not apply", app.TermFilter{Event: &jazz.ID, HideEmpty: ptr(true)}, "Blues,Jazz"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := w.termNames(w.app.Categories, c.f); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	if got := w.termNames(w.app.Tags, app.TermFilter{Event: &rock.ID}); got != "" {
		t.Fatalf("tags of an untagged event: %q", got)
	}
}

func TestRemovingLinkedPostsUnlinksTheirEvents(t *testing.T) {
	w := newWorld(t)
	hall, ann, bob := w.venue("Hall", app.LinkedInput{}), w.organizer("Ann"), w.organizer("Bob")
	e := w.event("e", "2030-01-01", app.EventInput{Venue: &app.LinkRef{ID: hall.ID},
		Organizers: &[]app.LinkRef{{ID: ann.ID}, {ID: bob.ID}}, Categories: strs("Jazz", "Blues")})
	get := func() *app.EventView {
		got, err := w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: e.ID}, "")
		w.must(err)
		return got
	}
	_, err := w.app.Venues.Delete(w.ctx, w.admin(), app.PostRef{ID: hall.ID}, false)
	w.must(err)
	if v, ok := get().Venue.([]any); !ok || len(v) != 0 {
		t.Fatalf("the event kept its trashed venue: %v", get().Venue)
	}
	if page, err := w.app.Venues.List(w.ctx, w.admin(), app.LinkedFilter{HasEvents: ptr(true)}); err != nil || page.Total != 0 {
		t.Fatalf("the index still links the trashed venue: %v %v", page.Total, err)
	}
	_, err = w.app.Organizers.Delete(w.ctx, w.admin(), app.PostRef{ID: ann.ID}, true)
	w.must(err)
	if o := get().Organizer; len(o) != 1 || o[0].Organizer != "Bob" {
		t.Fatalf("organizers after deleting Ann: %+v", o)
	}
	var jazz int64
	for _, c := range get().Categories {
		if c.Name == "Jazz" {
			jazz = c.ID
		}
	}
	_, err = w.app.Categories.Delete(w.ctx, w.admin(), jazz)
	w.must(err)
	if c := get().Categories; len(c) != 1 || c[0].Name != "Blues" {
		t.Fatalf("categories after deleting Jazz: %+v", c)
	}
	if got := w.termNames(w.app.Categories, app.TermFilter{Event: &e.ID}); got != "Blues" {
		t.Fatalf("category list of the event: %q", got)
	}
}

// An unpublished post's link is WordPress' plain one, which names the
// plugin's post types (a client that parses it looks for tribe_events).
func TestAnUnpublishedPostsLinkNamesThePluginsPostType(t *testing.T) {
	w := newWorld(t)
	draft := app.PostFields{Status: calendar.StatusDraft}
	event := w.event("Draft gala", "2030-06-01", app.EventInput{PostFields: draft})
	venue := w.venue("Draft hall", app.LinkedInput{PostFields: draft})
	organizer, err := w.app.Organizers.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("Draft band"), Status: calendar.StatusDraft}})
	w.must(err)
	for _, tc := range []struct{ url, want string }{
		{event.URL, "http://x/?post_type=tribe_events&p="},
		{venue.URL, "http://x/?post_type=tribe_venue&p="},
		{organizer.URL, "http://x/?post_type=tribe_organizer&p="},
	} {
		if !strings.HasPrefix(tc.url, tc.want) {
			t.Errorf("link %q, want it to start with %q", tc.url, tc.want)
		}
	}
	published := w.event("Gala", "2030-06-01", app.EventInput{})
	if published.URL != "http://x/event/gala/" {
		t.Errorf("a published event's link %q, want its permalink", published.URL)
	}
}
