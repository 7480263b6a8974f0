package main

import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// TestAClientThatNeverFinishesItsHeadersIsCutOff: a connection that trickles
// a request line and then stalls is closed once the header timeout passes, so
// slow clients cannot hold connections open.
func TestAClientThatNeverFinishesItsHeadersIsCutOff(t *testing.T) {
	t.Parallel()
	long(t)
	addr, _ := serveInProcess(t, map[string]string{"CALENDAR_DATA_DIR": t.TempDir()}, &syncWriter{b: &strings.Builder{}})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n"); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(patience(t))           // a hang guard only: a busy server hangs up late, not never
	_, err = bufio.NewReader(conn).ReadString('\n') // EOF when the server hangs up
	took := time.Since(start)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the server still holds the stalled connection after %v", took)
	}
	if took < headerTimeout-time.Second {
		t.Fatalf("the connection ended after %v, before the header timeout (%v): %v", took, headerTimeout, err)
	}
}
