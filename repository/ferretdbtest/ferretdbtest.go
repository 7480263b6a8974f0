// Package ferretdbtest runs a MongoDB wire-protocol server (FerretDB on SQLite)
// inside a test process, so MongoDB code runs against a real server in every
// test run without Docker.
package ferretdbtest

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/FerretDB/FerretDB/ferretdb"
)

// Start runs a server on a free loopback port with its files in a temp dir,
// stops it when the test ends, and returns its URI.
func Start(t testing.TB) string {
	t.Helper()
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Handler:   "sqlite",
		SQLiteURL: "file:" + t.TempDir() + "/",
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return f.MongoDBURI()
}
