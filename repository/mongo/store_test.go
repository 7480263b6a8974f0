package mongo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcmongo "github.com/testcontainers/testcontainers-go/modules/mongodb"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"calendar/app/calendar"
	"calendar/repository/ferretdbtest"
	"calendar/repository/storetest"
)

var dbCounter atomic.Int64

// backend opens a fresh database on the server at uri for each subtest.
func backend(uri string) storetest.Backend {
	return storetest.Backend{
		Open: func(t *testing.T) calendar.Store {
			ctx := context.Background()
			s, err := Open(ctx, uri, fmt.Sprintf("contract_%d_%d", os.Getpid(), dbCounter.Add(1)))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				_ = s.db.Drop(ctx)
				_ = s.Close(ctx)
			})
			return s
		},
		Reopen: func(t *testing.T, s calendar.Store) calendar.Store {
			ctx := context.Background()
			name := s.(*Store).db.Name()
			if err := s.Close(ctx); err != nil {
				t.Fatal(err)
			}
			again, err := Open(ctx, uri, name)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				_ = again.db.Drop(ctx)
				_ = again.Close(ctx)
			})
			return again
		},
	}
}

// FerretDB runs behind ferretdbtest's proxy, which makes its writes atomic
// as MongoDB's are, so it passes the whole contract, concurrency included.
func TestTheStoreContractOnFerretDB(t *testing.T) {
	storetest.Run(t, backend(ferretdbtest.Start(t)))
}

// TestTheStoreContractOnRealMongoDB runs the contract on a real MongoDB: the one
// CALENDAR_TEST_MONGODB_URI names, or a container when a Docker engine answers.
func TestTheStoreContractOnRealMongoDB(t *testing.T) {
	uri := os.Getenv("CALENDAR_TEST_MONGODB_URI")
	if uri == "" {
		t.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
		testcontainers.SkipIfProviderIsNotHealthy(t)
		ctx := context.Background()
		c, err := tcmongo.Run(ctx, "mongo:7", tcmongo.WithReplicaSet("rs0"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = testcontainers.TerminateContainer(c) })
		if uri, err = c.ConnectionString(ctx); err != nil {
			t.Fatal(err)
		}
	}
	storetest.Run(t, backend(uri))
}

// TestMongoDefaultsYieldToTheURI: writes wait for a majority and requests wait
// 10 s for an unreachable server, unless the connection string says otherwise.
func TestMongoDefaultsYieldToTheURI(t *testing.T) {
	for _, c := range []struct {
		uri       string
		w         any
		selection time.Duration
	}{
		{"mongodb://db.example", "majority", 10 * time.Second},
		{"mongodb://db.example/?w=1", 1, 10 * time.Second},
		{"mongodb://db.example/?w=majority&serverSelectionTimeoutMS=500", "majority", 500 * time.Millisecond},
		{"mongodb://db.example/?serverSelectionTimeoutMS=1500", "majority", 1500 * time.Millisecond},
	} {
		opts, err := clientOptions(c.uri)
		if err != nil {
			t.Fatal(err)
		}
		if opts.WriteConcern == nil || opts.WriteConcern.W != c.w {
			t.Errorf("%s: write concern %+v, want w=%v", c.uri, opts.WriteConcern, c.w)
		}
		if opts.ServerSelectionTimeout == nil || *opts.ServerSelectionTimeout != c.selection {
			t.Errorf("%s: server selection timeout %v, want %v", c.uri, opts.ServerSelectionTimeout, c.selection)
		}
	}
}

// TestAServerGoingAwayIsUnavailableNotAFault: errors of a server shutting down
// or stepping down become 503 store_unavailable; other server errors do not.
func TestAServerGoingAwayIsUnavailableNotAFault(t *testing.T) {
	for _, c := range []struct {
		err         error
		unavailable bool
	}{
		{mongo.CommandError{Code: 91, Name: "ShutdownInProgress"}, true},
		{mongo.CommandError{Code: 11600, Name: "InterruptedAtShutdown"}, true},
		{mongo.CommandError{Code: 10107, Name: "NotWritablePrimary"}, true},
		{mongo.CommandError{Code: 1, Name: "InternalError", Message: "[msg_find.go:344] context canceled after delay"}, true},
		{mongo.CommandError{Code: 2, Name: "BadValue", Message: "bad"}, false},
		{mongo.CommandError{Code: 1, Name: "InternalError", Message: "something else"}, false},
		// The driver's pool cleared by a restart ("connection pool ... was
		// cleared because another operation failed"), wrapped as it comes.
		{fmt.Errorf("finding: %w", clearedPool{}), true},
	} {
		if got := errors.Is(storeError(c.err), calendar.ErrUnavailable); got != c.unavailable {
			t.Errorf("%v: unavailable = %v, want %v", c.err, got, c.unavailable)
		}
	}
}

// clearedPool stands for the driver's unexported poolClearedError.
type clearedPool struct{}

func (clearedPool) Error() string   { return "connection pool for 127.0.0.1:27017 was cleared" }
func (clearedPool) Retryable() bool { return true }

// TestMongoFilesUniqueIndexDecides: a put that passed the early look-up but
// lost the name to another is refused by the unique index, and its chunks go.
func TestMongoFilesUniqueIndexDecides(t *testing.T) {
	ctx := context.Background()
	s := backend(ferretdbtest.Start(t)).Open(t).(*Store)
	first := storetest.RandomBytes(600 << 10) // three chunks
	if err := s.files.PutFile(ctx, "2026/11/a.jpg", 1, first); err != nil {
		t.Fatal(err)
	}
	if err := s.files.upload(ctx, "2026/11/a.jpg", 2, storetest.RandomBytes(700<<10)); !errors.Is(err, calendar.ErrConflict) {
		t.Fatalf("upload of a taken name err = %v, want ErrConflict", err)
	}
	if n, err := s.files.chunks.CountDocuments(ctx, bson.D{}); err != nil || n != 3 {
		t.Fatalf("%d chunks, %v; want the first file's 3", n, err)
	}
	if f := storetest.MustOpen(t, s.files, "2026/11/a.jpg", first); f.Info().Owner != 1 {
		t.Fatalf("Info = %+v", f.Info())
	}
}
