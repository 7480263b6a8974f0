package controllers_test

import (
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
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

// The rules of lists by their events are tested in app (links_test.go);
// here, that has_events and only_with_upcoming are read as the plugin reads
// them (tribe_is_truthy), and event= names an event.
func TestLinkFiltersAreReadAsThePluginReadsThem(t *testing.T) {
	t.Parallel()
	s := startService(t)
	hall := s.create("venue", asAdmin(), "venue", "Hall")
	s.create("venue", asAdmin(), "venue", "Lonely")
	soon := time.Now().UTC().AddDate(0, 1, 0)
	s.event(map[string]any{"title": "upcoming", "start_date": soon.Format(app.DateFormat), "end_date": soon.Add(time.Hour).Format(app.DateFormat), "venue": hall["id"]})
	venues := "/vendor/events/v1/venues?"
	for query, want := range map[string]string{
		"has_events=true": "Hall", "has_events=yes": "Hall", "has_events=Enabled": "Hall", "has_events=1": "Hall",
		"has_events=false": "Lonely", "has_events=": "Lonely", "has_events=no": "Lonely",
		"only_with_upcoming=y": "Hall", "only_with_upcoming=false": "Hall,Lonely", "only_with_upcoming=nah": "Hall,Lonely",
	} {
		t.Run(query, func(t *testing.T) {
			if got := listNames(t, s.do("GET", venues+query), "venues", "venue"); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
	for _, bad := range []string{"event=" + idOf(hall), "event=99999", "event=foo"} {
		s.do("GET", venues+bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	}
}

func TestOrganizerPermissionsByIDAndSlug(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	o := r.create("organizer", asAdmin(), "organizer", "Admin's organizer")
	for _, path := range []string{"/vendor/events/v1/organizers/" + idOf(o), "/vendor/events/v1/organizers/by-slug/" + o["slug"].(string)} {
		r.do("POST", path, r.creds[calendar.RoleContributor], form("phone", "1")).expectError(t, 403, "rest_forbidden")
		r.do("DELETE", path, r.creds[calendar.RoleContributor]).expectError(t, 403, "rest_forbidden")
		r.do("PUT", path, r.creds[calendar.RoleAuthor], form("phone", "1")).expectError(t, 403, "rest_forbidden")
		r.do("PATCH", path, form("phone", "1")).expectError(t, 401, "rest_forbidden")
		r.do("PATCH", path, r.creds[calendar.RoleEditor], form("phone", "2")).expectStatus(t, 200)
	}
	r.do("POST", "/vendor/events/v1/organizers", r.creds[calendar.RoleSubscriber], form("organizer", "x")).expectError(t, 403, "rest_forbidden")
	if got := r.create("organizer", r.creds[calendar.RoleContributor], "organizer", "Mine")["status"]; got != "draft" {
		t.Fatalf("a contributor's organizer has status %v", got)
	}
	r.do("GET", "/vendor/events/v1/organizers/"+idOf(o)).expectStatus(t, 200)
}
