package controllers_test

import (
	"fmt"
	"net/http"
	"testing"

	"calendar/app/calendar"
)

const adminPath = "/vendor/admin/v1"

func passwordsPath(id float64) string {
	return fmt.Sprintf("%s/users/%.0f/application-passwords", adminPath, id)
}

// named finds the application password of that name in a listing.
func named(t *testing.T, list []map[string]any, name string) map[string]any {
	t.Helper()
	for _, p := range list {
		if p["name"] == name {
			return p
		}
	}
	t.Fatalf("no application password named %q in %v", name, list)
	return nil
}

// An application password's life and who manages whose are app's
// (app/users_rules_test.go); the routes' HTTP, users_alone_test.go.

// Behind a trusted proxy, a password's last_ip is the client the proxy
// forwards, not the proxy.
func TestAPasswordsLastIPIsTheClientATrustedProxyForwards(t *testing.T) {
	t.Parallel()
	s := startBehindProxies(t, "127.0.0.1")
	id, password := s.createUser("remote", calendar.RoleAuthor)
	s.do("GET", adminPath+"/users/me", bearer(password), forwardedFor("203.0.113.9")).expectStatus(t, http.StatusOK)
	first := named(t, s.do("GET", passwordsPath(id), asAdmin()).list(t), "First password")
	if first["last_ip"] != "203.0.113.9" {
		t.Fatalf("last_ip %v, want the forwarded 203.0.113.9", first["last_ip"])
	}
}
