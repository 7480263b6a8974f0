package app_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// Whether and how an event takes place (event_status, attendance_mode), without
// HTTP: what a write takes and refuses, what the object, its JSON-LD and the
// feed say, and the list's filter. How the parameters are read is
// controllers' (events_alone_test.go).

// invalidParam checks that err is a 400 naming exactly the parameter.
func invalidParam(t *testing.T, err error, name string) {
	t.Helper()
	var e *calendar.Error
	if !errors.As(err, &e) || e.Code != "rest_invalid_param" {
		t.Fatalf("err = %v, want rest_invalid_param", err)
	}
	if params, _ := e.Data["params"].(map[string]string); len(params) != 1 || params[name] == "" {
		t.Fatalf("params %v, want %s alone", e.Data["params"], name)
	}
}

func jsonLDOf(t *testing.T, v *app.EventView) map[string]any {
	t.Helper()
	var ld map[string]any
	if err := json.Unmarshal(v.JSONLD, &ld); err != nil {
		t.Fatal(err)
	}
	return ld
}

func TestAnEventsStatusAndAttendanceAreCheckedAndKept(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	plain := w.event("Plain", "2030-06-01", app.EventInput{})
	if plain.EventStatus != "scheduled" || plain.AttendanceMode != "offline" || plain.OnlineURL != "" || plain.PreviousStartDate != "" {
		t.Fatalf("defaults: %q %q %q %q", plain.EventStatus, plain.AttendanceMode, plain.OnlineURL, plain.PreviousStartDate)
	}
	for _, c := range []struct {
		param string
		in    app.EventInput
	}{
		{"event_status", app.EventInput{EventStatus: ptr("cancelled")}}, // the plugin spells it canceled
		{"attendance_mode", app.EventInput{AttendanceMode: ptr("virtual")}},
		{"online_url", app.EventInput{OnlineURL: ptr("meet.example/x")}},
		{"online_url", app.EventInput{OnlineURL: ptr("javascript:alert(1)")}},
		{"event_status_reason", app.EventInput{EventStatusReason: ptr(strings.Repeat("x", calendar.MaxStatusReasonBytes+1))}},
	} {
		_, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: plain.ID}, c.in)
		invalidParam(t, err, c.param)
	}
	online, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: plain.ID}, app.EventInput{EventStatus: ptr("moved_online"),
		EventStatusReason: ptr("<b>Flooded</b> hall"), AttendanceMode: ptr("online"), OnlineURL: ptr("https://meet.example/gala")})
	w.must(err)
	if online.EventStatus != "moved_online" || online.EventStatusReason != "Flooded hall" || online.AttendanceMode != "online" || online.OnlineURL != "https://meet.example/gala" {
		t.Fatalf("after the update: %+v", online)
	}
	again, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: plain.ID}, app.EventInput{EventStatus: ptr("scheduled"), AttendanceMode: ptr("offline"), OnlineURL: ptr("")})
	w.must(err)
	if again.EventStatus != "scheduled" || again.EventStatusReason != "Flooded hall" || again.AttendanceMode != "offline" || again.OnlineURL != "" {
		t.Fatalf("back to the defaults: %+v", again)
	}
}

// A rescheduled event keeps the start it had before its latest move; one
// scheduled again forgets it.
func TestARescheduledEventKeepsItsPreviousStart(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	e := w.event("Moved", "2030-06-01", app.EventInput{StartDate: ptr("2030-06-01 20:00:00"), EndDate: ptr("2030-06-01 22:00:00")})
	update := func(in app.EventInput) *app.EventView {
		t.Helper()
		v, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: e.ID}, in)
		w.must(err)
		return v
	}
	if v := update(app.EventInput{EventStatus: ptr("rescheduled")}); v.PreviousStartDate != "" {
		t.Fatalf("rescheduled without moving: previous start %q", v.PreviousStartDate)
	}
	moved := update(app.EventInput{StartDate: ptr("2030-06-08 20:00:00"), EndDate: ptr("2030-06-08 22:00:00")})
	if moved.PreviousStartDate != "2030-06-01 20:00:00" || moved.StartDate != "2030-06-08 20:00:00" {
		t.Fatalf("moved: previous %q, start %q", moved.PreviousStartDate, moved.StartDate)
	}
	single, err := w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: e.ID}, "")
	w.must(err)
	ld := jsonLDOf(t, single)
	if ld["eventStatus"] != "https://schema.org/EventRescheduled" || ld["previousStartDate"] != "2030-06-01T20:00:00Z" || ld["startDate"] != "2030-06-08T20:00:00Z" {
		t.Fatalf("JSON-LD: %v", ld)
	}
	if v := update(app.EventInput{EventStatus: ptr("scheduled")}); v.PreviousStartDate != "" {
		t.Fatalf("scheduled again: previous start %q", v.PreviousStartDate)
	}
}

// JSON-LD names the status and the attendance as schema.org does; an
// online event is at its link alone (no place, even with a venue), a mixed
// one at both, an offline one at its venue.
func TestTheJSONLDSaysWhetherAndWhereTheEventTakesPlace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	hall := w.venue("Hall", app.LinkedInput{Meta: map[string]string{"city": "Lyon"}})
	at := &app.LinkRef{ID: hall.ID}
	link := ptr("https://meet.example/x")
	for _, c := range []struct {
		name                   string
		in                     app.EventInput
		status, mode, location string // location: the @types, joined
	}{
		{"scheduled at its venue", app.EventInput{Venue: at}, "EventScheduled", "OfflineEventAttendanceMode", "Place"},
		{"canceled", app.EventInput{Venue: at, EventStatus: ptr("canceled")}, "EventCancelled", "OfflineEventAttendanceMode", "Place"},
		{"postponed", app.EventInput{EventStatus: ptr("postponed")}, "EventPostponed", "OfflineEventAttendanceMode", ""},
		{"online with a venue", app.EventInput{Venue: at, AttendanceMode: ptr("online"), OnlineURL: link}, "EventScheduled", "OnlineEventAttendanceMode", "VirtualLocation"},
		{"moved online", app.EventInput{EventStatus: ptr("moved_online"), OnlineURL: link}, "EventMovedOnline", "OnlineEventAttendanceMode", "VirtualLocation"},
		{"moved online, and offline too", app.EventInput{EventStatus: ptr("moved_online"), AttendanceMode: ptr("offline"), Venue: at}, "EventMovedOnline", "OfflineEventAttendanceMode", "Place"},
		{"mixed", app.EventInput{Venue: at, AttendanceMode: ptr("mixed"), OnlineURL: link}, "EventScheduled", "MixedEventAttendanceMode", "Place,VirtualLocation"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := w.event(c.name, "2030-06-01", c.in)
			single, err := w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: e.ID}, "")
			w.must(err)
			ld := jsonLDOf(t, single)
			var types []string
			switch l := ld["location"].(type) {
			case map[string]any:
				types = append(types, l["@type"].(string))
			case []any:
				for _, one := range l {
					types = append(types, one.(map[string]any)["@type"].(string))
				}
			}
			if ld["eventStatus"] != "https://schema.org/"+c.status || ld["eventAttendanceMode"] != "https://schema.org/"+c.mode || strings.Join(types, ",") != c.location {
				t.Fatalf("eventStatus %v, eventAttendanceMode %v, location %v", ld["eventStatus"], ld["eventAttendanceMode"], ld["location"])
			}
			if c.location == "VirtualLocation" && !strings.Contains(string(single.JSONLD), `"url":"https://meet.example/x"`) {
				t.Fatalf("the virtual location without its url: %s", single.JSONLD)
			}
			if c.status == "EventPostponed" && ld["previousStartDate"] != ld["startDate"] {
				t.Fatalf("a postponed event's previousStartDate %v, want its start %v", ld["previousStartDate"], ld["startDate"])
			}
		})
	}
}

// Lists show every status unless event_status asks for some.
func TestTheListFiltersByEventStatus(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, e := range []struct{ title, status string }{{"on", ""}, {"off", "canceled"}, {"later", "postponed"}, {"moved", "rescheduled"}} {
		in := app.EventInput{}
		if e.status != "" {
			in.EventStatus = ptr(e.status)
		}
		w.event(e.title, "2030-06-01", in)
	}
	june := month("2030-06")
	for _, c := range []struct {
		statuses *[]string
		want     string
	}{
		{nil, "on,off,later,moved"},
		{strs("canceled", "postponed"), "off,later"},
		{strs("scheduled"), "on"},
		{strs("moved_online"), ""},
	} {
		if got := w.titles(visitor, app.EventFilter{Dates: june, EventStatuses: c.statuses}); got != c.want {
			t.Errorf("event_status %v: %q, want %q", c.statuses, got, c.want)
		}
	}
	_, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: june, EventStatuses: strs("canceled", "off")})
	invalidParam(t, err, "event_status")
}

// The feed marks a canceled event CANCELLED whatever its post status says,
// says why in its description, gives the link to join as a CONFERENCE (RFC
// 7986), and the calendar names itself and how often to fetch it again.
func TestTheFeedCarriesStatusAttendanceAndTheCalendarsOwnProperties(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.event("Off", "2030-06-01", app.EventInput{EventStatus: ptr("canceled"), EventStatusReason: ptr("The band is ill"),
		PostFields: app.PostFields{Image: ptr("https://img.example/poster.jpg")}})
	w.event("Online", "2030-06-02", app.EventInput{AttendanceMode: ptr("online"), OnlineURL: ptr("https://meet.example/x")})
	cal, _ := w.feedOf(visitor, app.EventFilter{Dates: month("2030-06")})
	for name, want := range map[string]string{"NAME": "x", "URL": "http://x/events/", "REFRESH-INTERVAL": "PT1H", "X-PUBLISHED-TTL": "PT1H"} {
		if p := cal.Props.Get(name); p == nil || p.Value != want {
			t.Errorf("VCALENDAR %s = %v, want %s", name, p, want)
		}
	}
	if p := cal.Props.Get("REFRESH-INTERVAL"); p == nil || p.Params.Get("VALUE") != "DURATION" {
		t.Errorf("REFRESH-INTERVAL without VALUE=DURATION: %v", p)
	}
	events := cal.Events()
	if len(events) != 2 {
		t.Fatalf("%d VEVENTs", len(events))
	}
	off, online := events[0].Component, events[1].Component
	if feedText(t, off, "STATUS") != "CANCELLED" || !strings.HasPrefix(feedText(t, off, "DESCRIPTION"), "Canceled: The band is ill") {
		t.Errorf("canceled: STATUS %q, DESCRIPTION %q", feedText(t, off, "STATUS"), feedText(t, off, "DESCRIPTION"))
	}
	if p := off.Props.Get("IMAGE"); p == nil || p.Value != "https://img.example/poster.jpg" || p.Params.Get("VALUE") != "URI" {
		t.Errorf("IMAGE %v", p)
	}
	if p := online.Props.Get("CONFERENCE"); p == nil || p.Value != "https://meet.example/x" || p.Params.Get("VALUE") != "URI" || feedText(t, online, "STATUS") != "CONFIRMED" {
		t.Errorf("online: CONFERENCE %v, STATUS %q", p, feedText(t, online, "STATUS"))
	}
	if off.Props.Get("CONFERENCE") != nil || online.Props.Get("IMAGE") != nil {
		t.Errorf("CONFERENCE or IMAGE where there is none")
	}
}

// Each event carries what an "add to calendar" button opens: its .ics, and
// Google Calendar's and Outlook's forms with its title, times and place.
func TestEachEventCarriesItsAddToCalendarLinks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	hall := w.venue("Hall", app.LinkedInput{Meta: map[string]string{"city": "Lyon"}})
	e := w.event("Gala & ball", "2030-06-01", app.EventInput{Venue: &app.LinkRef{ID: hall.ID}, StartDate: ptr("2030-06-01 20:00:00"), EndDate: ptr("2030-06-01 23:00:00")})
	day := w.event("Fair", "2030-06-02", app.EventInput{AllDay: ptr(true), EndDate: ptr("2030-06-03 10:00:00")})
	links := e.CalendarLinks
	if links == nil || links.ICal != visitor.Root+"events/"+itoa(e.ID)+".ics" {
		t.Fatalf("links %+v", links)
	}
	for _, want := range []string{"https://calendar.google.com/calendar/render?", "action=TEMPLATE", "text=Gala+%26+ball", "dates=20300601T200000Z%2F20300601T230000Z", "location=Hall%2C+Lyon"} {
		if !strings.Contains(links.GCal, want) {
			t.Errorf("gcal %s lacks %s", links.GCal, want)
		}
	}
	for _, want := range []string{"https://outlook.office.com/calendar/0/deeplink/compose?", "subject=Gala+%26+ball", "startdt=2030-06-01T20%3A00%3A00Z", "enddt=2030-06-01T23%3A00%3A00Z", "allday=false"} {
		if !strings.Contains(links.Outlook365, want) {
			t.Errorf("outlook_365 %s lacks %s", links.Outlook365, want)
		}
	}
	if !strings.HasPrefix(links.OutlookLive, "https://outlook.live.com/") {
		t.Errorf("outlook_live %s", links.OutlookLive)
	}
	if d := day.CalendarLinks; !strings.Contains(d.GCal, "dates=20300602%2F20300604") || !strings.Contains(d.Outlook365, "startdt=2030-06-02&") || !strings.Contains(d.Outlook365, "enddt=2030-06-04") {
		t.Errorf("an all-day event's links: %s %s", d.GCal, d.Outlook365)
	}
}
