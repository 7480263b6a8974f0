package app_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// Events written and shown, without HTTP: the object key by key, what a
// write takes and refuses (and in which order it checks), dates in zones,
// pages of the list. How the parameters are read is controllers'
// (events_alone_test.go).

func TestTheEventObjectKeyByKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	hall := w.venue("Hall", app.LinkedInput{Meta: map[string]string{"city": "Lyon"}})
	created := w.event("Gala", "2030-05-01", app.EventInput{StartDate: ptr("2030-05-01 20:00:00"), EndDate: ptr("2030-05-01 23:00:00"),
		Venue: &app.LinkRef{ID: hall.ID}, Organizers: &[]app.LinkRef{{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr("Ann")}}}},
		Categories: strs("Music"), Cost: strs("20$"), PostFields: app.PostFields{Description: ptr("Line one\nline two")}})
	keys := strings.Fields("id global_id global_id_lineage author status date date_utc modified modified_utc url rest_url title " +
		"description excerpt slug image all_day start_date start_date_details end_date end_date_details " +
		"utc_start_date utc_start_date_details utc_end_date utc_end_date_details timezone timezone_abbr cost " +
		"cost_details website show_map show_map_link hide_from_listings sticky featured categories tags venue " +
		"organizer custom_fields event_status event_status_reason previous_start_date attendance_mode online_url calendar_links")
	keysAre(t, created, keys)
	single, err := w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: created.ID}, "")
	w.must(err)
	keysAre(t, single, append(keys, "json_ld"))
	if single.Author != "1" || single.Title != "Gala" || single.Description != "<p>Line one<br />\nline two</p>" || single.Image != false ||
		*single.AllDay || single.StartDate != "2030-05-01 20:00:00" || single.UTCStartDate != "2030-05-01 20:00:00" || single.TimeZone != "UTC" ||
		single.TimeZoneAbbr != "UTC" || single.Cost != "20$" || single.Website != single.URL || single.Slug != "gala" ||
		single.RestURL != fmt.Sprint(visitor.Root, "events/", created.ID) {
		t.Errorf("values: %+v", single)
	}
	if d := single.StartDateDetails; d.Year != "2030" || d.Month != "05" || d.Hour != "20" || d.Minutes != "00" {
		t.Errorf("start_date_details = %+v", d)
	}
	if v, ok := single.Venue.(app.VenueView); !ok || v.Venue != "Hall" || v.JSONLD == nil {
		t.Errorf("venue = %+v, want the one venue object with json_ld on a single read", single.Venue)
	}
	if len(single.Organizer) != 1 || single.Organizer[0].Organizer != "Ann" {
		t.Errorf("organizer = %+v", single.Organizer)
	}
	if c := single.Categories; len(c) != 1 || c[0].Taxonomy != "tribe_events_cat" || string(jsonAt(t, c[0], "urls")) == "null" {
		t.Errorf("categories = %+v", c)
	}
	for key, want := range map[string]string{"custom_fields": "[]", "image": "false"} {
		if got := string(jsonAt(t, single, key)); got != want {
			t.Errorf("%s = %s, want %s", key, got, want)
		}
	}
	if got := string(jsonAt(t, w.event("Bare", "2030-05-02", app.EventInput{}), "venue")); got != "[]" {
		t.Errorf("an event without a venue has venue %s, want []", got)
	}
}

func TestEventWritesAreValidated(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	organizer := w.organizer("Org")
	with := func(change func(in *app.EventInput)) app.EventInput {
		return gala(func(in *app.EventInput) {
			in.StartDate, in.EndDate = ptr("2030-01-01 10:00:00"), ptr("2030-01-01 11:00:00")
			change(in)
		})
	}
	for _, c := range []struct {
		name string
		in   app.EventInput
		role calendar.Role
		code string // "" when taken
	}{
		{"valid", with(func(*app.EventInput) {}), "", ""},
		{"an empty title", with(func(in *app.EventInput) { in.Title = ptr(" ") }), "", "rest_invalid_param"},
		{"a free text date", with(func(in *app.EventInput) { in.StartDate = ptr("before my birthday") }), "", "rest_invalid_param"},
		{"an empty date", with(func(in *app.EventInput) { in.EndDate = ptr("") }), "", "rest_invalid_param"},
		{"an end before the start", with(func(in *app.EventInput) { in.EndDate = ptr("2029-12-31 10:00:00") }), "", "rest_invalid_param"},
		{"natural dates", with(func(in *app.EventInput) { in.StartDate, in.EndDate = ptr("tomorrow 9am"), ptr("+5 days 11am") }), "", ""},
		{"Unix timestamps", with(func(in *app.EventInput) { in.StartDate, in.EndDate = ptr("1893456000"), ptr("1893459600") }), "", ""},
		{"an offset zone", with(func(in *app.EventInput) { in.Timezone = ptr("UTC-3.5") }), "", ""},
		{"an unknown zone", with(func(in *app.EventInput) { in.Timezone = ptr("Mars/Base") }), "", "rest_invalid_param"},
		{"an image URL", with(func(in *app.EventInput) { in.Image = ptr("https://img.example/a.png") }), "", ""},
		{"an image ID of nothing", with(func(in *app.EventInput) { in.Image = ptr("123") }), "", "rest_invalid_param"},
		{"a website", with(func(in *app.EventInput) { in.Website = ptr("https://e.example") }), "", ""},
		{"a website without a scheme", with(func(in *app.EventInput) { in.Website = ptr("foo") }), "", "rest_invalid_param"},
		{"an unknown author", with(func(in *app.EventInput) { in.Author = ptr(int64(999)) }), "", "rest_invalid_param"},
		{"a cost list", with(func(in *app.EventInput) { in.Cost = strs("0$", "20$") }), "", ""},
		{"an unknown venue", with(func(in *app.EventInput) { in.Venue = &app.LinkRef{ID: 99999} }), "", "rest_invalid_param"},
		{"a venue {id} of an organizer", with(func(in *app.EventInput) { in.Venue = &app.LinkRef{ID: organizer.ID, FromObject: true} }), "",
			"invalid-linked-post-id"},
		{"a new venue", with(func(in *app.EventInput) {
			in.Venue = &app.LinkRef{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr("Listed")}}}
		}), "", ""},
		{"organizers twice", with(func(in *app.EventInput) { in.Organizers = &[]app.LinkRef{{ID: organizer.ID}, {ID: organizer.ID}} }), "", ""},
		{"an unknown category ID", with(func(in *app.EventInput) { in.Categories = strs("9999") }), "", "rest_invalid_param"},
		{"a new category by a contributor", with(func(in *app.EventInput) { in.Categories = strs("Brand new") }), calendar.RoleContributor, "rest_invalid_param"},
		{"a new category by an author", with(func(in *app.EventInput) { in.Categories = strs("Brand new") }), calendar.RoleAuthor, ""},
	} {
		caller := w.admin()
		if c.role != "" {
			caller = w.callers[c.role]
		}
		_, err := w.app.Events.Create(w.ctx, caller, c.in)
		switch e := calendar.AsError(err); {
		case c.code == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.code != "" && (e == nil || e.Code != c.code || e.Kind != calendar.KindInvalid):
			t.Errorf("%s: %v, want a 400 %s", c.name, err, c.code)
		}
	}
}

// Anonymous writes are refused before anything of the write is checked; a
// signed-in caller's write is checked, then refused when the caller may not
// write.
func TestAWriteIsCheckedBeforeTheRefusalOfWhoMayNotWrite(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	bad := gala(func(in *app.EventInput) { in.StartDate = ptr("nope") })
	subscriber := w.callers[calendar.RoleSubscriber]
	for _, c := range []struct {
		name   string
		caller app.Caller
		in     app.EventInput
		kind   calendar.Kind
		code   string
	}{
		{"a visitor's bad write", visitor, bad, calendar.KindUnauthorized, "rest_forbidden"},
		{"a visitor's good write", visitor, gala(nil), calendar.KindUnauthorized, "rest_forbidden"},
		{"a subscriber's bad write", subscriber, bad, calendar.KindInvalid, "rest_invalid_param"},
		{"a subscriber's good write", subscriber, gala(nil), calendar.KindForbidden, "rest_forbidden"},
	} {
		if e := calendar.AsError(get(w.app.Events.Create(w.ctx, c.caller, c.in))); e == nil || e.Kind != c.kind || e.Code != c.code {
			t.Errorf("%s: %v, want %s", c.name, e, c.code)
		}
	}
}

func TestAnEventsOrganizersKeepTheirOrderAndDropRepeats(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.organizer("Org")
	e := w.event("E", "2030-01-01", app.EventInput{Organizers: &[]app.LinkRef{
		{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr("Zed")}}}, {ID: org.ID}, {ID: org.ID, FromObject: true}}})
	var names []string
	for _, o := range e.Organizer {
		names = append(names, o.Organizer)
	}
	if strings.Join(names, ",") != "Zed,Org" {
		t.Fatalf("organizers = %v", names)
	}
}

func TestEventDatesInZones(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, c := range []struct {
		zone, start           string
		allDay                bool
		local, utc, end, abbr string
	}{
		{"UTC", "2018-01-01 16:00:00", false, "2018-01-01 16:00:00", "2018-01-01 16:00:00", "", "UTC"},
		{"America/New_York", "2018-01-01 16:00:00", false, "2018-01-01 16:00:00", "2018-01-01 21:00:00", "", "EST"},
		{"Europe/Rome", "2018-01-01 16:00:00", false, "2018-01-01 16:00:00", "2018-01-01 15:00:00", "", "CET"},
		{"America/New_York", "2026-03-07 12:00:00", false, "2026-03-07 12:00:00", "2026-03-07 17:00:00", "", "EST"},
		{"America/New_York", "2026-03-08 12:00:00", false, "2026-03-08 12:00:00", "2026-03-08 16:00:00", "", "EDT"},
		{"America/New_York", "2026-03-08 02:30:00", false, "2026-03-08 03:30:00", "2026-03-08 07:30:00", "", "EDT"},
		{"Europe/Rome", "2026-07-01 09:00:00", false, "2026-07-01 09:00:00", "2026-07-01 07:00:00", "", "CEST"},
		{"UTC+5", "2018-01-01 16:00:00", false, "2018-01-01 16:00:00", "2018-01-01 11:00:00", "", "UTC+5"},
		{"UTC-3.5", "2018-01-01 16:00:00", false, "2018-01-01 16:00:00", "2018-01-01 19:30:00", "", "UTC-3.5"},
		{"Europe/Rome", "2018-01-01 16:00:00", true, "2018-01-01 00:00:00", "2017-12-31 23:00:00", "2026-12-31 23:59:59", "CET"},
		{"Europe/Rome", "2018-01-01T16:00:00Z", false, "2018-01-01 17:00:00", "2018-01-01 16:00:00", "", "CET"},
		{"America/New_York", "1514840400", false, "2018-01-01 16:00:00", "2018-01-01 21:00:00", "", "EST"},
	} {
		e := w.event("Z", "", app.EventInput{StartDate: &c.start, EndDate: ptr("2026-12-31 23:00:00"), Timezone: &c.zone, AllDay: &c.allDay})
		if e.StartDate != c.local || e.UTCStartDate != c.utc || e.TimeZoneAbbr != c.abbr || e.TimeZone != c.zone || c.end != "" && e.EndDate != c.end {
			t.Errorf("%s %s all day %v: start %v / utc %v / abbr %v / zone %v / end %v; want %s / %s / %s / %s / %s",
				c.zone, c.start, c.allDay, e.StartDate, e.UTCStartDate, e.TimeZoneAbbr, e.TimeZone, e.EndDate, c.local, c.utc, c.abbr, c.zone, c.end)
		}
	}
	rome, _ := time.LoadLocation("Europe/Rome")
	natural := w.event("N", "", app.EventInput{StartDate: ptr("tomorrow 4pm"), EndDate: ptr("tomorrow 5pm"), Timezone: ptr("Europe/Rome")})
	if want := time.Now().In(rome).AddDate(0, 0, 1).Format("2006-01-02") + " 16:00:00"; natural.StartDate != want {
		t.Errorf("natural language in the event's zone, not the site's: %v, want %s", natural.StartDate, want)
	}
	moving := w.event("Move", "", app.EventInput{StartDate: ptr("2018-01-01 16:00:00"), EndDate: ptr("2018-01-01 17:00:00")})
	moved := w.edit(moving.ID, app.EventInput{Timezone: ptr("America/New_York")})
	if moved.StartDate != "2018-01-01 16:00:00" || moved.UTCStartDate != "2018-01-01 21:00:00" {
		t.Errorf("a new zone keeps the local times: %v / %v", moved.StartDate, moved.UTCStartDate)
	}
}

func TestEventListPages(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for d := 1; d <= 7; d++ {
		w.event(fmt.Sprint("e", d), fmt.Sprintf("2030-04-%02d", d), app.EventInput{})
	}
	april := month("2030-04")
	for page, want := range map[int]string{1: "e1,e2,e3", 2: "e4,e5,e6", 3: "e7"} {
		p, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: april, Page: app.PageRequest{Page: page, PerPage: 3}})
		w.must(err)
		var titles []string
		for _, e := range p.Items {
			titles = append(titles, e.Title)
		}
		if strings.Join(titles, ",") != want || p.Total != 7 || p.TotalPages != 3 {
			t.Errorf("page %d: %v of %d in %d pages, want %s", page, titles, p.Total, p.TotalPages, want)
		}
	}
	_, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: april, Page: app.PageRequest{Page: 4, PerPage: 3}})
	if e := calendar.AsError(err); e == nil || e.Kind != calendar.KindNotFound || e.Code != "event-archive-page-not-found" {
		t.Errorf("a page past the last: %v", err)
	}
	empty, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: app.Dates{"start_date": "2040-01-01", "end_date": "2040-01-02"}})
	w.must(err)
	if empty.Total != 0 || empty.TotalPages != 0 || string(jsonOf(t, empty.Items)) != "[]" {
		t.Errorf("an empty first page: %+v, items %s", empty, jsonOf(t, empty.Items))
	}
}

func jsonOf(t *testing.T, v any) []byte { return jsonAt(t, v) }
