package app_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

func between(start, end string) app.EventInput {
	return app.EventInput{StartDate: &start, EndDate: &end}
}

func TestEventListDateSemantics(t *testing.T) {
	w := newWorld(t)
	multi := w.event("multi", "", between("2017-12-29 10:00:00", "2018-01-02 10:00:00"))
	w.event("afternoon", "", between("2018-01-01 16:00:00", "2018-01-01 16:30:00"))
	w.event("evening", "", between("2018-01-01 20:00:00", "2018-01-01 21:00:00"))
	late := w.event("later", "", between("2018-01-05 10:00:00", "2018-01-05 11:00:00"))
	now := time.Now().UTC()
	w.event("tomorrow", "", between(now.AddDate(0, 0, 1).Format(app.DateFormat), now.AddDate(0, 0, 1).Add(time.Hour).Format(app.DateFormat)))
	w.event("far", "", between(now.AddDate(3, 0, 0).Format(app.DateFormat), now.AddDate(3, 0, 0).Add(time.Hour).Format(app.DateFormat)))
	in2y6m := now.AddDate(2, 6, 0).Format("2006-01-02")
	cases := []struct {
		name string
		f    app.EventFilter
		want string
	}{
		{"start and end contain", app.EventFilter{Dates: app.Dates{"start_date": "2017-12-30", "end_date": "2018-01-10"}}, "afternoon,evening,later"},
		{"ends after and starts before overlap", app.EventFilter{Dates: app.Dates{"ends_after": "2017-12-30", "starts_before": "2018-01-10"}}, "multi,afternoon,evening,later"},
		{"strict dates", app.EventFilter{Dates: app.Dates{"start_date": "2018-01-01 15:00:00", "end_date": "2018-01-01 18:00:00"}, StrictDates: true}, "afternoon"},
		{"whole days", app.EventFilter{Dates: app.Dates{"start_date": "2018-01-01 15:00:00", "end_date": "2018-01-01 18:00:00"}}, "afternoon,evening"},
		{"starts after a whole day", app.EventFilter{Dates: app.Dates{"starts_after": "2018-01-01", "starts_before": "2018-01-10"}}, "later"},
		{"ends after a whole day", app.EventFilter{Dates: app.Dates{"ends_after": "2018-01-02", "ends_before": "2018-01-10"}}, "later"},
		{"ends before", app.EventFilter{Dates: app.Dates{"ends_before": "2018-01-02", "ends_after": "2017-01-01"}}, "multi,afternoon,evening"},
		{"Unix timestamps", app.EventFilter{Dates: app.Dates{"start_date": "1514764800", "end_date": "1515196800"}}, "afternoon,evening,later"},
		{"include, by publication", app.EventFilter{Include: ids(late.ID, multi.ID)}, "multi,later"},
		{"include ignores dates", app.EventFilter{Include: ids(late.ID), Dates: app.Dates{"start_date": "2030-01-01"}}, "later"},
		{"the default window: yesterday to two years ahead", app.EventFilter{}, "tomorrow"},
		{"a start past the window's end", app.EventFilter{Dates: app.Dates{"start_date": in2y6m}}, ""},
		{"a start and an end of one's own", app.EventFilter{Dates: app.Dates{"start_date": in2y6m, "end_date": now.AddDate(4, 0, 0).Format("2006-01-02")}}, "far"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := w.titles(visitor, c.f); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	for name, f := range map[string]app.EventFilter{
		"a start that is no date": {Dates: app.Dates{"start_date": "before my birthday"}},
		"ends_after foo":          {Dates: app.Dates{"ends_after": "foo"}},
		"include foo":             {Include: ids(-3, 23)},
		"an unknown venue":        {Venues: ids(99999)},
		"organizer 0":             {Organizers: ids(0)},
		"an unknown category":     {Categories: strs("nope")},
		"no tags":                 {Tags: strs()},
		"an unknown parent":       {Parent: ptr(int64(23))},
	} {
		t.Run("rejects "+name, func(t *testing.T) {
			_, err := w.app.Events.List(w.ctx, visitor, f)
			invalid(t, err)
		})
	}
}

func TestEventListFilters(t *testing.T) {
	w := newWorld(t)
	hall, club := w.venue("Hall", app.LinkedInput{}), w.venue("Club", app.LinkedInput{})
	ann, bob := w.organizer("Ann"), w.organizer("Bob")
	day := func(title string, d int, in app.EventInput) {
		w.event(title, fmt.Sprintf("2030-03-%02d", d), in)
	}
	with := func(set func(*app.EventInput)) app.EventInput {
		var in app.EventInput
		set(&in)
		return in
	}
	day("jazz night", 1, with(func(in *app.EventInput) {
		in.Venue, in.Organizers, in.Categories, in.Tags = &app.LinkRef{ID: hall.ID}, &[]app.LinkRef{{ID: ann.ID}}, strs("Music", "Jazz"), strs("late")
		in.Flags, in.Description = map[string]bool{"featured": true}, ptr("Bring foo friends")
	}))
	day("rock night", 2, with(func(in *app.EventInput) {
		in.Venue, in.Organizers, in.Categories, in.Excerpt = &app.LinkRef{ID: club.ID}, &[]app.LinkRef{{ID: bob.ID}, {ID: ann.ID}}, strs("Music"), ptr("bar")
	}))
	day("film", 3, with(func(in *app.EventInput) { in.Categories, in.Tags = strs("Cinema"), strs("late") }))
	day("hidden", 4, with(func(in *app.EventInput) { in.Flags = map[string]bool{"hide_from_listings": true} }))
	day("draft", 5, with(func(in *app.EventInput) { in.Status = calendar.StatusDraft }))
	day("secret", 6, with(func(in *app.EventInput) {
		in.Password, in.Description, in.Venue = ptr("sesame"), ptr("classified"), &app.LinkRef{ID: hall.ID}
	}))
	march := month("2030-03")
	cases := []struct {
		name string
		f    app.EventFilter
		want string
	}{
		{"no filter", app.EventFilter{}, "jazz night,rock night,film,secret"},
		{"a venue", app.EventFilter{Venues: ids(hall.ID)}, "jazz night,secret"},
		{"venues", app.EventFilter{Venues: ids(hall.ID, club.ID)}, "jazz night,rock night,secret"},
		{"an organizer", app.EventFilter{Organizers: ids(ann.ID)}, "jazz night,rock night"},
		{"another organizer", app.EventFilter{Organizers: ids(bob.ID)}, "rock night"},
		{"a category by slug", app.EventFilter{Categories: strs("music")}, "jazz night,rock night"},
		{"categories", app.EventFilter{Categories: strs("jazz", "cinema")}, "jazz night,film"},
		{"a tag", app.EventFilter{Tags: strs("late")}, "jazz night,film"},
		{"a category and a tag", app.EventFilter{Categories: strs("music"), Tags: strs("late")}, "jazz night"},
		{"featured", app.EventFilter{Featured: ptr(true)}, "jazz night"},
		{"not featured", app.EventFilter{Featured: ptr(false)}, "rock night,film,secret"},
		{"a search", app.EventFilter{Search: ptr("night")}, "jazz night,rock night"},
		{"every word of a search, any case", app.EventFilter{Search: ptr("NIGHT jazz")}, "jazz night"},
		{"a search in the description", app.EventFilter{Search: ptr("foo")}, "jazz night"},
		{"a search in the excerpt", app.EventFilter{Search: ptr("bar rock")}, "rock night"},
		{"a search of nothing", app.EventFilter{Search: ptr("nothing")}, ""},
		{"published", app.EventFilter{Statuses: strs("publish")}, "jazz night,rock night,film,secret"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.f.Dates = march
			if got := w.titles(visitor, c.f); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	t.Run("editors see drafts; status is checked per role", func(t *testing.T) {
		if got := w.titles(w.callers[calendar.RoleEditor], app.EventFilter{Dates: march}); got != "jazz night,rock night,film,draft,secret" {
			t.Fatalf("editor sees %q", got)
		}
		contributor := w.callers[calendar.RoleContributor]
		if got := w.titles(contributor, app.EventFilter{Dates: march, Statuses: strs("draft")}); got != "" {
			t.Fatalf("a contributor lists the administrator's draft: %q", got)
		}
		day("own draft", 7, app.EventInput{PostFields: app.PostFields{Author: &contributor.User.ID, Status: calendar.StatusDraft}})
		if got := w.titles(contributor, app.EventFilter{Dates: march, Statuses: strs("draft")}); got != "own draft" {
			t.Fatalf("contributor status=draft sees %q", got)
		}
		_, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: march, Statuses: strs("publish", "draft")})
		invalid(t, err)
		_, err = w.app.Events.List(w.ctx, w.admin(), app.EventFilter{Dates: march, Statuses: strs("any")})
		invalid(t, err)
	})
	t.Run("protected events are listed masked unless the password is sent", func(t *testing.T) {
		find := func(password string) app.EventView {
			page, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: march, Password: password})
			w.must(err)
			for _, e := range page.Items {
				if e.Title == "secret" {
					return e
				}
			}
			t.Fatal("secret not listed")
			return app.EventView{}
		}
		masked := find("")
		if v, ok := masked.Venue.([]any); masked.Description != "" || masked.Featured != nil || !ok || len(v) != 0 {
			t.Fatalf("masked event: %+v", masked)
		}
		if open := find("sesame"); open.Description != "<p>classified</p>" {
			t.Fatalf("with the password: %v", open.Description)
		}
	})
	t.Run("category counts follow published events", func(t *testing.T) {
		page, err := w.app.Categories.List(w.ctx, visitor, app.TermFilter{OrderBy: ptr("count"), Order: ptr("desc")})
		w.must(err)
		var got []string
		for _, c := range page.Items {
			got = append(got, fmt.Sprintf("%s=%d", c.Name, c.Count))
		}
		sort.Strings(got)
		if strings.Join(got, " ") != "Cinema=1 Jazz=1 Music=2" {
			t.Fatalf("counts: %v", got)
		}
	})
}
