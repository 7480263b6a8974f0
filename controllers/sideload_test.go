package controllers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"calendar/app"
)

func allowAll(netip.AddrPort) bool { return true }

func portOf(s *httptest.Server) int { return s.Listener.Addr().(*net.TCPAddr).Port }

func TestSideloadPublicAddrAllowsOnlyGlobalUnicast(t *testing.T) {
	t.Parallel()
	cases := []struct {
		addr   string
		public bool
	}{
		{"127.0.0.1", false}, {"::1", false}, {"10.1.2.3", false}, {"172.16.0.1", false},
		{"172.31.255.255", false}, {"192.168.1.1", false}, {"169.254.169.254", false},
		{"fe80::1", false}, {"fe80::1%eth0", false}, {"fc00::1", false}, {"fd00:ec2::254", false},
		{"::ffff:127.0.0.1", false}, {"::ffff:10.0.0.1", false}, {"::ffff:169.254.169.254", false},
		{"100.64.0.1", false}, {"100.127.255.255", false}, {"0.0.0.0", false}, {"0.1.2.3", false},
		{"::", false}, {"224.0.0.1", false}, {"ff02::1", false}, {"255.255.255.255", false},
		{"240.0.0.1", false}, {"192.0.2.1", false}, {"198.18.0.1", false}, {"2001:db8::1", false},
		{"::127.0.0.1", false}, {"64:ff9b::a00:1", false}, {"2002:7f00:1::1", false}, {"fec0::1", false},
		{"93.184.216.34", true}, {"2606:4700::1111", true}, {"1.1.1.1", true},
		{"::ffff:1.1.1.1", true}, {"172.32.0.1", true}, {"100.128.0.1", true},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			if got := publicAddr(netip.MustParseAddr(c.addr)); got != c.public {
				t.Fatalf("publicAddr(%s) = %v, want %v", c.addr, got, c.public)
			}
		})
	}
}

func TestSideloadIgnoresTheEnvironmentProxy(t *testing.T) {
	t.Parallel()
	if tr := NewSideloader(time.Second, NewEgress(nil)).(*sideloader).client.Transport.(*http.Transport); tr.Proxy != nil {
		t.Fatal("the transport takes a proxy, which the dial guard would see instead of the peer")
	}
}

func TestSideloadRefusesALoopbackPeerAtDial(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("secret"))
	}))
	defer srv.Close()
	port := strconv.Itoa(portOf(srv))
	cases := []struct{ name, url string }{
		{"the IP itself", srv.URL},
		{"a name resolving to loopback", "http://localhost:" + port + "/"},
		{"an IPv4-mapped IPv6 literal", "http://[::ffff:127.0.0.1]:" + port + "/"},
	}
	f := NewSideloader(2*time.Second, NewEgress(nil))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := f.Fetch(context.Background(), c.url, 1<<20); !errors.Is(err, app.ErrFetchRefused) {
				t.Fatalf("err %v, want ErrFetchRefused", err)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the server was reached %d times", n)
	}
}

func TestSideloadFetchOutcomes(t *testing.T) {
	t.Parallel()
	const limit = 16
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		if r.UserAgent() != sideloadAgent {
			http.Error(w, "user agent "+r.UserAgent(), http.StatusBadRequest)
			return
		}
		w.Write([]byte("image bytes"))
	})
	mux.HandleFunc("/exact", func(w http.ResponseWriter, r *http.Request) { w.Write(bytes.Repeat([]byte("x"), limit)) })
	mux.HandleFunc("/announced", func(w http.ResponseWriter, r *http.Request) {
		// Announces too much, then stalls: only the announcement can tell.
		w.Header().Set("Content-Length", "1000000")
		w.Write([]byte("x"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	mux.HandleFunc("/streamed", func(w http.ResponseWriter, r *http.Request) {
		for range 4 {
			w.Write([]byte("12345678"))
			w.(http.Flusher).Flush() // no Content-Length: chunked
		}
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // answers never: only the fetcher's timeout ends it
	})
	mux.HandleFunc("/hop/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		next := "/ok"
		if n > 1 {
			next = fmt.Sprintf("/hop/%d", n-1)
		}
		http.Redirect(w, r, next, http.StatusFound)
	})
	mux.HandleFunc("/to-file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	cases := []struct {
		name, url string
		want      string
		err       error
	}{
		{"a 200 gives the bytes, the user agent sent", srv.URL + "/ok", "image bytes", nil},
		{"a body of exactly the limit is kept", srv.URL + "/exact", strings.Repeat("x", limit), nil},
		{"five redirects are followed", srv.URL + "/hop/5", "image bytes", nil},
		{"a Content-Length over the limit is too large", srv.URL + "/announced", "", app.ErrFetchTooLarge},
		{"a streamed body over the limit is too large", srv.URL + "/streamed", "", app.ErrFetchTooLarge},
		{"a 404 fails", srv.URL + "/missing", "", app.ErrFetchFailed},
		{"a server slower than the timeout fails", srv.URL + "/slow", "", app.ErrFetchFailed},
		{"a sixth redirect fails", srv.URL + "/hop/6", "", app.ErrFetchFailed},
		{"a redirect to file:// is refused", srv.URL + "/to-file", "", app.ErrFetchRefused},
		{"ftp is refused", "ftp://example.com/a.png", "", app.ErrFetchRefused},
		{"file is refused", "file:///etc/passwd", "", app.ErrFetchRefused},
		{"a URL without a host is refused", "http:///a.png", "", app.ErrFetchRefused},
		{"a relative URL is refused", "/a.png", "", app.ErrFetchRefused},
	}
	// A timeout no answer needs on a busy machine (four copies of the suite
	// at once made five redirects last past 300 ms), but for the server that
	// never answers, which a short one ends.
	patient, hasty := NewSideloader(time.Minute, &Egress{allow: allowAll}), NewSideloader(100*time.Millisecond, &Egress{allow: allowAll})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := patient
			if strings.HasSuffix(c.url, "/slow") {
				f = hasty
			}
			got, err := f.Fetch(context.Background(), c.url, limit)
			if c.err == nil && (err != nil || string(got) != c.want) {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
			if c.err != nil && !errors.Is(err, c.err) {
				t.Fatalf("err %v, want %v", err, c.err)
			}
		})
	}
}

func TestSideloadRechecksEveryRedirectAtDial(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	refused := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("internal"))
	}))
	defer refused.Close()
	allowed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/self" {
			w.Write([]byte("public"))
			return
		}
		http.Redirect(w, r, refused.URL+"/", http.StatusFound)
	}))
	defer allowed.Close()
	f := NewSideloader(2*time.Second, &Egress{allow: func(ap netip.AddrPort) bool { return int(ap.Port()) == portOf(allowed) }})
	cases := []struct {
		name, url, want string
		err             error
	}{
		{"the allowed peer answers", allowed.URL + "/self", "public", nil},
		{"a redirect to a refused peer is refused", allowed.URL + "/away", "", app.ErrFetchRefused},
		{"the refused peer directly is refused", refused.URL + "/", "", app.ErrFetchRefused},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := f.Fetch(context.Background(), c.url, 1<<20)
			if string(got) != c.want || !errors.Is(err, c.err) {
				t.Fatalf("got %q, %v; want %q, %v", got, err, c.want, c.err)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the refused server was reached %d times", n)
	}
}
