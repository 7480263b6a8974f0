package controllers

import (
	"net/http"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// mountUsers registers the user administration of {base_url}/vendor/admin/v1.
func (api *API) mountUsers() {
	handle(api, AdminNamespace, []string{http.MethodGet}, "/users", nil, func(r *Request) ([]app.UserView, error) {
		return api.app.Users.List(r.Context(), r.Caller)
	}, fuego.OptionSummary("List users"), fuego.OptionDescription("Every user, without passwords. Administrators only."))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/users", userCreateArgs, func(r *Request) (*app.CreatedUser, error) {
		login, _ := r.Values.String("login")
		role, _ := r.Values.String("role")
		u, err := api.app.Users.Create(r.Context(), r.Caller, app.UserInput{Login: login, Role: calendar.Role(role)})
		if err == nil {
			r.SetStatus(http.StatusCreated)
		}
		return u, err
	}, fuego.OptionSummary("Create a user"),
		fuego.OptionDescription("Creates a user with a new application password, shown only in this answer. Administrators only."),
		fuego.OptionAddResponse(http.StatusCreated, "The user and its application password", fuego.Response{Type: app.CreatedUser{}}))

	handle(api, AdminNamespace, []string{http.MethodDelete}, "/users/{id}", userIDArgs, func(r *Request) (*app.DeletedUser, error) {
		id, _ := r.Values.Int("id")
		return api.app.Users.Delete(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("Delete a user"), fuego.OptionDescription("Administrators only; not oneself."))
}

// userCreateArgs are the parameters of POST /vendor/admin/v1/users.
var userCreateArgs = []Arg{
	{Name: "login", Type: TypeString, Required: true, Description: "The login name: 1 to 60 letters, digits, spaces or _ . @ -"},
	{Name: "role", Type: TypeString, Required: true, Description: "The user's role.",
		Enum: []string{"administrator", "editor", "author", "contributor", "subscriber"}},
}

var userIDArgs = []Arg{{Name: "id", Type: TypeInteger, Required: true, Description: "Unique identifier of the user."}}
