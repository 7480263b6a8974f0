package controllers_test

import (
	"fmt"
	"net/http"
	"testing"

	"calendar/app/calendar"
)

const adminPath = "/vendor/admin/v1"

func passwordsPath(id float64) string {
	return fmt.Sprintf("%s/users/%.0f/application-passwords", adminPath, id)
}

// named finds the application password of that name in a listing.
func named(t *testing.T, list []map[string]any, name string) map[string]any {
	t.Helper()
	for _, p := range list {
		if p["name"] == name {
			return p
		}
	}
	t.Fatalf("no application password named %q in %v", name, list)
	return nil
}

func TestApplicationPasswordsAreMadeUsedListedAndRevoked(t *testing.T) {
	t.Parallel()
	s := startService(t)
	id, first := s.createUser("importer-owner", calendar.RoleEditor)
	owner := basic("importer-owner", first)

	made := s.do("POST", passwordsPath(id), owner, jsonBody(map[string]string{"name": "Event importer"}))
	made.expectStatus(t, http.StatusCreated)
	p := made.object(t)
	password, _ := p["password"].(string)
	if password == "" || p["uuid"] == "" || p["name"] != "Event importer" || p["last_used"] != nil || p["last_ip"] != nil || p["created"] == "" {
		t.Fatalf("the new application password: %v", p)
	}

	me := s.do("GET", adminPath+"/users/me", bearer(password))
	me.expectStatus(t, http.StatusOK)
	if m := me.object(t); m["id"] != id || m["login"] != "importer-owner" || m["role"] != "editor" {
		t.Fatalf("/users/me signed with the new password: %v", m)
	}

	listed := s.do("GET", passwordsPath(id), owner)
	listed.expectStatus(t, http.StatusOK)
	list := listed.list(t)
	if len(list) != 2 {
		t.Fatalf("%d passwords listed, want the first one and the importer's: %v", len(list), list)
	}
	for _, q := range list {
		if _, shown := q["password"]; shown {
			t.Fatalf("a listing shows a password: %v", q)
		}
	}
	used := named(t, list, "Event importer")
	if used["uuid"] != p["uuid"] || used["last_used"] == nil || used["last_ip"] != "127.0.0.1" {
		t.Fatalf("after its first use: %v, want last_used set and last_ip 127.0.0.1", used)
	}
	named(t, list, "First password") // the one the user was made with

	s.do("POST", passwordsPath(id), owner, jsonBody(map[string]string{"name": "event IMPORTER"})).
		expectError(t, http.StatusConflict, "application_password_duplicate_name")
	s.do("POST", passwordsPath(id), owner, jsonBody(map[string]string{"name": "  "})).
		expectError(t, http.StatusBadRequest, "application_password_empty_name")

	revoked := s.do("DELETE", passwordsPath(id)+"/"+p["uuid"].(string), owner)
	revoked.expectStatus(t, http.StatusOK)
	if r := revoked.object(t); r["deleted"] != true || r["previous"].(map[string]any)["name"] != "Event importer" {
		t.Fatalf("the revocation's answer: %v", r)
	}
	s.do("GET", adminPath+"/users/me", bearer(password)).expectError(t, http.StatusUnauthorized, "incorrect_password")
	s.do("DELETE", passwordsPath(id)+"/"+p["uuid"].(string), owner).expectError(t, http.StatusNotFound, "rest_application_password_not_found")
	s.do("GET", adminPath+"/users/me", owner).expectStatus(t, http.StatusOK) // the others still sign
}

func TestAUserManagesTheirOwnApplicationPasswordsAndAnAdministratorAnyones(t *testing.T) {
	t.Parallel()
	s := startService(t)
	editorID, editorPassword := s.createUser("ed", calendar.RoleEditor)
	authorID, authorPassword := s.createUser("au", calendar.RoleAuthor)
	editor := basic("ed", editorPassword)
	for _, tc := range []struct {
		name, method, path string
		as                 []option
		status             int
		code               string
	}{
		{"a visitor lists", "GET", passwordsPath(editorID), nil, http.StatusUnauthorized, "rest_cannot_list_application_passwords"},
		{"a visitor asks who they are", "GET", adminPath + "/users/me", nil, http.StatusUnauthorized, "rest_not_logged_in"},
		{"an editor lists an author's", "GET", passwordsPath(authorID), []option{editor}, http.StatusForbidden, "rest_cannot_list_application_passwords"},
		{"an editor makes one for the author", "POST", passwordsPath(authorID), []option{editor, jsonBody(map[string]string{"name": "mine now"})},
			http.StatusForbidden, "rest_cannot_create_application_passwords"},
		{"an editor lists a user who does not exist", "GET", passwordsPath(999), []option{editor}, http.StatusForbidden, "rest_cannot_list_application_passwords"},
		{"an administrator lists a user who does not exist", "GET", passwordsPath(999), []option{asAdmin()}, http.StatusNotFound, "rest_user_invalid_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.do(tc.method, tc.path, tc.as...).expectError(t, tc.status, tc.code)
		})
	}

	// An administrator revokes the author's password: the author is
	// refused at once, and signs in again with one the administrator makes.
	authorList := s.do("GET", passwordsPath(authorID), asAdmin())
	authorList.expectStatus(t, http.StatusOK)
	firstUUID := named(t, authorList.list(t), "First password")["uuid"].(string)
	s.do("DELETE", passwordsPath(authorID)+"/"+firstUUID, editor).expectError(t, http.StatusForbidden, "rest_cannot_delete_application_password")
	s.do("DELETE", passwordsPath(authorID)+"/"+firstUUID, asAdmin()).expectStatus(t, http.StatusOK)
	s.do("GET", adminPath+"/users/me", basic("au", authorPassword)).expectError(t, http.StatusUnauthorized, "incorrect_password")
	made := s.do("POST", passwordsPath(authorID), asAdmin(), jsonBody(map[string]string{"name": "Handed over"}))
	made.expectStatus(t, http.StatusCreated)
	s.do("GET", adminPath+"/users/me", basic("au", made.object(t)["password"].(string))).expectStatus(t, http.StatusOK)

	// /users/me/application-passwords is one's own.
	mine := s.do("POST", adminPath+"/users/me/application-passwords", editor, jsonBody(map[string]string{"name": "Phone"}))
	mine.expectStatus(t, http.StatusCreated)
	named(t, s.do("GET", passwordsPath(editorID), editor).list(t), "Phone")
}

func TestARoleChangeHoldsFromTheNextRequestAndTheLastAdministratorKeepsTheRole(t *testing.T) {
	t.Parallel()
	s := startService(t)
	id, password := s.createUser("promoted", calendar.RoleAuthor)
	user := basic("promoted", password)
	path := fmt.Sprintf("%s/users/%.0f", adminPath, id)

	s.do("GET", adminPath+"/users", user).expectError(t, http.StatusForbidden, "rest_forbidden")
	s.do("PATCH", path, user, jsonBody(map[string]string{"role": "administrator"})).expectError(t, http.StatusForbidden, "rest_cannot_edit_roles")
	s.do("PUT", path, asAdmin(), jsonBody(map[string]string{"role": "overlord"})).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	changed := s.do("PUT", path, asAdmin(), jsonBody(map[string]string{"role": "administrator"}))
	changed.expectStatus(t, http.StatusOK)
	if changed.object(t)["role"] != "administrator" {
		t.Fatalf("the answer to a role change: %s", changed.Body)
	}
	s.do("GET", adminPath+"/users", user).expectStatus(t, http.StatusOK)

	// Two administrators: one may step down; then the other is the last.
	s.do("PATCH", path, user, jsonBody(map[string]string{"role": "editor"})).expectStatus(t, http.StatusOK)
	s.do("GET", adminPath+"/users", user).expectError(t, http.StatusForbidden, "rest_forbidden")
	s.do("PATCH", adminPath+"/users/1", asAdmin(), jsonBody(map[string]string{"role": "editor"})).
		expectError(t, http.StatusForbidden, "rest_user_invalid_role")
	if role := s.do("GET", adminPath+"/users/me", asAdmin()).object(t)["role"]; role != "administrator" {
		t.Fatalf("the last administrator is now %v", role)
	}
	s.do("PATCH", path, asAdmin(), jsonBody(map[string]string{"role": "subscriber"}), header("If-Match", `"1"`)).
		expectError(t, http.StatusPreconditionFailed, "rest_precondition_failed")
}

// Behind a trusted proxy, a password's last_ip is the client the proxy
// forwards, not the proxy.
func TestAPasswordsLastIPIsTheClientATrustedProxyForwards(t *testing.T) {
	t.Parallel()
	s := startBehindProxies(t, "127.0.0.1")
	id, password := s.createUser("remote", calendar.RoleAuthor)
	s.do("GET", adminPath+"/users/me", bearer(password), forwardedFor("203.0.113.9")).expectStatus(t, http.StatusOK)
	first := named(t, s.do("GET", passwordsPath(id), asAdmin()).list(t), "First password")
	if first["last_ip"] != "203.0.113.9" {
		t.Fatalf("last_ip %v, want the forwarded 203.0.113.9", first["last_ip"])
	}
}
