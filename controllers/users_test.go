package controllers_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"calendar/app/calendar"
)

func TestBootstrapAdminSignsInWithBasicAndBearer(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for name, cred := range map[string]option{
		"basic":                 asAdmin(),
		"basic without spaces":  basic("admin", strings.ReplaceAll(adminPassword, " ", "")),
		"basic, login any case": basic("ADMIN", adminPassword),
		"bearer":                bearer(adminPassword),
	} {
		t.Run(name, func(t *testing.T) {
			s.do("GET", "/vendor/admin/v1/users", cred).expectStatus(t, http.StatusOK)
		})
	}
}

func TestAWrongCredentialIs401EvenOnAPublicRoute(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for name, cred := range map[string]option{
		"wrong password":         basic("admin", "not the password"),
		"unknown login":          basic("nobody", adminPassword),
		"basic not base64":       header("Authorization", "Basic %%%"),
		"basic without a colon":  header("Authorization", "Basic YWRtaW4="),
		"bearer wrong":           bearer("nope nope nope"),
		"bearer empty":           header("Authorization", "Bearer "),
		"basic on the namespace": basic("admin", "x"),
	} {
		t.Run(name, func(t *testing.T) {
			s.do("GET", "/vendor/events/v1/doc", cred).expectError(t, http.StatusUnauthorized, "incorrect_password")
		})
	}
	t.Run("probes skip authentication", func(t *testing.T) {
		s.do("GET", "/healthz", basic("admin", "x")).expectStatus(t, http.StatusOK)
	})
}

func TestUsersOfEveryRoleAreCreatedListedAndDeletedByTheAdminOnly(t *testing.T) {
	t.Parallel()
	s := startService(t)
	passwords := map[calendar.Role]string{}
	ids := map[calendar.Role]float64{}
	for _, role := range calendar.Roles {
		ids[role], passwords[role] = s.createUser("user-"+string(role), role)
	}

	t.Run("each new user signs in with the password shown once", func(t *testing.T) {
		for role, pw := range passwords {
			s.do("GET", "/vendor/events/v1", basic("user-"+string(role), pw)).expectStatus(t, http.StatusOK)
			s.do("GET", "/vendor/events/v1", bearer(pw)).expectStatus(t, http.StatusOK)
		}
	})

	t.Run("the listing has every user and no password", func(t *testing.T) {
		res := s.do("GET", "/vendor/admin/v1/users", asAdmin())
		res.expectStatus(t, http.StatusOK)
		if strings.Contains(strings.ToLower(string(res.Body)), "password") {
			t.Fatalf("listing mentions a password: %s", res.Body)
		}
		users := res.list(t)
		if len(users) != 1+len(calendar.Roles) {
			t.Fatalf("%d users listed, want %d", len(users), 1+len(calendar.Roles))
		}
		for i, u := range users {
			if len(u) != 3 || u["id"] != float64(i+1) || u["login"] == nil || u["role"] == nil {
				t.Fatalf("user %d = %v, want exactly id (in order), login, role", i, u)
			}
		}
	})

	// A body sent anonymously to the admin namespace is refused unread,
	// before its route's own check.
	denied := []struct {
		name         string
		cred         option
		status       int
		codeWithBody string
	}{
		{"anonymous", nil, http.StatusUnauthorized, "rest_not_logged_in"},
		{"editor", basic("user-editor", passwords[calendar.RoleEditor]), http.StatusForbidden, "rest_forbidden"},
		{"subscriber", bearer(passwords[calendar.RoleSubscriber]), http.StatusForbidden, "rest_forbidden"},
	}
	for _, d := range denied {
		t.Run(d.name+" may not manage users", func(t *testing.T) {
			opts := func(more ...option) []option {
				if d.cred != nil {
					more = append(more, d.cred)
				}
				return more
			}
			s.do("GET", "/vendor/admin/v1/users", opts()...).expectError(t, d.status, "rest_forbidden")
			s.do("POST", "/vendor/admin/v1/users", opts(jsonBody(map[string]string{"login": "x", "role": "editor"}))...).
				expectError(t, d.status, d.codeWithBody)
			s.do("DELETE", "/vendor/admin/v1/users/2", opts()...).expectError(t, d.status, "rest_forbidden")
		})
	}

	t.Run("the admin deletes a user, whose password then stops working", func(t *testing.T) {
		res := s.do("DELETE", "/vendor/admin/v1/users/"+itoa(ids[calendar.RoleAuthor]), asAdmin())
		res.expectStatus(t, http.StatusOK)
		m := res.object(t)
		prev, _ := m["previous"].(map[string]any)
		if m["deleted"] != true || prev["login"] != "user-author" {
			t.Fatalf("delete answer = %s", res.Body)
		}
		s.do("GET", "/vendor/events/v1", bearer(passwords[calendar.RoleAuthor])).expectError(t, http.StatusUnauthorized, "incorrect_password")
		s.do("DELETE", "/vendor/admin/v1/users/"+itoa(ids[calendar.RoleAuthor]), asAdmin()).expectError(t, http.StatusNotFound, "rest_user_invalid_id")
	})

	t.Run("the admin cannot delete itself", func(t *testing.T) {
		s.do("DELETE", "/vendor/admin/v1/users/1", asAdmin()).expectError(t, http.StatusBadRequest, "rest_user_cannot_delete_self")
	})
}

func TestUserCreationChecksParametersBeforePermission(t *testing.T) {
	t.Parallel()
	s := startService(t)
	_, takenPassword := s.createUser("taken", calendar.RoleEditor)
	cases := []struct {
		name   string
		opts   []option
		status int
		code   string
	}{
		{"anonymous without parameters gets 400 first", nil, 400, "rest_missing_callback_param"},
		{"missing role", []option{asAdmin(), jsonBody(map[string]string{"login": "x"})}, 400, "rest_missing_callback_param"},
		{"unknown role", []option{asAdmin(), jsonBody(map[string]string{"login": "x", "role": "king"})}, 400, "rest_invalid_param"},
		{"login not a string", []option{asAdmin(), jsonBody(map[string]any{"login": 5, "role": "editor"})}, 400, "rest_invalid_param"},
		{"login with a slash", []option{asAdmin(), jsonBody(map[string]string{"login": "a/b", "role": "editor"})}, 400, "rest_invalid_param"},
		{"login taken, any case", []option{asAdmin(), jsonBody(map[string]string{"login": "TAKEN", "role": "author"})}, 400, "existing_user_login"},
		{"anonymous with a body gets 401, its body unread", []option{jsonBody(map[string]string{"login": "x", "role": "king"})}, 401, "rest_not_logged_in"},
		{"an editor with an unknown role gets 400 first", []option{basic("taken", takenPassword), jsonBody(map[string]string{"login": "x", "role": "king"})}, 400, "rest_invalid_param"},
		{"an editor with valid parameters gets 403", []option{basic("taken", takenPassword), jsonBody(map[string]string{"login": "x", "role": "editor"})}, 403, "rest_forbidden"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.do("POST", "/vendor/admin/v1/users", c.opts...).expectError(t, c.status, c.code)
		})
	}
	t.Run("missing parameters are listed", func(t *testing.T) {
		m := s.do("POST", "/vendor/admin/v1/users").expectError(t, 400, "rest_missing_callback_param")
		if got := m["data"].(map[string]any)["params"]; len(got.([]any)) != 2 {
			t.Fatalf("data.params = %v, want [login role]", got)
		}
	})
}

func itoa(f float64) string { return formatFloat(f) }

// Two administrators, the only two who can sign in, delete each other at
// the same instant, round after round: one is answered 200, the other is
// refused (403, or 401 when its own account went first), and the one left
// still manages users. Nor does the last of them revoke their last password.
func TestTwoAdministratorsDeletingEachOtherAtOnceLeaveOne(t *testing.T) {
	t.Parallel()
	s := startService(t)
	survivor, survivorID := asAdmin(), 1.0
	for round := range 3 {
		made := s.do("POST", adminPath+"/users", survivor, jsonBody(map[string]string{"login": fmt.Sprint("co-admin-", round), "role": "administrator"}))
		made.expectStatus(t, http.StatusCreated)
		other := made.object(t)
		otherCred, otherID := basic(other["login"].(string), other["application_password"].(string)), other["id"].(float64)
		sides := [2]struct {
			as     option
			id     float64
			target float64
		}{{survivor, survivorID, otherID}, {otherCred, otherID, survivorID}}
		var answers [2]*response
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, side := range sides {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				res, err := s.try("DELETE", fmt.Sprintf("%s/users/%.0f", adminPath, side.target), side.as)
				if err != nil {
					t.Error(err)
					return
				}
				answers[i] = res
			}()
		}
		close(start)
		wg.Wait()
		if t.Failed() {
			return
		}
		won := 0
		if answers[0].Status != http.StatusOK {
			won = 1
		}
		lost := answers[1-won]
		if answers[won].Status != http.StatusOK || (lost.Status != http.StatusUnauthorized && lost.Status != http.StatusForbidden) {
			t.Fatalf("round %d: answered %d and %d, want one 200 and one 401 or 403:\n%s\n%s", round, answers[0].Status, answers[1].Status, answers[0].Body, answers[1].Body)
		}
		if lost.Status == http.StatusForbidden {
			lost.expectError(t, http.StatusForbidden, "rest_user_cannot_delete")
		}
		survivor, survivorID = sides[won].as, sides[won].id
		s.do("GET", adminPath+"/users", survivor).expectStatus(t, http.StatusOK)
	}

	mine := s.do("GET", adminPath+"/users/me/application-passwords", survivor)
	mine.expectStatus(t, http.StatusOK)
	last := mine.list(t)[0]["uuid"].(string)
	s.do("DELETE", adminPath+"/users/me/application-passwords/"+last, survivor).
		expectError(t, http.StatusForbidden, "rest_cannot_delete_application_password")
	s.do("GET", adminPath+"/users/me", survivor).expectStatus(t, http.StatusOK)
}
