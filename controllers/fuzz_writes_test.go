package controllers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
	"calendar/repository/bolt"
)

// FuzzWritesByEveryRole sends any JSON body as a create or an update of an
// event, a venue or an organizer, as any caller, through what a request goes
// through (the declared parameters, the readers of params.go, then the
// service). Whatever the fields, nothing panics or answers a 5xx, no
// anonymous caller or subscriber writes anything, and no caller below editor
// stores another's authorship or a status it may not give.
func FuzzWritesByEveryRole(f *testing.F) {
	for _, seed := range []string{
		`{"title":"t","start_date":"2031-01-01 10:00","end_date":"2031-01-01 11:00","author":1,"status":"private","sticky":true}`,
		`{"venue":"V","status":"future","password":"p","geo_lat":91,"geo_lng":"x","author":"1"}`,
		`{"organizer":"O","email":"bad","status":"publish","author":2}`,
		`{"title":"t","start_date":"10000-01-01","end_date":"tomorrow","venue":{"id":1},"organizer":[{"organizer":"x"},2,"3"],"categories":"a,b","cost":["1",{"$gt":""}]}`,
		`{"title":"","slug":"../x","timezone":"UTC+99","image":"javascript:x","website":"//x","date":"@-99999999999"}`,
	} {
		for op := byte(0); op < 9; op++ {
			f.Add(seed, op, byte(op*3))
		}
	}
	ctx := context.Background()
	dir := f.TempDir()
	store, err := bolt.Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	defer store.Close(ctx)
	idx, err := index.Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	defer idx.Close()
	a := app.New(store, idx, app.Settings{SiteURL: "http://x"})
	if _, err := a.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		f.Fatal(err)
	}
	user, _ := a.Users.Authenticate(ctx, "", "admin", "a long enough password")
	admin := app.Caller{User: user}
	callers := []app.Caller{{}}
	for _, role := range calendar.Roles {
		created, err := a.Users.Create(ctx, admin, app.UserInput{Login: "fuzz-" + string(role), Role: role})
		if err != nil {
			f.Fatal(err)
		}
		u, _ := a.Users.AuthenticateToken(ctx, "", created.ApplicationPassword)
		callers = append(callers, app.Caller{User: u})
	}
	// One event, venue and organizer of the administrator's for updates.
	title := "target"
	target := app.PostFields{Title: &title}
	start, end := "2031-01-01 10:00", "2031-01-01 11:00"
	event, _ := a.Events.Create(ctx, admin, app.EventInput{PostFields: target, StartDate: &start, EndDate: &end})
	venue, _ := a.Venues.Create(ctx, admin, app.LinkedInput{PostFields: target})
	organizer, _ := a.Organizers.Create(ctx, admin, app.LinkedInput{PostFields: target})
	venueMeta, organizerMeta := a.Venues.MetaFields(), a.Organizers.MetaFields()

	f.Fuzz(func(t *testing.T, body string, op, who byte) {
		dec := json.NewDecoder(bytes.NewReader([]byte(body)))
		dec.UseNumber()
		var fields map[string]any
		if dec.Decode(&fields) != nil || fields == nil {
			return
		}
		caller := callers[int(who)%len(callers)]
		actor := caller.User
		update := op%3 == 2
		var args []Arg
		var write func(Values) (int64, string, int64, error) // ID, status and author stored
		switch op / 3 % 3 {
		case 0:
			args = eventWriteArgs(!update)
			write = func(v Values) (int64, string, int64, error) {
				in, err := readEventInput(v, venueMeta, organizerMeta)
				if err != nil {
					return 0, "", 0, err
				}
				var e *app.EventView
				if update {
					e, err = a.Events.Update(ctx, caller, app.PostRef{ID: event.ID}, in)
				} else {
					e, err = a.Events.Create(ctx, caller, in)
				}
				if err != nil {
					return 0, "", 0, err
				}
				return e.ID, e.Status, authorOf(e.Author), nil
			}
		case 1:
			args = linkedWriteArgs(calendar.PostTypeVenue, venueMeta, !update)
			write = func(v Values) (int64, string, int64, error) {
				in := readLinkedInput(v, calendar.PostTypeVenue, venueMeta)
				var p app.VenueView
				var err error
				if update {
					p, err = a.Venues.Update(ctx, caller, app.PostRef{ID: venue.ID}, in)
				} else {
					p, err = a.Venues.Create(ctx, caller, in)
				}
				return p.ID, p.Status, authorOf(p.Author), err
			}
		default:
			args = linkedWriteArgs(calendar.PostTypeOrganizer, organizerMeta, !update)
			write = func(v Values) (int64, string, int64, error) {
				in := readLinkedInput(v, calendar.PostTypeOrganizer, organizerMeta)
				var p app.OrganizerView
				var err error
				if update {
					p, err = a.Organizers.Update(ctx, caller, app.PostRef{ID: organizer.ID}, in)
				} else {
					p, err = a.Organizers.Create(ctx, caller, in)
				}
				return p.ID, p.Status, authorOf(p.Author), err
			}
		}
		values := Values(fields)
		before, _ := store.LastSeq(ctx)
		err := CheckArgs(values, args)
		var id, author int64
		var status string
		if err == nil {
			id, status, author, err = write(values)
		}
		after, _ := store.LastSeq(ctx)
		if err != nil {
			var e *calendar.Error
			if !errors.As(err, &e) || e.Kind == calendar.KindInternal || e.Kind == calendar.KindUnavailable {
				t.Fatalf("%s as %v: %v", body, actor, err)
			}
			return
		}
		switch {
		case !actor.Can(calendar.CapEditPosts) && after != before:
			t.Fatalf("%v wrote with %s", actor, body)
		case !actor.Can(calendar.CapPublishPosts) && slices.Contains([]string{calendar.StatusPublish, calendar.StatusFuture, calendar.StatusPrivate}, status) && !update:
			t.Fatalf("%s created %d %s with %s", actor.Role, id, status, body)
		case !actor.Can(calendar.CapEditOthersPosts) && !update && author != actor.ID:
			t.Fatalf("%s created %d as user %d with %s", actor.Role, id, author, body)
		}
	})
}

func authorOf(s string) int64 {
	var n int64
	_ = json.Unmarshal([]byte(s), &n)
	return n
}
