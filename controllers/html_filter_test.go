package controllers_test

import (
	"net/http"
	"strings"
	"testing"

	"calendar/app/calendar"
)

// An author's description is stored and answered without its event
// handler: a writer without unfiltered_html has their HTML filtered on
// save, as WordPress does (the rule: app/html_filter_test.go).
func TestAnAuthorsDescriptionIsAnsweredWithoutItsHandler(t *testing.T) {
	t.Parallel()
	s := startService(t)
	_, password := s.createUser("autorin", calendar.RoleAuthor)
	author := bearer(password)
	created := s.create("event", author, "title", "Vernissage", "start_date", "2030-06-01 18:00:00", "end_date", "2030-06-01 21:00:00",
		"description", `<img src="poster.png" onerror="alert(document.cookie)">`)
	res := s.do("GET", "/vendor/events/v1/events/"+idOf(created), author)
	res.expectStatus(t, http.StatusOK)
	for name, answer := range map[string]map[string]any{"create": created, "read": res.object(t)} {
		if d, _ := answer["description"].(string); strings.Contains(d, "onerror") || !strings.Contains(d, `src="poster.png"`) {
			t.Errorf("the %s answered the description %q", name, d)
		}
	}
}
