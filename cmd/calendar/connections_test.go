package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startServing runs the service with extra settings until the test ends.
// Its wait for /readyz (ready) closes each connection it opens, so none of
// them is left for the connection bounds to count.
func startServing(t *testing.T, extra map[string]string) (addr string, logs *syncWriter) {
	t.Helper()
	logs = &syncWriter{b: &strings.Builder{}}
	settings := map[string]string{"CALENDAR_DATA_DIR": t.TempDir()}
	maps.Copy(settings, extra)
	addr, _ = serveInProcess(t, settings, logs)
	// Once more on a connection read to its end: the server has let it go
	// (and the readiness probe's before it) when the test begins.
	waitFor(t, func() bool {
		status, err := requestOnce("127.0.0.1", addr, "/readyz")
		return err == nil && status == http.StatusOK
	}, func() string { return addr + " to answer /readyz" })
	return addr, logs
}

// dialFrom connects to addr from the loopback address from.
func dialFrom(from, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
	return d.Dial("tcp", addr)
}

// requestOnce asks for path on a connection of its own that it reads to
// its end: the server has let it go when requestOnce returns.
func requestOnce(from, addr, path string) (int, error) {
	conn, err := dialFrom(from, addr)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second)) // a hang guard only
	status, err := requestOn(conn, path, false)
	if err != nil {
		return 0, err
	}
	if _, err := io.Copy(io.Discard, conn); err != nil {
		return 0, err
	}
	return status, nil
}

// requestOn asks for path on conn and reads the whole answer; keepAlive
// leaves the connection open for the next request.
func requestOn(conn net.Conn, path string, keepAlive bool) (int, error) {
	connection := "keep-alive"
	if !keepAlive {
		connection = "close"
	}
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: calendar\r\nConnection: %s\r\n\r\n", path, connection); err != nil {
		return 0, err
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return 0, err
	}
	return res.StatusCode, nil
}

// keepAlive opens n connections to addr, the i-th from the loopback address
// from(i), each left open after a request it answered; they are closed when
// the test ends.
func keepAlive(t *testing.T, addr string, n int, from func(i int) string) []net.Conn {
	t.Helper()
	conns := make([]net.Conn, 0, n)
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for i := range n {
		conn, err := dialFrom(from(i), addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, conn)
		_ = conn.SetDeadline(time.Now().Add(time.Minute)) // a hang guard, below the idle timeout
		if status, err := requestOn(conn, "/healthz", true); err != nil || status != http.StatusOK {
			t.Fatalf("keep-alive connection %d from %s: %d, %v", i+1, from(i), status, err)
		}
	}
	return conns
}

// refused says whether err is how a request fails on a connection the
// server closed as it came.
func refused(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// waitForLog waits for a log line holding every one of want.
func waitForLog(t *testing.T, logs *syncWriter, want ...string) {
	t.Helper()
	waitFor(t, func() bool {
		for _, line := range strings.Split(logs.String(), "\n") {
			found := true
			for _, w := range want {
				found = found && strings.Contains(line, w)
			}
			if found {
				return true
			}
		}
		return false
	}, func() string { return fmt.Sprintf("a log line with %q:\n%s", want, logs.String()) })
}

// An attacker holding far more idle connections than its address may does
// not keep a visitor from another address out: each new one closes its
// oldest, and the ones it keeps still count against it only.
// Not parallel: the held connections must stay within the header timeout.
func TestOneAddressHoldingIdleConnectionsDoesNotKeepOthersOut(t *testing.T) {
	t.Parallel()
	const perAddr, attempts = 16, 200
	addr, logs := startServing(t, map[string]string{"CALENDAR_MAX_CONNS_PER_ADDR": fmt.Sprint(perAddr)})

	type outcome struct {
		conn   net.Conn
		status int
		err    error
	}
	outcomes := make(chan outcome, attempts)
	attacker := make([]net.Conn, 0, attempts)
	defer func() {
		for _, c := range attacker {
			c.Close()
		}
	}()
	for range attempts {
		conn, err := dialFrom("127.0.0.2", addr)
		if err != nil {
			t.Fatalf("connection %d of the attacker: %v", len(attacker)+1, err)
		}
		attacker = append(attacker, conn)
		_ = conn.SetReadDeadline(time.Now().Add(headerTimeout / 2)) // a hang guard, below the header timeout
		go func() {
			// A connection closed to make room reads its end, having
			// sent nothing; a held one answers the request sent below.
			r := bufio.NewReader(conn)
			if _, err := r.Peek(1); err != nil {
				outcomes <- outcome{conn: conn, err: err}
				return
			}
			res, err := http.ReadResponse(r, nil)
			if err != nil {
				outcomes <- outcome{conn: conn, err: err}
				return
			}
			res.Body.Close()
			outcomes <- outcome{conn: conn, status: res.StatusCode}
		}()
	}

	if status, err := requestOnce("127.0.0.1", addr, "/healthz"); err != nil || status != http.StatusOK {
		t.Fatalf("the visitor got %d, %v while the attacker held its connections", status, err)
	}

	closed := map[net.Conn]bool{}
	for len(closed) < attempts-perAddr {
		o := <-outcomes
		if o.err != io.EOF {
			t.Fatalf("%d connections of the attacker closed by the server, then one read %d, %v", len(closed), o.status, o.err)
		}
		closed[o.conn] = true
	}
	// The others are held: each answers a request.
	for _, c := range attacker {
		if !closed[c] {
			_, _ = io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: calendar\r\n\r\n")
		}
	}
	for range perAddr {
		if o := <-outcomes; o.status != http.StatusOK {
			t.Fatalf("a connection the attacker still held read %d, %v; want an answer", o.status, o.err)
		}
	}
	waitForLog(t, logs, "connection limits reached", `"new_closed":`)
}

// At the total bound, idle keep-alive connections from several addresses
// make room for a new visitor: one idle connection is closed, the others
// still serve.
func TestIdleKeepAliveConnectionsAreClosedToMakeRoomForANewVisitor(t *testing.T) {
	t.Parallel()
	const total = 6
	addr, logs := startServing(t, map[string]string{"CALENDAR_MAX_CONNS": fmt.Sprint(total)})

	idle := keepAlive(t, addr, total, func(i int) string { return fmt.Sprintf("127.0.0.%d", 2+i%3) })

	// The server marks a connection idle just after answering on it, so the
	// last one may not be yet: a visitor refused then tries again, as a
	// browser would. A refusal closes nothing.
	waitFor(t, func() bool {
		status, err := requestOnce("127.0.0.1", addr, "/healthz")
		if err != nil && !refused(err) {
			t.Fatalf("the visitor got %d, %v", status, err)
		}
		return err == nil && status == http.StatusOK
	}, func() string { return "the visitor to be let in" })

	// Which one was the oldest idle is the server's to say: it learns a
	// connection went idle once it has answered, which a busy machine may
	// tell it out of the order the answers were read in (the order itself is
	// cmd/internal/conns' test). One was closed; the others still serve.
	var served, closed int
	for _, c := range idle {
		if status, err := requestOn(c, "/healthz", true); err == nil && status == http.StatusOK {
			served++
		} else {
			closed++
		}
	}
	if closed != 1 || served != total-1 {
		t.Fatalf("%d idle connections closed to make room for one visitor, %d still served; want 1 and %d", closed, served, total-1)
	}
	waitForLog(t, logs, "connection limits reached", `"idle_closed":1`)
}

// A connection that never sends a byte is closed by the header timeout, so
// silent clients cannot hold connections.
func TestAConnectionThatSendsNothingIsClosed(t *testing.T) {
	t.Parallel()
	long(t)
	addr, _ := startServing(t, nil)
	conn, err := dialFrom("127.0.0.1", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(6 * headerTimeout)) // a hang guard only
	if _, err := conn.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("a silent connection read %v; want it closed by the server", err)
	}
}

func TestTheConnectionBoundsDefaultToTheFileLimitAndOneAddressAFew(t *testing.T) {
	t.Parallel()
	c, err := loadConfig(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxConns < 1 || c.MaxConns > 10_000 || c.MaxConnsPerAddr != 256 || c.MaxConnsPerNetwork != 1024 {
		t.Fatalf("max conns %d, per address %d, per network %d", c.MaxConns, c.MaxConnsPerAddr, c.MaxConnsPerNetwork)
	}
	c, err = loadConfig([]string{"-max-conns", "50", "-max-conns-per-addr", "5", "-max-conns-per-network", "20"}, env(nil), io.Discard)
	if err != nil || c.MaxConns != 50 || c.MaxConnsPerAddr != 5 || c.MaxConnsPerNetwork != 20 {
		t.Fatalf("max conns %d, per address %d, per network %d, %v", c.MaxConns, c.MaxConnsPerAddr, c.MaxConnsPerNetwork, err)
	}
	c, err = loadConfig(nil, env(map[string]string{"CALENDAR_MAX_CONNS_PER_NETWORK": "30"}), io.Discard)
	if err != nil || c.MaxConnsPerNetwork != 30 {
		t.Fatalf("per network %d, %v", c.MaxConnsPerNetwork, err)
	}
}

func TestABadConnectionBoundStopsStartUpNamingIt(t *testing.T) {
	t.Parallel()
	for _, s := range []struct{ env, flag string }{{"CALENDAR_MAX_CONNS", "max-conns"}, {"CALENDAR_MAX_CONNS_PER_ADDR", "max-conns-per-addr"},
		{"CALENDAR_MAX_CONNS_PER_NETWORK", "max-conns-per-network"}} {
		for _, value := range []string{"0", "-1", "ten", "1.5", "100000000"} {
			_, err := loadConfig(nil, env(map[string]string{s.env: value}), io.Discard)
			if err == nil || !strings.HasPrefix(err.Error(), s.env+": ") {
				t.Errorf("%s=%s: err = %v, want it to start with %s:", s.env, value, err, s.env)
			}
			_, err = loadConfig([]string{"-" + s.flag, value}, env(nil), io.Discard)
			if want := "-" + s.flag + " (" + s.env + "): "; err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("-%s %s: err = %v, want it to start with %s", s.flag, value, err, want)
			}
		}
	}
}

// A reverse proxy named in CALENDAR_TRUSTED_PROXIES carries every client
// behind it: its connections are not held to the per-address bound (four
// keep-alive connections from it, past a bound of two, all serve again), and
// the client it forwards is the one the access log names.
func TestATrustedProxyIsNotHeldToThePerAddressBound(t *testing.T) {
	t.Parallel()
	const perAddr, proxied = 2, 4
	addr, logs := startServing(t, map[string]string{"CALENDAR_MAX_CONNS_PER_ADDR": fmt.Sprint(perAddr),
		"CALENDAR_TRUSTED_PROXIES": "127.0.0.2"})
	held := keepAlive(t, addr, proxied, func(int) string { return "127.0.0.2" })
	for i, c := range held {
		if status, err := requestOn(c, "/healthz", true); err != nil || status != http.StatusOK {
			t.Fatalf("connection %d from the proxy, again: %d, %v; want it still held", i+1, status, err)
		}
	}
	if _, err := fmt.Fprint(held[0], "GET /vendor/events/v1 HTTP/1.1\r\nHost: calendar\r\nX-Request-ID: proxied-1\r\n"+
		"X-Forwarded-For: 203.0.113.7\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if res, err := http.ReadResponse(bufio.NewReader(held[0]), nil); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("a forwarded request: %v, %v", res, err)
	}
	waitForLog(t, logs, `"request_id":"proxied-1"`, `"remote":"203.0.113.7"`, `"proxy":"127.0.0.2:`)
}
