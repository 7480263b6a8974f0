// Package bolt is the embedded store behind calendar.Store: one bbolt file
// under the data directory, its uploaded files beside it, and backups of
// itself while it serves (calendar.Archiver). Documents are BSON with the
// calendar types' bson tags; IDs are allocated per collection and change
// sequence numbers store-wide; the unique keys each document declares are
// enforced. repository/storetest is the contract it passes.
package bolt

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
	"go.mongodb.org/mongo-driver/v2/bson"

	"calendar/app/calendar"
	"calendar/repository/internal/storage"
)

// Store implements app's port, and writes backups of itself too.
var (
	_ calendar.Store     = (*Store)(nil)
	_ calendar.Archiver  = (*Store)(nil)
	_ calendar.Exclusive = (*Store)(nil)
)

// Store is the embedded store: one bbolt file under the data dir. Every write is
// one transaction, synced to disk before it returns.
type Store struct {
	db          *bbolt.DB
	users       *boltRepo[calendar.User, *calendar.User]
	posts       *boltRepo[calendar.Post, *calendar.Post]
	terms       *boltRepo[calendar.Term, *calendar.Term]
	guards      *boltRepo[calendar.Guard, *calendar.Guard]
	hooks       *boltRepo[calendar.Webhook, *calendar.Webhook]
	marks       *boltRepo[calendar.WebhookMark, *calendar.WebhookMark]
	syns        *boltRepo[calendar.Synonym, *calendar.Synonym]
	files       *boltFiles
	imports     *boltRepo[calendar.ImportSource, *calendar.ImportSource]
	importItems *boltRepo[calendar.ImportItem, *calendar.ImportItem]
	fields      *boltRepo[calendar.FieldSet, *calendar.FieldSet]
	// snapshotted, when a test sets it, runs once a backup's snapshot is
	// taken, before the archive is written.
	snapshotted func()
}

// dbFile is the database's file under the data dir.
const dbFile = "calendar.db"

var (
	metaBucket    = []byte("meta")
	seqKey        = []byte("seq")
	horizonKey    = []byte("horizon") // the highest sequence of a pruned tombstone
	changesBucket = []byte("changes") // seq -> collection, ID, deleted: the change feed
)

// Open opens (creating if needed) the store in dir.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, dbFile)
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: 2 * time.Second})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("%s is in use by another process", path)
	}
	if err != nil {
		return nil, err
	}
	db.MaxBatchDelay = time.Millisecond
	w := &committer{db: db}
	s := &Store{
		db:          db,
		users:       newBoltRepo[calendar.User](w, storage.UsersCollection),
		posts:       newBoltRepo[calendar.Post](w, storage.PostsCollection),
		terms:       newBoltRepo[calendar.Term](w, storage.TermsCollection),
		guards:      newBoltRepo[calendar.Guard](w, storage.GuardsCollection),
		hooks:       newBoltRepo[calendar.Webhook](w, storage.WebhooksCollection),
		marks:       newBoltRepo[calendar.WebhookMark](w, storage.WebhookMarksCollection),
		syns:        newBoltRepo[calendar.Synonym](w, storage.SynonymsCollection),
		imports:     newBoltRepo[calendar.ImportSource](w, storage.ImportsCollection),
		importItems: newBoltRepo[calendar.ImportItem](w, storage.ImportItemsCollection),
		fields:      newBoltRepo[calendar.FieldSet](w, storage.FieldsCollection),
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		for _, b := range [][]byte{metaBucket, changesBucket, filesBucket} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		for _, r := range []interface{ createBuckets(*bbolt.Tx) error }{s.users, s.posts, s.terms, s.guards, s.hooks, s.marks, s.syns, s.imports, s.importItems, s.fields} {
			if err := r.createBuckets(tx); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		s.files, err = openBoltFiles(dir, w)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
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

// Exclusive: one process alone opens the file (bbolt's lock), and a write
// takes its sequence in the transaction that commits it.
func (s *Store) Exclusive() {}

// Ping checks that the database file is open and readable.
func (s *Store) Ping(ctx context.Context) error {
	return s.db.View(func(tx *bbolt.Tx) error {
		if tx.Bucket(metaBucket) == nil {
			return errors.New("meta bucket missing")
		}
		return nil
	})
}

func (s *Store) Close(ctx context.Context) error {
	if s.db.NoSync { // after a bulk load, make it durable before closing
		if err := s.db.Sync(); err != nil {
			return err
		}
	}
	return s.db.Close()
}

// BulkLoad turns syncing on every commit off (on=true) for a bulk import, and
// back on with one sync of everything written (on=false). Not for serving:
// while it is on, a crash can lose acknowledged writes.
func (s *Store) BulkLoad(on bool) error {
	s.db.NoSync = on
	if !on {
		return s.db.Sync()
	}
	return nil
}

// Changes reads the change feed from afterSeq on.
func (s *Store) Changes(ctx context.Context, afterSeq int64, limit int) ([]calendar.Change, error) {
	var out []calendar.Change
	err := s.db.View(func(tx *bbolt.Tx) error {
		c := tx.Bucket(changesBucket).Cursor()
		for k, v := c.Seek(itob(afterSeq + 1)); k != nil && len(out) < limit; k, v = c.Next() {
			ch, err := decodeChange(btoi(k), v)
			if err != nil {
				return err
			}
			out = append(out, ch)
		}
		return nil
	})
	return out, err
}

// LastSeq is the highest sequence number handed out.
func (s *Store) LastSeq(ctx context.Context) (seq int64, err error) {
	err = s.db.View(func(tx *bbolt.Tx) error {
		if b := tx.Bucket(metaBucket).Get(seqKey); b != nil {
			seq = btoi(b)
		}
		return nil
	})
	return seq, err
}

// recordChange replaces a document's entry in the feed: the one under its
// previous sequence (0: none) goes, the new one comes.
func recordChange(tx *bbolt.Tx, collection string, id, previousSeq, seq int64, deleted bool) error {
	feed := tx.Bucket(changesBucket)
	if previousSeq != 0 {
		if err := feed.Delete(itob(previousSeq)); err != nil {
			return err
		}
	}
	flag := byte('w')
	if deleted {
		flag = 'd'
	}
	return feed.Put(itob(seq), append(append(itob(id), flag), collection...))
}

// kindSeparator follows a tombstone's collection with the deleted document's
// kind, then the Unix time of the delete, then who could read the document
// (calendar.Standings in BSON, last: it may hold the separator); entries
// written before kinds (or times, or standings) were kept have none.
const kindSeparator = "\x00"

// tombstone is a deleted document's entry in the feed, after its ID and flag.
type tombstone struct {
	collection, kind, at string
	standing             []byte
}

func parseTombstone(v []byte) tombstone {
	parts := strings.SplitN(string(v[9:]), kindSeparator, 4)
	parts = append(parts, make([]string, 4-len(parts))...)
	return tombstone{collection: parts[0], kind: parts[1], at: parts[2], standing: []byte(parts[3])}
}

// String is the entry as stored; a tombstone without a time stays without
// the parts after it (see deletedAt).
func (t tombstone) String() string {
	s := t.collection + kindSeparator + t.kind
	if t.at != "" {
		s += kindSeparator + t.at
		if len(t.standing) > 0 {
			s += kindSeparator + string(t.standing)
		}
	}
	return s
}

func decodeChange(seq int64, v []byte) (calendar.Change, error) {
	if len(v) < 10 {
		return calendar.Change{}, fmt.Errorf("change %d is corrupt", seq)
	}
	t := parseTombstone(v)
	c := calendar.Change{Seq: seq, ID: btoi(v[:8]), Deleted: v[8] == 'd', Collection: t.collection, Kind: t.kind}
	if len(t.standing) > 0 {
		if err := bson.Unmarshal(t.standing, &c.Standing); err != nil {
			return calendar.Change{}, fmt.Errorf("change %d is corrupt: %w", seq, err)
		}
	}
	return c, nil
}

// deletedAt is when a tombstone's delete was made; false when it was
// written before times were kept.
func deletedAt(v []byte) (time.Time, bool) {
	unix, err := strconv.ParseInt(parseTombstone(v).at, 10, 64)
	return time.Unix(unix, 0), err == nil
}

// PruneChanges removes the tombstones of deletes before the instant, in one
// transaction: the feed's entries are read whole (an hourly pass).
func (s *Store) PruneChanges(ctx context.Context, before time.Time) (horizon int64, err error) {
	now := strconv.FormatInt(time.Now().Unix(), 10)
	err = s.db.Update(func(tx *bbolt.Tx) error {
		feed, meta := tx.Bucket(changesBucket), tx.Bucket(metaBucket)
		if b := meta.Get(horizonKey); b != nil {
			horizon = btoi(b)
		}
		var gone, stamp [][]byte
		c := feed.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(v) < 10 || v[8] != 'd' {
				continue
			}
			switch at, ok := deletedAt(v); {
			case !ok:
				stamp = append(stamp, k)
			case at.Before(before):
				gone = append(gone, k)
				horizon = max(horizon, btoi(k))
			}
		}
		for _, k := range stamp {
			v := feed.Get(k)
			t := parseTombstone(v)
			t.at = now // what else it keeps stays
			if err := feed.Put(k, append(append([]byte{}, v[:9]...), t.String()...)); err != nil {
				return err
			}
		}
		for _, k := range gone {
			if err := feed.Delete(k); err != nil {
				return err
			}
		}
		return meta.Put(horizonKey, itob(horizon))
	})
	return horizon, err
}

// Horizon is the highest sequence of a pruned tombstone.
func (s *Store) Horizon(ctx context.Context) (horizon int64, err error) {
	err = s.db.View(func(tx *bbolt.Tx) error {
		if b := tx.Bucket(metaBucket).Get(horizonKey); b != nil {
			horizon = btoi(b)
		}
		return nil
	})
	return horizon, err
}

// nextSeq takes the next number of the store-wide change sequence.
func nextSeq(tx *bbolt.Tx) int64 {
	meta := tx.Bucket(metaBucket)
	var seq int64
	if b := meta.Get(seqKey); b != nil {
		seq = btoi(b)
	}
	seq++
	_ = meta.Put(seqKey, itob(seq)) // cannot fail in a writable tx with a valid key
	return seq
}

// itob and btoi are the keys of IDs and sequences: 8 bytes, big-endian, so
// that byte order is numeric order.
func itob(id int64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, uint64(id))
	return b
}

func btoi(b []byte) int64 { return int64(binary.BigEndian.Uint64(b)) }
