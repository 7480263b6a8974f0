package controllers_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/app/throttle"
)

// The callers of the matrix: no credentials, a wrong password, and each role.
var matrixCallers = []calendar.Role{"", "wrong", calendar.RoleSubscriber, calendar.RoleContributor, calendar.RoleAuthor, calendar.RoleEditor, calendar.RoleAdministrator}

var matrixStatuses = []string{"publish", "draft", "pending", "private", "password", "trash"}

// caller returns the credentials of a matrix caller.
func (r *roles) caller(role calendar.Role) []option {
	switch role {
	case "":
		return nil
	case "wrong":
		return []option{basic("admin", "wrong password")}
	}
	return []option{r.creds[role]}
}

// item creates a post of a kind owned by owner in a matrix status, as admin.
func (r *roles) item(t *testing.T, kind string, owner calendar.Role, status string, n int) map[string]any {
	t.Helper()
	fields := map[string]any{"author": r.ids[owner], "status": status}
	if status == "password" || status == "trash" {
		fields["status"] = "publish"
	}
	if status == "password" {
		fields["password"] = "sesame"
	}
	name := fmt.Sprintf("%s %s %s %d", kind, owner, status, n)
	switch kind {
	case "events":
		fields["title"], fields["start_date"], fields["end_date"] = name, "2031-01-01 10:00", "2031-01-01 11:00"
	case "venues":
		fields["venue"] = name
	case "organizers":
		fields["organizer"] = name
	}
	res := r.do("POST", "/vendor/events/v1/"+kind, asAdmin(), jsonBody(fields))
	res.expectStatus(t, http.StatusCreated)
	m := res.object(t)
	if status == "trash" {
		r.do("DELETE", "/vendor/events/v1/"+kind+"/"+idOf(m), asAdmin()).expectStatus(t, http.StatusOK)
	}
	return m
}

// checkMedia checks the media routes: anyone reads the library; those who
// may upload (upload_files) add to it; edits and deletes follow the post
// rules, an attachment being never published.
func (r *roles) checkMedia(t *testing.T, check func(*testing.T, string, string, []option, int), shared map[string]map[string]any, method, rest string, role calendar.Role, name string, n *int) {
	opts := r.caller(role)
	jpg := photo(t, 20, 20)
	if rest == "" {
		want := http.StatusOK
		switch {
		case role == "wrong":
			want = http.StatusUnauthorized
		case method == "POST" && !role.Has(calendar.CapUploadFiles):
			want = denied(role)
		case method == "POST":
			want = http.StatusCreated
		}
		check(t, method, mediaPath, append(opts, rawUpload("m.jpg", "image/jpeg", jpg)), want)
		return
	}
	for _, owner := range []string{"other", "own"} {
		ownerRole := calendar.RoleAdministrator
		if role == calendar.RoleAdministrator {
			ownerRole = calendar.RoleEditor
		}
		own := owner == "own" && role.Has(calendar.CapUploadFiles)
		if own {
			ownerRole = role
		}
		if owner == "own" && !own {
			continue
		}
		want := http.StatusOK
		switch {
		case role == "wrong":
			want = http.StatusUnauthorized
		case method == "DELETE" && !mayChange(role, own, "draft", calendar.CapDeleteOthersPosts, calendar.CapDeletePublishedPosts, calendar.CapDeletePosts),
			method != "GET" && method != "DELETE" && !mayChange(role, own, "draft", calendar.CapEditOthersPosts, calendar.CapEditPublishedPosts, calendar.CapEditPosts):
			want = denied(role)
		}
		path := mediaPath + "/" + idOf(r.upload(t, shared, ownerRole, method == "DELETE" && want < 400, jpg, n))
		if method == "DELETE" {
			path += "?force=true"
		}
		t.Run(fmt.Sprintf("%s, %s", name, owner), func(t *testing.T) {
			check(t, method, path, append(opts, jsonBody(map[string]any{"caption": "changed"})), want)
		})
	}
}

// upload is an attachment owned by owner: one of its own when the request
// tried on it deletes it, one shared by every other request of that owner
// (a read or a refused write changes nothing; an edit, the caption alone).
func (r *roles) upload(t *testing.T, shared map[string]map[string]any, owner calendar.Role, deleted bool, jpg []byte, n *int) map[string]any {
	t.Helper()
	key := "media|" + string(owner)
	if !deleted && shared[key] != nil {
		return shared[key]
	}
	*n++
	res := r.do("POST", mediaPath, r.creds[owner], rawUpload(fmt.Sprintf("m-%d.jpg", *n), "image/jpeg", jpg))
	res.expectStatus(t, http.StatusCreated)
	item := res.object(t)
	if !deleted {
		shared[key] = item
	}
	return item
}

// The contract's rules, written from the permission tables of the reference.
func mayRead(role calendar.Role, own bool, status string) bool {
	switch {
	case status == "publish" || status == "password":
		return true
	case role == "" || role == "wrong":
		return false
	case role.Has(calendar.CapEditOthersPosts):
		return true
	}
	return own && status != "trash" && role.Has(calendar.CapEditPosts)
}

func mayChange(role calendar.Role, own bool, status string, others, published, plain calendar.Capability) bool {
	switch {
	case role == "" || role == "wrong":
		return false
	case !own:
		return role.Has(others)
	case status == "publish" || status == "private" || status == "password":
		return role.Has(published)
	}
	return role.Has(plain)
}

func denied(role calendar.Role) int {
	if role == "" {
		return http.StatusUnauthorized
	}
	return http.StatusForbidden
}

// expectedItem is the status of one method on one post in the contract,
// named by ID or by slug.
func expectedItem(kind, method string, role calendar.Role, own bool, status string, bySlug bool) int {
	if role == "wrong" {
		return http.StatusUnauthorized
	}
	if bySlug && !own && !mayRead(role, own, status) {
		// As a slug nothing has, a parameter checked before the permission
		// (anonymous writes too): a guessed title is not confirmed.
		return http.StatusBadRequest
	}
	if role == "" && method != "GET" {
		return http.StatusUnauthorized // anonymous writes of an item that is there
	}
	switch method {
	case "GET":
		if kind == "events" {
			switch {
			case status == "trash" && !role.Has(calendar.CapEditOthersPosts):
				return http.StatusForbidden
			case status == "password" && !mayChange(role, own, status, calendar.CapEditOthersPosts, calendar.CapEditPublishedPosts, calendar.CapEditPosts):
				return http.StatusForbidden
			}
		}
		if mayRead(role, own, status) {
			return http.StatusOK
		}
		return http.StatusForbidden // not accessible: 403 even anonymously
	case "DELETE":
		if !mayChange(role, own, status, calendar.CapDeleteOthersPosts, calendar.CapDeletePublishedPosts, calendar.CapDeletePosts) {
			return denied(role)
		}
		if status == "trash" {
			return http.StatusGone
		}
		return http.StatusOK
	}
	if mayChange(role, own, status, calendar.CapEditOthersPosts, calendar.CapEditPublishedPosts, calendar.CapEditPosts) {
		return http.StatusOK
	}
	return denied(role)
}

// TestThePermissionMatrix walks every route the router has, with every method,
// as every caller, on posts owned by another user and by the caller in every
// status, and compares each status code with the contract.
func TestThePermissionMatrix(t *testing.T) {
	t.Parallel() // long: it runs beside the others
	long(t)
	// Its "wrong" caller sends hundreds of wrong passwords a minute, which the
	// throttle would refuse (throttle_test.go tests that).
	r := startWithRolesSettings(t, func(s *app.Settings) {
		s.Throttle = throttle.DefaultLimits
		s.Throttle.BlockAfter, s.Throttle.ClientBlockAfter, s.Throttle.SubjectBlockAfter, s.Throttle.SlowAfter = 1<<30, 1<<30, 1<<30, 1<<30
	})
	routes := map[string]map[string]any{}
	for _, ns := range []string{"vendor/events/v1", "vendor/admin/v1"} {
		for k, v := range routesOf(t, r.service, ns) {
			routes[k] = v
		}
	}
	for route, desc := range routes { // so one of them stands for the three (oneEditable)
		methods := toStrings(desc["methods"])
		if editables := len(slices.DeleteFunc(slices.Clone(methods), func(m string) bool { return m != "PUT" && m != "PATCH" })); editables > 0 &&
			(editables != 2 || !slices.Contains(methods, "POST")) {
			t.Errorf("%s takes %v: PUT or PATCH without all of POST, PUT and PATCH", route, methods)
		}
	}
	checked, n := 0, 0
	check := func(t *testing.T, method, path string, opts []option, want int) {
		t.Helper()
		before, _ := r.store.LastSeq(context.Background())
		res := r.do(method, path, opts...)
		if res.Status != want {
			t.Errorf("%s %s: %d, want %d; %s", method, path, res.Status, want, res.Body)
		}
		if after, _ := r.store.LastSeq(context.Background()); (method == "GET" || want >= 400) && after != before {
			t.Errorf("%s %s answered %d but wrote to the store", method, path, res.Status)
		}
		checked++
	}
	// A read or a refused write changes nothing (check says so), and an edit
	// that goes through changes the excerpt alone: the posts they are tried
	// on are shared; a delete that goes through gets a post of its own.
	shared := map[string]map[string]any{}
	itemFor := func(t *testing.T, kind string, owner calendar.Role, status string, changes bool) map[string]any {
		n++
		if changes {
			return r.item(t, kind, owner, status, n)
		}
		key := fmt.Sprint(kind, "|", owner, "|", status)
		if shared[key] == nil {
			shared[key] = r.item(t, kind, owner, status, n)
		}
		return shared[key]
	}
	for route, desc := range routes {
		kind, rest := splitRoute(route)
		for _, method := range oneEditable(toStrings(desc["methods"])) { // PUT and PATCH reach POST's handler
			for _, role := range matrixCallers {
				name := fmt.Sprintf("%s %s as %q", method, route, role)
				opts := r.caller(role)
				switch {
				case kind == "" || kind == "doc": // the namespace roots and the document
					want := http.StatusOK
					if role == "wrong" {
						want = http.StatusUnauthorized
					}
					check(t, method, strings.TrimSuffix("/"+strings.TrimPrefix(route, "/"), "/"), opts, want)
				case kind == "backup": // the whole store, password hashes included: administrators only
					want := denied(role)
					switch role {
					case "wrong":
						want = http.StatusUnauthorized
					case calendar.RoleAdministrator:
						want = http.StatusOK
					}
					check(t, method, "/vendor/admin/v1/backup", opts, want)
				case kind == "reindex": // the site's own running: administrators only; a POST starts a rebuild
					want := denied(role)
					switch {
					case role == "wrong":
						want = http.StatusUnauthorized
					case role == calendar.RoleAdministrator && method == "POST":
						want = http.StatusAccepted
					case role == calendar.RoleAdministrator:
						want = http.StatusOK
					}
					check(t, method, reindexPath, opts, want)
				case kind == "users":
					path, want := r.usersRoute(t, rest, method, role, n)
					body := jsonBody(map[string]string{"login": fmt.Sprintf("matrix-%d", n), "role": "subscriber", "name": fmt.Sprintf("app %d", n)})
					n++
					check(t, method, path, append(opts, body), want)
				case kind == "categories" || kind == "tags":
					manage := calendar.CapManageEventCategories
					if kind == "tags" {
						manage = calendar.CapManageTags
					}
					want := http.StatusOK
					switch {
					case role == "wrong":
						want = http.StatusUnauthorized
					case method != "GET" && !(role.Has(calendar.CapEditPosts) && role.Has(manage)):
						want = denied(role)
					case method == "POST" && rest == "":
						want = http.StatusCreated
					}
					n++
					path := "/vendor/events/v1/" + kind
					if rest != "" { // a term of its own for a delete that goes through, a shared one otherwise
						key := kind + "|term"
						if method == "DELETE" && want < 400 {
							key = fmt.Sprint(kind, "|", n)
						}
						if shared[key] == nil {
							shared[key] = r.term(kind, "name", fmt.Sprintf("term %d", n))
						}
						path += "/" + idOf(shared[key])
					}
					check(t, method, path, append(opts, form("name", fmt.Sprintf("made %d", n), "description", "d")), want)
				case kind == "media":
					r.checkMedia(t, check, shared, method, rest, role, name, &n)
				case kind == "webhooks":
					r.checkWebhooks(t, check, method, rest, role, name, &n)
				case kind == "imports":
					r.checkImports(t, check, method, rest, role, &n)
				case kind == "synonyms":
					r.checkSynonyms(t, check, method, rest, role, &n)
				case kind == "fields":
					r.checkFields(t, check, method, rest, role, &n)
				case kind == "suggest", kind == "events" && strings.HasPrefix(rest, "facets/"): // reads of what the caller may see
					want := http.StatusOK
					if role == "wrong" {
						want = http.StatusUnauthorized
					}
					path := "/vendor/events/v1/suggest?q=new"
					if kind == "events" {
						path = "/vendor/events/v1/events/facets/venue?q=new"
					}
					check(t, method, path, opts, want)
				case rest == "": // a post collection: list, or create
					want := http.StatusOK
					switch {
					case role == "wrong":
						want = http.StatusUnauthorized
					case method == "POST" && !role.Has(calendar.CapEditPosts):
						want = denied(role)
					case method == "POST":
						want = http.StatusCreated
					}
					n++
					fields := map[string]any{"title": fmt.Sprintf("new %d", n), "start_date": "2031-01-01 10:00", "end_date": "2031-01-01 11:00",
						"venue": fmt.Sprintf("new %d", n), "organizer": fmt.Sprintf("new %d", n)}
					if kind != "events" {
						delete(fields, "title")
					}
					if kind != "venues" {
						delete(fields, "venue")
					}
					if kind != "organizers" {
						delete(fields, "organizer")
					}
					check(t, method, "/vendor/events/v1/"+kind, append(opts, jsonBody(fields)), want)
				default: // one post, by ID or by slug
					for _, owner := range []string{"other", "own"} {
						for _, status := range matrixStatuses {
							ownerRole := calendar.RoleAdministrator
							if role == calendar.RoleAdministrator {
								ownerRole = calendar.RoleEditor
							}
							own := owner == "own" && role.Has(calendar.CapEditPosts)
							if own {
								ownerRole = role
							}
							if owner == "own" && !own {
								continue // callers who cannot own posts
							}
							want := expectedItem(kind, method, role, own, status, strings.Contains(rest, "slug"))
							if strings.Contains(rest, "slug") && method == "DELETE" && want < 400 {
								// The by-ID delete after the lookup that a by-slug edit
								// checks: each needs a post of its own, and the two
								// legs are each checked.
								continue
							}
							item := itemFor(t, kind, ownerRole, status, method == "DELETE" && want < 400)
							path := "/vendor/events/v1/" + kind + "/" + idOf(item)
							if strings.Contains(rest, "slug") {
								path = "/vendor/events/v1/" + kind + "/by-slug/" + item["slug"].(string)
							}
							t.Run(fmt.Sprintf("%s, %s %s", name, owner, status), func(t *testing.T) {
								check(t, method, path, append(opts, jsonBody(map[string]any{"excerpt": "changed"})), want)
							})
						}
					}
				}
			}
		}
	}
	if checked < 1300 {
		t.Fatalf("only %d requests checked", checked)
	}
	t.Logf("%d requests checked against the contract", checked)
}

// splitRoute returns a route's resource and what follows it ("", an ID or a slug).
// usersRoute is the path of one admin route about users (rest: what follows
// /users/) with a user of its own where it names one, and the status the
// contract gives the caller: users are the administrators' to manage, but
// each signed caller reads itself and manages its own application passwords.
func (r *roles) usersRoute(t *testing.T, rest, method string, role calendar.Role, n int) (string, int) {
	const uuidParam = "(?P<uuid>[^/]+)"
	path, own := "/vendor/admin/v1/users", strings.HasPrefix(rest, "me")
	switch {
	case own:
		path += "/" + strings.ReplaceAll(rest, uuidParam, "00000000-0000-4000-8000-000000000000")
	case rest != "":
		id, _ := r.createUser(fmt.Sprintf("victim-%d", n), calendar.RoleSubscriber)
		path += "/" + formatFloat(id)
		if strings.Contains(rest, "application-passwords") {
			path += "/application-passwords"
		}
		if strings.HasSuffix(rest, uuidParam) {
			res := r.do("GET", path, asAdmin())
			res.expectStatus(t, http.StatusOK)
			path += "/" + res.list(t)[0]["uuid"].(string)
		}
	}
	makes := method == "POST" && (rest == "" || strings.HasSuffix(rest, "application-passwords"))
	switch {
	case role == "wrong" || (own && role == ""):
		return path, http.StatusUnauthorized
	case own && strings.HasSuffix(rest, uuidParam):
		return path, http.StatusNotFound // a password the caller does not have
	case (own || role == calendar.RoleAdministrator) && makes:
		return path, http.StatusCreated
	case own || role == calendar.RoleAdministrator:
		return path, http.StatusOK
	}
	return path, denied(role)
}

func splitRoute(route string) (kind, rest string) {
	route = strings.TrimPrefix(strings.TrimPrefix(route, "/vendor/events/v1"), "/vendor/admin/v1")
	parts := strings.SplitN(strings.TrimPrefix(route, "/"), "/", 2)
	if len(parts) == 2 {
		rest = parts[1]
	}
	return parts[0], rest
}
