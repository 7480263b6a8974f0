package bolt

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"go.etcd.io/bbolt"

	"calendar/repository/internal/storage"
)

// A backup of the embedded store is a tar stream, gzipped, of regular files
// only, in this order:
//
//	manifest.json   the BackupManifest (format, version, time, store, counts, bytes)
//	calendar.db     the bbolt database as one read transaction saw it (tx.WriteTo)
//	uploads/<name>  every file the snapshot's files bucket names, as stored
//
// The search index is not in it: a start rebuilds it from the store.
// Restore reads it back into an empty data directory.
const (
	BackupFormat  = "calendar-backup"
	BackupVersion = 1
	manifestEntry = "manifest.json"
	// storeEmbedded is the store a manifest names: the only one that writes
	// backups of itself.
	storeEmbedded = "embedded"
)

// BackupManifest is a backup's first entry, in JSON.
type BackupManifest struct {
	Format  string    `json:"format"`  // BackupFormat
	Version int       `json:"version"` // BackupVersion: a reader refuses others
	Created time.Time `json:"created"` // when the snapshot was taken, UTC
	Store   string    `json:"store"`   // "embedded"
	// Seq is the store's last change sequence in the snapshot.
	Seq    int64        `json:"seq"`
	Counts BackupCounts `json:"counts"`
	// Bytes is the size of calendar.db plus every upload: what a restore
	// writes, and the most it will.
	Bytes int64 `json:"bytes"`
}

// BackupCounts are the records and files of a snapshot.
type BackupCounts struct {
	Posts int64 `json:"posts"`
	Terms int64 `json:"terms"`
	Users int64 `json:"users"`
	Files int64 `json:"files"`
}

// Backup writes the store's backup to w while it serves (calendar.Archiver).
//
// The snapshot is one read transaction, which lasts only as long as copying
// the database into a spool file in uploads/.tmp: a bbolt write that must
// grow the file's memory map waits for every read transaction open, so one
// held while a slow client reads would stall writes. The spool costs disk
// space the size of the database while the backup runs.
//
// The files come from the spool's files bucket. One deleted after the
// snapshot began is kept aside until the backup ends (boltFiles.hold), so
// every file the snapshot names is in the archive.
func (s *Store) Backup(ctx context.Context, w io.Writer) error {
	release := s.files.hold() // before the snapshot begins
	defer release()
	spool, created, err := s.snapshot()
	if err != nil {
		return err
	}
	defer os.Remove(spool)
	if s.snapshotted != nil {
		s.snapshotted()
	}
	snap, err := bbolt.Open(spool, 0o600, &bbolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return err
	}
	defer snap.Close()
	return snap.View(func(tx *bbolt.Tx) error {
		m := manifestOf(tx)
		m.Created = created
		return s.writeArchive(ctx, w, m, spool, tx)
	})
}

// snapshot copies the database, as one read transaction sees it, into a
// spool file, and says when.
func (s *Store) snapshot() (path string, at time.Time, err error) {
	f, err := os.CreateTemp(filepath.Join(s.files.root, tmpDir), "backup-")
	if err != nil {
		return "", at, err
	}
	err = s.db.View(func(tx *bbolt.Tx) error {
		at = time.Now().UTC()
		_, err := tx.WriteTo(f)
		return err
	})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return "", at, err
	}
	return f.Name(), at, nil
}

// manifestOf counts a snapshot's records and files and sums its bytes.
func manifestOf(tx *bbolt.Tx) BackupManifest {
	count := func(bucket string) int64 { return int64(tx.Bucket([]byte(bucket)).Stats().KeyN) }
	m := BackupManifest{Format: BackupFormat, Version: BackupVersion, Store: storeEmbedded, Bytes: tx.Size(),
		Counts: BackupCounts{Posts: count(storage.PostsCollection), Terms: count(storage.TermsCollection), Users: count(storage.UsersCollection),
			Files: count(string(filesBucket))}}
	if b := tx.Bucket(metaBucket).Get(seqKey); b != nil {
		m.Seq = btoi(b)
	}
	_ = tx.Bucket(filesBucket).ForEach(func(_, v []byte) error {
		m.Bytes += decodeFileEntry(v).Size
		return nil
	})
	return m
}

// writeArchive writes the manifest, the spool as calendar.db, then each file
// the snapshot (tx, the spool's) names.
func (s *Store) writeArchive(ctx context.Context, w io.Writer, m BackupManifest, spool string, tx *bbolt.Tx) error {
	gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed) // the level is valid; uploads are compressed already
	tw := tar.NewWriter(gz)
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := putEntry(tw, manifestEntry, m.Created, int64(len(manifest)), bytes.NewReader(manifest)); err != nil {
		return err
	}
	db, err := os.Open(spool)
	if err != nil {
		return err
	}
	err = putEntry(tw, dbFile, m.Created, tx.Size(), db)
	db.Close()
	if err != nil {
		return err
	}
	err = tx.Bucket(filesBucket).ForEach(func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := s.files.openAsOf(string(k), v)
		if err != nil {
			return err
		}
		defer f.Close()
		info := decodeFileEntry(v)
		return putEntry(tw, uploadsDir+"/"+string(k), info.Written, info.Size, f)
	})
	if err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// putEntry writes one regular file: what r holds, which must be size bytes.
func putEntry(tw *tar.Writer, name string, modified time.Time, size int64, r io.Reader) error {
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o600, Size: size, ModTime: modified}); err != nil {
		return err
	}
	n, err := io.Copy(tw, r) // the tar writer refuses more than size
	if err == nil && n != size {
		err = fmt.Errorf("%s: %d bytes, its entry says %d", name, n, size)
	}
	return err
}
