package app_test

import (
	"fmt"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// summary writes a facet as "key=count" pairs in the answer's order: terms by
// name, venues and organizers by ID, featured by value.
func summary(f app.Facet) string {
	var out []string
	for _, v := range f.Values {
		key := v.Name
		switch {
		case f.Name == calendar.FacetVenue || f.Name == calendar.FacetOrganizer:
			key = fmt.Sprint(v.ID)
		case v.Value != nil:
			key = fmt.Sprint(*v.Value)
		}
		out = append(out, fmt.Sprintf("%s=%d", key, v.Count))
	}
	return strings.Join(out, " ")
}

func (w *world) facets(caller app.Caller, f app.EventFilter) map[string]app.Facet {
	w.t.Helper()
	page, err := w.app.Events.List(w.ctx, caller, f)
	w.must(err)
	out := map[string]app.Facet{}
	for _, facet := range page.Facets {
		out[facet.Name] = facet
	}
	return out
}

func TestEventFacets(t *testing.T) {
	w := newWorld(t)
	hall, club := w.venue("Hall", app.LinkedInput{}), w.venue("Club", app.LinkedInput{})
	ann, bob := w.organizer("Ann"), w.organizer("Bob")
	type extra struct {
		venue      int64
		organizers []int64
		categories []string
		tags       []string
		featured   bool
		status     string
		hidden     bool
	}
	day := func(title, date string, x extra) {
		in := app.EventInput{PostFields: app.PostFields{Status: x.status}, Flags: map[string]bool{"featured": x.featured, "hide_from_listings": x.hidden}}
		if x.venue != 0 {
			in.Venue = &app.LinkRef{ID: x.venue}
		}
		if x.organizers != nil {
			refs := []app.LinkRef{}
			for _, id := range x.organizers {
				refs = append(refs, app.LinkRef{ID: id})
			}
			in.Organizers = &refs
		}
		if x.categories != nil {
			in.Categories = &x.categories
		}
		if x.tags != nil {
			in.Tags = &x.tags
		}
		w.event(title, date, in)
	}
	day("jazz night", "2030-07-01", extra{venue: hall.ID, organizers: []int64{ann.ID}, categories: []string{"Music", "Jazz"}, tags: []string{"late"}, featured: true})
	day("rock night", "2030-07-02", extra{venue: club.ID, organizers: []int64{bob.ID, ann.ID}, categories: []string{"Music"}})
	day("film", "2030-07-03", extra{categories: []string{"Cinema"}, tags: []string{"late"}, venue: hall.ID})
	day("draft", "2030-07-04", extra{status: "draft", categories: []string{"Music", "Draftcat"}, venue: club.ID})
	day("hidden", "2030-07-05", extra{hidden: true, categories: []string{"Music"}})
	day("autumn", "2030-09-01", extra{categories: []string{"Music"}, venue: club.ID, featured: true})
	july := month("2030-07")
	all := strs(calendar.FacetNames...)

	t.Run("counts and order", func(t *testing.T) {
		f := w.facets(visitor, app.EventFilter{Dates: july, Facets: all})
		want := map[string]string{
			"categories": "Music=2 Jazz=1 Cinema=1",
			"tags":       "late=2",
			"venue":      fmt.Sprintf("%d=2 %d=1", hall.ID, club.ID),
			"organizer":  fmt.Sprintf("%d=2 %d=1", ann.ID, bob.ID),
			"featured":   "false=2 true=1",
		}
		for name, want := range want {
			if got := summary(f[name]); got != want {
				t.Errorf("%s: got %q, want %q", name, got, want)
			}
		}
		if v := f["categories"].Values[0]; v.Slug != "music" || v.ID == 0 {
			t.Errorf("a category value: %+v", v)
		}
		onePage := w.facets(visitor, app.EventFilter{Dates: july, Facets: all, Page: app.PageRequest{Page: 2, PerPage: 1}})
		if got := summary(onePage["categories"]); got != want["categories"] {
			t.Errorf("counts of page 2 of 1 event: %q, want those of all matches", got)
		}
	})

	// Each count must be the total of the list filtered by that value.
	for _, c := range []struct {
		name   string
		f      app.EventFilter
		caller app.Caller
	}{
		{"a month", app.EventFilter{Dates: july}, visitor},
		{"a month and a search", app.EventFilter{Dates: july, Search: ptr("night")}, visitor},
		{"a month and a category", app.EventFilter{Dates: july, Categories: strs("music")}, visitor},
		{"drafts for an editor", app.EventFilter{Dates: july}, w.callers[calendar.RoleEditor]},
		{"a month and a relevance search with a typo", app.EventFilter{Dates: july, Search: ptr("nigth"), OrderBy: "relevance"}, visitor},
		{"two months", app.EventFilter{Dates: app.Dates{"start_date": "2030-07-01", "end_date": "2030-09-30"}}, visitor},
	} {
		t.Run("counts are list totals: "+c.name, func(t *testing.T) {
			withFacets := c.f
			withFacets.Facets = all
			f := w.facets(c.caller, withFacets)
			if len(f["categories"].Values) == 0 {
				t.Fatal("no category counted")
			}
			for name, facet := range f {
				for _, v := range facet.Values {
					filtered := c.f
					switch name {
					case calendar.FacetFeatured:
						filtered.Featured = v.Value
					case calendar.FacetCategories:
						filtered.Categories = strs(fmt.Sprint(v.ID))
					case calendar.FacetTags:
						filtered.Tags = strs(fmt.Sprint(v.ID))
					case calendar.FacetVenue:
						filtered.Venues = ids(v.ID)
					case calendar.FacetOrganizer:
						filtered.Organizers = ids(v.ID)
					}
					page, err := w.app.Events.List(w.ctx, c.caller, filtered)
					w.must(err)
					if page.Total != v.Count {
						t.Errorf("%s %+v: the list has %d events, the facet says %d", name, v, page.Total, v.Count)
					}
				}
			}
		})
	}

	t.Run("drafts count for editors only, the window bounds the counts", func(t *testing.T) {
		categories := strs(calendar.FacetCategories)
		for _, c := range []struct{ got, want string }{
			{summary(w.facets(visitor, app.EventFilter{Dates: july, Facets: categories})["categories"]), "Music=2 Jazz=1 Cinema=1"},
			{summary(w.facets(w.callers[calendar.RoleEditor], app.EventFilter{Dates: july, Facets: categories})["categories"]), "Music=3 Jazz=1 Cinema=1 Draftcat=1"},
			{summary(w.facets(visitor, app.EventFilter{Dates: app.Dates{"start_date": "2030-07-01", "end_date": "2030-09-30"}, Facets: categories})["categories"]), "Music=3 Jazz=1 Cinema=1"},
		} {
			if c.got != c.want {
				t.Errorf("got %q, want %q", c.got, c.want)
			}
		}
	})

	t.Run("only the facets asked for; none, none at all", func(t *testing.T) {
		page, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: july, Facets: strs("featured", "venue")})
		w.must(err)
		if len(page.Facets) != 2 || page.Facets[0].Name != "venue" || page.Facets[1].Name != "featured" {
			t.Fatalf("facets: %+v", page.Facets)
		}
		without, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: july}) // the same query: the cache must not answer with facets
		w.must(err)
		if without.Facets != nil {
			t.Fatalf("facets without asking: %+v", without.Facets)
		}
		empty := w.facets(visitor, app.EventFilter{Dates: app.Dates{"start_date": "2040-01-01", "end_date": "2040-01-02"}, Facets: strs("tags")})
		if tags, ok := empty["tags"]; !ok || tags.Values == nil || len(tags.Values) != 0 {
			t.Fatalf("no match: %+v", empty)
		}
	})
}
