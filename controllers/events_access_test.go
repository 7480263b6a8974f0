package controllers_test

import (
	"fmt"
	"net/http"
	"testing"

	"calendar/app/calendar"
)

func TestEventPermissionsPerRole(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	future := func(title string) map[string]any { return at(title, "2031-01-01 10:00:00", "2031-01-01 11:00:00") }
	t.Run("create", func(t *testing.T) {
		for role, want := range map[calendar.Role]string{calendar.RoleContributor: "draft", calendar.RoleAuthor: "publish", calendar.RoleEditor: "publish"} {
			if got := r.event(future("by "+string(role)), r.creds[role])["status"]; got != want {
				t.Errorf("%s created an event with status %v, want %s", role, got, want)
			}
		}
		f := future("asks publish")
		f["status"] = "publish"
		if got := r.event(f, r.creds[calendar.RoleContributor])["status"]; got != "pending" {
			t.Errorf("a contributor asking publish got %v, want pending", got)
		}
	})
	admins := r.event(future("admin's"))
	for _, path := range []string{eventsPath + "/" + idOf(admins), eventsPath + "/by-slug/" + admins["slug"].(string)} {
		for _, c := range []struct {
			role   calendar.Role
			method string
			status int
		}{
			{"", "PUT", 401}, {calendar.RoleSubscriber, "PATCH", 403}, {calendar.RoleContributor, "POST", 403}, {calendar.RoleAuthor, "PUT", 403},
			{calendar.RoleEditor, "PATCH", 200}, {"", "DELETE", 401}, {calendar.RoleContributor, "DELETE", 403}, {calendar.RoleAuthor, "DELETE", 403},
		} {
			t.Run(fmt.Sprintf("%q %s %s on another's event", c.role, c.method, path), func(t *testing.T) {
				opts := []option{jsonBody(map[string]any{"excerpt": "x"})}
				if c.role != "" {
					opts = append(opts, r.creds[c.role])
				}
				res := r.do(c.method, path, opts...)
				if c.status == 200 {
					res.expectStatus(t, 200)
				} else {
					res.expectError(t, c.status, "rest_forbidden")
				}
			})
		}
	}
	t.Run("a contributor loses edit rights once the event is published", func(t *testing.T) {
		own := r.event(future("contrib"), r.creds[calendar.RoleContributor])
		path := eventsPath + "/" + idOf(own)
		r.do("PATCH", path, r.creds[calendar.RoleContributor], jsonBody(map[string]any{"excerpt": "ok"})).expectStatus(t, 200)
		r.do("PATCH", path, asAdmin(), jsonBody(map[string]any{"status": "publish"})).expectStatus(t, 200)
		r.do("PATCH", path, r.creds[calendar.RoleContributor], jsonBody(map[string]any{"excerpt": "no"})).expectError(t, 403, "rest_forbidden")
		r.do("DELETE", path, r.creds[calendar.RoleContributor]).expectError(t, 403, "rest_forbidden")
	})
	t.Run("a missing event is 401 for visitors, 404 for editors", func(t *testing.T) {
		r.do("DELETE", eventsPath+"/99999").expectError(t, 401, "rest_forbidden")
		r.do("DELETE", eventsPath+"/99999", asAdmin()).expectError(t, 404, "rest-event-not-found")
		r.do("PATCH", eventsPath+"/99999", asAdmin(), jsonBody(map[string]any{"title": "x"})).expectError(t, 404, "rest-event-not-found")
	})
}

func TestSingleEventReads(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	draft := r.event(at("Draft", "2031-01-01 10:00:00", "2031-01-01 11:00:00"), r.creds[calendar.RoleContributor])
	secret := r.event(map[string]any{"title": "Secret", "start_date": "2031-01-02 10:00:00", "end_date": "2031-01-02 11:00:00", "password": "sesame", "description": "hidden"})
	trashed := r.event(at("Gone", "2031-01-03 10:00:00", "2031-01-03 11:00:00"))
	r.do("DELETE", eventsPath+"/"+idOf(trashed), asAdmin()).expectStatus(t, 200)
	venue := r.create("venue", asAdmin(), "venue", "V")
	cases := []struct {
		name   string
		path   string
		cred   option
		status int
		code   string
	}{
		{"missing", "/99999", nil, 404, "rest-event-not-found"},
		{"not an event", "/" + idOf(venue), nil, 400, "rest-invalid-event-id"},
		{"unknown slug", "/by-slug/nope", nil, 400, "rest_invalid_param"},
		{"a draft, anonymously", "/" + idOf(draft), nil, 403, "event-not-accessible"},
		{"a draft, by another author", "/" + idOf(draft), r.creds[calendar.RoleAuthor], 403, "event-not-accessible"},
		{"a draft, by its contributor", "/" + idOf(draft), r.creds[calendar.RoleContributor], 200, ""},
		{"a draft, by an editor", "/by-slug/" + draft["slug"].(string), r.creds[calendar.RoleEditor], 200, ""},
		{"protected, without the password", "/" + idOf(secret), nil, 403, "event-password-protected"},
		{"protected, with the password", "/" + idOf(secret) + "?password=sesame", nil, 200, ""},
		{"protected, wrong password", "/" + idOf(secret) + "?password=open", nil, 403, "event-password-protected"},
		{"trashed, as an author", "/" + idOf(trashed), r.creds[calendar.RoleAuthor], 403, "event-no-longer-available"},
		{"trashed, as an editor", "/" + idOf(trashed), r.creds[calendar.RoleEditor], 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var opts []option
			if c.cred != nil {
				opts = append(opts, c.cred)
			}
			res := r.do("GET", eventsPath+c.path, opts...)
			if c.status == 200 {
				res.expectStatus(t, 200)
				return
			}
			res.expectError(t, c.status, c.code)
		})
	}
}

func TestEventUpdatesChangeOnlyWhatTheySend(t *testing.T) {
	t.Parallel()
	s := startService(t)
	full := map[string]any{
		"title": "Full", "start_date": "2031-02-01 10:00:00", "end_date": "2031-02-01 12:00:00", "timezone": "Europe/Rome",
		"status": "draft", "image": "https://img.example/a.png", "cost": "15€", "website": "https://full.example",
		"featured": true, "sticky": true, "venue": map[string]any{"venue": "Kept hall"}, "organizer": []any{map[string]any{"organizer": "Kept"}},
		"categories": "Kept cat", "excerpt": "Kept excerpt",
	}
	e := s.event(full)
	res := s.do("PUT", eventsPath+"/"+idOf(e), asAdmin(), jsonBody(map[string]any{"title": "Renamed"}))
	res.expectStatus(t, http.StatusOK)
	u := res.object(t)
	for _, k := range []string{"status", "start_date", "end_date", "utc_start_date", "timezone", "cost", "website", "featured", "sticky", "excerpt", "date", "slug"} {
		if fmt.Sprint(u[k]) != fmt.Sprint(e[k]) {
			t.Errorf("%s changed from %v to %v", k, e[k], u[k])
		}
	}
	if u["title"] != "Renamed" || u["image"] == false || u["venue"].(map[string]any)["venue"] != "Kept hall" ||
		len(u["organizer"].([]any)) != 1 || len(u["categories"].([]any)) != 1 {
		t.Fatalf("after a title update: %s", res.Body)
	}
	cleared := s.do("PATCH", eventsPath+"/"+idOf(e), asAdmin(), jsonBody(map[string]any{"venue": "", "organizer": []any{}, "categories": []any{}, "website": ""})).object(t)
	if v, ok := cleared["venue"].([]any); !ok || len(v) != 0 || len(cleared["organizer"].([]any)) != 0 || len(cleared["categories"].([]any)) != 0 || cleared["website"] != "" {
		t.Fatalf("explicit empty values did not clear: %v", cleared)
	}
	s.do("PATCH", eventsPath+"/"+idOf(e), asAdmin(), jsonBody(map[string]any{"end_date": "2031-01-01"})).expectError(t, 400, "rest_invalid_param")
}

func TestEventDeletion(t *testing.T) {
	t.Parallel()
	s := startService(t)
	e := s.event(at("Doomed", "2030-06-01 10:00:00", "2030-06-01 11:00:00"))
	path := eventsPath + "/" + idOf(e)
	listed := func() float64 {
		return s.do("GET", eventsPath+"?start_date=2030-01-01&end_date=2030-12-31").object(t)["total"].(float64)
	}
	if listed() != 1 {
		t.Fatal("a new event is not listed at once")
	}
	trashed := s.do("DELETE", path, asAdmin())
	trashed.expectStatus(t, 200)
	if trashed.object(t)["status"] != "trash" || listed() != 0 {
		t.Fatalf("after DELETE: %s, listed %v", trashed.Body, listed())
	}
	s.do("DELETE", path, asAdmin()).expectError(t, http.StatusGone, "event-is-in-trash")
	gone := s.do("DELETE", path+"?force=true", asAdmin())
	gone.expectStatus(t, 200)
	if m := gone.object(t); m["deleted"] != true || m["previous"].(map[string]any)["title"] != "Doomed" {
		t.Fatalf("force delete: %s", gone.Body)
	}
	s.do("GET", path, asAdmin()).expectError(t, 404, "rest-event-not-found")
}
