package controllers_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// Synonyms over HTTP: administrators add groups under the admin namespace;
// the next search, in any order, finds a group's words both ways and a
// root's words one way. The rules are app's (app/synonyms_test.go).
func TestSynonymsOverHTTP(t *testing.T) {
	t.Parallel()
	s := startService(t)
	const synonyms = "/vendor/admin/v1/synonyms"
	s.event(onDay("Jazz gig", 1, nil))
	s.event(onDay("Rock concert", 2, nil))
	s.event(onDay("Music night", 3, nil))
	s.do("POST", synonyms, jsonBody(map[string]any{"words": []string{"gig", "concert"}})).expectError(t, http.StatusUnauthorized, "rest_not_logged_in")
	res := s.do("POST", synonyms, asAdmin(), jsonBody(map[string]any{"words": []string{"gig", "concert"}}))
	res.expectStatus(t, http.StatusCreated)
	s.do("POST", synonyms, asAdmin(), jsonBody(map[string]any{"root": "music", "words": []string{"jazz"}})).expectStatus(t, http.StatusCreated)
	if list := s.do("GET", synonyms, asAdmin()).list(t); len(list) != 2 || list[1]["root"] != "music" {
		t.Fatalf("listed %v", list)
	}
	for _, c := range []struct{ search, want string }{
		{"gig", "Jazz gig,Rock concert"}, {"concert", "Jazz gig,Rock concert"},
		{"music", "Jazz gig,Music night"}, {"jazz", "Jazz gig"},
	} {
		for _, order := range []string{"", "&orderby=relevance"} {
			if got := sortedTitlesOf(s.searchTitles(t, "", "search="+c.search+order)); got != c.want {
				t.Errorf("%s%s: %q, want %q", c.search, order, got, c.want)
			}
		}
	}
	s.do("POST", synonyms, asAdmin(), jsonBody(map[string]any{"words": []string{"live music", "gig"}})).expectError(t, http.StatusBadRequest, "rest_invalid_param")
}

// sortedTitlesOf sorts a comma-separated list of titles: a ranked list's
// set.
func sortedTitlesOf(titles string) string {
	list := strings.Split(titles, ",")
	slices.Sort(list)
	return strings.Join(list, ",")
}
