package controllers_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"calendar/app"
	"calendar/controllers"
)

// startBehindProxies starts the service with smallLimits' throttle, trusting
// the proxies listed (none when empty), as CALENDAR_TRUSTED_PROXIES reads them.
func startBehindProxies(t *testing.T, trusted string) *service {
	t.Helper()
	proxies, err := controllers.ParseTrustedProxies(trusted)
	if err != nil {
		t.Fatal(err)
	}
	return startServiceSettings(t, func(set *app.Settings) { set.Throttle = smallLimits },
		func(c *controllers.Config) { c.TrustedProxies = proxies })
}

func forwardedFor(client string) option { return header("X-Forwarded-For", client) }

// Behind a trusted proxy every client's connection comes from the proxy
// (here 127.0.0.1); the throttle counts each by the address the proxy
// forwards, so an attacker's guesses refuse the attacker, not the owner
// signing in through the same proxy.
func TestBehindATrustedProxyTheThrottleCountsTheForwardedClient(t *testing.T) {
	t.Parallel()
	s := startBehindProxies(t, "127.0.0.1")
	attacker := forwardedFor("198.51.100.66")
	for i := 0; i < smallLimits.BlockAfter; i++ {
		s.do("GET", "/vendor/events/v1", basic("admin", fmt.Sprint("guess ", i)), attacker).
			expectError(t, http.StatusUnauthorized, "incorrect_password")
	}
	expectRetryAfter(t, s.do("GET", "/vendor/events/v1", asAdmin(), attacker)) // the attacker's address is refused
	s.do("GET", "/vendor/admin/v1/users", asAdmin(), forwardedFor("203.0.113.7")).expectStatus(t, http.StatusOK)
	// The proxy appends the address it was reached from: what the attacker
	// wrote on its left changes nothing.
	expectRetryAfter(t, s.do("GET", "/vendor/events/v1", asAdmin(), forwardedFor("203.0.113.7, 198.51.100.66")))
	// RFC 7239's header, when the proxy writes that one.
	expectRetryAfter(t, s.do("GET", "/vendor/events/v1", asAdmin(), header("Forwarded", `for="198.51.100.66:4711"`)))
	s.do("GET", "/vendor/admin/v1/users", asAdmin(), header("Forwarded", "for=203.0.113.7")).expectStatus(t, http.StatusOK)
}

// An IPv6 client holds a /64 and may send each guess from another address
// of it: the throttle counts the /64, which is refused as one address,
// while the next /64 signs in.
func TestBehindATrustedProxyAnIPv6ClientIsCountedByItsSlash64(t *testing.T) {
	t.Parallel()
	s := startBehindProxies(t, "127.0.0.1")
	for i := 1; i <= smallLimits.BlockAfter; i++ {
		s.do("GET", "/vendor/events/v1", basic("admin", fmt.Sprint("guess ", i)), forwardedFor(fmt.Sprintf("2001:db8:1:2::%x", i))).
			expectError(t, http.StatusUnauthorized, "incorrect_password")
	}
	expectRetryAfter(t, s.do("GET", "/vendor/events/v1", asAdmin(), forwardedFor("[2001:db8:1:2:ffff::1]:4711")))
	s.do("GET", "/vendor/admin/v1/users", asAdmin(), forwardedFor("2001:db8:1:3::1")).expectStatus(t, http.StatusOK)
}

// A peer that is not trusted (no setting, or one naming another address)
// cannot choose the address it is counted under: every guess counts against
// its own, whatever X-Forwarded-For it sends, and so refuses every client of
// that address; another address still signs in.
func TestForwardedHeadersFromAnUntrustedPeerDoNotEscapeTheThrottle(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, trusted string }{
		{"no trusted proxy", ""},
		{"another address trusted", "127.0.0.9/32, ::2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := startBehindProxies(t, c.trusted)
			for i := 0; i < smallLimits.BlockAfter; i++ {
				rotated := forwardedFor(fmt.Sprintf("198.51.100.%d", i+1))
				s.do("GET", "/vendor/events/v1", basic("admin", fmt.Sprint("guess ", i)), rotated).
					expectError(t, http.StatusUnauthorized, "incorrect_password")
			}
			expectRetryAfter(t, s.do("GET", "/vendor/events/v1", asAdmin(), forwardedFor("198.51.100.200")))
			expectRetryAfter(t, s.do("GET", "/vendor/events/v1", asAdmin(), header("Forwarded", "for=198.51.100.201")))
			s.from("127.0.0.2").do("GET", "/vendor/admin/v1/users", asAdmin()).expectStatus(t, http.StatusOK)
		})
	}
}

// The access line names the client a trusted proxy forwarded, and the proxy;
// from an untrusted peer, the peer alone.
func TestTheAccessLogNamesTheForwardedClientBehindATrustedProxy(t *testing.T) {
	t.Parallel()
	logs := &lockedBuffer{}
	s := startServiceWith(t, func(c *controllers.Config) {
		c.Logger = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		c.TrustedProxies, _ = controllers.ParseTrustedProxies("127.0.0.1")
	})
	accessLine := func(id string) map[string]any {
		t.Helper()
		for _, entry := range linesOf(t, logs, id) {
			if entry["msg"] == "request" {
				return entry
			}
		}
		t.Fatalf("no access line for %s", id)
		return nil
	}
	s.do("GET", "/vendor/events/v1", header("X-Request-ID", "via-proxy"), forwardedFor("203.0.113.7, 127.0.0.1")).
		expectStatus(t, http.StatusOK)
	line := accessLine("via-proxy")
	if proxy, _ := line["proxy"].(string); line["remote"] != "203.0.113.7" || !strings.HasPrefix(proxy, "127.0.0.1:") {
		t.Fatalf("remote %v, proxy %v; want the forwarded client and the proxy", line["remote"], line["proxy"])
	}
	s.from("127.0.0.2").do("GET", "/vendor/events/v1", header("X-Request-ID", "direct"), forwardedFor("203.0.113.7")).
		expectStatus(t, http.StatusOK)
	line = accessLine("direct")
	if remote, _ := line["remote"].(string); !strings.HasPrefix(remote, "127.0.0.2:") || line["proxy"] != nil {
		t.Fatalf("remote %v, proxy %v; want the untrusted peer alone", line["remote"], line["proxy"])
	}
}
