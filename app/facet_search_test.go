package app_test

import (
	"fmt"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// A facet search answers the facet's values whose name (a word of it, or
// its slug) begins with what was typed, then those one typo from it, each
// counted as facets= counts it: under the list's filters but the facet's
// own, never a value the caller may not read.
func TestAFacetSearchFindsValuesByTheirNamesUnderTheListsFilters(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	phil := w.venue("Berlin Philharmonie", app.LinkedInput{})
	philips := w.venue("Philips Hall", app.LinkedInput{})
	konzert := w.venue("Konzerthaus", app.LinkedInput{})
	phantom := w.venue("Phantom cellar", app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusDraft}})
	at := func(title, day string, venue int64, categories ...string) {
		w.event(title, day, app.EventInput{Venue: &app.LinkRef{ID: venue}, Categories: &categories})
	}
	at("Symphony", "2030-06-01", phil.ID, "Classical")
	at("Quartet", "2030-06-02", phil.ID, "Chamber music")
	at("Big band", "2030-06-03", philips.ID, "Jazz")
	at("Organ", "2030-06-04", konzert.ID, "Classical")
	at("Secret set", "2030-06-05", phantom.ID, "Jazz")
	june := month("2030-06")
	search := func(caller app.Caller, facet, typed string, f app.EventFilter) string {
		t.Helper()
		f.Dates = june
		values, err := w.app.Events.FacetSearch(w.ctx, caller, facet, typed, f)
		w.must(err)
		var out []string
		for _, v := range values {
			out = append(out, fmt.Sprintf("%s=%d", v.Name, v.Count))
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		name, facet, typed string
		f                  app.EventFilter
		caller             app.Caller
		want               string
	}{
		{"a word's beginning, most events first", calendar.FacetVenue, "phil", app.EventFilter{}, visitor, "Berlin Philharmonie=2 Philips Hall=1"},
		{"the name's beginning, accents and case aside", calendar.FacetVenue, "KÖNZ", app.EventFilter{}, visitor, "Konzerthaus=1"},
		{"one typo from five letters on", calendar.FacetVenue, "philharminie", app.EventFilter{}, visitor, "Berlin Philharmonie=2"},
		{"no typo under five letters", calendar.FacetVenue, "phul", app.EventFilter{}, visitor, ""},
		{"counted under the list's filters", calendar.FacetVenue, "phil", app.EventFilter{Categories: strs("classical")}, visitor, "Berlin Philharmonie=1"},
		{"a draft venue is never named to a visitor", calendar.FacetVenue, "pha", app.EventFilter{}, visitor, ""},
		{"to its readers it is", calendar.FacetVenue, "pha", app.EventFilter{}, w.admin(), "Phantom cellar=1"},
		{"disjunctive: the facet's own filter is not applied", calendar.FacetCategories, "c", app.EventFilter{Categories: strs("jazz")}, visitor, "Classical=2 Chamber music=1"},
		{"a search of the search's words", calendar.FacetCategories, "mus", app.EventFilter{}, visitor, "Chamber music=1"},
		{"nothing typed: every value", calendar.FacetCategories, "", app.EventFilter{Search: ptr("organ")}, visitor, "Classical=1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := search(c.caller, c.facet, c.typed, c.f); got != c.want {
				t.Fatalf("%s %q: %q, want %q", c.facet, c.typed, got, c.want)
			}
		})
	}
	t.Run("the list's filters are checked as the list checks them", func(t *testing.T) {
		_, err := w.app.Events.FacetSearch(w.ctx, visitor, calendar.FacetVenue, "phil", app.EventFilter{Dates: june, Categories: strs("no-such-category")})
		invalid(t, err)
	})
}
