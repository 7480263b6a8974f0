package controllers_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"calendar/app/calendar"
)

func TestInternalFieldsCannotBeSetOrRead(t *testing.T) {
	t.Parallel()
	s := startService(t)
	sneaky := map[string]any{
		"venue": "Sneaky", "id": 999, "ID": 998, "seq": 5, "_id": 7, "_keys": map[string]any{"type_slug": "venue/x"},
		"type": "event", "password_hash": "x", "Meta": map[string]any{"a": "b"}, "geo": map[string]any{"lat": 1},
		"author": map[string]any{"$gt": 0},
	}
	res := s.do("POST", "/vendor/events/v1/venues", asAdmin(), jsonBody(sneaky))
	res.expectError(t, http.StatusBadRequest, "rest_invalid_param") // author must be an integer
	delete(sneaky, "author")
	created := s.do("POST", "/vendor/events/v1/venues", asAdmin(), jsonBody(sneaky))
	created.expectStatus(t, http.StatusCreated)
	v := created.object(t)
	if v["id"] == float64(999) || v["id"] == float64(7) || v["slug"] != "sneaky" {
		t.Fatalf("an internal field was taken from the request: %v", v)
	}
	stored, err := s.store.Posts().Get(context.Background(), int64(v["id"].(float64)))
	if err != nil || stored.Type != calendar.PostTypeVenue || stored.Seq == 5 || len(stored.Meta) != 0 || stored.Geo != nil {
		t.Fatalf("stored %+v, %v", stored, err)
	}
	for _, key := range []string{"seq", "_keys", "password", "password_hash", "type", "meta"} {
		if _, leaked := v[key]; leaked {
			t.Fatalf("internal field %q in the venue object", key)
		}
	}
	t.Run("operators in parameters are values, never query operators", func(t *testing.T) {
		for _, q := range []string{"search[$gt]=", "search[$ne]=x", "status[$in][]=draft", "include[$gt]=0", "categories[$exists]=1"} {
			res := s.do("GET", "/vendor/events/v1/events?"+q)
			if res.Status != http.StatusBadRequest && res.Status != http.StatusOK {
				t.Fatalf("%s: %d %s", q, res.Status, res.Body)
			}
			if res.Status == http.StatusOK && res.object(t)["total"] != float64(0) {
				t.Fatalf("%s matched something: %s", q, res.Body)
			}
		}
	})
}

func TestApplicationPasswordsNeverReachTheLogsOrLaterAnswers(t *testing.T) {
	t.Parallel()
	s := startService(t)
	_, password := s.createUser("maria", calendar.RoleEditor)
	s.do("GET", "/vendor/admin/v1/users", bearer(password)).expectError(t, http.StatusForbidden, "rest_forbidden")
	s.do("GET", "/vendor/events/v1", basic("maria", password+"x")).expectError(t, http.StatusUnauthorized, "incorrect_password")
	s.do("GET", "/vendor/events/v1/nope", bearer(password)).expectError(t, http.StatusNotFound, "rest_no_route")
	s.do("GET", "/vendor/events/v1/venues?search="+url.QueryEscape(password), header("X-Request-ID", "in-query")).expectStatus(t, http.StatusOK)
	s.do("GET", "/metrics", bearer(password), header("X-Request-ID", "to-metrics")).expectStatus(t, http.StatusOK)
	for _, id := range []string{"in-query", "to-metrics"} {
		if !strings.Contains(s.logs.String(), "request_id="+id) {
			t.Fatalf("no access line for %s: the check below would prove nothing\n%s", id, s.logs.String())
		}
	}
	for _, secret := range []string{password, strings.ReplaceAll(password, " ", ""), url.QueryEscape(password), adminPassword,
		base64.StdEncoding.EncodeToString([]byte("maria:" + password))} {
		if strings.Contains(s.logs.String(), secret) {
			t.Fatalf("a password is in the logs:\n%s", s.logs.String())
		}
	}
	listing := s.do("GET", "/vendor/admin/v1/users", asAdmin())
	if strings.Contains(string(listing.Body), strings.ReplaceAll(password, " ", "")[:8]) {
		t.Fatal("the listing shows a password")
	}
}
