package app_test

import (
	"fmt"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

func (w *world) feed(caller app.Caller, since int64) (entries []string, last int64, more bool) {
	w.t.Helper()
	page, err := w.app.Changes(w.ctx, caller, app.ChangesRequest{Since: since, PerPage: ptr(int64(1000))})
	w.must(err)
	for _, e := range page.Changes {
		entries = append(entries, fmt.Sprintf("%s/%d %s", e.Type, e.ID, e.Action))
	}
	return entries, page.LastSeq, page.More
}

func TestTheChangeFeedSaysWhatHappenedToEachItemForEachCaller(t *testing.T) {
	w := newWorld(t)
	admin := w.admin()
	_, start, _ := w.feed(admin, 0)
	cat, err := w.app.Categories.Create(w.ctx, admin, app.TermInput{Name: ptr("Jazz")})
	w.must(err)
	tag, err := w.app.Tags.Create(w.ctx, admin, app.TermInput{Name: ptr("Free")})
	w.must(err)
	venue := w.venue("Hall", app.LinkedInput{})
	org, err := w.app.Organizers.Create(w.ctx, admin, app.LinkedInput{PostFields: app.PostFields{Title: ptr("Org"), Status: calendar.StatusDraft}})
	w.must(err)
	event := w.event("Gig", "2030-01-01", app.EventInput{Venue: &app.LinkRef{ID: venue.ID}, Organizers: &[]app.LinkRef{{ID: org.ID}},
		Categories: strs(fmt.Sprint(cat.ID)), Tags: strs(fmt.Sprint(tag.ID))})
	_, err = w.app.Users.Create(w.ctx, admin, app.UserInput{Login: "someone", Role: calendar.RoleAuthor}) // users are never listed
	w.must(err)

	entries, mid, more := w.feed(admin, start)
	want := fmt.Sprint([]string{
		fmt.Sprintf("category/%d created", cat.ID), fmt.Sprintf("tag/%d created", tag.ID), fmt.Sprintf("venue/%d created", venue.ID),
		fmt.Sprintf("organizer/%d created", org.ID), fmt.Sprintf("event/%d created", event.ID)})
	if got := fmt.Sprint(entries); got != want || more {
		t.Fatalf("after creates: %v (more %v)\nwant %s", got, more, want)
	}

	_, err = w.app.Venues.Update(w.ctx, admin, app.PostRef{ID: venue.ID}, app.LinkedInput{Meta: map[string]string{"city": "Lyon"}})
	w.must(err)
	_, err = w.app.Events.Delete(w.ctx, admin, app.PostRef{ID: event.ID}, false)
	w.must(err)
	_, err = w.app.Tags.Delete(w.ctx, admin, tag.ID)
	w.must(err)
	_, err = w.app.Organizers.Delete(w.ctx, admin, app.PostRef{ID: org.ID}, true)
	w.must(err)

	for _, c := range []struct {
		name   string
		caller app.Caller
		since  int64
		want   []string
	}{
		{"administrator", admin, mid, []string{
			fmt.Sprintf("venue/%d updated", venue.ID), fmt.Sprintf("tag/%d deleted", tag.ID),
			fmt.Sprintf("event/%d trashed", event.ID), fmt.Sprintf("organizer/%d deleted", org.ID)}},
		{"visitor: nothing of the draft organizer it never could read", visitor, mid, []string{
			fmt.Sprintf("venue/%d updated", venue.ID), fmt.Sprintf("tag/%d deleted", tag.ID),
			fmt.Sprintf("event/%d deleted", event.ID)}},
		{"visitor from the start: the rest is new", visitor, start, []string{
			fmt.Sprintf("category/%d created", cat.ID), fmt.Sprintf("venue/%d created", venue.ID),
			fmt.Sprintf("tag/%d deleted", tag.ID), fmt.Sprintf("event/%d deleted", event.ID)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, _, _ := w.feed(c.caller, c.since); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("feed since %d: %v\nwant %v", c.since, got, c.want)
			}
		})
	}
}

func TestModifiedAfterKeepsLaterChangesOldestFirstOnEveryPostList(t *testing.T) {
	w := newWorld(t)
	admin := w.admin()
	type pair struct {
		a, b      int64
		bModified string
	}
	name := func(s string) app.PostFields { return app.PostFields{Title: &s} }
	past := between("2020-01-01 10:00", "2020-01-01 11:00") // modified_after drops the default date window
	create := map[string]func(i int) (int64, string){
		"events": func(i int) (int64, string) {
			in := past
			in.PostFields = name(fmt.Sprint("event ", i))
			e, err := w.app.Events.Create(w.ctx, admin, in)
			w.must(err)
			return e.ID, e.ModifiedUTC
		},
		"venues": func(i int) (int64, string) {
			v, err := w.app.Venues.Create(w.ctx, admin, app.LinkedInput{PostFields: name(fmt.Sprint("venue ", i))})
			w.must(err)
			return v.ID, v.ModifiedUTC
		},
		"organizers": func(i int) (int64, string) {
			o, err := w.app.Organizers.Create(w.ctx, admin, app.LinkedInput{PostFields: name(fmt.Sprint("organizer ", i))})
			w.must(err)
			return o.ID, o.ModifiedUTC
		},
	}
	made := map[string]pair{}
	for plural, create := range create {
		var p pair
		p.a, _ = create(0)
		p.b, p.bModified = create(1)
		made[plural] = p
	}
	time.Sleep(1100 * time.Millisecond) // modification times have whole seconds
	changed := name("changed")
	_, err := w.app.Events.Update(w.ctx, admin, app.PostRef{ID: made["events"].a}, app.EventInput{PostFields: changed})
	w.must(err)
	_, err = w.app.Venues.Update(w.ctx, admin, app.PostRef{ID: made["venues"].a}, app.LinkedInput{PostFields: changed})
	w.must(err)
	_, err = w.app.Organizers.Update(w.ctx, admin, app.PostRef{ID: made["organizers"].a}, app.LinkedInput{PostFields: changed})
	w.must(err)
	list := func(plural, after string) ([]int64, error) {
		var out []int64
		switch plural {
		case "events":
			page, err := w.app.Events.List(w.ctx, admin, app.EventFilter{ModifiedAfter: &after})
			if err != nil {
				return nil, err
			}
			for _, e := range page.Items {
				out = append(out, e.ID)
			}
		case "venues":
			page, err := w.app.Venues.List(w.ctx, admin, app.LinkedFilter{ModifiedAfter: &after})
			if err != nil {
				return nil, err
			}
			for _, v := range page.Items {
				out = append(out, v.ID)
			}
		default:
			page, err := w.app.Organizers.List(w.ctx, admin, app.LinkedFilter{ModifiedAfter: &after})
			if err != nil {
				return nil, err
			}
			for _, o := range page.Items {
				out = append(out, o.ID)
			}
		}
		return out, nil
	}
	paris := time.FixedZone("+02:00", 2*3600)
	for plural, p := range made {
		b, _ := time.Parse(app.DateFormat, p.bModified)
		for _, c := range []struct {
			name, value string
			want        []int64
		}{
			{"UTC wall time of the later creation", p.bModified, []int64{p.a}},
			{"the same instant with an offset", b.In(paris).Format(time.RFC3339), []int64{p.a}},
			{"the same instant as a Unix timestamp", fmt.Sprint(b.Unix()), []int64{p.a}},
			{"a second before: both, by modification then ID", fmt.Sprint(b.Unix() - 1), []int64{p.b, p.a}},
			{"after the update: none", fmt.Sprint(b.Unix() + 60), nil},
		} {
			t.Run(plural+"/"+c.name, func(t *testing.T) {
				got, err := list(plural, c.value)
				w.must(err)
				if fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Fatalf("modified_after=%s: %v, want %v", c.value, got, c.want)
				}
			})
		}
		t.Run(plural+"/a bad date is refused", func(t *testing.T) {
			_, err := list(plural, "not-a-date")
			invalid(t, err)
		})
	}
}
