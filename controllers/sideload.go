package controllers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	"calendar/app"
)

const (
	sideloadAgent        = "calendar-sideload/1"
	sideloadMaxRedirects = 5
)

// NewSideloader returns the app.Fetcher the service uses when sideloading is on.
func NewSideloader(timeout time.Duration) app.Fetcher {
	return newSideloader(timeout, func(ap netip.AddrPort) bool { return publicAddr(ap.Addr()) })
}

// sideloader fetches over a client whose every connection, redirects'
// included, is checked by allow on the IP and port actually dialled, after
// DNS resolution, so that neither a name nor a redirect can lead elsewhere.
type sideloader struct{ client *http.Client }

func newSideloader(timeout time.Duration, allow func(netip.AddrPort) bool) *sideloader {
	dialer := &net.Dialer{Control: func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !allow(ap) {
			return fmt.Errorf("%w: %s", app.ErrFetchRefused, address)
		}
		return nil
	}}
	return &sideloader{client: &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:               nil, // never the environment's: the guard must see the real peer
			DialContext:         dialer.DialContext,
			ForceAttemptHTTP2:   true,
			TLSHandshakeTimeout: timeout,
			MaxIdleConns:        4,
			IdleConnTimeout:     30 * time.Second,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > sideloadMaxRedirects {
				return fmt.Errorf("%w: more than %d redirects", app.ErrFetchFailed, sideloadMaxRedirects)
			}
			return checkScheme(req.URL)
		},
	}}
}

func (s *sideloader) Fetch(ctx context.Context, rawURL string, maxBytes int64) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", app.ErrFetchRefused, err)
	}
	if err := checkScheme(u); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", app.ErrFetchRefused, err)
	}
	req.Header.Set("User-Agent", sideloadAgent)
	res, err := s.client.Do(req)
	if err != nil {
		return nil, fetchError(err)
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, fmt.Errorf("%w: %s answered %s", app.ErrFetchFailed, res.Request.URL.Host, res.Status)
	}
	if res.ContentLength > maxBytes {
		return nil, fmt.Errorf("%w: %d bytes announced, %d allowed", app.ErrFetchTooLarge, res.ContentLength, maxBytes)
	}
	limit := maxBytes
	if limit < math.MaxInt64 {
		limit++ // one byte more tells a body over the limit
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, limit))
	if err != nil {
		return nil, fetchError(err)
	}
	if int64(len(body)) > maxBytes {
		return nil, fmt.Errorf("%w: more than %d bytes", app.ErrFetchTooLarge, maxBytes)
	}
	return body, nil
}

func checkScheme(u *url.URL) error {
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: %q is not an http or https URL", app.ErrFetchRefused, u.Redacted())
	}
	return nil
}

// fetchError keeps a refusal, from the dial guard or a redirect's scheme,
// found anywhere in the url.Error / net.OpError chain, and makes anything
// else a failure.
func fetchError(err error) error {
	if errors.Is(err, app.ErrFetchRefused) || errors.Is(err, app.ErrFetchFailed) {
		return fmt.Errorf("sideload: %w", err)
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

// publicAddr is the sideloading rule: only globally reachable unicast
// addresses, IPv4-mapped IPv6 judged as the IPv4 they map.
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
