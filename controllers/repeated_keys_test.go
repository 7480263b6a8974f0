package controllers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// Generated clients and Swagger UI send an array as OpenAPI's default does
// (a=1&a=2): every array parameter reads it as the list, in a query and in a
// form, beside a[]=1&a[]=2 and a=1,2; a repeated plain parameter keeps its
// last value, as PHP does.
func TestRepeatedKeysSendAList(t *testing.T) {
	t.Parallel()
	s := startService(t)
	jazz := s.term("categories", "name", "Jazz")
	rock := s.term("categories", "name", "Rock")
	live := s.term("tags", "name", "Live")
	s.term("tags", "name", "Studio")
	soon := time.Now().UTC().AddDate(0, 1, 0)
	var events []string
	for i, cat := range []map[string]any{jazz, jazz, rock, rock, rock, nil} {
		start := soon.Add(time.Duration(i) * time.Hour)
		fields := at(fmt.Sprintf("Event %d", i), start.Format(app.DateFormat), start.Add(time.Hour).Format(app.DateFormat))
		if cat != nil {
			fields["categories"] = []any{cat["id"]}
			fields["tags"] = []any{live["id"]}
		}
		events = append(events, idOf(s.event(fields)))
	}
	s.create("venue", asAdmin(), "venue", "Hall")
	s.create("venue", asAdmin(), "venue", "Draft", "status", "draft")
	s.create("venue", asAdmin(), "venue", "Other")
	s.create("organizer", asAdmin(), "organizer", "Band")
	authorID, author := s.createUser("author", calendar.RoleAuthor)
	jpg := photo(t, 30, 20)
	s.upload("mine.jpg", jpg)
	s.do("POST", mediaPath, basic("author", author), rawUpload("theirs.jpg", "image/jpeg", jpg)).expectStatus(t, http.StatusCreated)

	count := func(t *testing.T, path, key string, opts ...option) int {
		t.Helper()
		res := s.do("GET", path, opts...)
		res.expectStatus(t, http.StatusOK)
		if key == "" {
			return len(res.list(t))
		}
		return len(res.object(t)[key].([]any))
	}
	for _, tc := range []struct {
		path, key string
		want      int
	}{
		{"events?categories=jazz&categories=rock", "events", 5},
		{"events?categories=" + idOf(jazz) + "&categories=" + idOf(rock), "events", 5},
		{"events?categories[]=jazz&categories[]=rock", "events", 5},
		{"events?categories=jazz,rock", "events", 5},
		{"events?include=" + events[0] + "&include=" + events[5], "events", 2},
		{"events?tags=studio&tags=live", "events", 5},
		{"events?per_page=2&per_page=4", "events", 4}, // not an array: the last wins
		{"venues?status=publish&status=draft", "venues", 3},
		{"organizers?status=draft&status=publish", "organizers", 1},
		{"categories?hide_empty=false&include=jazz&include=" + idOf(rock), "categories", 2},
		{"categories?hide_empty=false&exclude=jazz&exclude=rock", "categories", 0},
		{"tags?hide_empty=false&include=live&include=studio", "tags", 2},
		{"media?author=1&author=" + formatFloat(authorID), "", 2},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if got := count(t, "/vendor/events/v1/"+tc.path, tc.key, asAdmin()); got != tc.want {
				t.Fatalf("%d %s, want %d", got, tc.key, tc.want)
			}
		})
	}
	t.Run("the links carry the whole list", func(t *testing.T) {
		res := s.do("GET", "/vendor/events/v1/events?categories=jazz&categories=rock&per_page=2")
		next, _ := res.object(t)["next_rest_url"].(string)
		u, err := url.Parse(next)
		if err != nil || u.Query().Get("categories") != "jazz,rock" {
			t.Fatalf("next link %q", next)
		}
	})
	t.Run("a form body", func(t *testing.T) {
		start := soon.AddDate(0, 0, 1)
		res := s.do("POST", eventsPath, asAdmin(), form("title", "Both", "start_date", start.Format(app.DateFormat),
			"end_date", start.Add(time.Hour).Format(app.DateFormat), "categories", "jazz", "categories", "rock",
			"title", "Both, last"))
		res.expectStatus(t, http.StatusCreated)
		created := res.object(t)
		var slugs []string
		for _, c := range created["categories"].([]any) {
			slugs = append(slugs, c.(map[string]any)["slug"].(string))
		}
		sort.Strings(slugs)
		if strings.Join(slugs, ",") != "jazz,rock" || created["title"] != "Both, last" {
			t.Fatalf("categories %v, title %v", slugs, created["title"])
		}
	})
	t.Run("bounded", func(t *testing.T) {
		q := strings.Repeat("include=1&", 1001)
		s.do("GET", "/vendor/events/v1/events?"+q).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	})
}

// The document says how the arrays are sent: style form, exploded, in the
// query and in the forms of writes.
func TestTheDocSaysHowArraysAreSent(t *testing.T) {
	t.Parallel()
	s := startService(t)
	paths := s.do("GET", "/vendor/events/v1/doc").object(t)["paths"].(map[string]any)
	arrays := 0
	for path, item := range paths {
		for method, o := range item.(map[string]any) {
			op, ok := o.(map[string]any)
			if !ok || method == "servers" {
				continue
			}
			for _, raw := range asList(op["parameters"]) {
				p := raw.(map[string]any)
				schema, _ := p["schema"].(map[string]any)
				if schema["type"] != "array" {
					continue
				}
				arrays++
				if p["style"] != "form" || p["explode"] != true {
					t.Errorf("%s %s: array %v has style %v, explode %v", method, path, p["name"], p["style"], p["explode"])
				}
			}
			body, _ := op["requestBody"].(map[string]any)
			content, _ := body["content"].(map[string]any)
			for mediaType, m := range content {
				if mediaType == "application/json" {
					continue
				}
				props, _ := m.(map[string]any)["schema"].(map[string]any)["properties"].(map[string]any)
				encoding, _ := m.(map[string]any)["encoding"].(map[string]any)
				for name, prop := range props {
					if prop.(map[string]any)["type"] != "array" {
						continue
					}
					arrays++
					if e, _ := encoding[name].(map[string]any); e["style"] != "form" || e["explode"] != true {
						t.Errorf("%s %s %s: array %s is encoded %v", method, path, mediaType, name, encoding[name])
					}
				}
			}
		}
	}
	if arrays == 0 {
		t.Fatal("the document declares no array parameter")
	}
	if cats := findParam(paths, "/events", "get", "categories"); cats == nil || cats["style"] != "form" {
		t.Fatalf("GET /events categories: %v", cats)
	}
}

func findParam(paths map[string]any, path, method, name string) map[string]any {
	op, _ := paths[path].(map[string]any)[method].(map[string]any)
	for _, raw := range asList(op["parameters"]) {
		if p := raw.(map[string]any); p["name"] == name {
			return p
		}
	}
	return nil
}
