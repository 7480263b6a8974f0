// Package mongo is the MongoDB store behind calendar.Store, through the
// official driver (whose package keeps its name here: mongo.Collection is
// the driver's).
// Documents are BSON with the calendar types' bson tags; IDs are allocated
// per collection and change sequence numbers store-wide from counters; the
// unique keys each document declares are unique indexes. repository/storetest
// is the contract it passes.
package mongo

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/connstring"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"

	"calendar/app/calendar"
	"calendar/repository/internal/storage"
)

// Store implements app's port.
var _ calendar.Store = (*Store)(nil)

// Store is the MongoDB store. IDs and change sequence numbers come from atomic
// $inc on a counters collection; every lookup has an index.
type Store struct {
	client      *mongo.Client
	db          *mongo.Database
	counters    *mongo.Collection
	tombstones  *mongo.Collection
	users       *mongoRepo[calendar.User, *calendar.User]
	posts       *mongoRepo[calendar.Post, *calendar.Post]
	terms       *mongoRepo[calendar.Term, *calendar.Term]
	guards      *mongoRepo[calendar.Guard, *calendar.Guard]
	hooks       *mongoRepo[calendar.Webhook, *calendar.Webhook]
	marks       *mongoRepo[calendar.WebhookMark, *calendar.WebhookMark]
	syns        *mongoRepo[calendar.Synonym, *calendar.Synonym]
	files       *mongoFiles
	imports     *mongoRepo[calendar.ImportSource, *calendar.ImportSource]
	importItems *mongoRepo[calendar.ImportItem, *calendar.ImportItem]
	fields      *mongoRepo[calendar.FieldSet, *calendar.FieldSet]
}

// Open connects to uri, uses database dbName and creates the indexes.
func Open(ctx context.Context, uri, dbName string) (*Store, error) {
	opts, err := clientOptions(uri)
	if err != nil {
		return nil, err
	}
	client, err := mongo.Connect(opts)
	if err != nil {
		return nil, err
	}
	if err := client.Ping(ctx, nil); err != nil {
		_ = client.Disconnect(ctx)
		return nil, fmt.Errorf("cannot reach MongoDB: %w", err)
	}
	db := client.Database(dbName)
	s := &Store{client: client, db: db, counters: db.Collection("counters"), tombstones: db.Collection("tombstones")}
	if err := ensureIndex(ctx, s.tombstones, mongo.IndexModel{Keys: bson.D{{Key: "seq", Value: 1}}, Options: options.Index().SetName("seq_1")}); err != nil {
		_ = client.Disconnect(ctx)
		return nil, fmt.Errorf("creating indexes: %w", err)
	}
	s.users = newMongoRepo[calendar.User](s, storage.UsersCollection)
	s.posts = newMongoRepo[calendar.Post](s, storage.PostsCollection)
	s.terms = newMongoRepo[calendar.Term](s, storage.TermsCollection)
	s.guards = newMongoRepo[calendar.Guard](s, storage.GuardsCollection)
	s.hooks = newMongoRepo[calendar.Webhook](s, storage.WebhooksCollection)
	s.marks = newMongoRepo[calendar.WebhookMark](s, storage.WebhookMarksCollection)
	s.syns = newMongoRepo[calendar.Synonym](s, storage.SynonymsCollection)
	s.imports = newMongoRepo[calendar.ImportSource](s, storage.ImportsCollection)
	s.importItems = newMongoRepo[calendar.ImportItem](s, storage.ImportItemsCollection)
	s.fields = newMongoRepo[calendar.FieldSet](s, storage.FieldsCollection)
	for _, r := range []interface{ ensureIndexes(context.Context) error }{s.users, s.posts, s.terms, s.guards, s.hooks, s.marks, s.syns, s.imports, s.importItems, s.fields} {
		if err := r.ensureIndexes(ctx); err != nil {
			_ = client.Disconnect(ctx)
			return nil, fmt.Errorf("creating indexes: %w", err)
		}
	}
	if s.files, err = openMongoFiles(ctx, db); err != nil {
		_ = client.Disconnect(ctx)
		return nil, fmt.Errorf("creating indexes: %w", err)
	}
	return s, nil
}

// clientOptions reads the URI and fills in the service's defaults where it is
// silent.
func clientOptions(uri string) (*options.ClientOptions, error) {
	opts := options.Client().ApplyURI(uri)
	cs, err := connstring.ParseAndValidate(uri)
	if err != nil {
		return nil, err
	}
	// While the server is unreachable a request waits this long for it, then
	// fails with store_unavailable.
	if !cs.ServerSelectionTimeoutSet {
		opts.SetServerSelectionTimeout(10 * time.Second)
	}
	// Acknowledged by a majority: on a replica set an acknowledged write then
	// survives the loss of the primary.
	if cs.WString == "" && !cs.WNumberSet {
		opts.SetWriteConcern(writeconcern.Majority())
	}
	return opts, nil
}

func (s *Store) Users() calendar.Repo[*calendar.User]               { return s.users }
func (s *Store) Posts() calendar.Repo[*calendar.Post]               { return s.posts }
func (s *Store) Terms() calendar.Repo[*calendar.Term]               { return s.terms }
func (s *Store) Guards() calendar.Repo[*calendar.Guard]             { return s.guards }
func (s *Store) Webhooks() calendar.Repo[*calendar.Webhook]         { return s.hooks }
func (s *Store) WebhookMarks() calendar.Repo[*calendar.WebhookMark] { return s.marks }
func (s *Store) Synonyms() calendar.Repo[*calendar.Synonym]         { return s.syns }
func (s *Store) Imports() calendar.Repo[*calendar.ImportSource]     { return s.imports }
func (s *Store) ImportItems() calendar.Repo[*calendar.ImportItem]   { return s.importItems }
func (s *Store) Fields() calendar.Repo[*calendar.FieldSet]          { return s.fields }

func (s *Store) Ping(ctx context.Context) error { return storeError(s.client.Ping(ctx, nil)) }

func (s *Store) Close(ctx context.Context) error { return s.client.Disconnect(ctx) }

// tombstone is what a permanent delete leaves in the change feed.
type tombstone struct {
	Key        string `bson:"_id"` // collection/ID
	Collection string `bson:"collection"`
	ID         int64  `bson:"id"`
	Seq        int64  `bson:"seq"`
	Kind       string `bson:"kind,omitempty"` // the document's post type or taxonomy
	// Standing is who could read the document (a post's); nil: not kept.
	Standing *calendar.Standings `bson:"standing,omitempty"`
	// At is when the delete was made (zero: before times were kept).
	At time.Time `bson:"at,omitempty"`
}

// PruneChanges removes the tombstones of deletes before the instant and
// keeps the highest sequence removed as the horizon (a counter raised with
// $max, so replicas pruning at once agree).
func (s *Store) PruneChanges(ctx context.Context, before time.Time) (int64, error) {
	_, err := s.tombstones.UpdateMany(ctx, bson.D{{Key: "at", Value: bson.D{{Key: "$exists", Value: false}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "at", Value: time.Now().UTC()}}}})
	if err != nil {
		return 0, storeError(err)
	}
	old := bson.D{{Key: "at", Value: bson.D{{Key: "$lt", Value: before.UTC()}}}}
	var newest tombstone
	err = s.tombstones.FindOne(ctx, old, options.FindOne().SetSort(bson.D{{Key: "seq", Value: -1}})).Decode(&newest)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return s.Horizon(ctx)
	}
	if err != nil {
		return 0, storeError(err)
	}
	// The horizon first: a reader never misses a delete it is not told of.
	_, err = s.counters.UpdateOne(ctx, bson.D{{Key: "_id", Value: "horizon"}},
		bson.D{{Key: "$max", Value: bson.D{{Key: "n", Value: newest.Seq}}}}, options.UpdateOne().SetUpsert(true))
	if err != nil {
		return 0, storeError(err)
	}
	if _, err := s.tombstones.DeleteMany(ctx, bson.D{{Key: "at", Value: bson.D{{Key: "$lt", Value: before.UTC()}}}, {Key: "seq", Value: bson.D{{Key: "$lte", Value: newest.Seq}}}}); err != nil {
		return 0, storeError(err)
	}
	return s.Horizon(ctx)
}

// Horizon is the highest sequence of a pruned tombstone.
func (s *Store) Horizon(ctx context.Context) (int64, error) {
	var doc struct {
		N int64 `bson:"n"`
	}
	err := s.counters.FindOne(ctx, bson.D{{Key: "_id", Value: "horizon"}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return 0, nil
	}
	return doc.N, storeError(err)
}

// Changes merges the documents and tombstones written after afterSeq, in
// sequence order; every query uses a seq index.
func (s *Store) Changes(ctx context.Context, afterSeq int64, limit int) ([]calendar.Change, error) {
	after := bson.D{{Key: "seq", Value: bson.D{{Key: "$gt", Value: afterSeq}}}}
	opts := options.Find().SetSort(bson.D{{Key: "seq", Value: 1}}).SetLimit(int64(limit)).
		SetProjection(bson.D{{Key: "seq", Value: 1}})
	var out []calendar.Change
	// The declarations of custom fields and the synonyms are in the feed
	// too, so that every replica follows their changes; the other records
	// (guards, subscriptions, imports) are not read from it.
	for _, name := range []string{storage.UsersCollection, storage.PostsCollection, storage.TermsCollection, storage.FieldsCollection, storage.SynonymsCollection} {
		cur, err := s.db.Collection(name).Find(ctx, after, opts)
		if err != nil {
			return nil, storeError(err)
		}
		var docs []struct {
			ID  int64 `bson:"_id"`
			Seq int64 `bson:"seq"`
		}
		if err := cur.All(ctx, &docs); err != nil {
			return nil, storeError(err)
		}
		for _, d := range docs {
			out = append(out, calendar.Change{Collection: name, ID: d.ID, Seq: d.Seq})
		}
	}
	cur, err := s.tombstones.Find(ctx, after, options.Find().SetSort(bson.D{{Key: "seq", Value: 1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, storeError(err)
	}
	var dead []tombstone
	if err := cur.All(ctx, &dead); err != nil {
		return nil, storeError(err)
	}
	for _, t := range dead {
		c := calendar.Change{Collection: t.Collection, ID: t.ID, Seq: t.Seq, Deleted: true, Kind: t.Kind}
		if t.Standing != nil {
			c.Standing = *t.Standing
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// LastSeq is the counter behind every change.
func (s *Store) LastSeq(ctx context.Context) (int64, error) {
	var doc struct {
		N int64 `bson:"n"`
	}
	err := s.counters.FindOne(ctx, bson.D{{Key: "_id", Value: "seq"}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return 0, nil
	}
	return doc.N, storeError(err)
}

// next atomically increments the named counter and returns its new value.
func (s *Store) next(ctx context.Context, counter string) (int64, error) {
	return s.nextN(ctx, counter, 1)
}

// nextN takes the next n numbers of a counter at once and answers the last.
func (s *Store) nextN(ctx context.Context, counter string, n int64) (int64, error) {
	opts := options.FindOneAndUpdate().SetUpsert(true).SetReturnDocument(options.After)
	var doc struct {
		N int64 `bson:"n"`
	}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = s.counters.FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: counter}},
			bson.D{{Key: "$inc", Value: bson.D{{Key: "n", Value: n}}}}, opts).Decode(&doc)
		// Two first-ever upserts can race on the counter's _id; the loser retries.
		if !mongo.IsDuplicateKeyError(err) {
			break
		}
	}
	return doc.N, storeError(err)
}

// storeError maps driver errors to the app's storage outcomes.
func storeError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, mongo.ErrNoDocuments):
		return calendar.ErrNotFound
	case mongo.IsDuplicateKeyError(err), isFerretDBUniqueViolation(err):
		return calendar.ErrConflict
	case mongo.IsNetworkError(err), mongo.IsTimeout(err), errors.Is(err, mongo.ErrClientDisconnected), isInterruption(err):
		return fmt.Errorf("%w: %v", calendar.ErrUnavailable, err)
	}
	var serverSelection topology.ServerSelectionError
	if errors.As(err, &serverSelection) {
		return fmt.Errorf("%w: %v", calendar.ErrUnavailable, err)
	}
	// A pool cleared after another operation's network error (the server
	// restarting): the driver marks it retryable, as a network error is.
	var clearedPool driver.RetryablePoolError
	if errors.As(err, &clearedPool) && clearedPool.Retryable() {
		return fmt.Errorf("%w: %v", calendar.ErrUnavailable, err)
	}
	return err
}

// Server error codes that mean the server is going away or changing roles: the
// operation may be tried again shortly (on a replica set, against the new primary).
var interruptionCodes = []int{
	6,     // HostUnreachable
	7,     // HostNotFound
	89,    // NetworkTimeout
	91,    // ShutdownInProgress
	189,   // PrimarySteppedDown
	9001,  // SocketException
	10107, // NotWritablePrimary
	11600, // InterruptedAtShutdown
	11602, // InterruptedDueToReplStateChange
	13435, // NotPrimaryNoSecondaryOk
	13436, // NotPrimaryOrSecondary
}

// isInterruption recognises a server that stopped serving an operation because
// it is shutting down or stepping down. FerretDB on SQLite reports the same as
// an InternalError about its cancelled context or closed transaction.
func isInterruption(err error) bool {
	var se mongo.ServerError
	if !errors.As(err, &se) {
		return false
	}
	for _, code := range interruptionCodes {
		if se.HasErrorCode(code) {
			return true
		}
	}
	return se.HasErrorLabel("RetryableWriteError") ||
		strings.Contains(err.Error(), "context canceled") ||
		strings.Contains(err.Error(), "transaction has already been committed or rolled back")
}

// isFerretDBUniqueViolation recognises a unique-index violation that FerretDB on
// SQLite reports as an InternalError on updates instead of code 11000.
func isFerretDBUniqueViolation(err error) bool {
	var se mongo.ServerError
	return errors.As(err, &se) && strings.Contains(err.Error(), "UNIQUE constraint failed")
}
