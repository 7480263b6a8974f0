package app_test

import (
	"testing"

	"calendar/app"
)

func TestEventSearchByRelevance(t *testing.T) {
	w := newWorld(t)
	describe := func(d string) app.EventInput { return app.EventInput{PostFields: app.PostFields{Description: &d}} }
	w.event("Picnic", "2030-06-01", describe("Concert"))
	w.event("Concert of the year", "2030-06-02", app.EventInput{})
	w.event("Jazz brunch", "2030-06-03", app.EventInput{})
	w.event("Café philo", "2030-06-04", app.EventInput{})
	w.event("Cafe tech", "2030-06-05", app.EventInput{})
	w.event("Jazz brunch again", "2030-06-06", app.EventInput{})
	w.event("Rock", "2030-06-07", app.EventInput{})
	w.event("Crème brûlée", "2030-06-08", app.EventInput{})
	w.event("Cream tea", "2030-06-09", describe("Lemon meringue"))
	cases := []struct{ name, search, order, want string }{
		{"title hits rank above description hits", "concert", "relevance", "Concert of the year,Picnic"},
		{"the default search keeps start order", "concert", "", "Picnic,Concert of the year"},
		{"one typo in a word of five letters", "concrt", "relevance", "Concert of the year,Picnic"},
		{"a typo matches in start order too, as by relevance", "concrt", "", "Picnic,Concert of the year"},
		{"a fragment within a word matches by relevance too, ties by start", "oncer", "relevance", "Picnic,Concert of the year"},
		{"no typo in a word of four letters in start order either", "jazs", "", ""},
		{"no typo in a word of four letters", "jazs", "relevance", ""},
		{"no typo in a word of four letters either", "rack", "relevance", ""},
		{"a prefix matches, ties by start", "jaz", "relevance", "Jazz brunch,Jazz brunch again"},
		{"equal scores keep start order", "jazz brunch", "relevance", "Jazz brunch,Jazz brunch again"},
		{"every word must match", "jazz again", "relevance", "Jazz brunch again"},
		{"unaccented finds accented", "cafe", "relevance", "Café philo,Cafe tech"},
		{"accented finds unaccented", "café", "relevance", "Café philo,Cafe tech"},
		{"the default search ignores accents, as WordPress' collation does", "cafe", "", "Café philo,Cafe tech"},
		{"an accented default search finds the word, not its pieces", "crème", "", "Crème brûlée"},
		{"case does not matter", "ROCK", "relevance", "Rock"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := w.titles(visitor, app.EventFilter{Dates: month("2030-06"), Search: ptr(c.search), OrderBy: c.order}); got != c.want {
				t.Fatalf("%s (%s): got %q, want %q", c.search, c.order, got, c.want)
			}
		})
	}
	t.Run("relevance needs a search", func(t *testing.T) {
		_, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: month("2030-06"), OrderBy: "relevance"})
		invalid(t, err)
	})
	t.Run("relevance pages keep the order", func(t *testing.T) {
		f := app.EventFilter{Dates: month("2030-06"), Search: ptr("concert"), OrderBy: "relevance", Page: app.PageRequest{PerPage: 1}}
		page, err := w.app.Events.List(w.ctx, visitor, f)
		w.must(err)
		if page.Items[0].Title != "Concert of the year" || page.Total != 2 {
			t.Fatalf("page 1: %q, total %d", page.Items[0].Title, page.Total)
		}
		f.Page.Page = 2
		if got := w.titles(visitor, f); got != "Picnic" {
			t.Fatalf("page 2: %q", got)
		}
	})
}
