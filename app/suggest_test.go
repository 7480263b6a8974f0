package app_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
)

// Suggestions complete what a reader types: the soonest upcoming events
// the search finds (each series once, no past event), then the categories,
// tags, venues and cities of the most upcoming events, with the matching
// words marked; never what the caller may not read (a draft event, its
// category, a draft venue and its city).
func TestSuggestionsCompleteWhatTheReaderMaySee(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	day := func(n int) string { return time.Now().UTC().AddDate(0, 0, n).Format("2006-01-02") }
	teatro := w.venue("Teatro Municipale", app.LinkedInput{Meta: map[string]string{"city": "Piacenza"}})
	hidden := w.venue("Pianohaus", app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusDraft}, Meta: map[string]string{"city": "Pianosa"}})
	piano := []string{"Piano music"}
	w.event("Piano night", day(1), app.EventInput{Categories: &piano})
	w.event("Piano recital", day(3), app.EventInput{Categories: &piano})
	w.event("Opera", day(4), app.EventInput{Venue: &app.LinkRef{ID: teatro.ID}})
	w.event("Piano lessons", day(5), app.EventInput{Recurrence: strs("RRULE:FREQ=WEEKLY;COUNT=3")})
	w.event("Piano secrets", day(2), app.EventInput{PostFields: app.PostFields{Status: calendar.StatusDraft}, Categories: &[]string{"Pianola"}})
	w.event("Cellar", day(6), app.EventInput{Venue: &app.LinkRef{ID: hidden.ID}})
	w.event("Piano of old", day(-30), app.EventInput{})
	suggest := func(caller app.Caller, typed string) string {
		t.Helper()
		got, err := w.app.Events.Suggest(w.ctx, caller, typed)
		w.must(err)
		var out []string
		for _, s := range got {
			out = append(out, fmt.Sprintf("%s:%s=%d", s.Type, s.Highlight, s.Count))
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		name, typed string
		caller      app.Caller
		want        string
	}{
		{"a visitor: published events soonest first, then values by their upcoming events", "pia", visitor,
			"event:<mark>Piano</mark> night=0 event:<mark>Piano</mark> recital=0 event:<mark>Piano</mark> lessons=0 category:<mark>Piano</mark> music=2 city:<mark>Piacenza</mark>=1"},
		{"an administrator sees the draft, its category, the draft venue and its city", "pia", w.admin(),
			"event:<mark>Piano</mark> night=0 event:<mark>Piano</mark> secrets=0 event:<mark>Piano</mark> recital=0 event:<mark>Piano</mark> lessons=0 " +
				"category:<mark>Piano</mark> music=2 category:<mark>Pianola</mark>=1 venue:<mark>Pianohaus</mark>=1 city:<mark>Piacenza</mark>=1 city:<mark>Pianosa</mark>=1"},
		{"a typo", "teatri", visitor, "venue:<mark>Teatro</mark> Municipale=1"},
		{"nothing matches", "zzz", visitor, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := suggest(c.caller, c.typed); got != c.want {
				t.Fatalf("%q:\n%s\nwant\n%s", c.typed, got, c.want)
			}
		})
	}
}

// A venue beyond the facet's 1,000 most frequent is suggested: suggestions
// find categories, tags and venues by their names' words (a facet search),
// not among each facet's most frequent values.
func TestSuggestionsFindAVenueBeyondTheMostFrequentThousand(t *testing.T) {
	t.Parallel()
	var live *index.Live
	w := newWorldWatched(t, func(idx *index.Live) calendar.Index { live = idx; return idx })
	rare := w.venue("Zebra Philharmonie", app.LinkedInput{})
	w.event("Quiet quartet", time.Now().UTC().AddDate(0, 0, 7).Format("2006-01-02"), app.EventInput{Venue: &app.LinkRef{ID: rare.ID}})
	// 1,000 venues of two upcoming events each, written to the index alone
	// (cheap; the store has no such venue, so none is named): the rare
	// venue, of one event, is the 1,001st.
	start := time.Now().UTC().AddDate(0, 0, 10).Truncate(time.Hour)
	var crowd []*calendar.Post
	for k := range int64(calendar.MaxFacetValues) {
		for e := range int64(2) {
			crowd = append(crowd, &calendar.Post{ID: 1_000_000 + 2*k + e, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "Concert",
				Start: start, End: start.Add(time.Hour), Venue: 2_000_000 + k})
		}
	}
	w.must(live.PutPosts(w.ctx, crowd))
	got, err := w.app.Events.Suggest(w.ctx, visitor, "philh")
	w.must(err)
	var venues []string
	for _, s := range got {
		if s.Type == "venue" {
			venues = append(venues, fmt.Sprintf("%s=%d", s.Highlight, s.Count))
		}
	}
	if want := "Zebra <mark>Philharmonie</mark>=1"; strings.Join(venues, " ") != want {
		t.Fatalf("venues suggested for %q: %q, want %q", "philh", venues, want)
	}
}

// refusingVenueSearches is the index refusing every facet search of venues
// as too broad, as one of more than calendar.MaxSearchTerms names' words.
type refusingVenueSearches struct{ *index.Live }

func (r refusingVenueSearches) SearchPosts(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	if q.FacetSearch != "" && slices.Equal(q.Facets, []string{calendar.FacetVenue}) {
		return calendar.PostPage{}, calendar.ErrFacetSearchTooBroad(q.FacetSearch)
	}
	return r.Live.SearchPosts(ctx, q)
}

// A kind whose facet search is refused as too broad is left out of the
// suggestions; the others are answered.
func TestSuggestionsLeaveOutAKindWhoseSearchIsTooBroad(t *testing.T) {
	t.Parallel()
	w := newWorldWatched(t, func(idx *index.Live) calendar.Index { return refusingVenueSearches{idx} })
	hall := w.venue("Piano hall", app.LinkedInput{Meta: map[string]string{"city": "Pianosa"}})
	w.event("Recital", time.Now().UTC().AddDate(0, 0, 3).Format("2006-01-02"), app.EventInput{Venue: &app.LinkRef{ID: hall.ID}, Categories: &[]string{"Piano music"}})
	got, err := w.app.Events.Suggest(w.ctx, visitor, "pia")
	w.must(err)
	var out []string
	for _, s := range got {
		out = append(out, s.Type+":"+s.Text)
	}
	if want := "category:Piano music city:Pianosa"; strings.Join(out, " ") != want {
		t.Fatalf("suggested: %q, want %q", out, want)
	}
}
