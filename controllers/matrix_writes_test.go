package controllers_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/app/throttle"
)

// everyField is a write of every field of a kind, with values any caller who
// may write at all may send.
func everyField(kind string, n int) map[string]any {
	name := fmt.Sprintf("every field %d", n)
	common := map[string]any{"description": "d", "excerpt": "e", "password": "", "image": "https://img.example/a.png",
		"date": "2027-01-01 10:00", "status": "draft"}
	switch kind {
	case "events":
		common["title"], common["start_date"], common["end_date"], common["timezone"] = name, "2031-01-01 10:00", "2031-01-01 11:00", "Europe/Paris"
		common["all_day"], common["cost"], common["website"], common["show_map"], common["show_map_link"] = false, "10€", "https://ev.example", true, true
		common["hide_from_listings"], common["featured"], common["slug"] = false, true, fmt.Sprintf("every-%d", n)
		common["venue"] = map[string]any{"venue": name, "city": "Lyon"}
		common["organizer"] = []any{map[string]any{"organizer": name, "email": "o@example.org"}}
		common["categories"], common["tags"] = []any{}, []any{}
	case "venues":
		common["venue"] = name
		for _, f := range []string{"address", "city", "country", "province", "state", "zip", "phone", "stateprovince"} {
			common[f] = "x"
		}
		common["website"], common["show_map"], common["geo_lat"], common["geo_lng"] = "https://v.example", true, 45.7, 4.8
	case "organizers":
		common["organizer"], common["phone"], common["website"], common["email"] = name, "1", "https://o.example", "o@example.org"
	}
	return common
}

// TestWritesByEveryCallerWithEveryField sends creates and updates of every
// field, and the fields only some may send (another author, statuses that
// publish, sticky, a post the caller may not read), as every caller, on its
// own posts and others', and checks each status code against WordPress'
// rules; a refused write changes nothing.
func TestWritesByEveryCallerWithEveryField(t *testing.T) {
	t.Parallel() // long: it runs beside the others
	long(t)
	r := startWithRolesSettings(t, func(s *app.Settings) {
		s.Throttle = throttle.DefaultLimits
		s.Throttle.SlowAfter, s.Throttle.BlockAfter, s.Throttle.ClientBlockAfter = 1<<30, 1<<30, 1<<30
	})
	hidden := map[string]map[string]any{
		"venue":     r.create("venue", asAdmin(), "venue", "Admin's private hall", "status", "private"),
		"organizer": r.create("organizer", asAdmin(), "organizer", "Admin's private org", "status", "private"),
	}
	type variant struct {
		name   string
		extra  func(kind string) map[string]any
		refuse func(role calendar.Role, kind string) (int, string) // 0 when allowed
	}
	none := func(calendar.Role, string) (int, string) { return 0, "" }
	variants := []variant{
		{"every field", func(string) map[string]any { return nil }, none},
		{"another author", func(string) map[string]any { return map[string]any{"author": r.ids[calendar.RoleAdministrator]} },
			func(role calendar.Role, _ string) (int, string) {
				if !role.Has(calendar.CapEditOthersPosts) {
					return 403, "rest_forbidden"
				}
				return 0, ""
			}},
		{"status private", func(string) map[string]any { return map[string]any{"status": "private"} }, cannotPublish},
		{"status future", func(string) map[string]any { return map[string]any{"status": "future"} }, cannotPublish},
		{"sticky", func(string) map[string]any { return map[string]any{"sticky": true} },
			func(role calendar.Role, kind string) (int, string) {
				if kind == "events" && !role.Has(calendar.CapPublishPosts) && !role.Has(calendar.CapEditOthersPosts) {
					return 403, "rest_cannot_assign_sticky"
				}
				return 0, ""
			}},
		{"a private venue and organizer", func(kind string) map[string]any {
			if kind != "events" {
				return nil
			}
			return map[string]any{"venue": hidden["venue"]["id"], "organizer": []any{hidden["organizer"]["id"]}}
		}, func(role calendar.Role, kind string) (int, string) {
			if kind == "events" && !role.Has(calendar.CapReadPrivatePosts) {
				return 400, "rest_invalid_param"
			}
			return 0, ""
		}},
	}
	n := 0
	// A refused write changes nothing: the posts it is tried on are shared.
	// A write that goes through is tried on a post that only such writes
	// change (whose expected answers do not depend on its status), but one
	// that gives the post to another author gets a post of its own.
	shared := map[string]map[string]any{}
	itemFor := func(t *testing.T, kind string, owner calendar.Role, changes bool, v variant) map[string]any {
		key := fmt.Sprint(kind, "|", owner, "|", changes)
		if changes && v.name == "another author" {
			key = fmt.Sprint(kind, "|", n)
		}
		if shared[key] == nil {
			shared[key] = r.item(t, kind, owner, "draft", n)
		}
		return shared[key]
	}
	for _, kind := range []string{"events", "venues", "organizers"} {
		for _, role := range matrixCallers {
			for _, v := range variants {
				for _, target := range []string{"new", "own", "other's"} {
					if target == "own" && !role.Has(calendar.CapEditPosts) {
						continue
					}
					n++
					t.Run(fmt.Sprintf("%s %s %q %s", kind, target, role, v.name), func(t *testing.T) {
						fields := everyField(kind, n)
						for k, x := range v.extra(kind) {
							fields[k] = x
						}
						method, path, ok := "POST", "/vendor/events/v1/"+kind, http.StatusCreated
						if target != "new" {
							method, ok = "PATCH", http.StatusOK
						}
						want, code := ok, ""
						switch {
						case role == "" || role == "wrong":
							want, code = 401, "rest_forbidden"
							if role == "wrong" {
								code = "incorrect_password"
							}
						case !role.Has(calendar.CapEditPosts) || (target == "other's" && !role.Has(calendar.CapEditOthersPosts)):
							want, code = 403, "rest_forbidden"
						default:
							if status, c := v.refuse(role, kind); status != 0 {
								want, code = status, c
							}
						}
						if target != "new" {
							owner := calendar.RoleEditor
							if target == "own" {
								owner = role
							}
							path += "/" + idOf(itemFor(t, kind, owner, want == ok, v))
						}
						before, _ := r.store.LastSeq(context.Background())
						res := r.do(method, path, append(r.caller(role), jsonBody(fields))...)
						if want == ok {
							res.expectStatus(t, want)
							return
						}
						res.expectError(t, want, code)
						if after, _ := r.store.LastSeq(context.Background()); after != before {
							t.Fatalf("a refused write wrote %d changes", after-before)
						}
					})
				}
			}
		}
	}
}

// cannotPublish: WordPress refuses private and scheduled posts to those who
// may not publish.
func cannotPublish(role calendar.Role, _ string) (int, string) {
	if !role.Has(calendar.CapPublishPosts) {
		return 403, "rest_cannot_publish"
	}
	return 0, ""
}
