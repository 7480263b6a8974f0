package controllers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"calendar/app/calendar"
)

func (s *service) term(kind string, pairs ...string) map[string]any {
	s.t.Helper()
	res := s.do("POST", "/vendor/events/v1/"+kind, asAdmin(), form(pairs...))
	res.expectStatus(s.t, http.StatusCreated)
	return res.object(s.t)
}

func names(t *testing.T, res *response, key string) string {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	var out []string
	for _, item := range res.object(t)[key].([]any) {
		out = append(out, item.(map[string]any)["name"].(string))
	}
	return strings.Join(out, ",")
}

func TestTheTermObjectKeyByKey(t *testing.T) {
	t.Parallel()
	s := startService(t)
	parent := s.term("categories", "name", "Music", "description", "All music")
	child := s.do("POST", "/vendor/events/v1/categories", asAdmin(), form("name", "Jazz", "parent", idOf(parent)))
	child.expectStatus(t, http.StatusCreated)
	c := child.object(t)
	if loc := child.Header.Get("Location"); loc != s.URL+"/vendor/events/v1/categories/"+idOf(c) {
		t.Fatalf("Location = %q", loc)
	}
	single := s.do("GET", "/vendor/events/v1/categories/"+idOf(c))
	if got := strings.Join(keyOrder(t, single.Body), " "); got != "id count description name slug taxonomy parent meta url urls _links" {
		t.Fatalf("category keys: %s", got)
	}
	m := single.object(t)
	urls := m["urls"].(map[string]any)
	api := s.URL + "/vendor/events/v1/categories"
	if m["taxonomy"] != "tribe_events_cat" || m["count"] != float64(0) || m["parent"] != parent["id"] ||
		urls["self"] != api+"/"+idOf(c) || urls["collection"] != api || urls["up"] != api+"/"+idOf(parent) ||
		m["url"] != s.URL+"/events/category/music/jazz/" || len(m["meta"].([]any)) != 0 {
		t.Fatalf("category: %s", single.Body)
	}
	if _, hasUp := parent["urls"].(map[string]any)["up"]; hasUp || parent["parent"] != float64(0) {
		t.Fatalf("a top-level category: %v", parent)
	}
	created := s.do("POST", "/vendor/events/v1/tags", asAdmin(), form("name", "Free"))
	tag := created.object(t)
	if got := strings.Join(keyOrder(t, created.Body), " "); got != "id count description name slug taxonomy meta url urls _links" || tag["taxonomy"] != "post_tag" {
		t.Fatalf("tag: %v (keys %s)", tag, got)
	}
	fr := s.do("GET", "/fr/vendor/events/v1/tags/"+idOf(tag)).object(t)
	if fr["urls"].(map[string]any)["self"] != s.URL+"/fr/vendor/events/v1/tags/"+idOf(tag) {
		t.Fatalf("urls lose the language segment: %v", fr["urls"])
	}
}

func TestTermPermissionsPerRole(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	cases := []struct {
		kind   string
		role   calendar.Role
		status int
	}{
		{"categories", "", 401}, {"categories", calendar.RoleSubscriber, 403}, {"categories", calendar.RoleContributor, 403},
		{"categories", calendar.RoleAuthor, 201}, {"categories", calendar.RoleEditor, 201},
		{"tags", "", 401}, {"tags", calendar.RoleContributor, 403}, {"tags", calendar.RoleAuthor, 403}, {"tags", calendar.RoleEditor, 201},
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%q creates %s", c.role, c.kind), func(t *testing.T) {
			opts := []option{form("name", fmt.Sprintf("T%d", i))}
			if c.role != "" {
				opts = append(opts, r.creds[c.role])
			}
			res := r.do("POST", "/vendor/events/v1/"+c.kind, opts...)
			if c.status == 201 {
				res.expectStatus(t, 201)
				return
			}
			res.expectError(t, c.status, "rest_forbidden")
		})
	}
	for _, kind := range []string{"categories", "tags"} {
		for _, c := range []struct {
			role       calendar.Role
			authorMay  bool
			subscriber bool
		}{{"", false, false}, {calendar.RoleSubscriber, false, false}, {calendar.RoleContributor, false, false}, {calendar.RoleAuthor, true, false}, {calendar.RoleEditor, true, true}, {calendar.RoleAdministrator, true, true}} {
			t.Run(fmt.Sprintf("%q updates and deletes %s", c.role, kind), func(t *testing.T) {
				target := r.term(kind, "name", fmt.Sprintf("target %s %s", kind, c.role))
				path := "/vendor/events/v1/" + kind + "/" + idOf(target)
				var opts []option
				if c.role != "" {
					opts = append(opts, r.creds[c.role])
				}
				allowed := c.subscriber || (c.authorMay && kind == "categories")
				for _, method := range []string{"PATCH", "DELETE"} {
					res := r.do(method, path, append(opts, form("description", "changed"))...)
					switch {
					case allowed:
						res.expectStatus(t, 200)
					case c.role == "":
						res.expectError(t, 401, "rest_forbidden")
					default:
						res.expectError(t, 403, "rest_forbidden")
					}
				}
			})
		}
	}
	tag := r.term("tags", "name", "Managed")
	path := "/vendor/events/v1/tags/" + idOf(tag)
	r.do("POST", path, r.creds[calendar.RoleAuthor], form("name", "x")).expectError(t, 403, "rest_forbidden")
	r.do("DELETE", path, r.creds[calendar.RoleContributor]).expectError(t, 403, "rest_forbidden")
	r.do("DELETE", path).expectError(t, 401, "rest_forbidden")
	r.do("PATCH", path, r.creds[calendar.RoleEditor], form("name", "Renamed")).expectStatus(t, 200)
	r.do("GET", path).expectStatus(t, 200)
}

// The rules of term writes and lists are tested in app (term_test.go); here,
// what the HTTP layer refuses and how it answers.
func TestTermParametersOverHTTP(t *testing.T) {
	t.Parallel()
	s := startService(t)
	music := s.term("categories", "name", "Music")
	for _, c := range []struct {
		kind  string
		pairs []string
		code  string
	}{
		{"categories", []string{"name", "A", "parent", ""}, "rest_invalid_param"},
		{"categories", []string{"name", "A", "parent", "foo"}, "rest_invalid_param"},
		{"categories", []string{"description", "no name"}, "rest_missing_callback_param"},
		{"categories", []string{"name", "music"}, "term_exists"},
		{"tags", []string{"name", "A", "parent", idOf(music)}, "rest_taxonomy_not_hierarchical"},
		{"tags", []string{"name", "A", "parent", "foo"}, "rest_taxonomy_not_hierarchical"},
	} {
		t.Run(c.kind+" "+strings.Join(c.pairs, "="), func(t *testing.T) {
			s.do("POST", "/vendor/events/v1/"+c.kind, asAdmin(), form(c.pairs...)).expectError(t, http.StatusBadRequest, c.code)
		})
	}
	m := s.do("POST", "/vendor/events/v1/categories", asAdmin(), form("name", "MUSIC")).expectError(t, 400, "term_exists")
	if m["data"].(map[string]any)["term_id"] != music["id"] {
		t.Fatalf("data = %v", m["data"])
	}
	list := func(query string) *response {
		return s.do("GET", "/vendor/events/v1/categories?hide_empty=false&"+query)
	}
	if got := names(t, list("include[]=music"), "categories"); got != "Music" {
		t.Fatalf("include[]: %q", got)
	}
	for _, bad := range []string{"per_page=0", "per_page=x", "order=", "orderby=", "orderby=size", "parent=", "event=foo",
		"hide_empty=maybe", "page=0", "post=23"} {
		t.Run("rejects "+bad, func(t *testing.T) {
			list(bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
	base := "/vendor/events/v1/categories/"
	s.do("GET", base+"foo").expectError(t, 404, "rest_no_route")
	s.do("PATCH", base+idOf(music), asAdmin(), form("parent", "0")).expectStatus(t, 200)
	if got := s.do("DELETE", base+idOf(music), asAdmin()).object(t)["name"]; got != "Music" {
		t.Fatalf("delete answers %v", got)
	}
}

func TestTermPagination(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for i := 0; i < 9; i++ {
		s.term("tags", "name", fmt.Sprintf("tag %d", i))
	}
	page := func(n int) map[string]any {
		res := s.do("GET", fmt.Sprintf("/vendor/events/v1/tags?hide_empty=0&per_page=3&page=%d", n))
		res.expectStatus(t, http.StatusOK)
		if res.Header.Get("X-WP-Total") != "9" || res.Header.Get("X-TEC-TotalPages") != "3" {
			t.Fatalf("headers: %v", res.Header)
		}
		return res.object(t)
	}
	raw := s.do("GET", "/vendor/events/v1/tags?hide_empty=0&per_page=3&page=2").Body
	if got := strings.Join(keyOrder(t, raw), " "); got != "rest_url total total_pages tags next_rest_url previous_rest_url" {
		t.Fatalf("term list keys: %s", got)
	}
	first, second, third, beyond := page(1), page(2), page(3), page(4)
	if first["previous_rest_url"] != nil || !strings.Contains(first["next_rest_url"].(string), "page=2") {
		t.Fatalf("page 1 links: %v", first)
	}
	prev, _ := url.Parse(second["previous_rest_url"].(string))
	if prev.Query().Has("page") || prev.Query().Get("per_page") != "3" || prev.Query().Get("hide_empty") != "false" {
		t.Fatalf("page 2's previous link %v must carry the filters but no page", prev)
	}
	if third["next_rest_url"] != nil || len(third["tags"].([]any)) != 3 {
		t.Fatalf("page 3: %v", third)
	}
	if len(beyond["tags"].([]any)) != 0 || beyond["previous_rest_url"] == nil || beyond["next_rest_url"] != nil {
		t.Fatalf("past the last page terms answer 200 empty with a previous link: %v", beyond)
	}
}
