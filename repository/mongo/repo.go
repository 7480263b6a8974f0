package mongo

import (
	"context"
	"errors"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"calendar/app/calendar"
	"calendar/repository/internal/storage"
)

// keysField holds a document's unique keys as a sub-document, each with a unique
// index, so uniqueness is enforced by MongoDB itself and every key lookup is indexed.
const keysField = "_keys"

type mongoRepo[U any, T interface {
	*U
	calendar.Document
}] struct {
	store     *Store
	coll      *mongo.Collection
	name      string
	keyFields map[string]bool
	// severalValues: the collection's keys may hold several values (users'
	// password hashes), so a write looks for another holder of each first.
	// MongoDB's unique index takes each element of an array as a key, but
	// not every server of the protocol does (FerretDB); users are written
	// rarely, so the extra read costs little.
	severalValues bool
}

func newMongoRepo[U any, T interface {
	*U
	calendar.Document
}](s *Store, name string) *mongoRepo[U, T] {
	fields := map[string]bool{}
	for _, f := range storage.UniqueFields[U, T]() {
		fields[f] = true
	}
	return &mongoRepo[U, T]{store: s, coll: s.db.Collection(name), name: name, keyFields: fields, severalValues: name == storage.UsersCollection}
}

// ensureIndexes creates the indexes that are missing. It lists them first
// because asking for existing ones again is not harmless on every server that
// speaks the protocol (FerretDB drops the connection).
func (r *mongoRepo[U, T]) ensureIndexes(ctx context.Context) error {
	wanted := []mongo.IndexModel{{Keys: bson.D{{Key: "seq", Value: 1}}, Options: options.Index().SetName("seq_1")}}
	for f := range r.keyFields {
		wanted = append(wanted, mongo.IndexModel{
			Keys:    bson.D{{Key: keysField + "." + f, Value: 1}},
			Options: options.Index().SetUnique(true).SetName(keysField + "." + f + "_1"),
		})
	}
	return ensureIndex(ctx, r.coll, wanted...)
}

// ensureIndex creates the named indexes a collection lacks.
func ensureIndex(ctx context.Context, coll *mongo.Collection, wanted ...mongo.IndexModel) error {
	existing, err := coll.Indexes().ListSpecifications(ctx)
	if err != nil {
		return storeError(err)
	}
	have := map[string]bool{}
	for _, spec := range existing {
		have[spec.Name] = true
	}
	for _, m := range wanted {
		var o options.IndexOptions
		for _, set := range m.Options.List() {
			_ = set(&o)
		}
		if have[*o.Name] {
			continue
		}
		if _, err := coll.Indexes().CreateOne(ctx, m); err != nil {
			return storeError(err)
		}
	}
	return nil
}

// encode returns the document as stored: its own fields plus _keys.
func (r *mongoRepo[U, T]) encode(doc T) (bson.D, error) {
	keys := doc.UniqueKeys()
	if err := storage.CheckKeys(keys); err != nil {
		return nil, err
	}
	raw, err := bson.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var d bson.D
	if err := bson.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	k := bson.D{}
	for f, values := range keys {
		if len(values) == 1 { // stored as a string, as every key was before keys held several
			k = append(k, bson.E{Key: f, Value: values[0]})
		} else { // the unique index takes each element as a key
			k = append(k, bson.E{Key: f, Value: values})
		}
	}
	return append(d, bson.E{Key: keysField, Value: k}), nil
}

func (r *mongoRepo[U, T]) Insert(ctx context.Context, doc T) error {
	id, err := r.store.next(ctx, "ids."+r.name)
	if err != nil {
		return err
	}
	seq, err := r.store.next(ctx, "seq")
	if err != nil {
		return err
	}
	doc.SetDocID(id)
	doc.SetSeq(seq)
	d, err := r.encode(doc)
	if err == nil {
		err = r.keysFree(ctx, doc)
	}
	if err == nil {
		_, err = r.coll.InsertOne(ctx, d)
	}
	if err != nil {
		doc.SetDocID(0)
	}
	return storeError(err)
}

// InsertMany reserves the IDs and sequences of docs at once, then stores
// them in one ordered bulk insert: one that fails stops it, those before it
// stay stored.
func (r *mongoRepo[U, T]) InsertMany(ctx context.Context, docs []T) error {
	if len(docs) == 0 {
		return nil
	}
	n := int64(len(docs))
	lastID, err := r.store.nextN(ctx, "ids."+r.name, n)
	if err != nil {
		return err
	}
	lastSeq, err := r.store.nextN(ctx, "seq", n)
	if err != nil {
		return err
	}
	encoded := make([]any, len(docs))
	for i, doc := range docs {
		doc.SetDocID(lastID - n + 1 + int64(i))
		doc.SetSeq(lastSeq - n + 1 + int64(i))
		d, err := r.encode(doc)
		if err == nil {
			err = r.keysFree(ctx, doc)
		}
		if err != nil {
			unstored(docs)
			return storeError(err)
		}
		encoded[i] = d
	}
	res, err := r.coll.InsertMany(ctx, encoded, options.InsertMany().SetOrdered(true))
	if err != nil {
		stored := 0
		if res != nil {
			stored = len(res.InsertedIDs)
		}
		var bulk mongo.BulkWriteException
		if errors.As(err, &bulk) && len(bulk.WriteErrors) > 0 {
			stored = bulk.WriteErrors[0].Index
		}
		unstored(docs[min(stored, len(docs)):])
		return storeError(err)
	}
	return nil
}

// unstored marks docs as not stored.
func unstored[T calendar.Document](docs []T) {
	for _, doc := range docs {
		doc.SetDocID(0)
	}
}

// keysFree answers ErrConflict when another document holds one of doc's key
// values (see severalValues).
func (r *mongoRepo[U, T]) keysFree(ctx context.Context, doc T) error {
	if !r.severalValues {
		return nil
	}
	for f, values := range doc.UniqueKeys() {
		n, err := r.coll.CountDocuments(ctx, bson.D{{Key: keysField + "." + f, Value: bson.D{{Key: "$in", Value: values}}},
			{Key: "_id", Value: bson.D{{Key: "$ne", Value: doc.DocID()}}}})
		if err != nil {
			return storeError(err)
		}
		if n > 0 {
			return calendar.ErrConflict
		}
	}
	return nil
}

// Update is a compare-and-swap: the filter holds the revision read, so the
// replacement matches nothing when another write came in between.
func (r *mongoRepo[U, T]) Update(ctx context.Context, doc T) error {
	read := doc.DocSeq()
	err := r.replace(ctx, doc, read)
	if err != nil {
		doc.SetSeq(read)
	}
	return err
}

func (r *mongoRepo[U, T]) replace(ctx context.Context, doc T, read int64) error {
	seq, err := r.store.next(ctx, "seq")
	if err != nil {
		return err
	}
	doc.SetSeq(seq)
	d, err := r.encode(doc)
	if err == nil {
		err = r.keysFree(ctx, doc)
	}
	if err != nil {
		return err
	}
	res, err := r.coll.ReplaceOne(ctx, bson.D{{Key: "_id", Value: doc.DocID()}, {Key: "seq", Value: read}}, d)
	if err != nil {
		return storeError(err)
	}
	if res.MatchedCount == 0 {
		return r.whyUnmatched(ctx, doc.DocID())
	}
	return nil
}

// whyUnmatched tells a compare-and-swap that matched nothing: the document
// is gone, or at another revision.
func (r *mongoRepo[U, T]) whyUnmatched(ctx context.Context, id int64) error {
	n, err := r.coll.CountDocuments(ctx, bson.D{{Key: "_id", Value: id}})
	switch {
	case err != nil:
		return storeError(err)
	case n == 0:
		return calendar.ErrNotFound
	}
	return calendar.ErrStale
}

// Delete leaves a tombstone first, then removes the document if it is still
// at revision read: a crash between the two, or a write that came in
// between, leaves a tombstone for a live document, which the index's
// catch-up resolves by reading the store (the document is there, so it
// stays); the latter's tombstone is removed again at once. The document is
// read first for its kind and who could read it, which the tombstone keeps.
func (r *mongoRepo[U, T]) Delete(ctx context.Context, id, read int64) error {
	old, err := r.Get(ctx, id)
	if err != nil {
		return err
	}
	if old.DocSeq() != read {
		return calendar.ErrStale
	}
	seq, err := r.store.next(ctx, "seq")
	if err != nil {
		return err
	}
	t := tombstone{Key: r.name + "/" + strconv.FormatInt(id, 10), Collection: r.name, ID: id, Seq: seq, At: time.Now().UTC().Truncate(time.Millisecond)}
	if k, ok := any(old).(calendar.Kinded); ok {
		t.Kind = k.DocKind()
	}
	if l, ok := any(old).(calendar.ReadLimited); ok {
		standing := l.DocStanding()
		t.Standing = &standing
	}
	_, err = r.store.tombstones.ReplaceOne(ctx, bson.D{{Key: "_id", Value: t.Key}}, t, options.Replace().SetUpsert(true))
	if err != nil {
		return storeError(err)
	}
	res, err := r.coll.DeleteOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "seq", Value: read}})
	if err != nil {
		return storeError(err)
	}
	if res.DeletedCount == 0 {
		_, _ = r.store.tombstones.DeleteOne(ctx, bson.D{{Key: "_id", Value: t.Key}, {Key: "seq", Value: seq}})
		return r.whyUnmatched(ctx, id)
	}
	return nil
}

func (r *mongoRepo[U, T]) findOne(ctx context.Context, filter bson.D) (T, error) {
	doc := T(new(U))
	if err := r.coll.FindOne(ctx, filter).Decode(doc); err != nil {
		return nil, storeError(err)
	}
	return doc, nil
}

func (r *mongoRepo[U, T]) Get(ctx context.Context, id int64) (T, error) {
	return r.findOne(ctx, bson.D{{Key: "_id", Value: id}})
}

func (r *mongoRepo[U, T]) FindByKey(ctx context.Context, field, value string) (T, error) {
	if !r.keyFields[field] {
		return nil, calendar.ErrNotFound
	}
	return r.findOne(ctx, bson.D{{Key: keysField + "." + field, Value: value}})
}

func (r *mongoRepo[U, T]) find(ctx context.Context, filter bson.D, opts ...options.Lister[options.FindOptions]) ([]T, error) {
	cur, err := r.coll.Find(ctx, filter, opts...)
	if err != nil {
		return nil, storeError(err)
	}
	defer cur.Close(ctx)
	var out []T
	for cur.Next(ctx) {
		doc := T(new(U))
		if err := cur.Decode(doc); err != nil {
			return nil, err
		}
		out = append(out, doc)
	}
	return out, storeError(cur.Err())
}

func (r *mongoRepo[U, T]) GetMany(ctx context.Context, ids []int64) ([]T, error) {
	if len(ids) == 0 {
		return []T{}, nil
	}
	found, err := r.find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]T, len(found))
	for _, d := range found {
		byID[d.DocID()] = d
	}
	out := make([]T, 0, len(ids))
	for _, id := range ids {
		if d, ok := byID[id]; ok {
			out = append(out, d)
		}
	}
	return out, nil
}

func (r *mongoRepo[U, T]) Scan(ctx context.Context, afterID int64, limit int) ([]T, error) {
	return r.find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$gt", Value: afterID}}}},
		options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(int64(limit)))
}

func (r *mongoRepo[U, T]) Count(ctx context.Context) (int64, error) {
	n, err := r.coll.CountDocuments(ctx, bson.D{})
	return n, storeError(err)
}
