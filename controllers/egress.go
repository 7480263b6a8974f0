package controllers

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"

	"calendar/app"
)

// Egress is the one policy of every request the service makes to another
// host (fetching an image to sideload, delivering a webhook): only public
// addresses, and the networks the operator opened
// (CALENDAR_OUTBOUND_ALLOWED_NETWORKS), checked on the IP and port actually
// dialled, after DNS resolution, on every connection (a redirect's too), so
// that neither a name whose answer changes between a check and the
// connection nor a redirect leads into the service's own network. No proxy
// of the environment is used: the guard must see the real peer.
type Egress struct {
	allow func(netip.AddrPort) bool
}

// NewEgress is the policy with these networks opened besides the public
// addresses (none: public addresses only).
func NewEgress(allowed []netip.Prefix) *Egress {
	return &Egress{allow: func(ap netip.AddrPort) bool {
		a := ap.Addr().Unmap().WithZone("")
		if publicAddr(a) {
			return true
		}
		for _, p := range allowed {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}}
}

// ParseNetworks reads CALENDAR_OUTBOUND_ALLOWED_NETWORKS: a comma-separated
// list of addresses and CIDR networks (127.0.0.0/8, 10.1.2.3, fd00::/8),
// read as CALENDAR_TRUSTED_PROXIES is.
func ParseNetworks(list string) ([]netip.Prefix, error) {
	networks, err := ParseTrustedProxies(list)
	return []netip.Prefix(networks), err
}

// client is an HTTP client under the policy: every dial checked, at most
// redirects redirects followed (0: none; a redirect is then the answer
// itself), each to http or https only, within timeout in all.
func (e *Egress) client(timeout time.Duration, redirects int) *http.Client {
	dialer := &net.Dialer{Timeout: timeout, Control: func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !e.allow(ap) {
			return fmt.Errorf("%w: %s", app.ErrFetchRefused, address)
		}
		return nil
	}}
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:               nil, // never the environment's: the guard must see the real peer
			DialContext:         dialer.DialContext,
			ForceAttemptHTTP2:   true,
			TLSHandshakeTimeout: timeout,
			MaxIdleConns:        64,
			MaxIdleConnsPerHost: 4,
			IdleConnTimeout:     30 * time.Second,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if redirects == 0 {
				return http.ErrUseLastResponse
			}
			if len(via) > redirects {
				return fmt.Errorf("%w: more than %d redirects", app.ErrFetchFailed, redirects)
			}
			return checkScheme(req.URL)
		},
	}
}

// outboundError keeps a refusal, from the dial guard or a redirect's
// scheme, found anywhere in the url.Error / net.OpError chain, and makes
// anything else a failure.
func outboundError(err error) error {
	if errors.Is(err, app.ErrFetchRefused) || errors.Is(err, app.ErrFetchFailed) {
		return err
	}
	return fmt.Errorf("%w: %w", app.ErrFetchFailed, err)
}

// Ranges that are not globally reachable unicast and that the netip.Addr
// methods in publicAddr let through.
var nonPublicPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // CGNAT shared space
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // TEST-NET-1
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // TEST-NET-2
	netip.MustParsePrefix("203.0.113.0/24"),  // TEST-NET-3
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast included
	netip.MustParsePrefix("2001::/23"),       // IETF assignments, Teredo (embeds IPv4)
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("2002::/16"),       // 6to4 (embeds IPv4)
	netip.MustParsePrefix("3fff::/20"),       // documentation
}

// ipv6Global is the only IPv6 space allocated for global unicast; outside it
// lie ::/96 (IPv4-compatible), 64:ff9b::/96 (NAT64), fc00::/7, fe80::/10,
// fec0::/10, ff00::/8...
var ipv6Global = netip.MustParsePrefix("2000::/3")

// publicAddr is the policy's default: only globally reachable unicast
// addresses (no loopback, private, link-local, multicast or cloud-metadata
// address: 169.254.169.254 and fd00:ec2::254 are link-local and private),
// IPv4-mapped IPv6 judged as the IPv4 they map.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	if !a.IsValid() || !a.IsGlobalUnicast() || a.IsLoopback() || a.IsPrivate() ||
		a.IsLinkLocalUnicast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	if a.Is6() && !ipv6Global.Contains(a) {
		return false
	}
	for _, p := range nonPublicPrefixes {
		if p.Contains(a) {
			return false
		}
	}
	return true
}
