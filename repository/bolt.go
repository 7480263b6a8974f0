package repository

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.etcd.io/bbolt"

	"calendar/app"
)

// Bolt is the embedded store: one bbolt file under the data dir. Every write is
// one transaction, synced to disk before it returns.
type Bolt struct {
	db    *bbolt.DB
	users *boltRepo[app.User, *app.User]
	posts *boltRepo[app.Post, *app.Post]
	terms *boltRepo[app.Term, *app.Term]
}

var (
	metaBucket = []byte("meta")
	seqKey     = []byte("seq")
)

// OpenBolt opens (creating if needed) the store in dir.
func OpenBolt(dir string) (*Bolt, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "calendar.db")
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: 2 * time.Second})
	if errors.Is(err, bbolt.ErrTimeout) {
		return nil, fmt.Errorf("%s is in use by another process", path)
	}
	if err != nil {
		return nil, err
	}
	s := &Bolt{
		db:    db,
		users: newBoltRepo[app.User](db, usersCollection),
		posts: newBoltRepo[app.Post](db, postsCollection),
		terms: newBoltRepo[app.Term](db, termsCollection),
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(metaBucket); err != nil {
			return err
		}
		for _, r := range []interface{ createBuckets(*bbolt.Tx) error }{s.users, s.posts, s.terms} {
			if err := r.createBuckets(tx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *Bolt) Users() app.Repo[*app.User] { return s.users }
func (s *Bolt) Posts() app.Repo[*app.Post] { return s.posts }
func (s *Bolt) Terms() app.Repo[*app.Term] { return s.terms }

// Ping checks that the database file is open and readable.
func (s *Bolt) Ping(ctx context.Context) error {
	return s.db.View(func(tx *bbolt.Tx) error {
		if tx.Bucket(metaBucket) == nil {
			return errors.New("meta bucket missing")
		}
		return nil
	})
}

func (s *Bolt) Close(ctx context.Context) error { return s.db.Close() }

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
