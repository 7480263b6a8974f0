package controllers

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Who a request came from. Without trusted proxies it is the connection's
// peer, whatever the request's headers say: any client can write them. A
// peer among the trusted proxies is a reverse proxy that tells who its client
// was, in X-Forwarded-For or, when there is none, in Forwarded (RFC 7239):
// the client is then the right-most address of that list that is not itself
// a trusted proxy, since each proxy appends the address it was reached from
// and only the entries on the right were written by proxies we trust.

// TrustedProxies are the addresses and networks whose forwarding headers name
// the client (ParseTrustedProxies).
type TrustedProxies []netip.Prefix

// The work a forwarding header may cost: the hops read from the right and
// the bytes they take. A chain longer than that names no client: the request
// is counted as its peer's, the proxy's.
const (
	maxForwardedHops  = 32
	maxForwardedBytes = 8 << 10
)

// ParseTrustedProxies reads a comma-separated list of addresses (10.0.0.1,
// 2001:db8::1) and networks (10.0.0.0/8, fd00::/8); empty entries are
// skipped. The error names the first entry that is neither.
func ParseTrustedProxies(list string) (TrustedProxies, error) {
	var proxies TrustedProxies
	for _, entry := range strings.Split(list, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		p, ok := parseProxy(entry)
		if !ok {
			return nil, fmt.Errorf("want addresses or CIDR networks (10.0.0.1, 10.0.0.0/8, fd00::/8), got %q", entry)
		}
		proxies = append(proxies, p)
	}
	return proxies, nil
}

// parseProxy reads one entry as a network; an address is a network of one.
// An IPv4-mapped IPv6 entry is read as its IPv4 address, as peers are.
func parseProxy(entry string) (netip.Prefix, bool) {
	if a, err := netip.ParseAddr(entry); err == nil {
		if a.Zone() != "" {
			return netip.Prefix{}, false
		}
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()), true
	}
	p, err := netip.ParsePrefix(entry)
	if err != nil {
		return netip.Prefix{}, false
	}
	if a := p.Addr(); a.Is4In6() {
		if p.Bits() < 96 {
			return netip.Prefix{}, false // wider than the mapped space: not one network of IPv4
		}
		p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p.Masked(), true
}

// Contains says whether a is a trusted proxy.
func (t TrustedProxies) Contains(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range t {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

type clientKey struct{}

// withClient resolves the request's client once, for everything that counts
// by address (the throttle of wrong passwords, through app.Caller) and for
// the access log. forwarded says it came from a trusted proxy's header.
func (t TrustedProxies) withClient(r *http.Request) (_ *http.Request, client string, forwarded bool) {
	client, forwarded = t.client(r)
	return r.WithContext(context.WithValue(r.Context(), clientKey{}, client)), client, forwarded
}

// clientOf is the address a request came from, as withClient resolved it.
func clientOf(r *http.Request) string {
	if client, ok := r.Context().Value(clientKey{}).(string); ok {
		return client
	}
	return peerHost(r)
}

// client is the request's client: the peer's address, or, when the peer is
// a trusted proxy, the one its forwarding headers name.
func (t TrustedProxies) client(r *http.Request) (client string, forwarded bool) {
	if len(t) == 0 {
		return peerHost(r), false
	}
	peer, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil || !t.Contains(peer.Addr()) {
		return peerHost(r), false
	}
	if a, ok := t.forwardedFor(r.Header); ok {
		return a.String(), true
	}
	return peerHost(r), false
}

// peerHost is the connection's peer address, without its port.
func peerHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// forwardedFor walks the forwarding header from the right: the first address
// that is not a trusted proxy is the client; when every one is, the
// left-most. An entry that is no address (garbage, Forwarded's "unknown" or
// an obfuscated "_name") names no client, nor does a chain past the bounds:
// false, and the caller keeps the peer.
func (t TrustedProxies) forwardedFor(h http.Header) (netip.Addr, bool) {
	lines, quoted, read := nonBlank(h.Values("X-Forwarded-For")), false, nodeAddr
	if len(lines) == 0 {
		lines, quoted, read = nonBlank(h.Values("Forwarded")), true, forwardedElement
	}
	if len(lines) == 0 {
		return netip.Addr{}, false
	}
	var client netip.Addr
	usable := true
	withinBounds := eachHop(lines, quoted, func(hop string) bool {
		a, ok := read(hop)
		if !ok {
			usable = false
			return false
		}
		client = a
		return t.Contains(a) // go on past a trusted proxy only
	})
	// Past the bounds, every hop read was a trusted proxy's: the client is
	// further left, unread. A list of empty entries names no one.
	if !usable || !withinBounds {
		return netip.Addr{}, false
	}
	return client, client.IsValid()
}

func nonBlank(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// eachHop gives visit the comma-separated entries of the header lines (taken
// in order, as one list), right-most first, until visit returns false; it
// passes over empty entries, as HTTP lists allow them. In a quoted list
// (Forwarded) a comma inside a quoted string separates nothing. It reads at
// most maxForwardedHops entries and maxForwardedBytes bytes from the right;
// withinBounds is false when it stopped there with more left to read.
func eachHop(lines []string, quoted bool, visit func(hop string) bool) (withinBounds bool) {
	hops, budget := 0, maxForwardedBytes
	for i := len(lines) - 1; i >= 0; i-- {
		line, cut := lines[i], false
		if len(line) > budget {
			line, cut = line[len(line)-budget:], true
		}
		budget -= len(line)
		for more := true; more; {
			var hop string
			line, hop, more = lastHop(line, quoted)
			if !more && cut { // the entry goes on past the bound
				return false
			}
			if strings.TrimSpace(hop) == "" {
				continue
			}
			if hops++; hops > maxForwardedHops {
				return false
			}
			if !visit(hop) {
				return true
			}
		}
		if budget == 0 && i > 0 {
			return false
		}
	}
	return true
}

// lastHop splits off the right-most entry of a list; more is false when it
// was the only one. In a quoted list, an unbalanced quote makes the rest of
// the line one entry, which reads as no address.
func lastHop(line string, quoted bool) (rest, hop string, more bool) {
	for i := len(line) - 1; i >= 0; i-- {
		switch line[i] {
		case ',':
			return line[:i], line[i+1:], true
		case '"':
			if !quoted {
				continue
			}
			open := openingQuote(line[:i])
			if open < 0 {
				return "", line, false
			}
			i = open
		}
	}
	return "", line, false
}

// openingQuote is the index of the quote that opens a quoted string ending
// where s ends, -1 when there is none: a quote preceded by an odd number of
// backslashes is escaped.
func openingQuote(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] != '"' {
			continue
		}
		backslashes := 0
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return i
		}
	}
	return -1
}

// forwardedElement reads the address of one Forwarded element
// (for=192.0.2.60;proto=http;by=203.0.113.43): its one "for" parameter,
// the name in any case, the value a token or a quoted string.
func forwardedElement(element string) (netip.Addr, bool) {
	var node string
	found := false
	for len(element) > 0 {
		pair, rest := splitPair(element)
		element = rest
		if strings.TrimSpace(pair) == "" {
			continue // an empty pair is allowed
		}
		name, value, ok := strings.Cut(pair, "=")
		if !ok {
			return netip.Addr{}, false
		}
		if !strings.EqualFold(strings.TrimSpace(name), "for") {
			continue
		}
		if found {
			return netip.Addr{}, false // a parameter occurs once in an element
		}
		if node, ok = unquote(strings.TrimSpace(value)); !ok {
			return netip.Addr{}, false
		}
		found = true
	}
	if !found {
		return netip.Addr{}, false
	}
	return nodeAddr(node)
}

// splitPair splits off the first parameter of an element at a semicolon
// outside a quoted string.
func splitPair(element string) (pair, rest string) {
	inQuote := false
	for i := 0; i < len(element); i++ {
		switch c := element[i]; {
		case c == '\\' && inQuote:
			i++
		case c == '"':
			inQuote = !inQuote
		case c == ';' && !inQuote:
			return element[:i], element[i+1:]
		}
	}
	return element, ""
}

// unquote reads a token, or a quoted string with its backslash escapes.
func unquote(v string) (string, bool) {
	if !strings.HasPrefix(v, `"`) {
		return v, !strings.ContainsAny(v, `"\`)
	}
	if len(v) < 2 || v[len(v)-1] != '"' {
		return "", false
	}
	var b strings.Builder
	inner := v[1 : len(v)-1]
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		if c == '\\' {
			if i++; i == len(inner) {
				return "", false
			}
			c = inner[i]
		} else if c == '"' {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// nodeAddr reads an address with or without a port: 192.0.2.60,
// 192.0.2.60:4711, [2001:db8::1]:4711, [2001:db8::1], 2001:db8::1. The port
// may be a number or an obfuscated "_name" (RFC 7239). Names, "unknown" and
// obfuscated nodes are no address; an IPv4-mapped address is its IPv4 one.
func nodeAddr(node string) (netip.Addr, bool) {
	host := strings.TrimSpace(node)
	if rest, ok := strings.CutPrefix(host, "["); ok {
		inner, port, ok := strings.Cut(rest, "]")
		if !ok || (port != "" && !validPort(port)) {
			return netip.Addr{}, false
		}
		host = inner
	} else if strings.Count(host, ":") == 1 {
		var port string
		host, port, _ = strings.Cut(host, ":")
		if !validPort(":" + port) {
			return netip.Addr{}, false
		}
	}
	a, err := netip.ParseAddr(host)
	if err != nil || a.Zone() != "" {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

// validPort: ":" then 1 to 5 digits, or an obfuscated port ("_" then
// letters, digits, ".", "_" and "-").
func validPort(port string) bool {
	p, ok := strings.CutPrefix(port, ":")
	if !ok || p == "" || len(p) > 16 {
		return false
	}
	if p[0] == '_' {
		return strings.Trim(p[1:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == "" && len(p) > 1
	}
	if len(p) > 5 {
		return false
	}
	return strings.Trim(p, "0123456789") == ""
}
