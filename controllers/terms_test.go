package controllers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"calendar/app"
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
	s := startService(t)
	parent := s.term("categories", "name", "Music", "description", "All music")
	child := s.do("POST", "/vendor/events/v1/categories", asAdmin(), form("name", "Jazz", "parent", idOf(parent)))
	child.expectStatus(t, http.StatusCreated)
	c := child.object(t)
	if loc := child.Header.Get("Location"); loc != s.URL+"/vendor/events/v1/categories/"+idOf(c) {
		t.Fatalf("Location = %q", loc)
	}
	single := s.do("GET", "/vendor/events/v1/categories/"+idOf(c))
	if got := strings.Join(keyOrder(t, single.Body), " "); got != "id count description name slug taxonomy parent meta url urls" {
		t.Fatalf("category keys: %s", got)
	}
	m := single.object(t)
	urls := m["urls"].(map[string]any)
	api := s.URL + "/vendor/events/v1/categories"
	if m["taxonomy"] != "tribe_events_cat" || m["count"] != float64(0) || m["parent"] != parent["id"] ||
		urls["self"] != api+"/"+idOf(c) || urls["collection"] != api || urls["up"] != api+"/"+idOf(parent) ||
		m["url"] != s.URL+"/events/category/jazz/" || len(m["meta"].([]any)) != 0 {
		t.Fatalf("category: %s", single.Body)
	}
	if _, hasUp := parent["urls"].(map[string]any)["up"]; hasUp || parent["parent"] != float64(0) {
		t.Fatalf("a top-level category: %v", parent)
	}
	created := s.do("POST", "/vendor/events/v1/tags", asAdmin(), form("name", "Free"))
	tag := created.object(t)
	if got := strings.Join(keyOrder(t, created.Body), " "); got != "id count description name slug taxonomy meta url urls" || tag["taxonomy"] != "post_tag" {
		t.Fatalf("tag: %v (keys %s)", tag, got)
	}
	fr := s.do("GET", "/fr/vendor/events/v1/tags/"+idOf(tag)).object(t)
	if fr["urls"].(map[string]any)["self"] != s.URL+"/fr/vendor/events/v1/tags/"+idOf(tag) {
		t.Fatalf("urls lose the language segment: %v", fr["urls"])
	}
}

func TestTermPermissionsPerRole(t *testing.T) {
	r := startWithRoles(t)
	cases := []struct {
		kind   string
		role   app.Role
		status int
	}{
		{"categories", "", 401}, {"categories", app.RoleSubscriber, 403}, {"categories", app.RoleContributor, 403},
		{"categories", app.RoleAuthor, 201}, {"categories", app.RoleEditor, 201},
		{"tags", "", 401}, {"tags", app.RoleContributor, 403}, {"tags", app.RoleAuthor, 403}, {"tags", app.RoleEditor, 201},
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
			role       app.Role
			authorMay  bool
			subscriber bool
		}{{"", false, false}, {app.RoleSubscriber, false, false}, {app.RoleContributor, false, false}, {app.RoleAuthor, true, false}, {app.RoleEditor, true, true}, {app.RoleAdministrator, true, true}} {
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
	r.do("POST", path, r.creds[app.RoleAuthor], form("name", "x")).expectError(t, 403, "rest_forbidden")
	r.do("DELETE", path, r.creds[app.RoleContributor]).expectError(t, 403, "rest_forbidden")
	r.do("DELETE", path).expectError(t, 401, "rest_forbidden")
	r.do("PATCH", path, r.creds[app.RoleEditor], form("name", "Renamed")).expectStatus(t, 200)
	r.do("GET", path).expectStatus(t, 200)
}

func TestTermWritesAreValidated(t *testing.T) {
	s := startService(t)
	music := s.term("categories", "name", "Music")
	cases := []struct {
		kind  string
		pairs []string
		code  string
	}{
		{"categories", []string{"name", ""}, "rest_invalid_param"},
		{"categories", []string{"name", "   "}, "rest_invalid_param"},
		{"categories", []string{"name", "A", "description", ""}, "rest_invalid_param"},
		{"categories", []string{"name", "A", "slug", ""}, "rest_invalid_param"},
		{"categories", []string{"name", "A", "slug", "!!!"}, "rest_invalid_param"},
		{"categories", []string{"name", "A", "parent", ""}, "rest_invalid_param"},
		{"categories", []string{"name", "A", "parent", "2389"}, "rest_invalid_param"},
		{"categories", []string{"name", "A", "parent", "foo"}, "rest_invalid_param"},
		{"categories", []string{"name", strings.Repeat("n", 201)}, "rest_invalid_param"},
		{"categories", []string{"description", "no name"}, "rest_missing_callback_param"},
		{"categories", []string{"name", "music"}, "term_exists"},
		{"tags", []string{"name", "A", "parent", idOf(music)}, "rest_taxonomy_not_hierarchical"},
	}
	for _, c := range cases {
		t.Run(c.kind+" "+strings.Join(c.pairs, "="), func(t *testing.T) {
			s.do("POST", "/vendor/events/v1/"+c.kind, asAdmin(), form(c.pairs...)).expectError(t, http.StatusBadRequest, c.code)
		})
	}
	t.Run("term_exists names the existing term", func(t *testing.T) {
		m := s.do("POST", "/vendor/events/v1/categories", asAdmin(), form("name", "MUSIC")).expectError(t, 400, "term_exists")
		if m["data"].(map[string]any)["term_id"] != music["id"] {
			t.Fatalf("data = %v", m["data"])
		}
	})
	t.Run("the same name is fine under another parent or with another free slug", func(t *testing.T) {
		child := s.term("categories", "name", "Music", "parent", idOf(music))
		if child["slug"] != "music-music" {
			t.Fatalf("child slug = %v, want music-music (base, then with the parent's slug)", child["slug"])
		}
		if other := s.term("categories", "name", "Music", "slug", "music-2"); other["slug"] != "music-2" {
			t.Fatalf("slug = %v", other["slug"])
		}
		s.term("tags", "name", "Music")
		s.do("POST", "/vendor/events/v1/tags", asAdmin(), form("name", "music")).expectError(t, 400, "term_exists")
	})
	t.Run("a taken slug on create is suffixed", func(t *testing.T) {
		s.term("tags", "name", "First", "slug", "same")
		if second := s.term("tags", "name", "Second", "slug", "same"); second["slug"] != "same-2" {
			t.Fatalf("slug = %v, want same-2", second["slug"])
		}
	})
}

func TestTermListFilters(t *testing.T) {
	s := startService(t)
	a := s.term("categories", "name", "A")
	b := s.term("categories", "name", "b", "parent", idOf(a))
	s.term("categories", "name", "C", "parent", idOf(a))
	s.term("categories", "name", "Foo")
	s.term("categories", "name", "One", "slug", "foo-bar")
	list := func(query string) *response {
		return s.do("GET", "/vendor/events/v1/categories?hide_empty=false&"+query)
	}
	cases := map[string]string{
		"":                            "A,b,C,Foo,One",
		"order=desc&orderby=id":       "One,Foo,C,b,A",
		"order=ASC&orderby=name":      "A,b,C,Foo,One",
		"order=desc":                  "One,Foo,C,b,A",
		"orderby=slug":                "A,b,C,Foo,One",
		"search=foo":                  "Foo,One",
		"search=FO":                   "Foo,One",
		"include=" + idOf(b) + ",foo": "b,Foo",
		"include[]=one":               "One",
		"exclude=" + idOf(a) + ",a":   "b,C,Foo,One",
		"include=c,a&orderby=include": "C,A",
		"parent=" + idOf(a):           "b,C",
		"parent=0":                    "A,Foo,One",
		"slug=foo-bar":                "One",
		"slug=nothing":                "",
		"orderby=count":               "A,b,C,Foo,One",
	}
	for query, want := range cases {
		t.Run(query, func(t *testing.T) {
			if got := names(t, list(query), "categories"); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
	for _, bad := range []string{"per_page=0", "per_page=x", "order=", "orderby=", "order=up", "orderby=size", "include=999", "exclude=nope",
		"parent=2389", "parent=", "post=23", "event=foo", "slug=", "search=", "hide_empty=maybe", "page=0"} {
		t.Run("rejects "+bad, func(t *testing.T) {
			list(bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
	t.Run("hide_empty is on by default: no event carries these terms yet", func(t *testing.T) {
		res := s.do("GET", "/vendor/events/v1/categories")
		if m := res.object(t); m["total"] != float64(0) || len(m["categories"].([]any)) != 0 {
			t.Fatalf("default list: %s", res.Body)
		}
	})
}

func TestTermPagination(t *testing.T) {
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

func TestTermUpdateAndDelete(t *testing.T) {
	s := startService(t)
	top := s.term("categories", "name", "Top")
	mid := s.term("categories", "name", "Mid", "parent", idOf(top))
	leaf := s.term("categories", "name", "Leaf", "parent", idOf(mid))
	other := s.term("categories", "name", "Other")
	base := "/vendor/events/v1/categories/"

	res := s.do("PUT", base+idOf(other), asAdmin(), jsonBody(map[string]any{"name": "Renamed", "parent": top["id"]}))
	res.expectStatus(t, http.StatusOK)
	if m := res.object(t); m["name"] != "Renamed" || m["slug"] != "other" || m["parent"] != top["id"] || m["description"] != "" {
		t.Fatalf("after update: %v", m)
	}
	s.do("PATCH", base+idOf(other), asAdmin(), form("slug", "top")).expectError(t, 400, "duplicate_term_slug")
	s.do("PATCH", base+idOf(top), asAdmin(), form("parent", idOf(leaf))).expectError(t, 400, "rest_invalid_param")
	s.do("PATCH", base+idOf(top), asAdmin(), form("parent", idOf(top))).expectError(t, 400, "rest_invalid_param")
	s.do("PATCH", base+idOf(other), asAdmin(), form("parent", "0")).expectStatus(t, 200)

	gone := s.do("DELETE", base+idOf(mid), asAdmin())
	gone.expectStatus(t, http.StatusOK)
	if m := gone.object(t); m["name"] != "Mid" || m["parent"] != top["id"] {
		t.Fatalf("delete answers the term as it was: %v", m)
	}
	if got := s.do("GET", base+idOf(leaf)).object(t)["parent"]; got != top["id"] {
		t.Fatalf("the child of a deleted term has parent %v, want %v", got, top["id"])
	}
	s.do("GET", base+idOf(mid)).expectError(t, 400, "rest_invalid_param")
	s.do("DELETE", base+idOf(mid), asAdmin()).expectError(t, 400, "rest_invalid_param")
	tag := s.term("tags", "name", "T")
	s.do("GET", base+idOf(tag)).expectError(t, 400, "rest_invalid_param")
	s.do("GET", base+"foo").expectError(t, 404, "rest_no_route")
}
