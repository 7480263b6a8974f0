package controllers

import (
	"context"
	"net/http"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// userService is what the user routes ask of the domain (app.Users).
type userService interface {
	List(ctx context.Context, caller app.Caller) ([]app.UserView, error)
	Create(ctx context.Context, caller app.Caller, in app.UserInput) (*app.CreatedUser, error)
	Delete(ctx context.Context, caller app.Caller, id int64) (*app.DeletedUser, error)
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
}

// userCreateArgs are the parameters of POST /vendor/admin/v1/users.
var userCreateArgs = []Arg{
	{Name: "login", Type: TypeString, Required: true, Description: "The login name: 1 to 60 letters, digits, spaces or _ . @ -"},
	{Name: "role", Type: TypeString, Required: true, Description: "The user's role.",
		Enum: []string{"administrator", "editor", "author", "contributor", "subscriber"}},
}

var userIDArgs = []Arg{{Name: "id", Type: TypeInteger, Required: true, Description: "Unique identifier of the user."}}
