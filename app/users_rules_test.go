package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// Users and their application passwords, without HTTP: who manages whom,
// what a creation refuses, a password's life (made, used, listed, revoked),
// role changes and the last administrator. The routes' HTTP is controllers'
// (users_alone_test.go); how credentials are sent, controllers' users_test.go.

// kindAndCode checks an error's kind and code.
func kindAndCode(t *testing.T, what string, err error, kind calendar.Kind, code string) {
	t.Helper()
	if e := calendar.AsError(err); e == nil || e.Kind != kind || e.Code != code {
		t.Errorf("%s: %v, want %s", what, err, code)
	}
}

// signedIn is the caller a password signs in as, from the loopback address.
func (w *world) signedIn(password string) app.Caller {
	w.t.Helper()
	u, err := w.app.Users.AuthenticateToken(w.ctx, "127.0.0.1", password)
	w.must(err)
	return app.Caller{User: u, Client: "127.0.0.1", Root: visitor.Root}
}

func TestUsersOfEveryRoleAreCreatedListedAndDeletedByTheAdminOnly(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	made := map[calendar.Role]*app.CreatedUser{}
	for _, role := range calendar.Roles {
		u, err := w.app.Users.Create(w.ctx, w.admin(), app.UserInput{Login: "user-" + string(role), Role: role})
		w.must(err)
		made[role] = u
		if u.Role != role || !w.signs("user-"+string(role), u.ApplicationPassword) || !w.signs("user-"+string(role), strings.ReplaceAll(u.ApplicationPassword, " ", "")) {
			t.Fatalf("a new %s: %+v, or its password (with or without spaces) does not sign in", role, u)
		}
	}
	if _, err := w.app.Users.Authenticate(w.ctx, "", "USER-EDITOR", made[calendar.RoleEditor].ApplicationPassword); err != nil {
		t.Fatalf("a login in another case: %v", err)
	}
	users, err := w.app.Users.List(w.ctx, w.admin())
	w.must(err)
	raw, _ := json.Marshal(users)
	// The world's users and these, without a password.
	if len(users) != 2*len(calendar.Roles) || strings.Contains(strings.ToLower(string(raw)), "password") {
		t.Fatalf("the listing: %s", raw)
	}
	for i, u := range users {
		if u.ID != int64(i+1) || len(jsonKeys(t, jsonAt(t, u))) != 3 {
			t.Fatalf("user %d = %s, want exactly id (in order), login, role", i, jsonAt(t, u))
		}
	}
	for name, c := range map[string]struct {
		caller app.Caller
		kind   calendar.Kind
	}{"a visitor": {visitor, calendar.KindUnauthorized}, "an editor": {w.callers[calendar.RoleEditor], calendar.KindForbidden},
		"a subscriber": {w.callers[calendar.RoleSubscriber], calendar.KindForbidden}} {
		kindAndCode(t, name+" listing", get(w.app.Users.List(w.ctx, c.caller)), c.kind, "rest_forbidden")
		kindAndCode(t, name+" creating", get(w.app.Users.Create(w.ctx, c.caller, app.UserInput{Login: "x", Role: calendar.RoleEditor})), c.kind, "rest_forbidden")
		kindAndCode(t, name+" deleting", get(w.app.Users.Delete(w.ctx, c.caller, 2)), c.kind, "rest_forbidden")
	}
	author := made[calendar.RoleAuthor]
	deleted, err := w.app.Users.Delete(w.ctx, w.admin(), author.ID)
	w.must(err)
	if !deleted.Deleted || deleted.Previous.Login != "user-author" {
		t.Fatalf("the deletion: %+v", deleted)
	}
	kindAndCode(t, "the deleted user's password", get(w.app.Users.AuthenticateToken(w.ctx, "", author.ApplicationPassword)),
		calendar.KindUnauthorized, "incorrect_password")
	kindAndCode(t, "deleting it again", get(w.app.Users.Delete(w.ctx, w.admin(), author.ID)), calendar.KindNotFound, "rest_user_invalid_id")
	kindAndCode(t, "the administrator deleting itself", get(w.app.Users.Delete(w.ctx, w.admin(), w.admin().User.ID)),
		calendar.KindInvalid, "rest_user_cannot_delete_self")
}

func TestAUserCreationRefusesBadAndTakenLogins(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	kindAndCode(t, "a login with a slash", get(w.app.Users.Create(w.ctx, w.admin(), app.UserInput{Login: "a/b", Role: calendar.RoleEditor})),
		calendar.KindInvalid, "rest_invalid_param")
	kindAndCode(t, "a login taken, in another case", get(w.app.Users.Create(w.ctx, w.admin(), app.UserInput{Login: "U-EDITOR", Role: calendar.RoleAuthor})),
		calendar.KindInvalid, "existing_user_login")
	kindAndCode(t, "an editor's", get(w.app.Users.Create(w.ctx, w.callers[calendar.RoleEditor], app.UserInput{Login: "x", Role: calendar.RoleEditor})),
		calendar.KindForbidden, "rest_forbidden")
}

func TestApplicationPasswordsAreMadeUsedListedAndRevoked(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	owner := w.callers[calendar.RoleEditor]
	id := owner.User.ID
	p, err := w.app.Users.CreateApplicationPassword(w.ctx, owner, id, app.ApplicationPasswordInput{Name: "Event importer"})
	w.must(err)
	if p.Password == "" || p.UUID == "" || p.Name != "Event importer" || p.LastUsed != nil || p.LastIP != nil || p.Created == "" {
		t.Fatalf("the new application password: %+v", p)
	}
	me, err := w.app.Users.Me(w.ctx, w.signedIn(p.Password))
	w.must(err)
	if me.ID != id || me.Login != "u-editor" || me.Role != calendar.RoleEditor {
		t.Fatalf("who the new password signs in as: %+v", me)
	}
	list, err := w.app.Users.ApplicationPasswords(w.ctx, owner, id)
	w.must(err)
	if len(list) != 2 {
		t.Fatalf("%d passwords listed, want the first one and the importer's: %+v", len(list), list)
	}
	for _, q := range list {
		if q.Password != "" {
			t.Fatalf("a listing shows a password: %+v", q)
		}
		if q.Name == "Event importer" && (q.UUID != p.UUID || q.LastUsed == nil || q.LastIP == nil || *q.LastIP != "127.0.0.1") {
			t.Fatalf("after its first use: %+v, want last_used set and last_ip 127.0.0.1", q)
		}
	}
	if list[0].Name != calendar.FirstPasswordName {
		t.Fatalf("the password the user was made with: %+v", list[0])
	}
	kindAndCode(t, "a name taken, in another case", get(w.app.Users.CreateApplicationPassword(w.ctx, owner, id, app.ApplicationPasswordInput{Name: "event IMPORTER"})),
		calendar.KindConflict, "application_password_duplicate_name")
	kindAndCode(t, "a blank name", get(w.app.Users.CreateApplicationPassword(w.ctx, owner, id, app.ApplicationPasswordInput{Name: "  "})),
		calendar.KindInvalid, "application_password_empty_name")
	revoked, err := w.app.Users.RevokeApplicationPassword(w.ctx, owner, id, p.UUID)
	w.must(err)
	if !revoked.Deleted || revoked.Previous.Name != "Event importer" {
		t.Fatalf("the revocation: %+v", revoked)
	}
	kindAndCode(t, "signing in with it", get(w.app.Users.AuthenticateToken(w.ctx, "", p.Password)), calendar.KindUnauthorized, "incorrect_password")
	kindAndCode(t, "revoking it again", get(w.app.Users.RevokeApplicationPassword(w.ctx, owner, id, p.UUID)),
		calendar.KindNotFound, "rest_application_password_not_found")
	if _, err := w.app.Users.Me(w.ctx, owner); err != nil {
		t.Fatalf("the others still sign in: %v", err)
	}
}

func TestAUserManagesTheirOwnApplicationPasswordsAndAnAdministratorAnyones(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	editor := w.callers[calendar.RoleEditor]
	au, err := w.app.Users.Create(w.ctx, w.admin(), app.UserInput{Login: "au", Role: calendar.RoleAuthor})
	w.must(err)
	authorID := au.ID
	kindAndCode(t, "a visitor listing", get(w.app.Users.ApplicationPasswords(w.ctx, visitor, editor.User.ID)),
		calendar.KindUnauthorized, "rest_cannot_list_application_passwords")
	kindAndCode(t, "a visitor asking who they are", get(w.app.Users.Me(w.ctx, visitor)), calendar.KindUnauthorized, "rest_not_logged_in")
	kindAndCode(t, "an editor listing an author's", get(w.app.Users.ApplicationPasswords(w.ctx, editor, authorID)),
		calendar.KindForbidden, "rest_cannot_list_application_passwords")
	kindAndCode(t, "an editor making one for the author", get(w.app.Users.CreateApplicationPassword(w.ctx, editor, authorID, app.ApplicationPasswordInput{Name: "mine now"})),
		calendar.KindForbidden, "rest_cannot_create_application_passwords")
	kindAndCode(t, "an editor listing a user who does not exist", get(w.app.Users.ApplicationPasswords(w.ctx, editor, 999)),
		calendar.KindForbidden, "rest_cannot_list_application_passwords")
	kindAndCode(t, "an administrator listing a user who does not exist", get(w.app.Users.ApplicationPasswords(w.ctx, w.admin(), 999)),
		calendar.KindNotFound, "rest_user_invalid_id")

	// An administrator revokes the author's password: the author is
	// refused at once, and signs in again with one the administrator makes.
	first := mustList(w, authorID)[0].UUID
	kindAndCode(t, "an editor revoking the author's", get(w.app.Users.RevokeApplicationPassword(w.ctx, editor, authorID, first)),
		calendar.KindForbidden, "rest_cannot_delete_application_password")
	_, err = w.app.Users.RevokeApplicationPassword(w.ctx, w.admin(), authorID, first)
	w.must(err)
	if w.signs("au", au.ApplicationPassword) || len(mustList(w, authorID)) != 0 {
		t.Fatal("the author still signs in, or has a password")
	}
	handed, err := w.app.Users.CreateApplicationPassword(w.ctx, w.admin(), authorID, app.ApplicationPasswordInput{Name: "Handed over"})
	w.must(err)
	if !w.signs("au", handed.Password) {
		t.Fatal("the password the administrator made does not sign in")
	}
}

func mustList(w *world, id int64) []app.ApplicationPasswordView {
	w.t.Helper()
	list, err := w.app.Users.ApplicationPasswords(w.ctx, w.admin(), id)
	w.must(err)
	return list
}

func TestARoleChangeHoldsFromTheNextRequestAndTheLastAdministratorKeepsTheRole(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	created, err := w.app.Users.Create(w.ctx, w.admin(), app.UserInput{Login: "promoted", Role: calendar.RoleAuthor})
	w.must(err)
	user := w.signedIn(created.ApplicationPassword)
	kindAndCode(t, "an author listing users", get(w.app.Users.List(w.ctx, user)), calendar.KindForbidden, "rest_forbidden")
	kindAndCode(t, "an author promoting itself", get(w.app.Users.SetRole(w.ctx, user, created.ID, calendar.RoleAdministrator)),
		calendar.KindForbidden, "rest_cannot_edit_roles")
	changed, err := w.app.Users.SetRole(w.ctx, w.admin(), created.ID, calendar.RoleAdministrator)
	w.must(err)
	if changed.Role != calendar.RoleAdministrator {
		t.Fatalf("the answer to a role change: %+v", changed)
	}
	user = w.signedIn(created.ApplicationPassword) // its next request
	_, err = w.app.Users.List(w.ctx, user)
	w.must(err)

	// Two administrators: one may step down; then the other is the last.
	_, err = w.app.Users.SetRole(w.ctx, user, created.ID, calendar.RoleEditor)
	w.must(err)
	kindAndCode(t, "listing users once an editor again", get(w.app.Users.List(w.ctx, w.signedIn(created.ApplicationPassword))),
		calendar.KindForbidden, "rest_forbidden")
	kindAndCode(t, "the last administrator stepping down", get(w.app.Users.SetRole(w.ctx, w.admin(), w.admin().User.ID, calendar.RoleEditor)),
		calendar.KindForbidden, "rest_user_invalid_role")
	if me, err := w.app.Users.Me(w.ctx, w.admin()); err != nil || me.Role != calendar.RoleAdministrator {
		t.Fatalf("the last administrator is now %+v (%v)", me, err)
	}
	stale := w.admin()
	stale.Expect = app.Precondition{Revisions: []int64{1}}
	kindAndCode(t, "a change over a revision the user is no longer at", get(w.app.Users.SetRole(w.ctx, stale, created.ID, calendar.RoleSubscriber)),
		calendar.KindPreconditionFailed, "rest_precondition_failed")
}
