package controllers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"calendar/app/calendar"
)

// checkWebhooks checks the webhook routes of the matrix: authors, editors
// and administrators manage their own subscriptions (and read their
// deliveries, ping and replay them); an administrator every one; another's
// is answered as a missing one; contributors, subscribers and visitors none.
func (r *roles) checkWebhooks(t *testing.T, check func(*testing.T, string, string, []option, int), method, rest string, role calendar.Role, name string, n *int) {
	const hooks = "/vendor/admin/v1/webhooks"
	opts := r.caller(role)
	may := role.Has(calendar.CapSubscribeWebhooks)
	*n++
	body := jsonBody(map[string]any{"url": fmt.Sprintf("https://hooks.example/%d", *n), "description": "changed", "since": 0})
	if rest == "" {
		want := http.StatusOK
		switch {
		case role == "wrong":
			want = http.StatusUnauthorized
		case !may:
			want = denied(role)
		case method == "POST":
			want = http.StatusCreated
		}
		check(t, method, hooks, append(opts, body), want)
		return
	}
	for _, owner := range []string{"other", "own"} {
		ownerRole := calendar.RoleAdministrator
		if role == calendar.RoleAdministrator {
			ownerRole = calendar.RoleEditor
		}
		if owner == "own" {
			if !may {
				continue
			}
			ownerRole = role
		}
		want := http.StatusOK
		switch {
		case role == "wrong":
			want = http.StatusUnauthorized
		case !may:
			want = denied(role)
		case owner == "other" && role != calendar.RoleAdministrator:
			want = http.StatusNotFound
		}
		path := hooks + "/" + r.webhookOf(t, ownerRole, method == "DELETE" && want < 400) + strings.TrimPrefix(rest, `(?P<id>\d+)`)
		t.Run(fmt.Sprintf("%s, %s", name, owner), func(t *testing.T) { check(t, method, path, append(opts, body), want) })
	}
}

// webhookOf is the ID of a subscription of the owner's: one shared by the
// checks that leave it (reads, edits, rotations), a new one for a delete.
func (r *roles) webhookOf(t *testing.T, owner calendar.Role, own bool) string {
	if id := r.webhooks[owner]; id != "" && !own {
		return id
	}
	res := r.do("POST", "/vendor/admin/v1/webhooks", r.creds[owner], jsonBody(map[string]any{"url": "https://hooks.example/matrix"}))
	res.expectStatus(t, http.StatusCreated)
	id := idOf(res.object(t))
	if !own {
		r.webhooks[owner] = id
	}
	return id
}
