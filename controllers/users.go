package controllers

import (
	"context"
	"net/http"
	"slices"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// userService is what the user routes ask of the domain (app.Users).
type userService interface {
	List(ctx context.Context, caller app.Caller) ([]app.UserView, error)
	Create(ctx context.Context, caller app.Caller, in app.UserInput) (*app.CreatedUser, error)
	Delete(ctx context.Context, caller app.Caller, id int64) (*app.DeletedUser, error)
	Me(ctx context.Context, caller app.Caller) (*app.UserView, error)
	SetRole(ctx context.Context, caller app.Caller, id int64, role calendar.Role) (*app.UserView, error)
	ApplicationPasswords(ctx context.Context, caller app.Caller, id int64) ([]app.ApplicationPasswordView, error)
	CreateApplicationPassword(ctx context.Context, caller app.Caller, id int64, in app.ApplicationPasswordInput) (*app.ApplicationPasswordView, error)
	RevokeApplicationPassword(ctx context.Context, caller app.Caller, id int64, uuid string) (*app.DeletedApplicationPassword, error)
}

// mountUsers registers the user administration of {base_url}/vendor/admin/v1.
func mountUsers(api *API, users userService) {
	handle(api, AdminNamespace, []string{http.MethodGet}, "/users", nil, func(r *Request) ([]app.UserView, error) {
		return users.List(r.Context(), r.Caller)
	}, fuego.OptionSummary("List users"), fuego.OptionDescription("Every user, without passwords. Administrators only."))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/users", userCreateArgs, func(r *Request) (*app.CreatedUser, error) {
		login, _ := r.Values.String("login")
		role, _ := r.Values.String("role")
		u, err := users.Create(r.Context(), r.Caller, app.UserInput{Login: login, Role: calendar.Role(role)})
		if err == nil {
			r.SetStatus(http.StatusCreated)
		}
		return u, err
	}, fuego.OptionSummary("Create a user"),
		fuego.OptionDescription("Creates a user with a new application password, shown only in this answer. Administrators only."),
		fuego.OptionAddResponse(http.StatusCreated, "The user and its application password", fuego.Response{Type: app.CreatedUser{}}))

	handle(api, AdminNamespace, []string{http.MethodDelete}, "/users/{id}", userIDArgs, func(r *Request) (*app.DeletedUser, error) {
		id, _ := r.Values.Int("id")
		return users.Delete(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("Delete a user"), fuego.OptionDescription("Administrators only; not oneself."))

	handle(api, AdminNamespace, []string{http.MethodGet}, "/users/me", nil, func(r *Request) (*app.UserView, error) {
		return users.Me(r.Context(), r.Caller)
	}, fuego.OptionSummary("The user who asks"), fuego.OptionDescription("The caller's ID, login and role; 401 without credentials."))

	handle(api, AdminNamespace, editable, "/users/{id}", append(slices.Clone(userIDArgs), userRoleArg), func(r *Request) (*app.UserView, error) {
		id, _ := r.Values.Int("id")
		role, _ := r.Values.String("role")
		return users.SetRole(r.Context(), r.Caller, id, calendar.Role(role))
	}, fuego.OptionSummary("Change a user's role"),
		fuego.OptionDescription("Administrators only. It holds from the user's next request. The last administrator keeps the role."))

	mountApplicationPasswords(api, users)
}

// mountApplicationPasswords registers a user's application passwords, by
// the user's ID or as /users/me, as WordPress has them.
func mountApplicationPasswords(api *API, users userService) {
	for _, owner := range []struct {
		path string
		args []Arg
	}{{"/users/{id}", userIDArgs}, {"/users/me", nil}} {
		whose := func(r *Request) (int64, error) {
			if owner.args == nil { // me
				me, err := users.Me(r.Context(), r.Caller)
				if err != nil {
					return 0, err
				}
				return me.ID, nil
			}
			id, _ := r.Values.Int("id")
			return id, nil
		}
		base := owner.path + "/application-passwords"
		handle(api, AdminNamespace, []string{http.MethodGet}, base, owner.args, func(r *Request) ([]app.ApplicationPasswordView, error) {
			id, err := whose(r)
			if err != nil {
				return nil, err
			}
			return users.ApplicationPasswords(r.Context(), r.Caller, id)
		}, fuego.OptionSummary("List a user's application passwords"), fuego.OptionDescription("Without the passwords. One's own, or anyone's for an administrator."))

		handle(api, AdminNamespace, []string{http.MethodPost}, base, append(slices.Clone(owner.args), passwordCreateArgs...), func(r *Request) (*app.ApplicationPasswordView, error) {
			id, err := whose(r)
			if err != nil {
				return nil, err
			}
			name, _ := r.Values.String("name")
			appID, _ := r.Values.String("app_id")
			p, err := users.CreateApplicationPassword(r.Context(), r.Caller, id, app.ApplicationPasswordInput{Name: name, AppID: appID})
			if err == nil {
				r.SetStatus(http.StatusCreated)
			}
			return p, err
		}, fuego.OptionSummary("Create an application password"),
			fuego.OptionDescription("The password is in this answer only. One's own, or anyone's for an administrator."),
			fuego.OptionAddResponse(http.StatusCreated, "The application password, with the password", fuego.Response{Type: app.ApplicationPasswordView{}}))

		handle(api, AdminNamespace, []string{http.MethodDelete}, base+"/{uuid}", append(slices.Clone(owner.args), passwordUUIDArg), func(r *Request) (*app.DeletedApplicationPassword, error) {
			id, err := whose(r)
			if err != nil {
				return nil, err
			}
			uuid, _ := r.Values.String("uuid")
			return users.RevokeApplicationPassword(r.Context(), r.Caller, id, uuid)
		}, fuego.OptionSummary("Revoke an application password"), fuego.OptionDescription("Requests signed with it are refused from now on."))
	}
}

var (
	userRoleArg = Arg{Name: "role", Type: TypeString, Required: true, Description: "The user's new role.",
		Enum: []string{"administrator", "editor", "author", "contributor", "subscriber"}}
	passwordCreateArgs = []Arg{
		{Name: "name", Type: TypeString, Required: true, Description: "The name of the application the password is for; unique per user."},
		{Name: "app_id", Type: TypeString, Description: "A UUID the application gives itself (optional)."},
	}
	passwordUUIDArg = Arg{Name: "uuid", Type: TypeString, Required: true, Description: "The application password's UUID."}
)

// userCreateArgs are the parameters of POST /vendor/admin/v1/users.
var userCreateArgs = []Arg{
	{Name: "login", Type: TypeString, Required: true, Description: "The login name: 1 to 60 letters, digits, spaces or _ . @ -"},
	{Name: "role", Type: TypeString, Required: true, Description: "The user's role.",
		Enum: []string{"administrator", "editor", "author", "contributor", "subscriber"}},
}

var userIDArgs = []Arg{{Name: "id", Type: TypeInteger, Required: true, Description: "Unique identifier of the user."}}
