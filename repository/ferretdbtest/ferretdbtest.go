// Package ferretdbtest runs a MongoDB wire-protocol server (FerretDB on SQLite)
// inside a test process, so MongoDB code runs against a real server in every
// test run without Docker.
package ferretdbtest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/FerretDB/FerretDB/ferretdb"
)

// Start runs a server on a free loopback port with its files in a temp dir,
// stops it when the test ends, and returns its URI.
func Start(t testing.TB) string {
	t.Helper()
	return StartServer(t).URI()
}

// Server is a running server that a test can stop and start again, on the same
// address and with the same files, to play a database outage.
type Server struct {
	t    testing.TB
	addr string
	dir  string
	uri  string

	mu   sync.Mutex
	stop func()
	// writes passes one write command at a time (atomic.go), across restarts.
	writes sync.Mutex
}

// StartServer runs a server that stops when the test ends.
func StartServer(t testing.TB) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("MongoDB (FerretDB) is left out of -short; the whole suite runs it")
	}
	s := &Server{t: t, addr: FreeAddr(t), dir: t.TempDir()}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

// handedOut are the ports FreeAddr gave in this process: a test that stops
// its service and starts it again on the same address (a restart, an
// upgrade) must not find another test's service there, which a port free
// at the time another test asked would have allowed.
var handedOut sync.Map

// FreeAddr is a loopback address on a port nothing listens on, for a server a
// test starts later. The port is below the range Linux takes the ports of
// outgoing connections from (32768 and up): a port of that range, free when
// looked at, can be taken by a client connection of a test running beside
// before the server binds it ("address already in use"). It is also claimed
// on the machine (claimPort) for as long as this process runs, so that
// another test process (another package, another copy of the suite) does
// not hand it out before the server binds it.
func FreeAddr(t testing.TB) string {
	t.Helper()
	const low, high = 20000, 32000
	for range 1000 {
		port := low + rand.IntN(high-low)
		if _, taken := handedOut.LoadOrStore(port, true); taken || !claimPort(port) {
			continue
		}
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			addr := l.Addr().String()
			_ = l.Close()
			return addr
		}
	}
	t.Fatalf("no free loopback port between %d and %d", low, high)
	return ""
}

// URI is the server's connection string.
func (s *Server) URI() string { return s.uri }

// Stop shuts the server down; clients' connections drop. Stopping a stopped
// server does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		s.stop()
		s.stop = nil
	}
}

// Restart starts a stopped server again on its address, with its data.
func (s *Server) Restart() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		return
	}
	backend := FreeAddr(s.t)
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: backend},
		Handler:   "sqlite",
		SQLiteURL: "file:" + s.dir + "/",
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		s.t.Fatal(err)
	}
	s.uri = strings.Replace(f.MongoDBURI(), backend, s.addr, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()
	front, err := startProxy(s.addr, backend, &s.writes)
	if err != nil {
		cancel()
		<-done
		s.t.Fatal(err)
	}
	s.stop = func() {
		front.stop()
		cancel()
		<-done
	}
}

// claimPort takes a lock on the machine named after port, held until this
// process exits (the kernel releases it then, a crash included); false when
// another process holds it. Without a directory for the locks, every port
// counts as claimed here, as before there were locks.
func claimPort(port int) bool {
	return claimIn(filepath.Join(os.TempDir(), "calendar-test-ports"), port)
}

// claimIn is claimPort with its locks in dir.
func claimIn(dir string, port int) bool {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return true
	}
	f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(port)), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return true
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		return false
	}
	claimed.Lock()
	defer claimed.Unlock()
	claimed.files = append(claimed.files, f) // kept open: closing would release the lock
	return true
}

// claimed are the lock files of the ports this process claimed.
var claimed struct {
	sync.Mutex
	files []*os.File
}
