package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Silent connections from several addresses, four times as many as the
// slots, do not take the visitors' places: they hold three quarters of the
// slots at most, each new one closing the oldest, so a served client's idle
// keep-alive connection still serves and a visitor is served at once.
// (With an IPv6 /64 a client has as many addresses as it likes; loopback
// has 127.0.0.0/8.)
func TestSilentConnectionsDoNotTakeTheVisitorsPlaces(t *testing.T) {
	t.Parallel()
	const total, silent = 16, 64
	addr, _ := startServing(t, map[string]string{"CALENDAR_MAX_CONNS": strconv.Itoa(total)})
	served := keepAlive(t, addr, 1, func(int) string { return "127.0.0.1" })[0]

	for i := range silent {
		conn, err := dialFrom(fmt.Sprintf("127.0.0.%d", 2+i%4), addr)
		if err != nil {
			t.Fatalf("silent connection %d: %v", i+1, err)
		}
		t.Cleanup(func() { conn.Close() })
	}
	// The server takes connections in the order they came: the visitor's
	// comes after every silent one.
	if status, err := requestOnce("127.0.0.1", addr, "/healthz"); err != nil || status != http.StatusOK {
		t.Fatalf("a visitor got %d, %v behind %d silent connections", status, err, silent)
	}
	if status, err := requestOn(served, "/healthz", true); err != nil || status != http.StatusOK {
		t.Fatalf("a served client's keep-alive connection, again: %d, %v; want it still open", status, err)
	}
	// Each silent one past the share closed an older one; those that
	// stayed too long may have been closed as slow instead.
	m := scrapeMetrics(t, addr)
	if closed := m[`calendar_connections_shed_total{reason="new"}`] + m[`calendar_connections_shed_total{reason="slow"}`]; closed < silent-total*3/4 {
		t.Fatalf("%v silent connections closed, want %d at least:\n%v", closed, silent-total*3/4, m)
	}
	if m[`calendar_connections_shed_total{reason="idle"}`] != 0 {
		t.Fatalf("idle connections closed for silent ones:\n%v", m)
	}
}

// Refused and shed connections are counted in /metrics, by reason.
func TestRefusedAndShedConnectionsAreCountedInTheMetrics(t *testing.T) {
	t.Parallel()
	addr, _ := startServing(t, map[string]string{"CALENDAR_MAX_CONNS_PER_ADDR": "1"})
	// What the start counted: with one connection an address, the wait for
	// readiness may have seen its next probe refused while the server still
	// held the one it had just answered.
	before := scrapeMetrics(t, addr)
	const refusedPerAddress, shedNew = `calendar_connections_refused_total{reason="per_address"}`, `calendar_connections_shed_total{reason="new"}`

	// An upload in flight: its body still coming, its connection is being
	// served, so it is not closed to make room for its address's next one.
	upload := func() net.Conn {
		conn, err := dialFrom("127.0.0.2", addr)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(conn, "POST /vendor/events/v1/venues HTTP/1.1\r\nHost: calendar\r\n"+
			"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
			t.Fatal(err)
		}
		return conn
	}
	uploading := upload()
	defer func() { uploading.Close() }()
	waitFor(t, func() bool {
		// On a machine so busy that the server's 30 s for a whole request
		// passed before a scrape, the upload was cut: start another.
		_ = uploading.SetReadDeadline(time.Now().Add(time.Millisecond))
		var pending net.Error
		if n, err := uploading.Read(make([]byte, 1)); n > 0 || !errors.As(err, &pending) || !pending.Timeout() { // answered or closed
			uploading.Close()
			uploading = upload()
		}
		active, ok := scrapeMetrics(t, addr)[`calendar_connections_open{state="active"}`]
		if !ok {
			t.Fatal("no calendar_connections_open in /metrics")
		}
		return active == 2 // it and the scrape
	}, func() string { return "the upload to be served" })
	if err := readEnd(t, "127.0.0.2", addr); err != io.EOF {
		t.Fatalf("the address's next connection read %v, want it closed", err)
	}
	if n := scrapeMetrics(t, addr)[refusedPerAddress] - before[refusedPerAddress]; n != 1 {
		t.Fatalf("refused per address: %v more, want 1", n)
	}

	// A silent connection, then its address's next: the silent one goes.
	silent, err := dialFrom("127.0.0.3", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	next, err := dialFrom("127.0.0.3", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	_ = silent.SetReadDeadline(time.Now().Add(headerTimeout / 2)) // a hang guard, below the header timeout
	if _, err := silent.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("the silent connection read %v, want it closed to make room", err)
	}
	m := scrapeMetrics(t, addr)
	if m[shedNew]-before[shedNew] != 1 || m[`calendar_connections_open{state="new"}`] != 1 {
		t.Fatalf("want one new connection shed, one held:\n%v", m)
	}
}

// readEnd connects from from and reads until the server closes the
// connection: io.EOF when it does at once.
func readEnd(t *testing.T, from, addr string) error {
	t.Helper()
	conn, err := dialFrom(from, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(headerTimeout / 2)) // a hang guard, below the header timeout
	_, err = conn.Read(make([]byte, 1))
	return err
}

// scrapeMetrics reads /metrics on a connection of its own: each series's
// value by its name and labels, as the text format writes them.
func scrapeMetrics(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	conn, err := dialFrom("127.0.0.1", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second)) // a hang guard only
	if _, err := io.WriteString(conn, "GET /metrics HTTP/1.1\r\nHost: calendar\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	res, err := http.ReadResponse(r, nil)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %v, %v", res, err)
	}
	defer io.Copy(io.Discard, r) // to the connection's end: the server has let it go when this returns
	series := map[string]float64{}
	lines := bufio.NewScanner(res.Body)
	for lines.Scan() {
		line := lines.Text()
		cut := strings.LastIndexByte(line, ' ')
		if strings.HasPrefix(line, "#") || cut < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[cut+1:], 64); err == nil {
			series[line[:cut]] = v
		}
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	return series
}
