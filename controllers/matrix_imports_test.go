package controllers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"calendar/app/calendar"
)

// checkImports is the permission matrix of the import routes: administrators
// and editors manage every source; the others are refused, an anonymous
// caller with a wrong password 401.
func (r *roles) checkImports(t *testing.T, check func(*testing.T, string, string, []option, int), method, rest string, role calendar.Role, n *int) {
	const imports = "/vendor/admin/v1/imports"
	opts := r.caller(role)
	may := role == calendar.RoleAdministrator || role == calendar.RoleEditor
	*n++
	body := jsonBody(map[string]any{"kind": "ical", "url": fmt.Sprintf("https://feeds.example/%d.ics", *n), "description": "changed"})
	want := http.StatusOK
	switch {
	case role == "wrong":
		want = http.StatusUnauthorized
	case !may:
		want = denied(role)
	case method == "POST" && rest == "":
		want = http.StatusCreated
	case method == "POST" && strings.HasSuffix(rest, "/run"):
		want = http.StatusAccepted
	}
	path := imports
	switch {
	case rest == "preview":
		path += "/preview"
	case rest != "": // a source of its own for a run or a delete that goes through, a shared one otherwise
		path += "/" + r.importOf(t, (method == "DELETE" || strings.HasSuffix(rest, "/run")) && want < 400) + strings.TrimPrefix(rest, `(?P<id>\d+)`)
	}
	check(t, method, path, append(opts, body), want)
	r.app.Imports.Wait() // a run begun ends before the next check reads the store
}

// importOf is the ID of a source: one shared by the checks that leave it, a
// new one for a run or a delete.
func (r *roles) importOf(t *testing.T, own bool) string {
	if r.source != "" && !own {
		return r.source
	}
	res := r.do("POST", "/vendor/admin/v1/imports", r.creds[calendar.RoleAdministrator], jsonBody(map[string]any{"kind": "ical", "url": "https://feeds.example/matrix.ics"}))
	res.expectStatus(t, http.StatusCreated)
	id := idOf(res.object(t))
	if !own {
		r.source = id
	}
	return id
}
