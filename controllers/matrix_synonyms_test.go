package controllers_test

import (
	"fmt"
	"net/http"
	"testing"

	"calendar/app/calendar"
)

// checkSynonyms is the permission matrix of the synonym routes: the site's
// settings, administrators' alone; the others are refused, a caller with a
// wrong password 401.
func (r *roles) checkSynonyms(t *testing.T, check func(*testing.T, string, string, []option, int), method, rest string, role calendar.Role, n *int) {
	*n++
	want := http.StatusOK
	switch {
	case role == "wrong":
		want = http.StatusUnauthorized
	case role != calendar.RoleAdministrator:
		want = denied(role)
	case method == "POST" && rest == "":
		want = http.StatusCreated
	}
	path := "/vendor/admin/v1/synonyms"
	if rest != "" { // a group of its own for a delete that goes through, a shared one otherwise
		path += "/" + r.synonymOf(t, method == "DELETE" && want < 400, *n)
	}
	check(t, method, path, append(r.caller(role), jsonBody(map[string]any{"words": []string{fmt.Sprintf("word%d", *n), "other"}})), want)
}

// synonymOf is the ID of a group: one shared by the checks that leave it, a
// new one for a delete.
func (r *roles) synonymOf(t *testing.T, own bool, n int) string {
	if r.synonym != "" && !own {
		return r.synonym
	}
	res := r.do("POST", "/vendor/admin/v1/synonyms", r.creds[calendar.RoleAdministrator], jsonBody(map[string]any{"words": []string{fmt.Sprintf("matrix%d", n), "grid"}}))
	res.expectStatus(t, http.StatusCreated)
	id := idOf(res.object(t))
	if !own {
		r.synonym = id
	}
	return id
}

// checkFields is the permission matrix of the custom field declarations:
// every signed-in caller reads a public one (the administration's
// namespace answers no anonymous caller), administrators alone declare,
// change and remove them; a caller with a wrong password is 401.
func (r *roles) checkFields(t *testing.T, check func(*testing.T, string, string, []option, int), method, rest string, role calendar.Role, n *int) {
	*n++
	want := http.StatusOK
	switch {
	case role == "wrong" || role == "":
		want = http.StatusUnauthorized
	case method == "GET":
	case role != calendar.RoleAdministrator:
		want = denied(role)
	case method == "POST" && rest == "":
		want = http.StatusCreated
	}
	path := "/vendor/admin/v1/fields"
	if rest != "" { // a field of its own for a delete that goes through, a shared one otherwise
		path += "/" + r.fieldOf(t, method == "DELETE" && want < 400, *n)
	}
	body := jsonBody(map[string]any{"key": fmt.Sprintf("made_%d", *n), "label": "Made", "type": "text", "public": true})
	check(t, method, path, append(r.caller(role), body), want)
}

// fieldOf is the key of a public declaration: one shared by the checks that
// leave it, a new one for a delete.
func (r *roles) fieldOf(t *testing.T, own bool, n int) string {
	if r.field != "" && !own {
		return r.field
	}
	key := fmt.Sprintf("matrix_%d", n)
	res := r.do("POST", "/vendor/admin/v1/fields", r.creds[calendar.RoleAdministrator], jsonBody(map[string]any{"key": key, "label": "Matrix", "type": "text", "public": true}))
	res.expectStatus(t, http.StatusCreated)
	if !own {
		r.field = key
	}
	return key
}
