package controllers

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"calendar/app"
)

func TestEgressAllowsPublicAddressesAndTheListedNetworksOnly(t *testing.T) {
	t.Parallel()
	byDefault := NewEgress(nil)
	opened := NewEgress([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("10.1.0.0/16")})
	cases := []struct {
		addr              string
		byDefault, opened bool
	}{
		{"127.0.0.1", false, true}, {"::ffff:127.0.0.1", false, true}, {"127.9.9.9", false, true},
		{"10.1.2.3", false, true}, {"10.2.0.1", false, false}, {"192.168.1.1", false, false},
		{"169.254.169.254", false, false}, {"fd00:ec2::254", false, false}, {"::1", false, false},
		{"224.0.0.1", false, false}, {"1.1.1.1", true, true}, {"2606:4700::1111", true, true},
	}
	for _, c := range cases {
		ap := netip.AddrPortFrom(netip.MustParseAddr(c.addr), 443)
		if got := byDefault.allow(ap); got != c.byDefault {
			t.Errorf("by default, %s allowed = %v, want %v", c.addr, got, c.byDefault)
		}
		if got := opened.allow(ap); got != c.opened {
			t.Errorf("with 127.0.0.0/8 and 10.1.0.0/16 listed, %s allowed = %v, want %v", c.addr, got, c.opened)
		}
	}
}

func TestParseNetworksReadsAddressesAndCIDRs(t *testing.T) {
	t.Parallel()
	got, err := ParseNetworks(" 127.0.0.0/8, 10.1.2.3 ,fd00::/8,")
	if err != nil || len(got) != 3 || got[1] != netip.MustParsePrefix("10.1.2.3/32") {
		t.Fatalf("got %v, %v", got, err)
	}
	if _, err := ParseNetworks("127.0.0.0/8,intranet"); err == nil {
		t.Fatal("a name was taken for a network")
	}
}

// listenOn serves h on a loopback address of its own (127.0.0.2 is
// loopback too on Linux), so a policy can open one server and not another.
func listenOn(t *testing.T, ip string, h http.Handler) *httptest.Server {
	t.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// TestEgressRefusesTheServicesOwnNetworkThroughAnyPath: whichever way a
// destination on loopback is reached (its address, a name that resolves to
// it, a redirect from an allowed server), the policy refuses the connection
// by default and no byte reaches the server; a listed network is reached.
func TestEgressRefusesTheServicesOwnNetworkThroughAnyPath(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	inside := listenOn(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("internal"))
	}))
	port := strconv.Itoa(portOf(inside))
	outside := listenOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inside.URL+"/", http.StatusFound)
	}))
	onlyOutside := NewEgress([]netip.Prefix{netip.MustParsePrefix("127.0.0.2/32")})
	cases := []struct{ name, url string }{
		{"its address", inside.URL + "/"},
		{"a name that resolves to it", "http://localhost:" + port + "/"},
		{"an IPv4-mapped IPv6 literal", "http://[::ffff:127.0.0.1]:" + port + "/"},
		{"a redirect from an allowed server", outside.URL + "/away"},
	}
	for _, c := range cases {
		for _, policy := range []struct {
			name   string
			egress *Egress
		}{{"by default", NewEgress(nil)}, {"with another network listed", onlyOutside}} {
			_, err := NewSideloader(2*time.Second, policy.egress).Fetch(context.Background(), c.url, 1<<10)
			if !errors.Is(err, app.ErrFetchRefused) {
				t.Errorf("%s, %s: err %v, want ErrFetchRefused", c.name, policy.name, err)
			}
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the server inside was reached %d times", n)
	}

	listed := NewEgress([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")})
	for _, url := range []string{inside.URL + "/", "http://localhost:" + port + "/", outside.URL + "/away"} {
		got, err := NewSideloader(2*time.Second, listed).Fetch(context.Background(), url, 1<<10)
		if err != nil || string(got) != "internal" {
			t.Errorf("%s with 127.0.0.0/8 listed: %q, %v", url, got, err)
		}
	}
}

// TestWebhookDeliveriesFollowNoRedirectAndKeepToThePolicy: the sender of
// webhooks is under the same policy: loopback refused by default, through
// its address or a name; a redirect is the answer itself, never followed
// (not even to an allowed address); a listed network is reached.
func TestWebhookDeliveriesFollowNoRedirectAndKeepToThePolicy(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	inside := listenOn(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	outside := listenOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inside.URL+"/", http.StatusTemporaryRedirect)
	}))
	port := strconv.Itoa(portOf(inside))
	send := func(e *Egress, url string) (int, error) {
		status, _, err := NewWebhookSender(e, 2*time.Second).Send(context.Background(), url, map[string]string{"webhook-id": "msg_1"}, []byte("{}"))
		return status, err
	}
	for _, url := range []string{inside.URL + "/", "http://localhost:" + port + "/"} {
		if _, err := send(NewEgress(nil), url); !errors.Is(err, app.ErrFetchRefused) {
			t.Errorf("%s by default: err %v, want ErrFetchRefused", url, err)
		}
		if err := NewWebhookSender(NewEgress(nil), time.Second).Check(url); err == nil {
			t.Errorf("%s by default: a subscription to it is not refused", url)
		}
	}
	all := NewEgress([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")})
	if status, err := send(all, outside.URL+"/away"); err != nil || status != http.StatusTemporaryRedirect {
		t.Errorf("a redirect: %d, %v; want the 307 itself", status, err)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the server inside was reached %d times", n)
	}
	if status, err := send(all, "http://localhost:"+port+"/"); err != nil || status != http.StatusNoContent {
		t.Errorf("with 127.0.0.0/8 listed: %d, %v", status, err)
	}
}
