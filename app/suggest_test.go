package app_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
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
