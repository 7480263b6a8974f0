package bolt

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"

	"go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"

	"calendar/app/calendar"
	"calendar/repository/internal/storage"
)

// boltRepo keeps one collection in a bucket (8-byte big-endian ID -> BSON
// document) and one bucket per unique key (value -> ID).
type boltRepo[U any, T interface {
	*U
	calendar.Document
}] struct {
	db        *bbolt.DB
	w         *committer
	name      []byte
	keyFields []string
}

func newBoltRepo[U any, T interface {
	*U
	calendar.Document
}](w *committer, name string) *boltRepo[U, T] {
	return &boltRepo[U, T]{db: w.db, w: w, name: []byte(name), keyFields: storage.UniqueFields[U, T]()}
}

// committer runs writes: a lone write commits at once; writes that overlap
// share one commit and so one fsync (bbolt's batch, which makes a write wait
// up to MaxBatchDelay for company: a price only worth paying when some is
// there).
type committer struct {
	db      *bbolt.DB
	writing atomic.Int32
}

func (c *committer) update(fn func(*bbolt.Tx) error) error {
	defer c.writing.Add(-1)
	if c.writing.Add(1) == 1 {
		return c.db.Update(fn)
	}
	return c.db.Batch(fn)
}

func (r *boltRepo[U, T]) keyBucketName(field string) []byte {
	return []byte(string(r.name) + "/key/" + field)
}

func (r *boltRepo[U, T]) createBuckets(tx *bbolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(r.name); err != nil {
		return err
	}
	for _, f := range r.keyFields {
		if _, err := tx.CreateBucketIfNotExists(r.keyBucketName(f)); err != nil {
			return err
		}
	}
	return nil
}

// keysFree reports ErrConflict when a unique key belongs to another document.
func (r *boltRepo[U, T]) keysFree(tx *bbolt.Tx, keys map[string][]string, self int64) error {
	for f, values := range keys {
		for _, v := range values {
			if owner := tx.Bucket(r.keyBucketName(f)).Get([]byte(v)); owner != nil && btoi(owner) != self {
				return calendar.ErrConflict
			}
		}
	}
	return nil
}

func (r *boltRepo[U, T]) put(tx *bbolt.Tx, doc T) error {
	data, err := bson.Marshal(doc)
	if err != nil {
		return err
	}
	id := itob(doc.DocID())
	if err := tx.Bucket(r.name).Put(id, data); err != nil {
		return err
	}
	for f, values := range doc.UniqueKeys() {
		for _, v := range values {
			if err := tx.Bucket(r.keyBucketName(f)).Put([]byte(v), id); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *boltRepo[U, T]) Insert(ctx context.Context, doc T) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	keys := doc.UniqueKeys()
	if err := storage.CheckKeys(keys); err != nil {
		return err
	}
	err := r.w.update(func(tx *bbolt.Tx) error { return r.insert(tx, doc, keys) })
	if err != nil {
		doc.SetDocID(0)
	}
	return err
}

// insert stores doc under the next ID and sequence within tx.
func (r *boltRepo[U, T]) insert(tx *bbolt.Tx, doc T, keys map[string][]string) error {
	if err := r.keysFree(tx, keys, 0); err != nil {
		return err
	}
	id, err := tx.Bucket(r.name).NextSequence()
	if err != nil {
		return err
	}
	doc.SetDocID(int64(id))
	doc.SetSeq(nextSeq(tx))
	if err := recordChange(tx, string(r.name), doc.DocID(), 0, doc.DocSeq(), false); err != nil {
		return err
	}
	return r.put(tx, doc)
}

// InsertMany stores docs in one transaction: all of them or none.
func (r *boltRepo[U, T]) InsertMany(ctx context.Context, docs []T) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	keys := make([]map[string][]string, len(docs))
	for i, doc := range docs {
		keys[i] = doc.UniqueKeys()
		if err := storage.CheckKeys(keys[i]); err != nil {
			return err
		}
	}
	err := r.w.update(func(tx *bbolt.Tx) error {
		for i, doc := range docs {
			if err := r.insert(tx, doc, keys[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		for _, doc := range docs {
			doc.SetDocID(0)
		}
	}
	return err
}

func (r *boltRepo[U, T]) Update(ctx context.Context, doc T) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	keys := doc.UniqueKeys()
	if err := storage.CheckKeys(keys); err != nil {
		return err
	}
	// Taken before the transaction: a batch may run it more than once, and
	// a run that was rolled back has already given doc another sequence.
	read := doc.DocSeq()
	err := r.w.update(func(tx *bbolt.Tx) error {
		old, err := r.get(tx, doc.DocID())
		if err != nil {
			return err
		}
		if old.DocSeq() != read {
			return calendar.ErrStale
		}
		if err := r.keysFree(tx, keys, doc.DocID()); err != nil {
			return err
		}
		if err := r.dropKeys(tx, old); err != nil {
			return err
		}
		doc.SetSeq(nextSeq(tx))
		if err := recordChange(tx, string(r.name), doc.DocID(), old.DocSeq(), doc.DocSeq(), false); err != nil {
			return err
		}
		return r.put(tx, doc)
	})
	if err != nil {
		doc.SetSeq(read)
	}
	return err
}

func (r *boltRepo[U, T]) dropKeys(tx *bbolt.Tx, doc T) error {
	for f, values := range doc.UniqueKeys() {
		for _, v := range values {
			if err := tx.Bucket(r.keyBucketName(f)).Delete([]byte(v)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *boltRepo[U, T]) Delete(ctx context.Context, id, seq int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return r.w.update(func(tx *bbolt.Tx) error {
		old, err := r.get(tx, id)
		if err != nil {
			return err
		}
		if old.DocSeq() != seq {
			return calendar.ErrStale
		}
		if err := r.dropKeys(tx, old); err != nil {
			return err
		}
		t := tombstone{collection: string(r.name), at: strconv.FormatInt(time.Now().Unix(), 10)}
		if k, ok := any(old).(calendar.Kinded); ok {
			t.kind = k.DocKind()
		}
		if l, ok := any(old).(calendar.ReadLimited); ok {
			if t.standing, err = bson.Marshal(l.DocStanding()); err != nil {
				return err
			}
		}
		if err := recordChange(tx, t.String(), id, old.DocSeq(), nextSeq(tx), true); err != nil {
			return err
		}
		return tx.Bucket(r.name).Delete(itob(id))
	})
}

func (r *boltRepo[U, T]) get(tx *bbolt.Tx, id int64) (T, error) {
	data := tx.Bucket(r.name).Get(itob(id))
	if data == nil {
		return nil, calendar.ErrNotFound
	}
	return decode[U, T](data)
}

func decode[U any, T interface {
	*U
	calendar.Document
}](data []byte) (T, error) {
	doc := T(new(U))
	if err := bson.Unmarshal(data, doc); err != nil {
		return nil, err
	}
	return doc, nil
}

func (r *boltRepo[U, T]) Get(ctx context.Context, id int64) (doc T, err error) {
	err = r.db.View(func(tx *bbolt.Tx) error {
		doc, err = r.get(tx, id)
		return err
	})
	return doc, err
}

func (r *boltRepo[U, T]) GetMany(ctx context.Context, ids []int64) ([]T, error) {
	out := make([]T, 0, len(ids))
	err := r.db.View(func(tx *bbolt.Tx) error {
		for _, id := range ids {
			doc, err := r.get(tx, id)
			if err == calendar.ErrNotFound {
				continue
			}
			if err != nil {
				return err
			}
			out = append(out, doc)
		}
		return nil
	})
	return out, err
}

func (r *boltRepo[U, T]) FindByKey(ctx context.Context, field, value string) (doc T, err error) {
	err = r.db.View(func(tx *bbolt.Tx) error {
		keys := tx.Bucket(r.keyBucketName(field))
		if keys == nil {
			return calendar.ErrNotFound
		}
		id := keys.Get([]byte(value))
		if id == nil {
			return calendar.ErrNotFound
		}
		doc, err = r.get(tx, btoi(id))
		return err
	})
	return doc, err
}

func (r *boltRepo[U, T]) Scan(ctx context.Context, afterID int64, limit int) ([]T, error) {
	var out []T
	err := r.db.View(func(tx *bbolt.Tx) error {
		defer forgetPages(tx) // a scan reads once what it reads: keep none of it mapped
		c := tx.Bucket(r.name).Cursor()
		for k, v := c.Seek(itob(afterID + 1)); k != nil && len(out) < limit; k, v = c.Next() {
			doc, err := decode[U, T](v)
			if err != nil {
				return err
			}
			out = append(out, doc)
		}
		return nil
	})
	return out, err
}

// forgetEvery is how many documents a walk of a whole bucket reads between
// two forgetPages: some tens of megabytes of pages.
const forgetEvery = 16384

func (r *boltRepo[U, T]) Count(ctx context.Context) (n int64, err error) {
	// Counting reads every page of the bucket: at a million events the
	// whole store was resident at the start of a rebuild (1.4 GB), so the
	// pages read are dropped from the mapping as the count goes.
	err = r.db.View(func(tx *bbolt.Tx) error {
		defer forgetPages(tx)
		c := tx.Bucket(r.name).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if v == nil {
				continue // a nested bucket (none today): not a document
			}
			if n++; n%forgetEvery == 0 {
				forgetPages(tx)
			}
		}
		return nil
	})
	return n, err
}
