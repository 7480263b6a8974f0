package controllers_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
)

// The routes of venues and organizers on their small world: one generic
// mount serves both, over a service that records what it is asked. What the
// service decides is app's (app/linked_test.go, app/links_test.go,
// app/geo_test.go).

// recordedLinked is the venue or organizer service of the small world.
type recordedLinked[V any] struct {
	recorder
	postType string
	meta     []string
	page     *app.Page[V]
	item     V
}

func (r *recordedLinked[V]) PostType() string     { return r.postType }
func (r *recordedLinked[V]) MetaFields() []string { return r.meta }

func (r *recordedLinked[V]) List(_ context.Context, caller app.Caller, f app.LinkedFilter) (*app.Page[V], error) {
	if err := r.record("List", caller, f); err != nil {
		return nil, err
	}
	if r.page != nil {
		return r.page, nil
	}
	return &app.Page[V]{Page: 1, PerPage: 10}, nil
}

func (r *recordedLinked[V]) Create(_ context.Context, caller app.Caller, in app.LinkedInput) (V, error) {
	return r.item, r.record("Create", caller, in)
}

func (r *recordedLinked[V]) Get(_ context.Context, caller app.Caller, ref app.PostRef, password string) (V, error) {
	return r.item, r.record("Get", caller, ref, password)
}

func (r *recordedLinked[V]) Update(_ context.Context, caller app.Caller, ref app.PostRef, in app.LinkedInput) (V, error) {
	return r.item, r.record("Update", caller, ref, in)
}

func (r *recordedLinked[V]) Delete(_ context.Context, caller app.Caller, ref app.PostRef, force bool) (app.Removal[V], error) {
	if err := r.record("Delete", caller, ref, force); err != nil {
		return app.Removal[V]{}, err
	}
	return app.Removal[V]{ForGood: &app.Deleted[V]{Deleted: true, Previous: r.item}}, nil
}

func venuesAlone(t *testing.T, svc *recordedLinked[app.VenueView]) *service {
	t.Helper()
	svc.postType, svc.meta = calendar.PostTypeVenue, aloneVenueMeta
	if svc.item.ID == 0 {
		svc.item = app.VenueView{ID: 5, Venue: "recorded"}
	}
	return serveAlone(t, func(cfg controllers.Config) http.Handler {
		return controllers.NewLinkedAlone(cfg, oneEditor{}, "venues", svc)
	})
}

func organizersAlone(t *testing.T, svc *recordedLinked[app.OrganizerView]) *service {
	t.Helper()
	svc.postType, svc.meta, svc.item = calendar.PostTypeOrganizer, aloneOrganizerMeta, app.OrganizerView{ID: 5, Organizer: "recorded"}
	return serveAlone(t, func(cfg controllers.Config) http.Handler {
		return controllers.NewLinkedAlone(cfg, oneEditor{}, "organizers", svc)
	})
}

// linkedAlone serves the venues' or the organizers' routes (plural) alone,
// with the recorder of what their service was asked.
func linkedAlone(t *testing.T, plural string) (*service, *recorder) {
	t.Helper()
	if plural == "venues" {
		svc := &recordedLinked[app.VenueView]{}
		return venuesAlone(t, svc), &svc.recorder
	}
	svc := &recordedLinked[app.OrganizerView]{}
	return organizersAlone(t, svc), &svc.recorder
}

func TestTheVenueAndOrganizerListsReadTheirParametersIntoTheFilter(t *testing.T) {
	t.Parallel()
	venues, organizers := &recordedLinked[app.VenueView]{}, &recordedLinked[app.OrganizerView]{}
	worlds := map[string]struct {
		s   *service
		rec *recorder
	}{"venues": {venuesAlone(t, venues), &venues.recorder}, "organizers": {organizersAlone(t, organizers), &organizers.recorder}}
	for _, tc := range []struct {
		name, plural, query string
		want                app.LinkedFilter
	}{
		{"nothing sent: the service's defaults", "venues", "", app.LinkedFilter{}},
		{"every filter", "organizers", "page=2&per_page=5&search=hall&status=draft,publish&event=9&has_events=1&only_with_upcoming=true&modified_after=2030-01-01",
			app.LinkedFilter{Page: app.PageRequest{Page: 2, PerPage: 5}, Search: ptr("hall"), Statuses: &[]string{"draft", "publish"},
				Event: ptr(int64(9)), HasEvents: ptr(true), OnlyWithUpcoming: true, ModifiedAfter: ptr("2030-01-01")}},
		{"has_events=false keeps the others", "venues", "has_events=false", app.LinkedFilter{HasEvents: ptr(false)}},
		{"a list with spaces", "venues", "status=publish,%20draft", app.LinkedFilter{Statuses: &[]string{"publish", "draft"}}},
		{"a list as PHP sends it", "venues", "status[]=publish&status[]=draft", app.LinkedFilter{Statuses: &[]string{"publish", "draft"}}},
		{"has_events=0 keeps the others", "organizers", "has_events=0", app.LinkedFilter{HasEvents: ptr(false)}},
		// has_events and only_with_upcoming are read as the plugin reads them (tribe_is_truthy).
		{"has_events=yes", "venues", "has_events=yes", app.LinkedFilter{HasEvents: ptr(true)}},
		{"has_events=Enabled", "venues", "has_events=Enabled", app.LinkedFilter{HasEvents: ptr(true)}},
		{"has_events=true", "venues", "has_events=true", app.LinkedFilter{HasEvents: ptr(true)}},
		{"has_events empty", "venues", "has_events=", app.LinkedFilter{HasEvents: ptr(false)}},
		{"has_events=no", "venues", "has_events=no", app.LinkedFilter{HasEvents: ptr(false)}},
		{"only_with_upcoming=y", "venues", "only_with_upcoming=y", app.LinkedFilter{OnlyWithUpcoming: true}},
		{"only_with_upcoming=false", "venues", "only_with_upcoming=false", app.LinkedFilter{}},
		{"only_with_upcoming=nah", "venues", "only_with_upcoming=nah", app.LinkedFilter{}},
		{"venues near a point, nearest first", "venues", "geoloc_lat=45.76&geoloc_lng=4.8357&geoloc_radius=10&geoloc_unit=km&orderby=distance",
			app.LinkedFilter{ByDistance: true, Near: app.NearInput{Lat: ptr(45.76), Lng: ptr(4.8357), Radius: ptr(10.0), Unit: "km"}}},
		{"venues near a place, within a box", "venues", "near=Lyon&geo_bounds=45,4,46,5",
			app.LinkedFilter{Near: app.NearInput{Place: ptr("Lyon"), Bounds: ptr("45,4,46,5")}}},
		{"organizers are not near anything", "organizers", "geoloc_lat=45.76&geoloc_lng=4.8357&geoloc_radius=3", app.LinkedFilter{}},
	} {
		w := worlds[tc.plural]
		w.s.do("GET", aloneAPI+"/"+tc.plural+"?"+tc.query).expectStatus(t, http.StatusOK)
		if got := w.rec.got()[0].(app.LinkedFilter); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: the service was asked %s, want %s", tc.name, show(got), show(tc.want))
		}
	}
}

func TestTheVenueAndOrganizerWritesHandTheServiceWhatWasSent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, plural, method, path, body string
		call                             string
		ref                              app.PostRef
		want                             app.LinkedInput
	}{
		{"a venue created", "venues", "POST", "/venues", `{"venue":"Hall","address":"1 Main st","city":"Lyon","show_map":true,` +
			`"show_map_link":false,"geo_lat":45.76,"geo_lng":"4.8357","status":"draft","password":"pw","image":12,"author":3,"description":"d","excerpt":"e"}`,
			"Create", app.PostRef{}, app.LinkedInput{PostFields: app.PostFields{Title: ptr("Hall"), Status: "draft", Password: ptr("pw"),
				Image: ptr("12"), Author: ptr(int64(3)), Description: ptr("d"), Excerpt: ptr("e")},
				Meta: map[string]string{"address": "1 Main st", "city": "Lyon"}, ShowMap: ptr(true), ShowMapLink: ptr(false),
				GeoLat: ptr(45.76), GeoLng: ptr(4.8357)}},
		{"an organizer created from a form", "organizers", "POST", "/organizers", "organizer=Ann&email=a%40example.org&phone=&date=2030-01-01",
			"Create", app.PostRef{}, app.LinkedInput{PostFields: app.PostFields{Title: ptr("Ann"), Date: ptr("2030-01-01")},
				Meta: map[string]string{"email": "a@example.org", "phone": ""}}},
		{"another resource's fields are not read", "organizers", "POST", "/organizers", `{"organizer":"Ann","city":"Lyon","geo_lat":1}`,
			"Create", app.PostRef{}, app.LinkedInput{PostFields: app.PostFields{Title: ptr("Ann")}, Meta: map[string]string{}}},
		{"a venue updated by ID", "venues", "PATCH", "/venues/12", `{"city":""}`, "Update", app.PostRef{ID: 12},
			app.LinkedInput{Meta: map[string]string{"city": ""}}},
		{"the path names the venue, not the body", "venues", "PUT", "/venues/12?id=14", `{"id":13,"venue":"Renamed"}`, "Update", app.PostRef{ID: 12},
			app.LinkedInput{PostFields: app.PostFields{Title: ptr("Renamed")}, Meta: map[string]string{}}},
		{"an organizer updated by slug", "organizers", "POST", "/organizers/by-slug/ann", `{"phone":"555"}`, "Update", app.PostRef{Slug: "ann"},
			app.LinkedInput{Meta: map[string]string{"phone": "555"}}},
	} {
		s, rec := linkedAlone(t, tc.plural)
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
		if res.object(t)["id"] != 5.0 {
			t.Errorf("%s: answered %s, want the service's item", tc.name, res.Body)
		}
		got := rec.got()
		if rec.called() != tc.call || !reflect.DeepEqual(got[len(got)-1], tc.want) {
			t.Errorf("%s: the service was asked %s %s, want %s %s", tc.name, rec.called(), show(got[len(got)-1]), tc.call, show(tc.want))
		}
		if tc.call == "Update" && got[0].(app.PostRef) != tc.ref {
			t.Errorf("%s: the service was asked of %+v, want %+v", tc.name, got[0], tc.ref)
		}
		if caller := rec.asked(); caller.User != theEditor {
			t.Errorf("%s: the caller was %+v", tc.name, caller)
		}
	}
}

func TestAVenueIsReadAndDeletedByIDOrSlugAsThePathSays(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method, path string
		call         string
		given        []any
	}{
		{"GET", "/venues/12?password=sesame", "Get", []any{app.PostRef{ID: 12}, "sesame"}},
		{"GET", "/venues/by-slug/hall", "Get", []any{app.PostRef{Slug: "hall"}, ""}},
		{"DELETE", "/venues/12?id=13", "Delete", []any{app.PostRef{ID: 12}, false}},
		{"DELETE", "/venues/by-slug/hall?force=true", "Delete", []any{app.PostRef{Slug: "hall"}, true}},
	} {
		svc := &recordedLinked[app.VenueView]{}
		s := venuesAlone(t, svc)
		s.do(tc.method, aloneAPI+tc.path, bearer("editor-token")).expectStatus(t, http.StatusOK)
		if svc.called() != tc.call || !reflect.DeepEqual(svc.got(), tc.given) {
			t.Errorf("%s %s: the service was asked %s%v, want %s%v", tc.method, tc.path, svc.called(), svc.got(), tc.call, tc.given)
		}
	}
}

func TestABadVenueOrOrganizerRequestIsRefusedBeforeTheServiceIsAsked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		plural, method, path, body string
		status                     int
		code                       string
	}{
		{"venues", "GET", "/venues?per_page=0", "", 400, "rest_invalid_param"},
		{"venues", "GET", "/venues?event=first", "", 400, "rest_invalid_param"},
		{"venues", "GET", "/venues?geoloc_lat=north", "", 400, "rest_invalid_param"},
		{"venues", "GET", "/venues?geoloc_unit=ft", "", 400, "rest_invalid_param"},
		{"venues", "POST", "/venues", `{"city":"Lyon"}`, 400, "rest_missing_callback_param"},
		{"venues", "POST", "/venues", `{"venue":5}`, 400, "rest_invalid_param"}, // a number is not a string
		{"venues", "POST", "/venues", `{"venue":"Hall","author":"foo"}`, 400, "rest_invalid_param"},
		{"venues", "GET", "/venues?per_page=foo%20bar", "", 400, "rest_invalid_param"},
		{"venues", "GET", "/venues?page=-1", "", 400, "rest_invalid_param"},
		{"venues", "POST", "/venues", `{"venue":"Hall","geo_lat":"north"}`, 400, "rest_invalid_param"},
		{"venues", "POST", "/venues", `{"venue":"Hall","status":"kinda"}`, 400, "rest_invalid_param"},
		{"venues", "PATCH", "/venues/12", `{"show_map":"maybe"}`, 400, "rest_invalid_param"},
		{"venues", "GET", "/venues/x1", "", 404, "rest_no_route"},
		{"organizers", "POST", "/organizers", `{"venue":"Hall"}`, 400, "rest_missing_callback_param"},
		{"organizers", "POST", "/organizers", `{"organizer":`, 400, "rest_invalid_json"},
		{"organizers", "DELETE", "/organizers/3?force=maybe", "", 400, "rest_invalid_param"},
	} {
		s, rec := linkedAlone(t, tc.plural)
		s.do(tc.method, aloneAPI+tc.path, bearer("editor-token"), body("application/json", tc.body)).expectError(t, tc.status, tc.code)
		if calls := rec.called(); calls != "" {
			t.Errorf("%s %s %s: the service was asked %s", tc.method, tc.path, tc.body, calls)
		}
	}
}

func TestEachErrorOfTheVenueServiceLeavesWithItsStatusInThePluginsShape(t *testing.T) {
	t.Parallel()
	svc := &recordedLinked[app.VenueView]{}
	s := venuesAlone(t, svc)
	expectEachKind(t, &svc.recorder, s, request{"GET", aloneAPI + "/venues"}, request{"POST", aloneAPI + "/venues/3"},
		request{"DELETE", aloneAPI + "/venues/by-slug/hall"})
}

func TestAVenueListPageSaysItsTotalsAndItsNeighbours(t *testing.T) {
	t.Parallel()
	svc := &recordedLinked[app.VenueView]{page: &app.Page[app.VenueView]{Items: []app.VenueView{{ID: 1, Venue: "a"}},
		Page: 3, PerPage: 1, Total: 3, TotalPages: 3}}
	s := venuesAlone(t, svc)
	res := s.do("GET", aloneAPI+"/venues?page=3&per_page=1&search=a&modified_after=2000-01-01+00:00:00")
	res.expectStatus(t, http.StatusOK)
	if res.Header.Get("X-WP-Total") != "3" || res.Header.Get("X-TEC-TotalPages") != "3" || !strings.Contains(res.Header.Get("Link"), `rel="prev"`) {
		t.Errorf("headers %v", res.Header)
	}
	if got := strings.Join(keyOrder(t, res.Body), " "); got != "venues rest_url previous_rest_url total total_pages" {
		t.Fatalf("the wrapper's keys: %s", got)
	}
	if m := res.object(t); !strings.HasPrefix(m["previous_rest_url"].(string), s.URL+aloneAPI+"/venues/?") ||
		!strings.Contains(m["previous_rest_url"].(string), "search=a") || !strings.Contains(m["previous_rest_url"].(string), "modified_after=2000-01-01+00%3A00%3A00") ||
		len(m["venues"].([]any)) != 1 {
		t.Errorf("the wrapper %v", m)
	}
}

// Answers are UTF-8 as they are: neither non-ASCII letters nor slashes are
// escaped.
func TestAVenueIsAnsweredInUTF8WithoutEscapes(t *testing.T) {
	t.Parallel()
	svc := &recordedLinked[app.VenueView]{item: app.VenueView{ID: 5, Venue: "Salle Rhône <1>", Website: "https://hall.example/a&b"}}
	s := venuesAlone(t, svc)
	res := s.do("GET", aloneAPI+"/venues/5")
	res.expectStatus(t, http.StatusOK)
	if body := string(res.Body); strings.Contains(body, `\u`) || strings.Contains(body, `\/`) || !strings.Contains(body, "Salle Rhône <1>") ||
		!strings.Contains(body, "https://hall.example/a&b") {
		t.Fatalf("the answer escapes: %s", body)
	}
}
