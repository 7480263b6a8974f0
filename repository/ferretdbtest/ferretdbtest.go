// Package ferretdbtest runs a MongoDB wire-protocol server (FerretDB on SQLite)
// inside a test process, so MongoDB code runs against a real server in every
// test run without Docker.
package ferretdbtest

import (
	"context"
	"io"
	"log/slog"
	"net"
	"sync"
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
}

// StartServer runs a server that stops when the test ends.
func StartServer(t testing.TB) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	s := &Server{t: t, addr: addr, dir: t.TempDir()}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
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
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: s.addr},
		Handler:   "sqlite",
		SQLiteURL: "file:" + s.dir + "/",
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		s.t.Fatal(err)
	}
	s.uri = f.MongoDBURI()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()
	s.stop = func() {
		cancel()
		<-done
	}
}
