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
