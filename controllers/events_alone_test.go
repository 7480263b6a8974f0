package controllers_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	neturl "net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
)

// The event routes and the iCalendar feed on their small world: what is
// HTTP (parameters read into app.EventFilter and app.EventInput, refusals
// before the service is asked, statuses, headers, the list's wrapper, the
// feed's body and content type). What the service decides with them is
// app's (app/event_list_test.go, app/series_edits_test.go...).

// recordedEvents is the event service of the small world.
type recordedEvents struct {
	recorder
	page *app.Page[app.EventView]
	feed *app.Feed
}

func (r *recordedEvents) List(_ context.Context, caller app.Caller, f app.EventFilter) (*app.Page[app.EventView], error) {
	if err := r.record("List", caller, f); err != nil {
		return nil, err
	}
	if r.page != nil {
		return r.page, nil
	}
	return &app.Page[app.EventView]{Page: 1, PerPage: 10}, nil
}

func (r *recordedEvents) Create(_ context.Context, caller app.Caller, in app.EventInput) (*app.EventView, error) {
	if err := r.record("Create", caller, in); err != nil {
		return nil, err
	}
	return &app.EventView{ID: 5, Title: "recorded"}, nil
}

func (r *recordedEvents) Get(_ context.Context, caller app.Caller, ref app.PostRef, password string) (*app.EventView, error) {
	if err := r.record("Get", caller, ref, password); err != nil {
		return nil, err
	}
	return &app.EventView{ID: max(ref.ID, 5), Slug: ref.Slug, Title: "recorded"}, nil
}

func (r *recordedEvents) Update(_ context.Context, caller app.Caller, ref app.PostRef, in app.EventInput) (*app.EventView, error) {
	if err := r.record("Update", caller, ref, in); err != nil {
		return nil, err
	}
	return &app.EventView{ID: ref.ID, Title: "recorded"}, nil
}

func (r *recordedEvents) Delete(_ context.Context, caller app.Caller, ref app.PostRef, force bool) (app.Removal[*app.EventView], error) {
	if err := r.record("Delete", caller, ref, force); err != nil {
		return app.Removal[*app.EventView]{}, err
	}
	return app.Removal[*app.EventView]{ForGood: &app.Deleted[*app.EventView]{Deleted: true, Previous: &app.EventView{ID: ref.ID}}}, nil
}

func (r *recordedEvents) Occurrences(_ context.Context, caller app.Caller, ref app.PostRef, f app.EventFilter) (*app.Page[app.EventView], error) {
	if err := r.record("Occurrences", caller, ref, f); err != nil {
		return nil, err
	}
	return &app.Page[app.EventView]{Page: 1, PerPage: 10}, nil
}

func (r *recordedEvents) FacetSearch(_ context.Context, caller app.Caller, facet, prefix string, f app.EventFilter) ([]app.FacetValue, error) {
	if err := r.record("FacetSearch", caller, facet, prefix, f); err != nil {
		return nil, err
	}
	return []app.FacetValue{{ID: 3, Name: "Philharmonie", Slug: "philharmonie", Count: 2}}, nil
}

func (r *recordedEvents) Suggest(_ context.Context, caller app.Caller, typed string) ([]app.Suggestion, error) {
	if err := r.record("Suggest", caller, typed); err != nil {
		return nil, err
	}
	return []app.Suggestion{{Type: "event", Text: "Piano recital", Highlight: "<mark>Piano</mark> recital", ID: 7, StartDate: "2030-06-01 10:00:00"}}, nil
}

func (r *recordedEvents) Feed(_ context.Context, caller app.Caller, f app.EventFilter) (*app.Feed, error) {
	if err := r.record("Feed", caller, f); err != nil {
		return nil, err
	}
	if r.feed != nil {
		return r.feed, nil
	}
	return &app.Feed{Body: []byte("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")}, nil
}

func (r *recordedEvents) EventFeed(_ context.Context, caller app.Caller, ref app.PostRef, password string) (*app.Feed, error) {
	if err := r.record("EventFeed", caller, ref, password); err != nil {
		return nil, err
	}
	return &app.Feed{Body: []byte("BEGIN:VCALENDAR\r\nX-RECORDED:event\r\nEND:VCALENDAR\r\n")}, nil
}

func (r *recordedEvents) SiteFeed(_ context.Context, caller app.Caller, req app.SiteFeedRequest) (*app.Feed, error) {
	if err := r.record("SiteFeed", caller, req); err != nil {
		return nil, err
	}
	return &app.Feed{Body: []byte("BEGIN:VCALENDAR\r\nX-RECORDED:site\r\nEND:VCALENDAR\r\n")}, nil
}

// The text fields of the small world's venues and organizers.
var (
	aloneVenueMeta     = []string{"address", "city"}
	aloneOrganizerMeta = []string{"email", "phone"}
)

func eventsAlone(t *testing.T, svc *recordedEvents) *service {
	t.Helper()
	return serveAlone(t, func(cfg controllers.Config) http.Handler {
		return controllers.NewEventsAlone(cfg, oneEditor{}, svc, aloneVenueMeta, aloneOrganizerMeta)
	})
}

const aloneAPI = "/vendor/events/v1"

// noDates is a filter with no date sent: the readers always hand a map.
func noDates(f app.EventFilter) app.EventFilter {
	if f.Dates == nil {
		f.Dates = app.Dates{}
	}
	return f
}

func TestTheEventListReadsItsParametersIntoTheFilter(t *testing.T) {
	t.Parallel()
	svc := &recordedEvents{}
	s := eventsAlone(t, svc)
	for _, tc := range []struct {
		name, query string
		want        app.EventFilter
	}{
		{"nothing sent: the service's defaults", "", app.EventFilter{}},
		{"every filter", "page=2&per_page=5&search=jazz&categories=jazz,7&tags[]=live&venue=3&venue=4&organizer=5&featured=true" +
			"&geoloc=false&status=draft,publish&post_parent=9&include=1,2&password=pw&highlight=1&facets=venue&facets=categories" +
			"&geo_precision=5&modified_after=2030-01-01",
			app.EventFilter{Page: app.PageRequest{Page: 2, PerPage: 5}, Search: ptr("jazz"), Categories: &[]string{"jazz", "7"},
				Tags: &[]string{"live"}, Venues: &[]int64{3, 4}, Organizers: &[]int64{5}, Featured: ptr(true), HasGeo: ptr(false),
				Statuses: &[]string{"draft", "publish"}, Parent: ptr(int64(9)), Include: &[]int64{1, 2}, Password: "pw", Highlight: true,
				Facets: &[]string{"venue", "categories"}, GeoPrecision: ptr(int64(5)), ModifiedAfter: ptr("2030-01-01")}},
		{"every date bound, as sent", "start_date=2030-01-01&end_date=next+friday&starts_before=1893456000&starts_after=a&ends_before=b&ends_after=c",
			app.EventFilter{Dates: app.Dates{"start_date": "2030-01-01", "end_date": "next friday", "starts_before": "1893456000",
				"starts_after": "a", "ends_before": "b", "ends_after": "c"}}},
		{"strict_dates as PHP's FILTER_VALIDATE_BOOLEAN: on", "strict_dates=on", app.EventFilter{StrictDates: true}},
		{"strict_dates as PHP's FILTER_VALIDATE_BOOLEAN: YES", "strict_dates=YES", app.EventFilter{StrictDates: true}},
		{"strict_dates as PHP's FILTER_VALIDATE_BOOLEAN: foo", "strict_dates=foo", app.EventFilter{}},
		{"near a point", "geoloc_lat=45.76&geoloc_lng=4.8357&geoloc_radius=10&geoloc_unit=km&orderby=distance",
			app.EventFilter{OrderBy: "distance", Near: app.NearInput{Lat: ptr(45.76), Lng: ptr(4.8357), Radius: ptr(10.0), Unit: "km"}}},
		{"near a place, within a box", "near=K%C3%B6ln&geo_bounds=50.8,6.8,51.0,7.1",
			app.EventFilter{Near: app.NearInput{Place: ptr("Köln"), Bounds: ptr("50.8,6.8,51.0,7.1")}}},
		{"relevance", "orderby=relevance&search=jazz", app.EventFilter{OrderBy: "relevance", Search: ptr("jazz")}},
		{"event statuses", "event_status=canceled,postponed", app.EventFilter{EventStatuses: &[]string{"canceled", "postponed"}}},
		{"each series once", "hide_subsequent_recurrences=1", app.EventFilter{HideSubsequentRecurrences: true}},
		{"an order of WordPress' the plugin ignores", "orderby=title", app.EventFilter{}},
		{"per_page capped", "per_page=500", app.EventFilter{Page: app.PageRequest{PerPage: calendar.MaxPerPage}}},
		{"ticketed=false is no filter", "ticketed=false", app.EventFilter{}},
		{"an empty list, for the service to refuse", "tags=", app.EventFilter{Tags: &[]string{}}},
		{"a search of spaces, no search (the plugin's search drops blank words)", "search=+", app.EventFilter{Search: ptr(" ")}},
	} {
		s.do("GET", aloneAPI+"/events?"+tc.query).expectStatus(t, http.StatusOK)
		if got := svc.got()[0].(app.EventFilter); !reflect.DeepEqual(got, noDates(tc.want)) {
			t.Errorf("%s: the service was asked %s, want %s", tc.name, show(got), show(noDates(tc.want)))
		}
	}
}

// GET /events/<id>/occurrences reads the list's parameters but those that
// choose other events than the series'; a path of another shape is no
// route.
func TestASeriesOccurrencesReadTheListsParameters(t *testing.T) {
	t.Parallel()
	svc := &recordedEvents{}
	s := eventsAlone(t, svc)
	s.do("GET", aloneAPI+"/events/7/occurrences?per_page=3&start_date=2030-01-01&post_parent=9&include=1&hide_subsequent_recurrences=1").expectStatus(t, http.StatusOK)
	want := app.EventFilter{Page: app.PageRequest{PerPage: 3}, Dates: app.Dates{"start_date": "2030-01-01"}}
	if got := svc.got(); got[0] != (app.PostRef{ID: 7}) || !reflect.DeepEqual(got[1], want) {
		t.Fatalf("the service was asked %v %s, want series 7 and %s", got[0], show(got[1].(app.EventFilter)), show(want))
	}
	for _, path := range []string{"/events/x/occurrences", "/events/7/instances", "/events/by-slug/occurrences/occurrences"} {
		s.do("GET", aloneAPI+path).expectError(t, http.StatusNotFound, "rest_no_route")
	}
	if calls := svc.called(); calls != "Occurrences" {
		t.Fatalf("the service was asked %s", calls)
	}
}

// GET /events/facets/<facet> reads the list's filters and what was typed;
// it stands beside /events/<id>, /events/by-slug/<slug> and a series'
// occurrences, each still routed; a facet it does not search is no route.
func TestAFacetSearchReadsTheListsFilters(t *testing.T) {
	t.Parallel()
	svc := &recordedEvents{}
	s := eventsAlone(t, svc)
	res := s.do("GET", aloneAPI+"/events/facets/venue?q=phil&categories=jazz&featured=true&start_date=2030-01-01")
	res.expectStatus(t, http.StatusOK)
	if got := strings.TrimSpace(string(res.Body)); got != `{"facet":"venue","values":[{"id":3,"slug":"philharmonie","name":"Philharmonie","count":2}]}` {
		t.Errorf("answers %s", got)
	}
	want := app.EventFilter{Categories: &[]string{"jazz"}, Featured: ptr(true), Dates: app.Dates{"start_date": "2030-01-01"}}
	if got := svc.got(); got[0] != "venue" || got[1] != "phil" || !reflect.DeepEqual(got[2], want) {
		t.Fatalf("the service was asked %v %v %s, want venue phil %s", got[0], got[1], show(got[2].(app.EventFilter)), show(want))
	}
	s.do("GET", aloneAPI+"/events/facets/tags?q="+strings.Repeat("x", calendar.MaxSearchLength+1)).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	s.do("GET", aloneAPI+"/events/facets/featured").expectError(t, http.StatusNotFound, "rest_no_route")
	for _, path := range []string{"/events/7", "/events/by-slug/facets", "/events/7/occurrences"} {
		s.do("GET", aloneAPI+path).expectStatus(t, http.StatusOK)
	}
	if calls := svc.called(); calls != "FacetSearch,Get,Get,Occurrences" {
		t.Fatalf("the service was asked %s", calls)
	}
}

// GET /suggest reads what was typed, which it needs, bounded as a search.
func TestSuggestionsReadWhatWasTyped(t *testing.T) {
	t.Parallel()
	svc := &recordedEvents{}
	s := eventsAlone(t, svc)
	res := s.do("GET", aloneAPI+"/suggest?q=pia")
	res.expectStatus(t, http.StatusOK)
	want := `{"suggestions":[{"type":"event","text":"Piano recital","highlight":"\u003cmark\u003ePiano\u003c/mark\u003e recital","id":7,"start_date":"2030-06-01 10:00:00"}]}`
	if got := strings.TrimSpace(string(res.Body)); got != want && got != strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(want) {
		t.Errorf("answers %s", got)
	}
	if got := svc.got(); got[0] != "pia" {
		t.Fatalf("the service was asked %v", got)
	}
	s.do("GET", aloneAPI+"/suggest").expectError(t, http.StatusBadRequest, "rest_missing_callback_param")
	for _, query := range []string{"?q=", "?q=" + strings.Repeat("x", calendar.MaxSearchLength+1)} {
		s.do("GET", aloneAPI+"/suggest"+query).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	}
	if calls := svc.called(); calls != "Suggest" {
		t.Fatalf("the service was asked %s", calls)
	}
}

func TestTheFeedReadsTheListsParametersWithoutAPage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, path string
		accept     string
		call       string
	}{
		{"events.ics", "/events.ics?search=jazz&per_page=5&page=3", "", "Feed"},
		{"the list asked for iCalendar", "/events?search=jazz&per_page=5&page=3", "text/calendar", "Feed"},
		{"iCalendar ranked above JSON", "/events?search=jazz&per_page=5&page=3", "application/json;q=0.5, text/calendar", "Feed"},
		{"iCalendar as good as any", "/events?search=jazz&per_page=5&page=3", "*/*, text/calendar", "Feed"},
		{"JSON ranked above iCalendar", "/events?search=jazz&per_page=5&page=3", "text/calendar;q=0.5, application/json", "List"},
		{"JSON named as well as iCalendar", "/events?search=jazz&per_page=5&page=3", "application/json, text/calendar", "List"},
		{"no iCalendar at all", "/events?search=jazz&per_page=5&page=3", "text/calendar;q=0", "List"},
		{"a browser's", "/events?search=jazz&per_page=5&page=3", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "List"},
		{"iCalendar in capitals, with a charset", "/events?search=jazz&per_page=5&page=3", "TEXT/CALENDAR; charset=utf-8", "Feed"},
		{"iCalendar before anything", "/events?search=jazz&per_page=5&page=3", "text/calendar, */*", "Feed"},
	} {
		svc := &recordedEvents{feed: &app.Feed{Body: []byte("BEGIN:VCALENDAR\r\nX-RECORDED:1\r\nEND:VCALENDAR\r\n"), Total: 12, TotalPages: 3}}
		s := eventsAlone(t, svc)
		var opts []option
		if tc.accept != "" {
			opts = append(opts, header("Accept", tc.accept))
		}
		res := s.do("GET", aloneAPI+tc.path, opts...)
		res.expectStatus(t, http.StatusOK)
		if vary := strings.Join(res.Header.Values("Vary"), ","); !strings.Contains(vary, "Accept") {
			t.Errorf("%s: Vary %q, want Accept among them", tc.name, vary)
		}
		if svc.called() != tc.call {
			t.Errorf("%s: the service was asked %q, want %q", tc.name, svc.called(), tc.call)
			continue
		}
		if tc.call == "List" {
			continue
		}
		want := app.EventFilter{Page: app.PageRequest{Page: 1, PerPage: 5}, Search: ptr("jazz"), Dates: app.Dates{}}
		if got := svc.got()[0].(app.EventFilter); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the feed was asked %s, want %s", tc.name, show(got), show(want))
		}
		if string(res.Body) != string(svc.feed.Body) || res.Header.Get("Content-Type") != "text/calendar; charset=utf-8" {
			t.Errorf("%s: %q as %q, want the feed's body as text/calendar", tc.name, res.Body, res.Header.Get("Content-Type"))
		}
		if res.Header.Get("X-WP-Total") != "12" || res.Header.Get("X-TEC-TotalPages") != "3" {
			t.Errorf("%s: totals %v", tc.name, res.Header)
		}
	}
}

func TestTheEventWritesHandTheServiceWhatWasSentByWhom(t *testing.T) {
	t.Parallel()
	created := app.EventInput{PostFields: app.PostFields{Title: ptr("Gala")}, StartDate: ptr("2030-05-01 20:00"),
		EndDate: ptr("2030-05-01 23:00"), Flags: map[string]bool{}}
	with := func(change func(in *app.EventInput)) app.EventInput {
		in := created
		in.Flags = map[string]bool{}
		change(&in)
		return in
	}
	gala := `"title":"Gala","start_date":"2030-05-01 20:00","end_date":"2030-05-01 23:00"`
	for _, tc := range []struct {
		name, method, path, body string
		call                     string
		ref                      app.PostRef
		want                     app.EventInput
	}{
		{"the fields every post takes", "POST", "/events", `{` + gala + `,"description":"<b>on</b>","excerpt":"x","password":"pw",` +
			`"status":"draft","author":3,"date":"2030-01-01","date_utc":"2030-01-02","slug":"gala-night","image":123}`, "Create", app.PostRef{},
			with(func(in *app.EventInput) {
				in.Description, in.Excerpt, in.Password, in.Status, in.Author = ptr("<b>on</b>"), ptr("x"), ptr("pw"), "draft", ptr(int64(3))
				in.Date, in.DateUTC, in.Slug, in.Image = ptr("2030-01-01"), ptr("2030-01-02"), ptr("gala-night"), ptr("123")
			})},
		{"the event's own fields", "POST", "/events", `{` + gala + `,"timezone":"Europe/Paris","all_day":true,"website":"https://e.example",` +
			`"featured":true,"sticky":false,"show_map":true,"show_map_link":false,"hide_from_listings":true,"categories":"jazz,7","tags":["live"],"post_parent":0}`,
			"Create", app.PostRef{}, with(func(in *app.EventInput) {
				in.Timezone, in.AllDay, in.Website = ptr("Europe/Paris"), ptr(true), ptr("https://e.example")
				in.Flags = map[string]bool{"featured": true, "sticky": false, "show_map": true, "show_map_link": false, "hide_from_listings": true}
				in.Categories, in.Tags, in.Parent = &[]string{"jazz", "7"}, &[]string{"live"}, ptr(int64(0))
			})},
		{"the event's status and attendance", "POST", "/events", `{` + gala + `,"event_status":"canceled","event_status_reason":"Ill",` +
			`"attendance_mode":"mixed","online_url":"https://meet.example/x"}`, "Create", app.PostRef{}, with(func(in *app.EventInput) {
			in.EventStatus, in.EventStatusReason, in.AttendanceMode, in.OnlineURL = ptr("canceled"), ptr("Ill"), ptr("mixed"), ptr("https://meet.example/x")
		})},
		{"a cost as text", "POST", "/events", `{` + gala + `,"cost":" 20$ "}`, "Create", app.PostRef{},
			with(func(in *app.EventInput) { in.Cost = &[]string{"20$"} })},
		{"a cost as a list of numbers and texts", "POST", "/events", `{` + gala + `,"cost":[0,"30$"]}`, "Create", app.PostRef{},
			with(func(in *app.EventInput) { in.Cost = &[]string{"0", "30$"} })},
		{"a cost removed", "POST", "/events", `{` + gala + `,"cost":""}`, "Create", app.PostRef{},
			with(func(in *app.EventInput) { in.Cost = &[]string{} })},
		{"rules as a list", "POST", "/events", `{` + gala + `,"recurrence":["RRULE:FREQ=WEEKLY;BYDAY=TU,TH","EXDATE:20300101T100000"]}`, "Create",
			app.PostRef{}, with(func(in *app.EventInput) {
				in.Recurrence = &[]string{"RRULE:FREQ=WEEKLY;BYDAY=TU,TH", "EXDATE:20300101T100000"}
			})},
		{"rules as one text of a line each", "POST", "/events", `{` + gala + `,"recurrence":"RRULE:FREQ=WEEKLY;BYDAY=TU,TH\r\nEXDATE:20300101T100000\n"}`,
			"Create", app.PostRef{}, with(func(in *app.EventInput) {
				in.Recurrence = &[]string{"RRULE:FREQ=WEEKLY;BYDAY=TU,TH", "EXDATE:20300101T100000"}
			})},
		{"a series ended", "POST", "/events", `{` + gala + `,"recurrence":[]}`, "Create", app.PostRef{},
			with(func(in *app.EventInput) { in.Recurrence = &[]string{} })},
		{"a venue by ID", "POST", "/events", `{` + gala + `,"venue":5}`, "Create", app.PostRef{},
			with(func(in *app.EventInput) { in.Venue = &app.LinkRef{ID: 5} })},
		{"a venue as {id}", "POST", "/events", `{` + gala + `,"venue":{"id":5}}`, "Create", app.PostRef{},
			with(func(in *app.EventInput) { in.Venue = &app.LinkRef{ID: 5, FromObject: true} })},
		{"a new venue, in a list of one", "POST", "/events", `{` + gala + `,"venue":[{"venue":"Hall","city":"Lyon","show_map":true}]}`, "Create",
			app.PostRef{}, with(func(in *app.EventInput) {
				in.Venue = &app.LinkRef{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr("Hall")}, Meta: map[string]string{"city": "Lyon"},
					ShowMap: ptr(true)}}
			})},
		{"the venue unlinked", "POST", "/events", `{` + gala + `,"venue":"0"}`, "Create", app.PostRef{},
			with(func(in *app.EventInput) { in.Venue = &app.LinkRef{} })},
		{"organizers in order, by ID and new", "POST", "/events", `{` + gala + `,"organizer":[{"organizer":"Ann","email":"a@example.org"},7,{"id":8}]}`,
			"Create", app.PostRef{}, with(func(in *app.EventInput) {
				in.Organizers = &[]app.LinkRef{{New: &app.LinkedInput{PostFields: app.PostFields{Title: ptr("Ann")}, Meta: map[string]string{"email": "a@example.org"}}},
					{ID: 7}, {ID: 8, FromObject: true}}
			})},
		{"organizers as CSV", "POST", "/events", `{` + gala + `,"organizer":"7,8"}`, "Create", app.PostRef{},
			with(func(in *app.EventInput) { in.Organizers = &[]app.LinkRef{{ID: 7}, {ID: 8}} })},
		{"a form's fields", "POST", "/events", "title=Gala&start_date=2030-05-01+20:00&end_date=2030-05-01+23:00&categories[]=jazz&categories[]=rock&featured=1&cost[0]=5&cost[1]=10",
			"Create", app.PostRef{}, with(func(in *app.EventInput) {
				in.Categories, in.Flags["featured"], in.Cost = &[]string{"jazz", "rock"}, true, &[]string{"5", "10"}
			})},
		{"an update by ID sends only what changes", "PATCH", "/events/12", `{"title":"Renamed"}`, "Update", app.PostRef{ID: 12},
			app.EventInput{PostFields: app.PostFields{Title: ptr("Renamed")}, Flags: map[string]bool{}}},
		{"an update by slug", "PUT", "/events/by-slug/gala-night", `{"post_parent":4}`, "Update", app.PostRef{Slug: "gala-night"},
			app.EventInput{Parent: ptr(int64(4)), Flags: map[string]bool{}}},
		{"the path names the event, not the body", "POST", "/events/12", `{"id":13,"slug":"other"}`, "Update", app.PostRef{ID: 12},
			app.EventInput{Slug: ptr("other"), Flags: map[string]bool{}}},
	} {
		svc := &recordedEvents{}
		s := eventsAlone(t, svc)
		contentType := "application/json"
		if !strings.HasPrefix(tc.body, "{") {
			contentType = "application/x-www-form-urlencoded"
		}
		res := s.do(tc.method, aloneAPI+tc.path, bearer("editor-token"), body(contentType, tc.body))
		status := http.StatusOK
		if tc.call == "Create" {
			status = http.StatusCreated
		}
		res.expectStatus(t, status)
		got := svc.got()
		if svc.called() != tc.call {
			t.Errorf("%s: the service was asked %q, want %q", tc.name, svc.called(), tc.call)
			continue
		}
		in := got[len(got)-1].(app.EventInput)
		if tc.ref.Slug != "" {
			in.Slug = nil // the path's slug is among the values too: what a write by slug renames to is not read here
		}
		if !reflect.DeepEqual(in, tc.want) {
			t.Errorf("%s: the service was given\n%s, want\n%s", tc.name, showInput(in), showInput(tc.want))
		}
		if ref, _ := got[0].(app.PostRef); tc.call == "Update" && (ref.ID != tc.ref.ID || tc.ref.ID == 0 && ref.Slug != tc.ref.Slug) {
			t.Errorf("%s: the service was asked of %+v, want %+v", tc.name, got[0], tc.ref)
		}
		if caller := svc.asked(); caller.User != theEditor || caller.Root != s.URL+aloneAPI+"/" {
			t.Errorf("%s: the caller was %+v", tc.name, caller)
		}
	}
}

// showInput writes an event write with its links followed.
func showInput(in app.EventInput) string {
	out := show(in)
	if in.Venue != nil {
		out += fmt.Sprintf(" venue %+v", *in.Venue)
		if in.Venue.New != nil {
			out += " new " + show(*in.Venue.New)
		}
	}
	if in.Organizers != nil {
		for _, o := range *in.Organizers {
			out += fmt.Sprintf(" organizer %+v", o)
			if o.New != nil {
				out += " new " + show(*o.New)
			}
		}
	}
	return out
}

func TestAnEventIsReadAndDeletedByIDOrSlugAsThePathSays(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method, path string
		call         string
		given        []any
	}{
		{"GET", "/events/12", "Get", []any{app.PostRef{ID: 12}, ""}},
		{"GET", "/events/12?password=sesame", "Get", []any{app.PostRef{ID: 12}, "sesame"}},
		{"GET", "/events/by-slug/gala-night?password=sesame", "Get", []any{app.PostRef{Slug: "gala-night"}, "sesame"}},
		{"GET", "/events/12?id=13", "Get", []any{app.PostRef{ID: 12}, ""}},
		{"DELETE", "/events/12", "Delete", []any{app.PostRef{ID: 12}, false}},
		{"DELETE", "/events/12?force=true&id=13", "Delete", []any{app.PostRef{ID: 12}, true}},
		{"DELETE", "/events/by-slug/gala-night?force=1", "Delete", []any{app.PostRef{Slug: "gala-night"}, true}},
	} {
		svc := &recordedEvents{}
		s := eventsAlone(t, svc)
		s.do(tc.method, aloneAPI+tc.path, bearer("editor-token")).expectStatus(t, http.StatusOK)
		if svc.called() != tc.call || !reflect.DeepEqual(svc.got(), tc.given) {
			t.Errorf("%s %s: the service was asked %s%v, want %s%v", tc.method, tc.path, svc.called(), svc.got(), tc.call, tc.given)
		}
	}
}

func TestABadEventRequestIsRefusedBeforeTheServiceIsAsked(t *testing.T) {
	t.Parallel()
	gala := func(extra string) string {
		return `{"title":"Gala","start_date":"2030-05-01 20:00","end_date":"2030-05-01 23:00"` + extra + `}`
	}
	organizers := strings.TrimSuffix(strings.Repeat("1,", calendar.MaxOrganizers+1), ",")
	for _, tc := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "/events?per_page=0", "", 400, "rest_invalid_param"},
		{"GET", "/events?page=0", "", 400, "rest_invalid_param"},
		{"GET", "/events?per_page=-1", "", 400, "rest_invalid_param"},
		{"GET", "/events?include=foo-bar,23", "", 400, "rest_invalid_param"},
		{"GET", "/events?venue=foo", "", 400, "rest_invalid_param"},
		{"GET", "/events?featured=maybe", "", 400, "rest_invalid_param"},
		{"GET", "/events?ticketed=true", "", 400, "rest_invalid_param"},
		{"GET", "/events?strict_dates=", "", 400, "rest_invalid_param"},
		{"GET", "/events?strict_dates=0", "", 400, "rest_invalid_param"},
		{"GET", "/events?password=", "", 400, "rest_invalid_param"},
		{"GET", "/events?facets=price", "", 400, "rest_invalid_param"},
		{"GET", "/events?geoloc_lat=north", "", 400, "rest_invalid_param"},
		{"GET", "/events?geoloc_unit=ft", "", 400, "rest_invalid_param"},
		{"GET", "/events?facets=geo_grid&geo_precision=fine", "", 400, "rest_invalid_param"},
		{"GET", "/events?post_parent=foo-bar", "", 400, "rest_invalid_param"},
		{"GET", "/events.ics?per_page=0", "", 400, "rest_invalid_param"},
		{"GET", "/events/x1", "", 404, "rest_no_route"},
		{"GET", "/events", "", 401, "incorrect_password"}, // with a wrong credential
		{"GET", "/events.ics", "", 401, "incorrect_password"},
		{"POST", "/events", `{"title":"Gala"}`, 400, "rest_missing_callback_param"},
		{"POST", "/events", `{"start_date":"2030-05-01","end_date":"2030-05-02"}`, 400, "rest_missing_callback_param"},
		{"POST", "/events", `{"title":`, 400, "rest_invalid_json"},
		{"POST", "/events", gala(`,"status":"kinda"`), 400, "rest_invalid_param"},
		{"POST", "/events", gala(`,"featured":"maybe"`), 400, "rest_invalid_param"},
		{"POST", "/events", gala(`,"author":"someone"`), 400, "rest_invalid_param"},
		{"POST", "/events", gala(`,"recurrence":{"rule":"RRULE:FREQ=DAILY"}`), 400, "rest_invalid_param"},
		{"POST", "/events", gala(`,"recurrence":[1,2]`), 400, "rest_invalid_param"},
		{"POST", "/events", gala(`,"cost":{"a":{}}`), 400, "rest_invalid_param"},
		{"POST", "/events", gala(`,"venue":[1,2]`), 400, "rest_invalid_param"},
		{"POST", "/events", gala(`,"venue":{"id":"first"}`), 400, "rest_invalid_param"},
		{"POST", "/events", gala(`,"venue":{"city":"Lyon"}`), 400, "rest_missing_callback_param"},
		{"POST", "/events", gala(`,"venue":{"venue":"Hall","show_map":"maybe"}`), 400, "rest_invalid_param"},
		{"POST", "/events", gala(`,"organizer":"abc"`), 400, "rest_invalid_param"},
		{"POST", "/events", gala(`,"organizer":"` + organizers + `"`), 400, "rest_invalid_param"},
		{"PATCH", "/events/12", `{"all_day":"maybe"}`, 400, "rest_invalid_param"},
		{"DELETE", "/events/12?force=maybe", "", 400, "rest_invalid_param"},
	} {
		svc := &recordedEvents{}
		s := eventsAlone(t, svc)
		opts := []option{body("application/json", tc.body), bearer("editor-token")}
		if tc.code == "incorrect_password" {
			opts = append(opts, bearer("not-a-token"))
		}
		s.do(tc.method, aloneAPI+tc.path, opts...).expectError(t, tc.status, tc.code)
		if calls := svc.called(); calls != "" {
			t.Errorf("%s %s %s: the service was asked %s", tc.method, tc.path, tc.body, calls)
		}
	}
}

// A body shorter than its Content-Length, sent over a connection that the
// client then half-closes, is a 400 the service never sees.
func TestATruncatedBodyIsA400(t *testing.T) {
	t.Parallel()
	svc := &recordedEvents{}
	s := eventsAlone(t, svc)
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer editor-token\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n%s",
		aloneAPI, `{"title": "cut`)
	conn.(*net.TCPConn).CloseWrite()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusBadRequest || svc.called() != "" {
		t.Fatalf("status %d, the service asked %q", res.StatusCode, svc.called())
	}
}

func TestEachErrorOfTheEventServiceLeavesWithItsStatusInThePluginsShape(t *testing.T) {
	t.Parallel()
	svc := &recordedEvents{}
	s := eventsAlone(t, svc)
	expectEachKind(t, &svc.recorder, s, request{"GET", aloneAPI + "/events"}, request{"GET", aloneAPI + "/events.ics"},
		request{"GET", aloneAPI + "/events/by-slug/gala"}, request{"DELETE", aloneAPI + "/events/3"})
}

// A search past its time budget, or a store out of reach, says when to come
// back, and no cache keeps the answer.
func TestAnUnavailableAnswerSaysWhenToComeBackAndIsNotKept(t *testing.T) {
	t.Parallel()
	svc := &recordedEvents{}
	svc.failWith(&calendar.Error{Kind: calendar.KindUnavailable, Code: "search_timeout", Message: "Too slow.", RetryAfter: time.Second})
	s := eventsAlone(t, svc)
	for _, path := range []string{"/events?search=anything", "/events.ics"} {
		res := s.do("GET", aloneAPI+path)
		res.expectError(t, http.StatusServiceUnavailable, "search_timeout")
		if res.Header.Get("Retry-After") == "" || res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Retry-After %q, Cache-Control %q", path, res.Header.Get("Retry-After"), res.Header.Get("Cache-Control"))
		}
	}
}

func TestAnEventListPageSaysItsTotalsItsNeighboursAndItsFacets(t *testing.T) {
	t.Parallel()
	yes := true
	svc := &recordedEvents{page: &app.Page[app.EventView]{Items: []app.EventView{{ID: 1, Title: "a"}, {ID: 2, Title: "b"}},
		Page: 2, PerPage: 2, Total: 7, TotalPages: 4,
		Facets: []app.Facet{{Name: "venue", Values: []app.FacetValue{{ID: 3, Slug: "hall", Name: "Hall", Count: 2}}},
			{Name: "featured", Values: []app.FacetValue{{Value: &yes, Count: 1}}}},
		Grid: &app.GeoGrid{Precision: 3, Cells: []app.GeoCell{{Geohash: "u0b", Count: 2}}}}}
	s := eventsAlone(t, svc)
	res := s.do("GET", aloneAPI+"/events?page=2&per_page=2&start_date=2030-04-01&facets=venue,featured,geo_grid")
	res.expectStatus(t, http.StatusOK)
	for h, want := range map[string]string{"X-WP-Total": "7", "X-WP-TotalPages": "4", "X-TEC-Total": "7", "X-TEC-TotalPages": "4"} {
		if res.Header.Get(h) != want {
			t.Errorf("%s = %q, want %s", h, res.Header.Get(h), want)
		}
	}
	if got := strings.Join(keyOrder(t, res.Body), " "); got != "events rest_url next_rest_url previous_rest_url total total_pages facets geo_grid" {
		t.Fatalf("the wrapper's keys: %s", got)
	}
	m := res.object(t)
	links := map[string]string{}
	for _, key := range []string{"rest_url", "next_rest_url", "previous_rest_url"} {
		link := m[key].(string)
		u, err := neturl.Parse(link)
		if err != nil || !strings.HasPrefix(link, s.URL+aloneAPI+"/events/?") || u.Query().Get("start_date") != "2030-04-01" {
			t.Errorf("%s %q, want the events list with its filters", key, link)
		}
		links[key] = u.Query().Get("page")
	}
	if links["rest_url"] != "2" || links["next_rest_url"] != "3" || links["previous_rest_url"] != "" { // the first page without page=
		t.Errorf("the pages linked: %v", links)
	}
	if link := res.Header.Get("Link"); !strings.Contains(link, `rel="prev"`) || !strings.Contains(link, `rel="next"`) {
		t.Errorf("Link %q", link)
	}
	facets := m["facets"].(map[string]any)
	if got := strings.Join(keyOrder(t, rawAt(t, res.Body, "facets")), " "); got != "venue featured" ||
		fmt.Sprint(facets["venue"]) != "[map[count:2 id:3 name:Hall slug:hall]]" || fmt.Sprint(facets["featured"]) != "[map[count:1 value:true]]" {
		t.Errorf("facets %v, in the order asked", facets)
	}
	if grid := m["geo_grid"].(map[string]any); grid["precision"] != 3.0 || len(grid["cells"].([]any)) != 1 {
		t.Errorf("geo_grid %v", grid)
	}
	bare := &recordedEvents{}
	if got := strings.Join(keyOrder(t, eventsAlone(t, bare).do("GET", aloneAPI+"/events").Body), " "); got != "events rest_url total total_pages" {
		t.Errorf("a single page's wrapper: %s", got)
	}
}

func TestAnEventsAnswersCarryWhatTheClientNeedsNext(t *testing.T) {
	t.Parallel()
	svc := &recordedEvents{}
	s := eventsAlone(t, svc)
	created := s.do("POST", aloneAPI+"/events", bearer("editor-token"), jsonBody(map[string]any{"title": "t", "start_date": "a", "end_date": "b"}))
	created.expectStatus(t, http.StatusCreated)
	if created.object(t)["id"] != 5.0 {
		t.Errorf("created %s", created.Body)
	}
	read := s.do("GET", aloneAPI+"/events/5")
	etag := read.Header.Get("ETag")
	if etag == "" || read.Header.Get("Cache-Control") == "" {
		t.Fatalf("a read's headers: %v", read.Header)
	}
	s.do("GET", aloneAPI+"/events/5", header("If-None-Match", etag)).expectStatus(t, http.StatusNotModified)
	for _, tc := range []struct {
		header, value string
		want          app.Precondition
	}{
		{"If-Match", `"12-abc", W/"14-def"`, app.Precondition{Revisions: []int64{12, 14}}},
		{"If-Match", `"not-ours"`, app.Precondition{Revisions: []int64{}}},
		{"If-Match", `*`, app.Precondition{}},
		{"If-Unmodified-Since", "Tue, 01 Jan 2030 10:00:00 GMT", app.Precondition{UnmodifiedSince: time.Date(2030, 1, 1, 10, 0, 0, 0, time.UTC)}},
		{"If-Unmodified-Since", "yesterday", app.Precondition{}},
	} {
		s.do("PATCH", aloneAPI+"/events/5", bearer("editor-token"), header(tc.header, tc.value), jsonBody(map[string]any{"title": "t"})).
			expectStatus(t, http.StatusOK)
		if got := svc.asked().Expect; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %s: the write expects %+v, want %+v", tc.header, tc.value, got, tc.want)
		}
	}
}

// A parameter the service refuses is named in the answer, as the plugin's
// validators name theirs.
func TestAParameterTheServiceRefusesIsNamedInTheAnswer(t *testing.T) {
	t.Parallel()
	var bad calendar.InvalidParams
	bad.Add("post_parent", "post_parent must name a series.", nil)
	svc := &recordedEvents{}
	svc.failWith(bad.Err())
	s := eventsAlone(t, svc)
	res := s.do("POST", aloneAPI+"/events/12", bearer("editor-token"), jsonBody(map[string]any{"post_parent": 12}))
	data := res.expectError(t, http.StatusBadRequest, "rest_invalid_param")["data"].(map[string]any)
	if params, _ := data["params"].(map[string]any); params["post_parent"] != "post_parent must name a series." || data["details"] == nil {
		t.Fatalf("the refusal's data: %v", data)
	}
}

// A calendar client polling an unchanged feed is answered 304; enveloped,
// the feed is a JSON string.
func TestAFeedIsCachedByItsBytesAndEnvelopedAsText(t *testing.T) {
	t.Parallel()
	svc := &recordedEvents{}
	s := eventsAlone(t, svc)
	feed := s.do("GET", aloneAPI+"/events.ics")
	etag := feed.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag on the feed")
	}
	s.do("GET", aloneAPI+"/events.ics", header("If-None-Match", etag)).expectStatus(t, http.StatusNotModified)
	var enveloped struct {
		Body   string
		Status int
	}
	res := s.do("GET", aloneAPI+"/events.ics?_envelope")
	if err := json.Unmarshal(res.Body, &enveloped); err != nil || enveloped.Status != http.StatusOK ||
		enveloped.Body != string(feed.Body) || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("the enveloped feed: %v %+v %s", err, enveloped, res.Header.Get("Content-Type"))
	}
}

// What the HTTP layer refuses of a write is named as the service's
// refusals are: more organizers than an event has, a cost of no shape.
func TestAWriteRefusedBeforeTheServiceNamesTheParameter(t *testing.T) {
	t.Parallel()
	svc := &recordedEvents{}
	s := eventsAlone(t, svc)
	organizers := make([]any, calendar.MaxOrganizers+1)
	for param, value := range map[string]any{"organizer": organizers, "cost": map[string]any{"a": map[string]any{}}} {
		fields := map[string]any{"title": "t", "start_date": "a", "end_date": "b", param: value}
		m := s.do("POST", aloneAPI+"/events", bearer("editor-token"), jsonBody(fields)).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		if params, _ := m["data"].(map[string]any)["params"].(map[string]any); params[param] == nil {
			t.Errorf("the refusal of %s does not name it: %v", param, m)
		}
	}
	if svc.called() != "" {
		t.Errorf("the service was asked %s", svc.called())
	}
}
