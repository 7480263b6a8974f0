package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// The venue and organizer objects as the plugin shapes them, wherever they
// are shown: read alone, listed, embedded in an event (read alone and
// listed), and answered to a write.

// shownIn reads a venue (venue true) or an organizer in every place a
// visitor sees it, as the JSON objects clients read; event links it.
func (w *world) shownIn(venue bool, id, event int64) map[string]func() map[string]any {
	w.t.Helper()
	object := func(v any) map[string]any {
		var m map[string]any
		raw, _ := json.Marshal(v)
		w.must(json.Unmarshal(raw, &m))
		return m
	}
	embedded := func(e *app.EventView) map[string]any {
		if venue {
			v, ok := e.Venue.(app.VenueView)
			if !ok || v.ID != id {
				w.t.Fatalf("venue %d not embedded: %+v", id, e.Venue)
			}
			return object(v)
		}
		for _, o := range e.Organizer {
			if o.ID == id {
				return object(o)
			}
		}
		w.t.Fatalf("organizer %d not embedded: %+v", id, e.Organizer)
		return nil
	}
	return map[string]func() map[string]any{
		"single": func() map[string]any {
			if venue {
				v, err := w.app.Venues.Get(w.ctx, visitor, app.PostRef{ID: id}, "")
				w.must(err)
				return object(v)
			}
			o, err := w.app.Organizers.Get(w.ctx, visitor, app.PostRef{ID: id}, "")
			w.must(err)
			return object(o)
		},
		"list": func() map[string]any {
			if venue {
				page, err := w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{})
				w.must(err)
				for _, v := range page.Items {
					if v.ID == id {
						return object(v)
					}
				}
			} else {
				page, err := w.app.Organizers.List(w.ctx, visitor, app.LinkedFilter{})
				w.must(err)
				for _, o := range page.Items {
					if o.ID == id {
						return object(o)
					}
				}
			}
			w.t.Fatalf("%d not listed", id)
			return nil
		},
		"in an event": func() map[string]any {
			e, err := w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: event}, "")
			w.must(err)
			return embedded(e)
		},
		"in an event list": func() map[string]any {
			page, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Include: ids(event)})
			w.must(err)
			if len(page.Items) != 1 {
				w.t.Fatalf("event %d not listed: %+v", event, page.Items)
			}
			return embedded(&page.Items[0])
		},
	}
}

// linking makes an event that links the venue and the organizer.
func (w *world) linking(venue, organizer int64) int64 {
	w.t.Helper()
	return w.event("Linking", "2030-01-02", app.EventInput{Venue: &app.LinkRef{ID: venue}, Organizers: &[]app.LinkRef{{ID: organizer}}}).ID
}

// A venue's excerpt is kept and shown everywhere the venue is, rendered as
// every excerpt is (wordpress.RenderContent, as an event's) and bounded as
// every excerpt is. The plugin shows a venue's excerpt in
// Post_Repository::get_venue_data ('excerpt' => the_excerpt of post_excerpt,
// dropped by its array_filter when empty); its venue routes do not register
// excerpt among their write args (Single_Venue::CREATE_args), so writing one
// is this service's addition (docs/contract.md).
func TestAVenuesExcerptIsKeptAndShown(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	raw := `A "quiet" hall -- near the river`
	want := wordpress.RenderContent(raw)
	if !strings.HasPrefix(want, "<p>") || !strings.Contains(want, "&#8220;") {
		t.Fatalf("the excerpt is not rendered as WordPress renders it: %q", want)
	}
	hall := w.venue("Hall", app.LinkedInput{PostFields: app.PostFields{Excerpt: &raw}})
	if hall.Excerpt != want {
		t.Fatalf("the create answered excerpt %q, want %q", hall.Excerpt, want)
	}
	event := w.linking(hall.ID, w.organizer("Ann").ID)
	for where, read := range w.shownIn(true, hall.ID, event) {
		if got := read()["excerpt"]; got != want {
			t.Errorf("%s: excerpt = %#v, want %q", where, got, want)
		}
	}
	// An update changes it, and an empty one clears it (the key goes, as the
	// plugin's array_filter drops it).
	updated, err := w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: hall.ID}, app.LinkedInput{PostFields: app.PostFields{Excerpt: ptr("Smaller")}})
	w.must(err)
	if updated.Excerpt != "<p>Smaller</p>" {
		t.Fatalf("the update answered excerpt %q", updated.Excerpt)
	}
	_, err = w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: hall.ID}, app.LinkedInput{PostFields: app.PostFields{Excerpt: ptr("")}})
	w.must(err)
	for where, read := range w.shownIn(true, hall.ID, event) {
		if got, has := read()["excerpt"]; has {
			t.Errorf("%s: a cleared excerpt is still there: %#v", where, got)
		}
	}
	invalid(t, get(w.app.Venues.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("Long"),
		Excerpt: ptr(strings.Repeat("a", calendar.MaxExcerptBytes+1))}})))
}

// Empty keys of a venue and of an organizer are left out by one rule, in
// every place: the plugin's Post_Repository::get_venue_data runs array_filter
// over the venue before it adds show_map, show_map_link, global_id and
// global_id_lineage (so those stay, false included), and
// Post_Repository::get_organizer_data runs it over the whole organizer, after
// the global IDs (so description, excerpt, phone, website and email go when
// empty). The plugin's tests: OrganizerUpdateCest
// it_should_allow_updating_optional_meta_as_empty_along_with_the_organizer,
// VenueUpdateCest it_should_allow_updating_optional_meta_as_empty_along_with_the_venue.
func TestEmptyLinkedKeysAreLeftOutAsThePluginFilters(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	venue := w.venue("Bare hall", app.LinkedInput{ShowMap: ptr(false), ShowMapLink: ptr(false)})
	organizer := w.organizer("Bare Ann")
	event := w.linking(venue.ID, organizer.ID)
	for _, c := range []struct {
		kind          string
		places        map[string]func() map[string]any
		created       any
		absent, there []string
		values        map[string]any
	}{
		{"venue", w.shownIn(true, venue.ID, event), venue,
			[]string{"description", "excerpt", "image", "address", "city", "country", "province", "state", "zip", "phone", "website", "stateprovince", "geo_lat", "geo_lng"},
			[]string{"id", "author", "status", "date", "url", "venue", "slug", "show_map", "show_map_link", "global_id", "global_id_lineage"},
			map[string]any{"show_map": false, "show_map_link": false}},
		{"organizer", w.shownIn(false, organizer.ID, event), organizer,
			[]string{"description", "excerpt", "image", "phone", "website", "email"},
			[]string{"id", "author", "status", "date", "url", "organizer", "slug", "global_id", "global_id_lineage"}, nil},
	} {
		c.places["the create's answer"] = func() map[string]any {
			var m map[string]any
			w.must(json.Unmarshal(jsonAt(t, c.created), &m))
			return m
		}
		for where, read := range c.places {
			m := read()
			for _, key := range c.absent {
				if v, has := m[key]; has {
					t.Errorf("%s %s: empty %s shown: %#v", c.kind, where, key, v)
				}
			}
			for _, key := range c.there {
				if _, has := m[key]; !has {
					t.Errorf("%s %s: %s missing: %v", c.kind, where, key, m)
				}
			}
			for key, want := range c.values {
				if m[key] != want {
					t.Errorf("%s %s: %s = %#v, want %#v", c.kind, where, key, m[key], want)
				}
			}
		}
	}
}

// An organizer's emptied email, phone and website are cleared and their keys
// go, on the update's answer and on every read; fields an update omits keep
// their values and keys. The plugin: OrganizerUpdateCest
// it_should_allow_updating_optional_meta_as_empty_along_with_the_organizer
// (assertArrayNotHasKey email, phone, website) and
// it_should_allow_updating_without_optional_meta_along_with_the_organizer
// (assertArrayHasKey on an organizer that has them); the rule is
// Post_Repository::get_organizer_data's array_filter.
func TestAnOrganizersEmptiedFieldsGo(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	venue := w.venue("Hall", app.LinkedInput{})
	full := map[string]string{"email": "ann@example.org", "phone": "+33 1", "website": "https://ann.example"}
	for _, c := range []struct {
		name   string
		update app.LinkedInput
		absent []string
		kept   map[string]string
	}{
		{"the email emptied", app.LinkedInput{Meta: map[string]string{"email": ""}}, []string{"email"},
			map[string]string{"phone": "+33 1", "website": "https://ann.example"}},
		{"all three emptied", app.LinkedInput{Meta: map[string]string{"email": "", "phone": "", "website": ""}}, []string{"email", "phone", "website"}, nil},
		{"none sent", app.LinkedInput{PostFields: app.PostFields{Title: ptr("Renamed")}}, nil, full},
	} {
		o, err := w.app.Organizers.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("Ann " + c.name)}, Meta: full})
		w.must(err)
		event := w.linking(venue.ID, o.ID)
		answer, err := w.app.Organizers.Update(w.ctx, w.admin(), app.PostRef{ID: o.ID}, c.update)
		w.must(err)
		places := w.shownIn(false, o.ID, event)
		places["the update's answer"] = func() map[string]any {
			var m map[string]any
			w.must(json.Unmarshal(jsonAt(t, answer), &m))
			return m
		}
		for where, read := range places {
			m := read()
			for _, key := range c.absent {
				if v, has := m[key]; has {
					t.Errorf("%s, %s: emptied %s shown: %#v", c.name, where, key, v)
				}
			}
			for key, want := range c.kept {
				if m[key] != want {
					t.Errorf("%s, %s: %s = %#v, want %q", c.name, where, key, m[key], want)
				}
			}
		}
	}
}

// Organizers are written by whom venues are (the same service): another's
// by ID or slug by editors only, a contributor's a draft.
func TestWhoMayWriteOrganizers(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	o := w.organizer("Admin's organizer")
	phone := app.LinkedInput{Meta: map[string]string{"phone": "1"}}
	for _, ref := range []app.PostRef{{ID: o.ID}, {Slug: o.Slug}} {
		kindAndCode(t, "a contributor updating", get(w.app.Organizers.Update(w.ctx, w.callers[calendar.RoleContributor], ref, phone)),
			calendar.KindForbidden, "rest_forbidden")
		kindAndCode(t, "a contributor deleting", get(w.app.Organizers.Delete(w.ctx, w.callers[calendar.RoleContributor], ref, false)),
			calendar.KindForbidden, "rest_forbidden")
		kindAndCode(t, "an author updating", get(w.app.Organizers.Update(w.ctx, w.callers[calendar.RoleAuthor], ref, phone)),
			calendar.KindForbidden, "rest_forbidden")
		kindAndCode(t, "a visitor updating", get(w.app.Organizers.Update(w.ctx, visitor, ref, phone)), calendar.KindUnauthorized, "rest_forbidden")
		_, err := w.app.Organizers.Update(w.ctx, w.callers[calendar.RoleEditor], ref, phone)
		w.must(err)
	}
	kindAndCode(t, "a subscriber creating", get(w.app.Organizers.Create(w.ctx, w.callers[calendar.RoleSubscriber], app.LinkedInput{PostFields: app.PostFields{Title: ptr("x")}})),
		calendar.KindForbidden, "rest_forbidden")
	mine, err := w.app.Organizers.Create(w.ctx, w.callers[calendar.RoleContributor], app.LinkedInput{PostFields: app.PostFields{Title: ptr("Mine")}})
	w.must(err)
	if mine.Status != calendar.StatusDraft {
		t.Fatalf("a contributor's organizer is %s", mine.Status)
	}
	if _, err := w.app.Organizers.Get(w.ctx, visitor, app.PostRef{ID: o.ID}, ""); err != nil {
		t.Fatalf("a visitor reading it: %v", err)
	}
}
