package controllers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
)

// withWebhooks delivers under the default egress policy (public addresses only).
func withWebhooks(s *app.Settings) {
	s.Webhooks.Sender = controllers.NewWebhookSender(controllers.NewEgress(nil), 2*time.Second)
}

// TestWebhookRoutesManageAnOwnersSubscriptions walks a subscription's life
// over HTTP: who may subscribe, its filter read as the events list reads
// its query string, the secret shown once, a pause, a rotation, a delete.
func TestWebhookRoutesManageAnOwnersSubscriptions(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, withWebhooks, noConfig)
	_, author := s.createUser("hook-author", calendar.RoleAuthor)
	_, contributor := s.createUser("hook-contributor", calendar.RoleContributor)
	const hooks = "/vendor/admin/v1/webhooks"
	good := map[string]any{"url": "https://hooks.example/in", "types": []string{"event.created", "event.updated"}}

	s.do("POST", hooks, jsonBody(good)).expectError(t, http.StatusUnauthorized, "rest_not_logged_in")
	s.do("GET", hooks, bearer(contributor)).expectError(t, http.StatusForbidden, "rest_cannot_manage_webhooks")
	s.do("POST", hooks, bearer(contributor), jsonBody(good)).expectError(t, http.StatusForbidden, "rest_cannot_manage_webhooks")

	for _, c := range []struct {
		name  string
		with  map[string]any
		param string
	}{
		{"a category that is not there", map[string]any{"filter": "categories=no-such-category"}, "filter"},
		{"a box the list would refuse", map[string]any{"filter": "geo_bounds=1,2"}, "filter"},
		{"a parameter the list does not have", map[string]any{"filter": "categoriez=jazz"}, "filter"},
		{"a loopback receiver", map[string]any{"url": "http://127.0.0.1:9/in"}, "url"},
		{"localhost", map[string]any{"url": "http://localhost:9/in"}, "url"},
		{"a private receiver", map[string]any{"url": "https://10.0.0.8/in"}, "url"},
		{"an unknown type", map[string]any{"types": []string{"event.exploded"}}, "types"},
	} {
		body := map[string]any{}
		for k, v := range good {
			body[k] = v
		}
		for k, v := range c.with {
			body[k] = v
		}
		res := s.do("POST", hooks, bearer(author), jsonBody(body))
		if params, _ := res.expectError(t, http.StatusBadRequest, "rest_invalid_param")["data"].(map[string]any)["params"].(map[string]any); params[c.param] == nil {
			t.Errorf("%s: params %v, want %s", c.name, params, c.param)
		}
	}

	made := s.do("POST", hooks, bearer(author), jsonBody(map[string]any{"url": "https://hooks.example/in", "filter": "status=publish&featured=true", "description": "the mirror"}))
	made.expectStatus(t, http.StatusCreated)
	m := made.object(t)
	secret, _ := m["secret"].(string)
	if !strings.HasPrefix(secret, "whsec_") || m["status"] != "active" || m["types"].([]any)[0] != "*" || m["filter"] != "status=publish&featured=true" {
		t.Fatalf("made %s", made.Body)
	}
	one := hooks + "/" + idOf(m)
	read := s.do("GET", one, bearer(author))
	read.expectStatus(t, http.StatusOK)
	if _, shown := read.object(t)["secret"]; shown || read.Header.Get("ETag") == "" {
		t.Fatalf("read again: %s (ETag %q): the secret is shown once", read.Body, read.Header.Get("ETag"))
	}
	s.do("GET", one, bearer(contributor)).expectError(t, http.StatusForbidden, "rest_cannot_manage_webhooks")
	if l := s.do("GET", hooks, asAdmin()).list(t); len(l) != 1 {
		t.Fatalf("the administrator lists %d", len(l))
	}

	paused := s.do("PATCH", one, bearer(author), jsonBody(map[string]any{"active": false}))
	if paused.expectStatus(t, http.StatusOK); paused.object(t)["status"] != "paused" {
		t.Fatalf("paused: %s", paused.Body)
	}
	s.do("PATCH", one, bearer(author), header("If-Match", read.Header.Get("ETag")), jsonBody(map[string]any{"active": true})).
		expectError(t, http.StatusPreconditionFailed, "rest_precondition_failed")
	rotated := s.do("POST", one+"/rotate-secret", bearer(author))
	rotated.expectStatus(t, http.StatusOK)
	if r := rotated.object(t); r["secret"] == secret || !strings.HasPrefix(r["secret"].(string), "whsec_") || r["secrets_valid"] != float64(2) {
		t.Fatalf("rotated: %s", rotated.Body)
	}
	gone := s.do("DELETE", one, bearer(author))
	if gone.expectStatus(t, http.StatusOK); gone.object(t)["deleted"] != true {
		t.Fatalf("deleted: %s", gone.Body)
	}
	s.do("GET", one, bearer(author)).expectError(t, http.StatusNotFound, "rest_webhook_invalid_id")
}

// TestTheChangeFeedEmbedsObjectsAndAnswersAnExpiredSync410: ?embed=object
// puts each item in its entry; a since older than the feed's retention is
// 410 rest_sync_expired.
func TestTheChangeFeedEmbedsObjectsAndAnswersAnExpiredSync410(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall")
	res := s.do("GET", "/vendor/events/v1/changes?embed=object", asAdmin())
	res.expectStatus(t, http.StatusOK)
	changes := res.object(t)["changes"].([]any)
	if object, _ := changes[len(changes)-1].(map[string]any)["object"].(map[string]any); object["venue"] != "Hall" {
		t.Fatalf("the last entry: %v", changes[len(changes)-1])
	}
	s.do("GET", "/vendor/events/v1/changes?embed=everything", asAdmin()).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	s.do("DELETE", "/vendor/events/v1/venues/"+idOf(venue)+"?force=true", asAdmin()).expectStatus(t, http.StatusOK)
	if _, err := s.store.PruneChanges(context.Background(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	s.do("GET", "/vendor/events/v1/changes?since=1", asAdmin()).expectError(t, http.StatusGone, "rest_sync_expired")
}
