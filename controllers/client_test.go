package controllers

import (
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

func TestParseTrustedProxiesReadsAddressesAndNetworks(t *testing.T) {
	t.Parallel()
	got, err := ParseTrustedProxies(" 10.0.0.1 , 172.16.0.0/12,, 2001:db8::/32, ::1, 192.168.7.9/16, ::ffff:192.0.2.0/120 ")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"10.0.0.1/32", "172.16.0.0/12", "2001:db8::/32", "::1/128", "192.168.0.0/16", "192.0.2.0/24"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i, p := range got {
		if p.String() != want[i] {
			t.Errorf("entry %d: got %v, want %v", i, p, want[i])
		}
	}
	if none, err := ParseTrustedProxies(""); err != nil || len(none) != 0 {
		t.Fatalf("empty: %v, %v", none, err)
	}
}

func TestParseTrustedProxiesNamesTheBadEntry(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"10.0.0.256", "10.0.0.0/33", "2001:db8::/129", "proxy.example", "fe80::1%eth0",
		"10.0.0.1/", "10.0.0.1:8080", "::ffff:0:0/90", "*"} {
		_, err := ParseTrustedProxies("192.0.2.1, " + bad)
		if err == nil || !strings.Contains(err.Error(), `"`+bad+`"`) || strings.Contains(err.Error(), "192.0.2.1") {
			t.Errorf("%q: err = %v, want one naming the entry alone", bad, err)
		}
	}
}

func TestTrustedProxiesMatchNetworksOfBothFamilies(t *testing.T) {
	t.Parallel()
	proxies, err := ParseTrustedProxies("10.0.0.0/8, 2001:db8::/32, 192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{
		"10.0.0.1": true, "10.255.255.255": true, "11.0.0.1": false, "9.255.255.255": false,
		"2001:db8::1": true, "2001:db8:ffff::1": true, "2001:db9::1": false,
		"192.0.2.1": true, "192.0.2.2": false,
		"::ffff:10.1.2.3": true,  // a mapped peer is its IPv4 address
		"::a00:1":         false, // 10.0.0.1's bits as IPv6 are not IPv4
	} {
		if got := proxies.Contains(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: trusted %v, want %v", addr, got, want)
		}
	}
	if (TrustedProxies{}).Contains(netip.MustParseAddr("10.0.0.1")) {
		t.Fatal("no proxies trust an address")
	}
}

// The client of a request from a peer, with the forwarding headers it sent;
// the proxies trusted are 10.0.0.0/8, 192.0.2.1 and 2001:db8:ffff::/48.
func TestTheClientIsTheRightMostForwardedAddressThatIsNotATrustedProxy(t *testing.T) {
	t.Parallel()
	proxies, err := ParseTrustedProxies("10.0.0.0/8, 192.0.2.1, 2001:db8:ffff::/48")
	if err != nil {
		t.Fatal(err)
	}
	const peer = "10.0.0.1"
	trustedHops := func(n int) string { return strings.TrimSuffix(strings.Repeat("10.1.2.3, ", n), ", ") }
	cases := []struct {
		name      string
		peer      string // 10.0.0.1:4711 when empty
		xff, fwd  []string
		want      string
		forwarded bool
	}{
		{name: "no header: the peer", want: peer},
		{name: "an untrusted peer's header is ignored", peer: "198.51.100.1:4711", xff: []string{"203.0.113.7"}, want: "198.51.100.1"},
		{name: "an untrusted IPv6 peer's header is ignored", peer: "[2001:db8::5]:4711", fwd: []string{"for=203.0.113.7"}, want: "2001:db8::5"},
		{name: "one address", xff: []string{"203.0.113.7"}, want: "203.0.113.7", forwarded: true},
		{name: "trusted hops are passed over", xff: []string{"203.0.113.7, 10.1.2.3, 192.0.2.1"}, want: "203.0.113.7", forwarded: true},
		{name: "what the client wrote on the left is not believed", xff: []string{"1.1.1.1, 10.9.9.9, 203.0.113.7, 10.1.2.3"}, want: "203.0.113.7", forwarded: true},
		{name: "spaces and tabs", xff: []string{" \t203.0.113.7 ,\t10.1.2.3  "}, want: "203.0.113.7", forwarded: true},
		{name: "no spaces", xff: []string{"1.1.1.1,203.0.113.7,10.1.2.3"}, want: "203.0.113.7", forwarded: true},
		{name: "several lines, joined in order", xff: []string{"1.1.1.1, 203.0.113.7", "10.1.2.3", "192.0.2.1"}, want: "203.0.113.7", forwarded: true},
		{name: "the last line is the right-most", xff: []string{"203.0.113.7", "198.51.100.9"}, want: "198.51.100.9", forwarded: true},
		{name: "every hop trusted: the left-most", xff: []string{"10.9.9.9, 10.1.2.3", "192.0.2.1"}, want: "10.9.9.9", forwarded: true},
		{name: "empty entries are passed over", xff: []string{"203.0.113.7, ,,10.1.2.3,"}, want: "203.0.113.7", forwarded: true},
		{name: "only empty entries: the peer", xff: []string{" , ,,"}, want: peer},
		{name: "blank lines are passed over", xff: []string{"203.0.113.7", "  "}, want: "203.0.113.7", forwarded: true},
		{name: "IPv6", xff: []string{"2001:db8::1"}, want: "2001:db8::1", forwarded: true},
		{name: "IPv6 past a trusted IPv6 network", xff: []string{"2001:db8::1, 2001:db8:ffff:1::5"}, want: "2001:db8::1", forwarded: true},
		{name: "IPv6 outside the trusted network", xff: []string{"2001:db8::1, 2001:db8:fffe::5"}, want: "2001:db8:fffe::5", forwarded: true},
		{name: "IPv4 with a port", xff: []string{"203.0.113.7:4711"}, want: "203.0.113.7", forwarded: true},
		{name: "IPv6 with a port", xff: []string{"[2001:db8::1]:4711, 10.1.2.3:80"}, want: "2001:db8::1", forwarded: true},
		{name: "IPv6 in brackets", xff: []string{"[2001:db8::1]"}, want: "2001:db8::1", forwarded: true},
		{name: "an IPv4-mapped address is its IPv4 one", xff: []string{"::ffff:203.0.113.7, ::ffff:10.1.2.3"}, want: "203.0.113.7", forwarded: true},
		{name: "an IPv6 peer trusted", peer: "[2001:db8:ffff::2]:443", xff: []string{"203.0.113.7"}, want: "203.0.113.7", forwarded: true},
		{name: "garbage on the left is never read", xff: []string{"<script>, 203.0.113.7"}, want: "203.0.113.7", forwarded: true},
		{name: "garbage where the client should be: the peer", xff: []string{"203.0.113.7, garbage, 10.1.2.3"}, want: peer},
		{name: "unknown: the peer", xff: []string{"unknown"}, want: peer},
		{name: "a host name: the peer", xff: []string{"client.example"}, want: peer},
		{name: "a zone: the peer", xff: []string{"fe80::1%eth0"}, want: peer},
		{name: "a bad port: the peer", xff: []string{"203.0.113.7:123456"}, want: peer},
		{name: "an empty port: the peer", xff: []string{"203.0.113.7:"}, want: peer},
		{name: "an unclosed bracket: the peer", xff: []string{"[2001:db8::1:4711"}, want: peer},
		{name: "a quote: the peer", xff: []string{`"203.0.113.7"`}, want: peer},
		{name: "31 trusted hops, then the client", xff: []string{"203.0.113.7, " + trustedHops(31)}, want: "203.0.113.7", forwarded: true},
		{name: "32 trusted hops: the client is past the bound", xff: []string{"203.0.113.7, " + trustedHops(32)}, want: peer},
		{name: "32 trusted hops and nothing left: the left-most", xff: []string{trustedHops(32)}, want: "10.1.2.3", forwarded: true},
		{name: "a long forged left part does not hide the client", xff: []string{strings.Repeat("1.1.1.1, ", 2000) + "203.0.113.7"}, want: "203.0.113.7", forwarded: true},
		{name: "lines past 8 KiB do not hide the client", xff: []string{strings.Repeat("x", 9000), "203.0.113.7"}, want: "203.0.113.7", forwarded: true},
		{name: "an entry running past 8 KiB: the peer", xff: []string{"203.0.113.7, " + strings.Repeat(" ", 9000) + "10.1.2.3"}, want: peer},
		{name: "trusted hops past 8 KiB: the peer", xff: []string{"203.0.113.7", strings.Repeat(" ", 9000) + ", 10.1.2.3"}, want: peer},

		{name: "Forwarded", fwd: []string{"for=203.0.113.7"}, want: "203.0.113.7", forwarded: true},
		{name: "X-Forwarded-For wins over Forwarded", xff: []string{"203.0.113.7"}, fwd: []string{"for=198.51.100.9"}, want: "203.0.113.7", forwarded: true},
		{name: "a blank X-Forwarded-For leaves Forwarded", xff: []string{" "}, fwd: []string{"for=198.51.100.9"}, want: "198.51.100.9", forwarded: true},
		{name: "Forwarded: other parameters and any case", fwd: []string{"Proto=https;FOR=203.0.113.7;by=10.0.0.1"}, want: "203.0.113.7", forwarded: true},
		{name: "Forwarded: quoted IPv6 with a port", fwd: []string{`for="[2001:db8::1]:4711"`}, want: "2001:db8::1", forwarded: true},
		{name: "Forwarded: quoted IPv4 with an obfuscated port", fwd: []string{`for="203.0.113.7:_port"`}, want: "203.0.113.7", forwarded: true},
		{name: "Forwarded: several elements", fwd: []string{"for=1.1.1.1, for=203.0.113.7;proto=https, for=10.1.2.3"}, want: "203.0.113.7", forwarded: true},
		{name: "Forwarded: several lines", fwd: []string{"for=203.0.113.7", `for="[2001:db8:ffff::9]"`}, want: "203.0.113.7", forwarded: true},
		{name: "Forwarded: a comma in a quoted value", fwd: []string{`for=203.0.113.7;ext="a, for=10.1.2.3"`}, want: "203.0.113.7", forwarded: true},
		{name: "Forwarded: an escaped quote in a quoted value", fwd: []string{`for=203.0.113.7;ext="a\", b"`}, want: "203.0.113.7", forwarded: true},
		{name: "Forwarded: an unclosed quote on the left does not hide the client", fwd: []string{`for="1.1.1.1, for=203.0.113.7`}, want: "203.0.113.7", forwarded: true},
		{name: "Forwarded: an empty pair", fwd: []string{"for=203.0.113.7;;proto=https;"}, want: "203.0.113.7", forwarded: true},
		{name: "Forwarded: unknown past trusted hops: the peer", fwd: []string{"for=203.0.113.7, for=unknown, for=10.1.2.3"}, want: peer},
		{name: "Forwarded: unknown on the left is never read", fwd: []string{"for=unknown, for=203.0.113.7"}, want: "203.0.113.7", forwarded: true},
		{name: "Forwarded: an obfuscated node: the peer", fwd: []string{"for=_hidden"}, want: peer},
		{name: "Forwarded: a quoted obfuscated node: the peer", fwd: []string{`for="_gazonk:_port"`}, want: peer},
		{name: "Forwarded: an element without for: the peer", fwd: []string{"for=203.0.113.7, proto=https"}, want: peer},
		{name: "Forwarded: for twice in one element: the peer", fwd: []string{"for=1.1.1.1;for=203.0.113.7"}, want: peer},
		{name: "Forwarded: not an address: the peer", fwd: []string{"for=2001:db8::1::4711"}, want: peer},
		{name: "Forwarded: an unclosed quote: the peer", fwd: []string{`for="203.0.113.7`}, want: peer},
		{name: "Forwarded: a pair without a value: the peer", fwd: []string{"for"}, want: peer},
		{name: "Forwarded: a value past 8 KiB: the peer", fwd: []string{`for="` + strings.Repeat("a", 9000) + `"`}, want: peer},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/vendor/events/v1", nil)
			r.RemoteAddr = c.peer
			if r.RemoteAddr == "" {
				r.RemoteAddr = peer + ":4711"
			}
			for _, v := range c.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			for _, v := range c.fwd {
				r.Header.Add("Forwarded", v)
			}
			r, got, forwarded := proxies.withClient(r)
			if got != c.want || forwarded != c.forwarded {
				t.Fatalf("client %q (forwarded %v), want %q (%v)", got, forwarded, c.want, c.forwarded)
			}
			if clientOf(r) != got {
				t.Fatalf("clientOf = %q, want %q", clientOf(r), got)
			}
		})
	}
}

func TestWithoutTrustedProxiesTheClientIsThePeer(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.0.0.1:4711"
	r.Header.Set("X-Forwarded-For", "203.0.113.7")
	r.Header.Set("Forwarded", "for=203.0.113.7")
	if r, got, forwarded := (TrustedProxies{}).withClient(r); got != "10.0.0.1" || forwarded || clientOf(r) != "10.0.0.1" {
		t.Fatalf("client %q (forwarded %v)", got, forwarded)
	}
	if got := clientOf(r); got != "10.0.0.1" { // a request begin never saw: its peer
		t.Fatalf("clientOf a request without a resolved client = %q", got)
	}
}

// FuzzForwardedHeaders: any forwarding headers from a trusted proxy name the
// peer, or an address that is not a trusted proxy's unless every hop was;
// never a panic.
func FuzzForwardedHeaders(f *testing.F) {
	for _, s := range []string{"203.0.113.7, 10.1.2.3", `for="[2001:db8::1]:4711";proto=https`, `for="a\"b, c`,
		"for=unknown, for=_x", `"""`, "[::1", ",,,", `for="\`, "::ffff:10.0.0.1:80"} {
		f.Add(s, s)
	}
	proxies, err := ParseTrustedProxies("10.0.0.0/8")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, xff, fwd string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "10.0.0.1:4711"
		r.Header["X-Forwarded-For"] = strings.Split(xff, "\n")
		r.Header["Forwarded"] = strings.Split(fwd, "\n")
		_, client, forwarded := proxies.withClient(r)
		if !forwarded {
			if client != "10.0.0.1" {
				t.Fatalf("not forwarded, yet the client is %q", client)
			}
			return
		}
		if _, err := netip.ParseAddr(client); err != nil {
			t.Fatalf("forwarded client %q is no address", client)
		}
	})
}
