package controllers_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
)

// The user administration and application passwords on their small world:
// the parameters read into what the service is asked, by which user, and
// the answers' statuses. Who may do what is app's (app/user_test.go,
// app/application_passwords_test.go, app/administrators_test.go).

// recordedUsers is the user service of the small world; me is who /users/me is.
type recordedUsers struct {
	recorder
	me int64
}

var aloneUser = app.UserView{ID: 9, Login: "ann", Role: calendar.RoleAuthor}

func (r *recordedUsers) List(_ context.Context, caller app.Caller) ([]app.UserView, error) {
	return []app.UserView{aloneUser}, r.record("List", caller)
}

func (r *recordedUsers) Create(_ context.Context, caller app.Caller, in app.UserInput) (*app.CreatedUser, error) {
	return &app.CreatedUser{UserView: aloneUser, ApplicationPassword: "shown once"}, r.record("Create", caller, in)
}

func (r *recordedUsers) Delete(_ context.Context, caller app.Caller, id int64) (*app.DeletedUser, error) {
	return &app.DeletedUser{Deleted: true, Previous: aloneUser}, r.record("Delete", caller, id)
}

func (r *recordedUsers) Me(_ context.Context, caller app.Caller) (*app.UserView, error) {
	if err := r.record("Me", caller); err != nil {
		return nil, err
	}
	return &app.UserView{ID: r.me, Login: "me"}, nil
}

func (r *recordedUsers) SetRole(_ context.Context, caller app.Caller, id int64, role calendar.Role) (*app.UserView, error) {
	return &aloneUser, r.record("SetRole", caller, id, role)
}

func (r *recordedUsers) ApplicationPasswords(_ context.Context, caller app.Caller, id int64) ([]app.ApplicationPasswordView, error) {
	return []app.ApplicationPasswordView{{UUID: "u-1", Name: "phone"}}, r.record("ApplicationPasswords", caller, id)
}

func (r *recordedUsers) CreateApplicationPassword(_ context.Context, caller app.Caller, id int64, in app.ApplicationPasswordInput) (*app.ApplicationPasswordView, error) {
	return &app.ApplicationPasswordView{UUID: "u-2", Name: in.Name, Password: "shown once"}, r.record("CreateApplicationPassword", caller, id, in)
}

func (r *recordedUsers) RevokeApplicationPassword(_ context.Context, caller app.Caller, id int64, uuid string) (*app.DeletedApplicationPassword, error) {
	return &app.DeletedApplicationPassword{Deleted: true}, r.record("RevokeApplicationPassword", caller, id, uuid)
}

func usersAlone(t *testing.T, svc *recordedUsers) *service {
	t.Helper()
	return serveAlone(t, func(cfg controllers.Config) http.Handler { return controllers.NewUsersAlone(cfg, oneEditor{}, svc) })
}

const aloneAdmin = "/vendor/admin/v1"

func TestTheUserRoutesAskTheServiceWhatThePathAndBodySay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method, path, body string
		status             int
		calls              string
		given              []any
	}{
		{"GET", "/users", "", 200, "List", nil},
		{"POST", "/users", `{"login":"ann","role":"author"}`, 201, "Create", []any{app.UserInput{Login: "ann", Role: calendar.RoleAuthor}}},
		{"POST", "/users", "login=bob&role=subscriber", 201, "Create", []any{app.UserInput{Login: "bob", Role: calendar.RoleSubscriber}}},
		{"DELETE", "/users/11?id=12", "", 200, "Delete", []any{int64(11)}}, // the path names the user, whatever the query says
		{"GET", "/users/me", "", 200, "Me", nil},
		{"PATCH", "/users/11", `{"role":"editor","id":12}`, 200, "SetRole", []any{int64(11), calendar.RoleEditor}},
		{"GET", "/users/11/application-passwords", "", 200, "ApplicationPasswords", []any{int64(11)}},
		{"GET", "/users/me/application-passwords", "", 200, "Me,ApplicationPasswords", []any{int64(7)}},
		{"POST", "/users/11/application-passwords", `{"name":"phone","app_id":"a-1"}`, 201, "CreateApplicationPassword",
			[]any{int64(11), app.ApplicationPasswordInput{Name: "phone", AppID: "a-1"}}},
		{"POST", "/users/me/application-passwords", "name=laptop", 201, "Me,CreateApplicationPassword",
			[]any{int64(7), app.ApplicationPasswordInput{Name: "laptop"}}},
		{"DELETE", "/users/11/application-passwords/u-1", "", 200, "RevokeApplicationPassword", []any{int64(11), "u-1"}},
		{"DELETE", "/users/me/application-passwords/u-1", "", 200, "Me,RevokeApplicationPassword", []any{int64(7), "u-1"}},
	} {
		svc := &recordedUsers{me: 7}
		s := usersAlone(t, svc)
		contentType := "application/json"
		if tc.body != "" && tc.body[0] != '{' {
			contentType = "application/x-www-form-urlencoded"
		}
		s.do(tc.method, aloneAdmin+tc.path, bearer("editor-token"), body(contentType, tc.body)).expectStatus(t, tc.status)
		if svc.called() != tc.calls || !reflect.DeepEqual(svc.got(), tc.given) {
			t.Errorf("%s %s: the service was asked %s%v, want %s%v", tc.method, tc.path, svc.called(), svc.got(), tc.calls, tc.given)
		}
		if svc.asked().User != theEditor {
			t.Errorf("%s %s: the caller was %+v", tc.method, tc.path, svc.asked())
		}
	}
}

func TestABadUserRequestIsRefusedBeforeTheServiceIsAsked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method, path, body string
		anonymous          bool
		status             int
		code               string
	}{
		{"POST", "/users", `{"login":"ann","role":"author"}`, true, 401, "rest_not_logged_in"}, // a body sent anonymously, unread
		{"POST", "/users", `{"role":"author"}`, false, 400, "rest_missing_callback_param"},
		{"POST", "/users", `{"login":5,"role":"editor"}`, false, 400, "rest_invalid_param"},
		{"POST", "/users", `{"login":"ann","role":"king"}`, false, 400, "rest_invalid_param"},
		{"POST", "/users", `{"login":`, false, 400, "rest_invalid_json"},
		{"PUT", "/users/11", `{}`, false, 400, "rest_missing_callback_param"},
		{"PUT", "/users/11", `{"role":"king"}`, false, 400, "rest_invalid_param"},
		{"DELETE", "/users/x1", "", false, 404, "rest_no_route"},
		{"POST", "/users/11/application-passwords", `{"app_id":"a-1"}`, false, 400, "rest_missing_callback_param"},
		{"POST", "/users/me/application-passwords", `{"name":["a","b"]}`, false, 400, "rest_invalid_param"},
	} {
		svc := &recordedUsers{}
		s := usersAlone(t, svc)
		opts := []option{body("application/json", tc.body)}
		if !tc.anonymous {
			opts = append(opts, bearer("editor-token"))
		}
		s.do(tc.method, aloneAdmin+tc.path, opts...).expectError(t, tc.status, tc.code)
		if calls := svc.called(); calls != "" {
			t.Errorf("%s %s %s: the service was asked %s", tc.method, tc.path, tc.body, calls)
		}
	}
}

func TestEachErrorOfTheUserServiceLeavesWithItsStatusInThePluginsShape(t *testing.T) {
	t.Parallel()
	svc := &recordedUsers{}
	s := usersAlone(t, svc)
	expectEachKind(t, &svc.recorder, s, request{"GET", aloneAdmin + "/users"}, request{"GET", aloneAdmin + "/users/me"},
		request{"DELETE", aloneAdmin + "/users/3"}, request{"GET", aloneAdmin + "/users/me/application-passwords"})
}

// An anonymous creation without a body is checked as any: its parameters,
// missing, are listed.
func TestTheParametersMissingFromAUserCreationAreListed(t *testing.T) {
	t.Parallel()
	svc := &recordedUsers{}
	m := usersAlone(t, svc).do("POST", aloneAdmin+"/users").expectError(t, http.StatusBadRequest, "rest_missing_callback_param")
	if got := fmt.Sprint(m["data"].(map[string]any)["params"]); got != "[login role]" {
		t.Fatalf("data.params = %v, want [login role]", got)
	}
}
