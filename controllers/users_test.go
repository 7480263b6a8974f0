package controllers_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// Who manages users and passwords is app's (app/users_rules_test.go); the
// routes' HTTP, users_alone_test.go. Here, credentials as clients send them,
// through the real accounts, and administrators racing each other.

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
