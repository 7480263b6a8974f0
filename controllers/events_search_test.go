package controllers_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"calendar/app"
)

// onDay is an hour-long event on a day of June 2030.
func onDay(title string, day int, extra map[string]any) map[string]any {
	f := at(title, time.Date(2030, 6, day, 10, 0, 0, 0, time.UTC).Format(app.DateFormat), time.Date(2030, 6, day, 11, 0, 0, 0, time.UTC).Format(app.DateFormat))
	for k, v := range extra {
		f[k] = v
	}
	return f
}

func TestEventSearchByRelevance(t *testing.T) {
	s := startService(t)
	s.event(onDay("Picnic", 1, map[string]any{"description": "Concert"}))
	s.event(onDay("Concert of the year", 2, nil))
	s.event(onDay("Jazz brunch", 3, nil))
	s.event(onDay("Café philo", 4, nil))
	s.event(onDay("Cafe tech", 5, nil))
	s.event(onDay("Jazz brunch again", 6, nil))
	s.event(onDay("Rock", 7, nil))
	s.event(onDay("Crème brûlée", 8, nil))
	s.event(onDay("Cream tea", 9, map[string]any{"description": "Lemon meringue"}))
	window := "start_date=2030-06-01&end_date=2030-06-30&"
	cases := []struct{ name, query, want string }{
		{"title hits rank above description hits", "search=concert&orderby=relevance", "Concert of the year,Picnic"},
		{"the default search keeps start order", "search=concert", "Picnic,Concert of the year"},
		{"one typo in a word of five letters", "search=concrt&orderby=relevance", "Concert of the year,Picnic"},
		{"a typo is no match by default", "search=concrt", ""},
		{"no typo in a word of four letters", "search=jazs&orderby=relevance", ""},
		{"no typo in a word of four letters either", "search=rack&orderby=relevance", ""},
		{"a prefix matches, ties by start", "search=jaz&orderby=relevance", "Jazz brunch,Jazz brunch again"},
		{"equal scores keep start order", "search=jazz%20brunch&orderby=relevance", "Jazz brunch,Jazz brunch again"},
		{"every word must match", "search=jazz%20again&orderby=relevance", "Jazz brunch again"},
		{"unaccented finds accented", "search=cafe&orderby=relevance", "Café philo,Cafe tech"},
		{"accented finds unaccented", "search=caf%C3%A9&orderby=relevance", "Café philo,Cafe tech"},
		{"the default search ignores accents, as WordPress' collation does", "search=cafe", "Café philo,Cafe tech"},
		{"an accented default search finds the word, not its pieces", "search=cr%C3%A8me", "Crème brûlée"},
		{"case does not matter", "search=ROCK&orderby=relevance", "Rock"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := titles(t, s.do("GET", eventsPath+"?"+window+c.query)); got != c.want {
				t.Fatalf("%s: got %q, want %q", c.query, got, c.want)
			}
		})
	}
	t.Run("relevance needs a search", func(t *testing.T) {
		s.do("GET", eventsPath+"?"+window+"orderby=relevance").expectError(t, http.StatusBadRequest, "rest_invalid_param")
	})
	t.Run("relevance pages and links keep the order", func(t *testing.T) {
		res := s.do("GET", eventsPath+"?"+window+"search=concert&orderby=relevance&per_page=1")
		if got := titles(t, res); got != "Concert of the year" || res.Header.Get("X-WP-Total") != "2" {
			t.Fatalf("page 1: %q, total %s", got, res.Header.Get("X-WP-Total"))
		}
		next, _ := url.Parse(res.object(t)["next_rest_url"].(string))
		if got := titles(t, s.do("GET", next.RequestURI())); got != "Picnic" {
			t.Fatalf("page 2 via %s: %q", next, got)
		}
	})
}
