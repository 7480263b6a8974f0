package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
)

// world is the app over the embedded store and a real index in a temporary
// directory, with a caller of each role: the domain's rules are tested on it
// without HTTP.
type world struct {
	t       *testing.T
	ctx     context.Context
	store   calendar.Store
	app     *app.App
	callers map[calendar.Role]app.Caller
}

// visitor is an anonymous caller.
var visitor = app.Caller{Root: "http://x/vendor/events/v1/"}

func newWorld(t *testing.T, settings ...func(*app.Settings)) *world {
	t.Helper()
	return newWorldWatched(t, func(idx *index.Live) calendar.Index { return idx }, settings...)
}

// newWorldWatched is newWorld with the app's index seen through watch (the
// real index, wrapped to observe the searches that reach it).
func newWorldWatched(t *testing.T, watch func(*index.Live) calendar.Index, settings ...func(*app.Settings)) *world {
	t.Helper()
	store, idx := openStoreAndIndex(t)
	s := app.Settings{SiteURL: "http://x", SearchBudget: 2 * time.Minute} // slower on a busy machine, not a 503
	for _, change := range settings {
		change(&s)
	}
	w := &world{t: t, ctx: context.Background(), store: store, app: app.New(store, watch(idx), s), callers: map[calendar.Role]app.Caller{}}
	if _, err := w.app.Users.EnsureAdmin(w.ctx, "a long enough password"); err != nil {
		t.Fatal(err)
	}
	admin, err := w.app.Users.Authenticate(w.ctx, "", "admin", "a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	w.callers[calendar.RoleAdministrator] = app.Caller{User: admin, Root: visitor.Root}
	for _, role := range calendar.Roles[1:] {
		created, err := w.app.Users.Create(w.ctx, w.admin(), app.UserInput{Login: "u-" + string(role), Role: role})
		if err != nil {
			t.Fatal(err)
		}
		u, _ := w.app.Users.AuthenticateToken(w.ctx, "", created.ApplicationPassword)
		w.callers[role] = app.Caller{User: u, Root: visitor.Root}
	}
	return w
}

func (w *world) admin() app.Caller { return w.callers[calendar.RoleAdministrator] }

func (w *world) must(err error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatal(err)
	}
}

// event creates an event as the administrator, on day ("2030-06-01") from
// 10:00 to 11:00 unless in says otherwise.
func (w *world) event(title, day string, in app.EventInput) *app.EventView {
	w.t.Helper()
	in.Title = &title
	if in.StartDate == nil {
		in.StartDate = ptr(day + " 10:00:00")
	}
	if in.EndDate == nil {
		in.EndDate = ptr(day + " 11:00:00")
	}
	e, err := w.app.Events.Create(w.ctx, w.admin(), in)
	w.must(err)
	return e
}

// venue creates a venue as the administrator.
func (w *world) venue(name string, in app.LinkedInput) app.VenueView {
	w.t.Helper()
	in.Title = &name
	v, err := w.app.Venues.Create(w.ctx, w.admin(), in)
	w.must(err)
	return v
}

// organizer creates an organizer as the administrator.
func (w *world) organizer(name string) app.OrganizerView {
	w.t.Helper()
	o, err := w.app.Organizers.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: &name}})
	w.must(err)
	return o
}

// titles lists the events a caller lists, in order.
func (w *world) titles(caller app.Caller, f app.EventFilter) string {
	w.t.Helper()
	page, err := w.app.Events.List(w.ctx, caller, f)
	w.must(err)
	var out []string
	for _, e := range page.Items {
		out = append(out, e.Title)
	}
	return strings.Join(out, ",")
}

// invalid checks that err is a rest_invalid_param (or another code given).
func invalid(t *testing.T, err error, code ...string) {
	t.Helper()
	want := "rest_invalid_param"
	if len(code) > 0 {
		want = code[0]
	}
	var e *calendar.Error
	if !errors.As(err, &e) || e.Code != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}

// month is a filter of the events of a month ("2030-06").
func month(m string) app.Dates {
	last := map[string]string{"02": "28", "04": "30", "06": "30", "09": "30", "11": "30"}[m[5:]]
	if last == "" {
		last = "31"
	}
	return app.Dates{"start_date": m + "-01", "end_date": m + "-" + last}
}

func ids(ids ...int64) *[]int64 { return &ids }

func strs(s ...string) *[]string { return &s }

// ptr is a pointer to a copy of v, for the optional fields of the typed requests.
func ptr[T any](v T) *T { return &v }

// get keeps the error of a service call.
func get[V any](_ V, err error) error { return err }
