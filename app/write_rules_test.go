package app_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// What a write may do, whoever sends it and whatever it holds: anonymous
// writes refused before anything is read, what contributors may not
// publish, every text bounded, a bounded number of posts created by one
// write, dates within PHP's years, and writes of one title at once all
// kept apart.

// gala is an event write as the tests send it, changed by change.
func gala(change func(in *app.EventInput)) app.EventInput {
	in := app.EventInput{PostFields: app.PostFields{Title: ptr("Gala")}, StartDate: ptr("2030-06-01 20:00"), EndDate: ptr("2030-06-01 22:00")}
	if change != nil {
		change(&in)
	}
	return in
}

// paramsOf names the parameters an error refuses.
func paramsOf(err error) map[string]string {
	e := calendar.AsError(err)
	if e == nil {
		return nil
	}
	params, _ := e.Data["params"].(map[string]string)
	return params
}

func TestAnonymousWritesAreRefusedBeforeAnythingIsRead(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	e := w.event("Target", "2030-06-01", app.EventInput{})
	v := w.venue("Target", app.LinkedInput{})
	named := func(in *app.EventInput) {
		in.Author = ptr(int64(1))
		in.Venue = &app.LinkRef{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr("Name")}}}
		in.Organizers = &[]app.LinkRef{{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr("Name")}}}, {ID: 999999}}
		in.Categories = strs("Brand new")
	}
	linked := app.LinkedInput{PostFields: app.PostFields{Title: ptr("Name"), Author: ptr(int64(1))}}
	for name, err := range map[string]error{
		"an event created":     get(w.app.Events.Create(w.ctx, visitor, gala(named))),
		"an event updated":     get(w.app.Events.Update(w.ctx, visitor, app.PostRef{ID: e.ID}, gala(named))),
		"a venue created":      get(w.app.Venues.Create(w.ctx, visitor, linked)),
		"a venue updated":      get(w.app.Venues.Update(w.ctx, visitor, app.PostRef{ID: v.ID}, linked)),
		"an organizer created": get(w.app.Organizers.Create(w.ctx, visitor, linked)),
	} {
		if e := calendar.AsError(err); e == nil || e.Kind != calendar.KindUnauthorized || e.Code != "rest_forbidden" {
			t.Errorf("%s anonymously: %v, want a 401 rest_forbidden", name, err)
		}
	}
	for _, list := range []func() (int, error){
		func() (int, error) {
			p, err := w.app.Venues.List(w.ctx, w.admin(), app.LinkedFilter{Search: ptr("Name")})
			return p.Total, err
		},
		func() (int, error) {
			p, err := w.app.Organizers.List(w.ctx, w.admin(), app.LinkedFilter{})
			return p.Total, err
		},
		func() (int, error) {
			p, err := w.app.Categories.List(w.ctx, w.admin(), app.TermFilter{HideEmpty: ptr(false)})
			return p.Total, err
		},
	} {
		if n, err := list(); err != nil || n != 0 {
			t.Errorf("refused writes left %d posts or terms (%v)", n, err)
		}
	}
}

func TestContributorsCannotPublishScheduleOrMakePrivate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	contributor := w.callers[calendar.RoleContributor]
	own, err := w.app.Events.Create(w.ctx, contributor, gala(func(in *app.EventInput) { in.Title = ptr("Own draft"); in.Status = calendar.StatusDraft }))
	w.must(err)
	for _, c := range []struct {
		role   calendar.Role
		status string
		sticky *bool
		code   string // the refusal, or the status written
	}{
		{calendar.RoleContributor, calendar.StatusPrivate, nil, "rest_cannot_publish"},
		{calendar.RoleContributor, calendar.StatusFuture, nil, "rest_cannot_publish"},
		{calendar.RoleContributor, "", ptr(true), "rest_cannot_assign_sticky"},
		{calendar.RoleContributor, calendar.StatusPublish, nil, calendar.StatusPending},
		{calendar.RoleContributor, calendar.StatusPending, ptr(false), calendar.StatusPending},
		{calendar.RoleAuthor, calendar.StatusPrivate, ptr(true), calendar.StatusPrivate},
		{calendar.RoleEditor, calendar.StatusFuture, nil, calendar.StatusFuture},
	} {
		name := fmt.Sprintf("%s sending status %q, sticky %v", c.role, c.status, c.sticky)
		caller := w.callers[c.role]
		change := func(in *app.EventInput) {
			in.Status, in.Flags = c.status, map[string]bool{}
			if c.sticky != nil {
				in.Flags["sticky"] = *c.sticky
			}
		}
		created, err := w.app.Events.Create(w.ctx, caller, gala(change))
		if !strings.HasPrefix(c.code, "rest_") {
			if err != nil || created.Status != c.code {
				t.Errorf("%s: %v, written as %v; want %s", name, err, created, c.code)
			}
			continue
		}
		refused := func(what string, err error) {
			if e := calendar.AsError(err); e == nil || e.Kind != calendar.KindForbidden || e.Code != c.code {
				t.Errorf("%s: %s: %v, want a 403 %s", name, what, err, c.code)
			}
		}
		refused("a create", err)
		var update app.EventInput
		change(&update)
		refused("an update of its own draft", get(w.app.Events.Update(w.ctx, caller, app.PostRef{ID: own.ID}, update)))
		if c.status != "" {
			linked := app.LinkedInput{PostFields: app.PostFields{Title: ptr("Try " + c.status), Status: c.status}}
			refused("a venue", get(w.app.Venues.Create(w.ctx, caller, linked)))
			refused("an organizer", get(w.app.Organizers.Create(w.ctx, caller, linked)))
		}
	}
	after, err := w.app.Events.Get(w.ctx, contributor, app.PostRef{ID: own.ID}, "")
	w.must(err)
	if after.Status != calendar.StatusDraft || after.Sticky == nil || *after.Sticky {
		t.Fatalf("a refused update changed the event: %s, sticky %v", after.Status, after.Sticky)
	}
}

func TestTextFieldsAreBounded(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for name, change := range map[string]func(in *app.EventInput){
		"title":       func(in *app.EventInput) { in.Title = ptr(strings.Repeat("x", calendar.MaxTitleBytes+1)) },
		"description": func(in *app.EventInput) { in.Description = ptr(strings.Repeat("x", calendar.MaxDescriptionBytes+1)) },
		"excerpt":     func(in *app.EventInput) { in.Excerpt = ptr(strings.Repeat("x", calendar.MaxExcerptBytes+1)) },
		"password":    func(in *app.EventInput) { in.Password = ptr(strings.Repeat("x", calendar.MaxPasswordBytes+1)) },
		"image": func(in *app.EventInput) {
			in.Image = ptr("https://img.example/" + strings.Repeat("x", calendar.MaxURLBytes))
		},
		"cost": func(in *app.EventInput) { in.Cost = strs(strings.Repeat("1", 600), strings.Repeat("2", 600)) },
		"tags": func(in *app.EventInput) {
			in.Tags = ptr(strings.Split(strings.Repeat("t,", calendar.MaxEventTerms+1), ","))
		},
	} {
		_, err := w.app.Events.Create(w.ctx, w.admin(), gala(change))
		invalid(t, err)
		if _, named := paramsOf(err)[name]; !named {
			t.Errorf("the refusal of a long %s does not name it: %v", name, err)
		}
	}
	_, err := w.app.Venues.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("V")},
		Meta: map[string]string{"address": strings.Repeat("x", calendar.MaxFieldBytes+1)}})
	invalid(t, err)
	_, err = w.app.Categories.Create(w.ctx, w.admin(), app.TermInput{Name: ptr("C"), Description: ptr(strings.Repeat("x", calendar.MaxExcerptBytes+1))})
	invalid(t, err)
	_, err = w.app.Events.Create(w.ctx, w.admin(), gala(func(in *app.EventInput) {
		in.Title = ptr(strings.Repeat("é", calendar.MaxTitleBytes/2))
		in.Description = ptr(strings.Repeat("y", calendar.MaxDescriptionBytes))
	}))
	w.must(err) // at the bounds
}

func TestOneWriteCreatesABoundedNumberOfLinkedPosts(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	organizers := make([]app.LinkRef, calendar.MaxCreatedPerWrite+1)
	for i := range organizers {
		organizers[i] = app.LinkRef{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr(fmt.Sprintf("New %d", i))}}}
	}
	_, err := w.app.Events.Create(w.ctx, w.admin(), gala(func(in *app.EventInput) { in.Organizers = &organizers }))
	invalid(t, err)
	ten := organizers[:10]
	_, err = w.app.Events.Create(w.ctx, w.admin(), gala(func(in *app.EventInput) {
		in.Organizers, in.Categories = &ten, strs(strings.Split("a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p", ",")...)
	}))
	invalid(t, err)
	if page, err := w.app.Organizers.List(w.ctx, w.admin(), app.LinkedFilter{}); err != nil || page.Total != 0 {
		t.Fatalf("refused writes created %d organizers (%v)", page.Total, err)
	}
	_, err = w.app.Events.Create(w.ctx, w.admin(), gala(func(in *app.EventInput) { in.Organizers, in.Categories = &ten, strs("a", "b", "c") }))
	w.must(err)
}

func TestDatesOutsideYears1To9999AndImpossibleOffsetsAreRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, d := range []string{"9999-12-31 +1 day", "9999-12-31 23:00 -02:00", "0000-06-01", "253402300800", "-62135596801",
		"2027-06-01T10:00:00+99:99", "2027-06-01 10:00 +15:00", "2027-06-01T10:00:00-14:30"} {
		_, err := w.app.Events.Create(w.ctx, w.admin(), gala(func(in *app.EventInput) { in.StartDate = ptr(d) }))
		invalid(t, err)
		_, err = w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: app.Dates{"start_date": d}})
		invalid(t, err)
	}
	edge, err := w.app.Events.Create(w.ctx, w.admin(), gala(func(in *app.EventInput) {
		in.StartDate, in.EndDate = ptr("2027-06-01T10:00:00+14:00"), ptr("9999-12-31 23:59:59")
	}))
	w.must(err)
	if edge.UTCStartDate != "2027-05-31 20:00:00" || edge.EndDate != "9999-12-31 23:59:59" {
		t.Fatalf("the bounds themselves: %v %v", edge.UTCStartDate, edge.EndDate)
	}
}

// Writes of one title (or one slug) at once all succeed, each with a slug of
// its own: the store refuses a slug taken meanwhile and the write takes the
// next one.
func TestConcurrentCreatesOfOneTitleAllSucceed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const n = 24
	for name, create := range map[string]func(i int) (string, error){
		"events": func(int) (string, error) {
			e, err := w.app.Events.Create(w.ctx, w.admin(), gala(nil))
			if err != nil {
				return "", err
			}
			return e.Slug, nil
		},
		"venues": func(i int) (string, error) {
			v, err := w.app.Venues.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("Same"), Description: ptr(fmt.Sprint("Differs ", i))}})
			return v.Slug, err
		},
		"categories": func(i int) (string, error) {
			c, err := w.app.Categories.Create(w.ctx, w.admin(), app.TermInput{Name: ptr(fmt.Sprint("Same ", i)), Slug: ptr("same")})
			if err != nil {
				return "", err
			}
			return c.Slug, nil
		},
	} {
		var wg sync.WaitGroup
		slugs, errs := make([]string, n), make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				slugs[i], errs[i] = create(i)
			}()
		}
		wg.Wait()
		seen := map[string]bool{}
		for i := range n {
			if errs[i] != nil || seen[slugs[i]] {
				t.Fatalf("%s: create %d: %v, slug %q (so far %v)", name, i, errs[i], slugs[i], seen)
			}
			seen[slugs[i]] = true
		}
	}
}
