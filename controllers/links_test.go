package controllers_test

import (
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"calendar/app"
)

// listNames returns the sorted names under key in a list answer.
func listNames(t *testing.T, res *response, key, field string) string {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	var out []string
	for _, item := range res.object(t)[key].([]any) {
		out = append(out, item.(map[string]any)[field].(string))
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func TestVenueAndOrganizerListsByTheirEvents(t *testing.T) {
	r := startWithRoles(t)
	hall := r.create("venue", asAdmin(), "venue", "Hall")
	club := r.create("venue", asAdmin(), "venue", "Club")
	lonely := r.create("venue", asAdmin(), "venue", "Lonely")
	backstage := r.create("venue", asAdmin(), "venue", "Backstage", "status", "draft")
	ann := r.create("organizer", asAdmin(), "organizer", "Ann")
	bob := r.create("organizer", asAdmin(), "organizer", "Bob")
	soon := time.Now().UTC().AddDate(0, 1, 0)
	past := r.event(map[string]any{"title": "past", "start_date": "2020-01-01 10:00:00", "end_date": "2020-01-01 11:00:00", "venue": hall["id"], "organizer": []any{ann["id"]}})
	upcoming := r.event(map[string]any{"title": "upcoming", "start_date": soon.Format(app.DateFormat), "end_date": soon.Add(time.Hour).Format(app.DateFormat),
		"venue": club["id"], "organizer": []any{bob["id"], ann["id"]}})
	r.event(map[string]any{"title": "draft", "start_date": "2020-02-01 10:00:00", "end_date": "2020-02-01 11:00:00", "status": "draft", "venue": lonely["id"]})
	withDraftVenue := r.event(map[string]any{"title": "backstage", "start_date": soon.Format(app.DateFormat), "end_date": soon.Add(time.Hour).Format(app.DateFormat), "venue": backstage["id"]})
	bare := r.event(map[string]any{"title": "bare", "start_date": "2020-03-01 10:00:00", "end_date": "2020-03-01 11:00:00"})

	venues := "/vendor/events/v1/venues?"
	cases := []struct {
		query string
		cred  option
		want  string
	}{
		{"event=" + idOf(past), nil, "Hall"},
		{"event=" + idOf(bare), nil, ""},
		{"event=" + idOf(withDraftVenue), nil, ""},
		{"event=" + idOf(withDraftVenue), r.creds[app.RoleEditor], "Backstage"},
		{"has_events=true", nil, "Club,Hall"},
		{"has_events=yes", r.creds[app.RoleEditor], "Backstage,Club,Hall"},
		{"has_events=false", nil, "Lonely"},
		{"has_events=", nil, "Lonely"},
		{"only_with_upcoming=true", nil, "Club"},
		{"only_with_upcoming=1", r.creds[app.RoleEditor], "Backstage,Club"},
		{"only_with_upcoming=false", nil, "Club,Hall,Lonely"},
		{"has_events=true&only_with_upcoming=true", nil, "Club"},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			var opts []option
			if c.cred != nil {
				opts = append(opts, c.cred)
			}
			if got := listNames(t, r.do("GET", venues+c.query, opts...), "venues", "venue"); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	for _, bad := range []string{"event=" + idOf(hall), "event=99999", "event=foo"} {
		r.do("GET", venues+bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	}
	if got := listNames(t, r.do("GET", "/vendor/events/v1/organizers?event="+idOf(upcoming)), "organizers", "organizer"); got != "Ann,Bob" {
		t.Fatalf("organizers of an event: %q", got)
	}
	if got := listNames(t, r.do("GET", "/vendor/events/v1/organizers?only_with_upcoming=true"), "organizers", "organizer"); got != "Ann,Bob" {
		t.Fatalf("organizers with upcoming events: %q", got)
	}
}

func TestTermListsByEvent(t *testing.T) {
	s := startService(t)
	jazz := s.event(map[string]any{"title": "j", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00", "categories": "Jazz,Blues", "tags": "late"})
	rock := s.event(map[string]any{"title": "r", "start_date": "2030-01-02 10:00", "end_date": "2030-01-02 11:00", "categories": "Rock"})
	cats := "/vendor/events/v1/categories?"
	for query, want := range map[string]string{
		"event=" + idOf(jazz):                         "Blues,Jazz",
		"post=" + idOf(rock):                          "Rock",
		"post=" + idOf(rock) + "&event=" + idOf(jazz): "Blues,Jazz",
		"event=" + idOf(jazz) + "&include=jazz,rock":  "Jazz",
		"hide_empty=true&event=" + idOf(jazz):         "Blues,Jazz",
	} {
		t.Run(query, func(t *testing.T) {
			if got := listNames(t, s.do("GET", cats+query), "categories", "name"); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
	if got := listNames(t, s.do("GET", "/vendor/events/v1/tags?event="+idOf(rock)), "tags", "name"); got != "" {
		t.Fatalf("tags of an untagged event: %q", got)
	}
}

func TestRemovingLinkedPostsUnlinksTheirEvents(t *testing.T) {
	s := startService(t)
	hall := s.create("venue", asAdmin(), "venue", "Hall")
	ann := s.create("organizer", asAdmin(), "organizer", "Ann")
	bob := s.create("organizer", asAdmin(), "organizer", "Bob")
	e := s.event(map[string]any{"title": "e", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00",
		"venue": hall["id"], "organizer": []any{ann["id"], bob["id"]}, "categories": "Jazz,Blues"})
	get := func() map[string]any { return s.do("GET", eventsPath+"/"+idOf(e)).object(t) }

	s.do("DELETE", "/vendor/events/v1/venues/"+idOf(hall), asAdmin()).expectStatus(t, 200)
	if v, ok := get()["venue"].([]any); !ok || len(v) != 0 {
		t.Fatalf("the event kept its trashed venue: %v", get()["venue"])
	}
	if got := s.do("GET", "/vendor/events/v1/venues?has_events=true", asAdmin()).object(t)["total"]; got != float64(0) {
		t.Fatalf("the index still links the trashed venue: %v", got)
	}
	s.do("DELETE", "/vendor/events/v1/organizers/"+idOf(ann)+"?force=true", asAdmin()).expectStatus(t, 200)
	if o := get()["organizer"].([]any); len(o) != 1 || o[0].(map[string]any)["organizer"] != "Bob" {
		t.Fatalf("organizers after deleting Ann: %v", o)
	}
	var jazz string
	for _, c := range get()["categories"].([]any) {
		if c.(map[string]any)["name"] == "Jazz" {
			jazz = formatFloat(c.(map[string]any)["id"].(float64))
		}
	}
	s.do("DELETE", "/vendor/events/v1/categories/"+jazz, asAdmin()).expectStatus(t, 200)
	if c := get()["categories"].([]any); len(c) != 1 || c[0].(map[string]any)["name"] != "Blues" {
		t.Fatalf("categories after deleting Jazz: %v", c)
	}
	if got := listNames(t, s.do("GET", "/vendor/events/v1/categories?event="+idOf(e)), "categories", "name"); got != "Blues" {
		t.Fatalf("category list of the event: %q", got)
	}
}

func TestOrganizerPermissionsByIDAndSlug(t *testing.T) {
	r := startWithRoles(t)
	o := r.create("organizer", asAdmin(), "organizer", "Admin's organizer")
	for _, path := range []string{"/vendor/events/v1/organizers/" + idOf(o), "/vendor/events/v1/organizers/by-slug/" + o["slug"].(string)} {
		r.do("POST", path, r.creds[app.RoleContributor], form("phone", "1")).expectError(t, 403, "rest_forbidden")
		r.do("DELETE", path, r.creds[app.RoleContributor]).expectError(t, 403, "rest_forbidden")
		r.do("PUT", path, r.creds[app.RoleAuthor], form("phone", "1")).expectError(t, 403, "rest_forbidden")
		r.do("PATCH", path, form("phone", "1")).expectError(t, 401, "rest_forbidden")
		r.do("PATCH", path, r.creds[app.RoleEditor], form("phone", "2")).expectStatus(t, 200)
	}
	r.do("POST", "/vendor/events/v1/organizers", r.creds[app.RoleSubscriber], form("organizer", "x")).expectError(t, 403, "rest_forbidden")
	if got := r.create("organizer", r.creds[app.RoleContributor], "organizer", "Mine")["status"]; got != "draft" {
		t.Fatalf("a contributor's organizer has status %v", got)
	}
	r.do("GET", "/vendor/events/v1/organizers/"+idOf(o)).expectStatus(t, 200)
}
