package bolt

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"calendar/app/calendar"
	"calendar/repository/storetest"
)

// TestTheStoreContract: the embedded store passes the contract of every store.
func TestTheStoreContract(t *testing.T) {
	var dirs sync.Map // calendar.Store -> its directory; the contract's cases run in parallel
	open := func(t *testing.T, dir string) calendar.Store {
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		dirs.Store(s, dir)
		t.Cleanup(func() { s.Close(context.Background()) })
		return s
	}
	storetest.Run(t, storetest.Backend{
		Open: func(t *testing.T) calendar.Store { return open(t, t.TempDir()) },
		Reopen: func(t *testing.T, s calendar.Store) calendar.Store {
			if err := s.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			dir, _ := dirs.Load(s)
			return open(t, dir.(string))
		},
	})
}

func TestBoltRefusesADataDirInUse(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if _, err := Open(dir); err == nil {
		t.Fatal("a second open of the same data dir succeeded")
	}
}

// openDir opens the store in dir, closed when the test ends unless closed first.
func openDir(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// reopenDir plays a restart: what a crash left on disk is there when the
// store opens again.
func reopenDir(t *testing.T, s *Store, dir string) *Store {
	t.Helper()
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	return openDir(t, dir)
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func assertGone(t *testing.T, s *Store, name string) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Files().OpenFile(ctx, name); !errors.Is(err, calendar.ErrNotFound) {
		t.Fatalf("OpenFile(%q) err = %v, want ErrNotFound", name, err)
	}
	if _, err := s.Files().StatFile(ctx, name); !errors.Is(err, calendar.ErrNotFound) {
		t.Fatalf("StatFile(%q) err = %v, want ErrNotFound", name, err)
	}
	listed, err := s.Files().ListFiles(ctx, time.Now().Add(time.Hour))
	if err != nil || slices.Contains(storetest.Names(listed), name) {
		t.Fatalf("ListFiles = %v, %v; want no %s", storetest.Names(listed), err, name)
	}
}

func TestBoltFilesRecoverFromACrash(t *testing.T) {
	ctx := context.Background()

	t.Run("a temporary file left by a put is removed", func(t *testing.T) {
		dir := t.TempDir()
		s := openDir(t, dir)
		leftover := filepath.Join(dir, "uploads", ".tmp", "put-123")
		writeFile(t, leftover, []byte("half"))
		reopenDir(t, s, dir)
		if _, err := os.Stat(leftover); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("temporary file after reopen: %v", err)
		}
	})

	t.Run("an entry whose file is missing or short is dropped", func(t *testing.T) {
		dir := t.TempDir()
		s := openDir(t, dir)
		for _, name := range []string{"2026/11/lost.jpg", "2026/11/short.jpg", "2026/11/kept.jpg"} {
			if err := s.Files().PutFile(ctx, name, 1, storetest.RandomBytes(100)); err != nil {
				t.Fatal(err)
			}
		}
		// The claim committed, the rename did not reach the disk; or did, whole
		// to another size on a file system that disagrees.
		if err := os.Remove(filepath.Join(dir, "uploads/2026/11/lost.jpg")); err != nil {
			t.Fatal(err)
		}
		short := filepath.Join(dir, "uploads/2026/11/short.jpg")
		if err := os.Truncate(short, 50); err != nil {
			t.Fatal(err)
		}
		s = reopenDir(t, s, dir)
		assertGone(t, s, "2026/11/lost.jpg")
		assertGone(t, s, "2026/11/short.jpg")
		if _, err := os.Stat(short); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("the short file is still on disk: %v", err)
		}
		storetest.MustOpen(t, s.Files(), "2026/11/kept.jpg", storetest.RandomBytes(100))
		if err := s.Files().PutFile(ctx, "2026/11/lost.jpg", 2, []byte("again")); err != nil {
			t.Fatalf("the dropped name is not free: %v", err)
		}
	})

	t.Run("a file without an entry is never reported and is removed", func(t *testing.T) {
		dir := t.TempDir()
		s := openDir(t, dir)
		// A delete removed the entry, not yet the file.
		stray := filepath.Join(dir, "uploads/2026/12/stray.jpg")
		writeFile(t, stray, []byte("stray"))
		assertGone(t, s, "2026/12/stray.jpg")
		if err := s.Files().PutFile(ctx, "2026/12/other.jpg", 1, []byte("x")); err != nil {
			t.Fatal(err)
		}
		s = reopenDir(t, s, dir)
		assertGone(t, s, "2026/12/stray.jpg")
		if _, err := os.Stat(stray); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("stray file after reopen: %v", err)
		}
		storetest.MustOpen(t, s.Files(), "2026/12/other.jpg", []byte("x"))
		if err := s.Files().DeleteFile(ctx, "2026/12/other.jpg"); err != nil {
			t.Fatal(err)
		}
		reopenDir(t, s, dir)
		if _, err := os.Stat(filepath.Join(dir, "uploads/2026")); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("empty directories after reopen: %v", err)
		}
	})

	t.Run("a put over a stray file replaces it", func(t *testing.T) {
		dir := t.TempDir()
		s := openDir(t, dir)
		writeFile(t, filepath.Join(dir, "uploads/2026/12/name.jpg"), []byte("stray"))
		if err := s.Files().PutFile(ctx, "2026/12/name.jpg", 3, []byte("mine")); err != nil {
			t.Fatal(err)
		}
		storetest.MustOpen(t, s.Files(), "2026/12/name.jpg", []byte("mine"))
		storetest.MustOpen(t, reopenDir(t, s, dir).Files(), "2026/12/name.jpg", []byte("mine"))
	})
}

func TestBoltFilesStayInsideUploads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	abs := filepath.Join(t.TempDir(), "escape")
	s := openDir(t, dir)
	for _, name := range []string{"../escape", "../../escape", abs, `..\escape`} {
		if err := s.Files().PutFile(context.Background(), name, 1, []byte("x")); err == nil {
			t.Fatalf("PutFile(%q) accepted", name)
		}
	}
	for _, p := range []string{filepath.Join(dir, "escape"), filepath.Join(dir, "..", "escape"), abs} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%s was written: %v", p, err)
		}
	}
}

// TestBoltStampsAnOldTombstoneKeepingWhatItHolds: a tombstone written
// before times were kept is given the prune's time, and keeps its kind; one
// with a time keeps who could read its post through a prune.
func TestBoltStampsAnOldTombstoneKeepingWhatItHolds(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	ctx := context.Background()
	post := &calendar.Post{Type: calendar.PostTypeEvent, Slug: "e", Status: calendar.StatusDraft, Author: 3}
	if err := s.Posts().Insert(ctx, post); err != nil {
		t.Fatal(err)
	}
	if err := s.Posts().Delete(ctx, post.ID, post.Seq); err != nil {
		t.Fatal(err)
	}
	err = s.db.Update(func(tx *bbolt.Tx) error { // as deletes were written before times were kept
		return recordChange(tx, "terms"+kindSeparator+"post_tag", 99, 0, nextSeq(tx), true)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PruneChanges(ctx, time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	feed, err := s.Changes(ctx, 0, 10)
	if err != nil || len(feed) != 2 {
		t.Fatalf("feed: %+v, %v", feed, err)
	}
	if c := feed[0]; c.Kind != calendar.PostTypeEvent || c.Standing.Status != calendar.StatusDraft || c.Standing.Author != 3 {
		t.Fatalf("the post's tombstone after a prune: %+v", c)
	}
	err = s.db.View(func(tx *bbolt.Tx) error {
		v := tx.Bucket(changesBucket).Get(itob(feed[1].Seq))
		if at, ok := deletedAt(v); !ok || time.Since(at) > time.Hour || feed[1].Kind != "post_tag" || feed[1].Collection != "terms" {
			t.Fatalf("the old tombstone: %+v, stamped %v %v", feed[1], at, ok)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
