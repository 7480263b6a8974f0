package controllers_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
)

// These tests run the term routes on a small world: their routes alone, over
// a service that records what it is asked and answers what it is told. They
// pin what is HTTP (reading parameters into typed requests, statuses, the
// error shape, list headers); what the service does with a request is app's
// (app/term_test.go), and the routes over the real service are the rest of
// this package's.

// recordedTerms is the term service of the small world.
type recordedTerms struct {
	hierarchical bool
	mu           sync.Mutex
	calls        []string
	filter       app.TermFilter
	input        app.TermInput
	caller       app.Caller
	page         *app.Page[app.TermView]
	err          error
}

func (r *recordedTerms) record(call string, caller app.Caller) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, call)
	r.caller = caller
	return r.err
}

func (r *recordedTerms) Hierarchical() bool { return r.hierarchical }

func (r *recordedTerms) List(_ context.Context, caller app.Caller, f app.TermFilter) (*app.Page[app.TermView], error) {
	err := r.record("List", caller)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.filter = f
	if r.page == nil {
		return &app.Page[app.TermView]{Page: 1, PerPage: 10}, err
	}
	return r.page, err
}

func (r *recordedTerms) write(call string, caller app.Caller, id int64, in app.TermInput) (*app.TermView, error) {
	err := r.record(call, caller)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.input = in
	return &app.TermView{ID: id, Name: "recorded", URLs: app.TermURLs{Self: caller.Root + "categories/" + fmt.Sprint(id)}}, err
}

func (r *recordedTerms) Create(_ context.Context, caller app.Caller, in app.TermInput) (*app.TermView, error) {
	return r.write("Create", caller, 5, in)
}

func (r *recordedTerms) Get(_ context.Context, caller app.Caller, id int64) (*app.TermView, error) {
	return r.write("Get", caller, id, app.TermInput{})
}

func (r *recordedTerms) Update(_ context.Context, caller app.Caller, id int64, in app.TermInput) (*app.TermView, error) {
	return r.write("Update", caller, id, in)
}

func (r *recordedTerms) Delete(_ context.Context, caller app.Caller, id int64) (*app.TermView, error) {
	return r.write("Delete", caller, id, app.TermInput{})
}

func (r *recordedTerms) called() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.calls, ",")
}

// oneEditor knows one credential: the Bearer token "editor-token".
type oneEditor struct{}

var theEditor = &calendar.User{ID: 7, Login: "ed", Role: calendar.RoleEditor}

func (oneEditor) Authenticate(context.Context, string, string, string) (*calendar.User, error) {
	return nil, calendar.ErrIncorrectPassword()
}

func (oneEditor) AuthenticateToken(_ context.Context, _, password string) (*calendar.User, error) {
	if password == "editor-token" {
		return theEditor, nil
	}
	return nil, calendar.ErrIncorrectPassword()
}

// termsAlone serves one taxonomy's routes over svc on a real listener.
func termsAlone(t *testing.T, plural string, svc *recordedTerms) *service {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String()
	cfg := controllers.Config{SiteURL: url, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	srv.Config.Handler = controllers.NewTermsAlone(cfg, oneEditor{}, plural, svc)
	srv.Start()
	t.Cleanup(srv.Close)
	return &service{t: t, URL: url}
}

func TestTheTermRoutesReadTheirParametersIntoTheTypedRequest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, query string
		want        app.TermFilter
	}{
		{"nothing sent: the service's defaults", "", app.TermFilter{}},
		{"every filter", "search=jazz&slug=live-jazz&include=1,rock&exclude[]=2&order=DESC&orderby=slug&hide_empty=0&parent=3&page=2&per_page=5",
			app.TermFilter{Page: app.PageRequest{Page: 2, PerPage: 5}, Search: ptr("jazz"), Slug: ptr("live-jazz"),
				Include: &[]string{"1", "rock"}, Exclude: &[]string{"2"}, Order: ptr("DESC"), OrderBy: ptr("slug"),
				HideEmpty: ptr(false), Parent: ptr(int64(3))}},
		{"post names the event", "post=4", app.TermFilter{Event: ptr(int64(4)), EventParam: "post"}},
		{"event wins over post", "post=4&event=9", app.TermFilter{Event: ptr(int64(9)), EventParam: "event"}},
	} {
		svc := &recordedTerms{hierarchical: true}
		s := termsAlone(t, "categories", svc)
		s.do("GET", "/vendor/events/v1/categories?"+tc.query).expectStatus(t, http.StatusOK)
		if !reflect.DeepEqual(svc.filter, tc.want) {
			t.Errorf("%s: the service was asked %s, want %s", tc.name, show(svc.filter), show(tc.want))
		}
	}
}

func TestTheTermWritesHandTheServiceWhatWasSentByWhom(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, plural, method, path, body string
		status                           int
		call                             string
		want                             app.TermInput
	}{
		{"a category created", "categories", "POST", "/categories", `{"name":"Jazz","parent":2}`, http.StatusCreated, "Create",
			app.TermInput{Name: ptr("Jazz"), Parent: ptr(int64(2))}},
		{"a form's fields", "categories", "PUT", "/categories/5", "name=Jazz&description=%3Cb%3Elive%3C%2Fb%3E&slug=jz", http.StatusOK, "Update",
			app.TermInput{Name: ptr("Jazz"), Description: ptr("<b>live</b>"), Slug: ptr("jz")}},
		{"a tag's parent kept for the service to refuse", "tags", "PATCH", "/tags/5", `{"parent":2}`, http.StatusOK, "Update",
			app.TermInput{Parent: ptr(int64(2))}},
		{"a tag's parent of any shape kept too", "tags", "POST", "/tags", `{"name":"A","parent":"foo"}`, http.StatusCreated, "Create",
			app.TermInput{Name: ptr("A"), Parent: ptr(int64(0))}},
	} {
		svc := &recordedTerms{hierarchical: tc.plural == "categories"}
		s := termsAlone(t, tc.plural, svc)
		contentType := "application/json"
		if !strings.HasPrefix(tc.body, "{") {
			contentType = "application/x-www-form-urlencoded"
		}
		res := s.do(tc.method, "/vendor/events/v1"+tc.path, bearer("editor-token"), body(contentType, tc.body))
		res.expectStatus(t, tc.status)
		if svc.called() != tc.call || !reflect.DeepEqual(svc.input, tc.want) {
			t.Errorf("%s: the service was called %q with %s, want %q with %s", tc.name, svc.called(), show(svc.input), tc.call, show(tc.want))
		}
		if svc.caller.User != theEditor || svc.caller.Root != s.URL+"/vendor/events/v1/" {
			t.Errorf("%s: the caller was %+v", tc.name, svc.caller)
		}
		if tc.status == http.StatusCreated && res.Header.Get("Location") != s.URL+"/vendor/events/v1/categories/5" {
			t.Errorf("%s: Location %q", tc.name, res.Header.Get("Location"))
		}
	}
}

func TestABadTermRequestIsRefusedBeforeTheServiceIsAsked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "/categories?per_page=0", "", http.StatusBadRequest, "rest_invalid_param"},
		{"GET", "/categories?parent=first", "", http.StatusBadRequest, "rest_invalid_param"},
		{"GET", "/categories?orderby=popularity", "", http.StatusBadRequest, "rest_invalid_param"},
		{"GET", "/categories?event=foo", "", http.StatusBadRequest, "rest_invalid_param"},
		{"GET", "/categories?hide_empty=maybe", "", http.StatusBadRequest, "rest_invalid_param"},
		{"GET", "/categories?per_page=x", "", http.StatusBadRequest, "rest_invalid_param"},
		{"GET", "/categories?page=0", "", http.StatusBadRequest, "rest_invalid_param"},
		{"POST", "/categories", `{"name":"A","parent":""}`, http.StatusBadRequest, "rest_invalid_param"},
		{"POST", "/categories", `{"name":"A","parent":"foo"}`, http.StatusBadRequest, "rest_invalid_param"},
		{"POST", "/categories", `{"description":"no name"}`, http.StatusBadRequest, "rest_missing_callback_param"},
		{"POST", "/categories", `{"name":`, http.StatusBadRequest, "rest_invalid_json"},
		{"GET", "/categories/x1", "", http.StatusNotFound, "rest_no_route"},
		{"GET", "/categories", "", http.StatusUnauthorized, "incorrect_password"}, // with a wrong credential
	} {
		svc := &recordedTerms{hierarchical: true}
		s := termsAlone(t, "categories", svc)
		opts := []option{body("application/json", tc.body)}
		if tc.code == "incorrect_password" {
			opts = append(opts, bearer("not-a-token"))
		}
		s.do(tc.method, "/vendor/events/v1"+tc.path, opts...).expectError(t, tc.status, tc.code)
		if calls := svc.called(); calls != "" {
			t.Errorf("%s %s: the service was asked %s", tc.method, tc.path, calls)
		}
	}
}

func TestEachErrorOfTheTermServiceLeavesWithItsStatusInThePluginsShape(t *testing.T) {
	t.Parallel()
	for kind, status := range map[calendar.Kind]int{
		calendar.KindInvalid: http.StatusBadRequest, calendar.KindUnauthorized: http.StatusUnauthorized,
		calendar.KindForbidden: http.StatusForbidden, calendar.KindNotFound: http.StatusNotFound,
		calendar.KindConflict: http.StatusConflict, calendar.KindThrottled: http.StatusTooManyRequests,
		calendar.KindUnavailable: http.StatusServiceUnavailable, calendar.KindNotImplemented: http.StatusNotImplemented,
		calendar.KindPreconditionFailed: http.StatusPreconditionFailed, calendar.KindInternal: http.StatusInternalServerError,
	} {
		svc := &recordedTerms{hierarchical: true, err: calendar.NewError(kind, "the_code", "The message.")}
		s := termsAlone(t, "categories", svc)
		for _, req := range []struct{ method, path string }{{"GET", "/categories"}, {"DELETE", "/categories/3"}} {
			m := s.do(req.method, "/vendor/events/v1"+req.path, bearer("editor-token")).expectError(t, status, "the_code")
			if m["message"] != "The message." || len(m) != 3 {
				t.Errorf("kind %d on %s %s: %v, want code, message and data alone", kind, req.method, req.path, m)
			}
		}
	}
}

func TestATermListPageSaysItsTotalsAndItsNeighbours(t *testing.T) {
	t.Parallel()
	svc := &recordedTerms{page: &app.Page[app.TermView]{Items: []app.TermView{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}},
		Page: 2, PerPage: 2, Total: 5, TotalPages: 3}}
	s := termsAlone(t, "tags", svc)
	res := s.do("GET", "/vendor/events/v1/tags?page=2&per_page=2&search=a")
	res.expectStatus(t, http.StatusOK)
	if res.Header.Get("X-WP-Total") != "5" || res.Header.Get("X-WP-TotalPages") != "3" {
		t.Fatalf("totals %q and %q, want 5 and 3", res.Header.Get("X-WP-Total"), res.Header.Get("X-WP-TotalPages"))
	}
	m := res.object(t)
	if tags := m["tags"].([]any); len(tags) != 2 || m["total"] != 5.0 || m["total_pages"] != 3.0 {
		t.Fatalf("the wrapper %v", m)
	}
	for key, page := range map[string]string{"next_rest_url": "3", "previous_rest_url": ""} { // the first page without page=
		link, _ := m[key].(string)
		u, err := neturl.Parse(link)
		if err != nil || !strings.HasPrefix(link, s.URL+"/vendor/events/v1/tags/?") || u.Query().Get("page") != page || u.Query().Get("search") != "a" {
			t.Errorf("%s %q, want the tags list at page %q with the search kept", key, link, page)
		}
	}
}

// show writes a typed request with its pointers followed.
func show(v any) string {
	rv := reflect.ValueOf(v)
	var parts []string
	for i := range rv.NumField() {
		f := rv.Field(i)
		if f.IsZero() {
			continue
		}
		if f.Kind() == reflect.Pointer {
			f = f.Elem()
		}
		parts = append(parts, fmt.Sprintf("%s:%v", rv.Type().Field(i).Name, f.Interface()))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// ptr is a pointer to a copy of v, for the optional fields of typed requests.
func ptr[T any](v T) *T { return &v }

// A term list's wrapper keys are in WordPress' order; past the last page
// it links back and not on.
func TestATermListPastItsLastPageLinksBack(t *testing.T) {
	t.Parallel()
	svc := &recordedTerms{page: &app.Page[app.TermView]{Items: []app.TermView{}, Page: 4, PerPage: 3, Total: 9, TotalPages: 3}}
	s := termsAlone(t, "tags", svc)
	res := s.do("GET", "/vendor/events/v1/tags?hide_empty=0&per_page=3&page=4")
	res.expectStatus(t, http.StatusOK)
	if got := strings.Join(keyOrder(t, res.Body), " "); got != "rest_url total total_pages tags previous_rest_url" {
		t.Fatalf("the wrapper's keys: %s", got)
	}
	prev, err := neturl.Parse(res.object(t)["previous_rest_url"].(string))
	if err != nil || prev.Query().Get("page") != "3" || prev.Query().Get("per_page") != "3" || prev.Query().Get("hide_empty") != "false" {
		t.Fatalf("the previous page's link %v, want page 3 with the filters", prev)
	}
}
