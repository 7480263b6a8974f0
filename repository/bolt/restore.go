package bolt

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.etcd.io/bbolt"

	"calendar/repository/internal/storage"
)

// RestoreLimits bound what a restore writes.
type RestoreLimits struct {
	// MaxBytes bounds the archive's content (calendar.db and the uploads):
	// its manifest declares their sum, which may be no more, and a restore
	// writes no more than the manifest declares.
	MaxBytes int64
}

const (
	// restoreStaging is where a restore writes, inside the data directory,
	// before it moves what it checked into place.
	restoreStaging = ".restore-partial"
	// maxManifestBytes bounds the manifest entry.
	maxManifestBytes = 64 << 10
	// maxTrailingBytes bounds what may follow the tar stream's end in the
	// gzip stream (its padding), read to check the gzip checksum.
	maxTrailingBytes = 1 << 20
)

// Restore fills dir, which must be empty or missing, with the embedded
// store a backup archive holds (its format: backup.go), with the
// service stopped. It refuses an archive of another format or version, an
// entry that is not a regular file or not a name a backup holds (so nothing
// lands outside dir: no "..", absolute name or link), content beyond the
// manifest's bytes or the limits, and a database whose records, files or
// sequence are not those the manifest counts. It writes into
// dir/.restore-partial first and moves the uploads, then calendar.db, into
// place once all is checked; on a refusal dir is left empty. The search
// index is not in the archive: the next start builds it.
func Restore(dir string, archive io.Reader, limits RestoreLimits) (BackupManifest, error) {
	if err := emptyDataDir(dir); err != nil {
		return BackupManifest{}, err
	}
	staging := filepath.Join(dir, restoreStaging)
	if err := os.Mkdir(staging, 0o750); err != nil {
		return BackupManifest{}, err
	}
	defer os.RemoveAll(staging)
	m, err := extractBackup(archive, staging, limits)
	if err == nil {
		err = checkRestored(staging, m)
	}
	if err == nil {
		err = syncTree(staging)
	}
	if err != nil {
		return m, err
	}
	if err := os.Rename(filepath.Join(staging, uploadsDir), filepath.Join(dir, uploadsDir)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return m, err
	}
	if err := os.Rename(filepath.Join(staging, dbFile), filepath.Join(dir, dbFile)); err != nil {
		return m, err
	}
	if err := os.Remove(staging); err != nil {
		return m, err
	}
	return m, syncDir(dir)
}

// emptyDataDir makes dir if it is missing, and refuses it if it holds
// anything but a file system's lost+found.
func emptyDataDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o750)
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != "lost+found" {
			return fmt.Errorf("%s is not empty (it holds %s): a restore fills an empty data directory only; "+
				"stop the service and give it a new or emptied one", dir, e.Name())
		}
	}
	return nil
}

// extractBackup writes the archive's entries under staging, checking each
// as it comes, and returns its manifest.
func extractBackup(archive io.Reader, staging string, limits RestoreLimits) (BackupManifest, error) {
	var m BackupManifest
	gz, err := gzip.NewReader(archive)
	if err != nil {
		return m, fmt.Errorf("not a calendar backup (a gzipped tar stream): %w", err)
	}
	tr := tar.NewReader(gz)
	if m, err = readManifest(tr, limits); err != nil {
		return m, err
	}
	left, seen, uploads := m.Bytes, map[string]bool{}, int64(0)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return m, fmt.Errorf("reading the archive: %w", err)
		}
		name, err := entryName(hdr)
		if err != nil {
			return m, err
		}
		if seen[name] {
			return m, fmt.Errorf("the archive holds %s twice: refused", name)
		}
		seen[name] = true
		if name != dbFile {
			uploads++
		}
		if hdr.Size < 0 || hdr.Size > left {
			return m, fmt.Errorf("%s (%d bytes) goes beyond the %d bytes the manifest declares: refused", name, hdr.Size, m.Bytes)
		}
		left -= hdr.Size
		if err := writeEntry(filepath.Join(staging, filepath.FromSlash(name)), tr, hdr.Size); err != nil {
			return m, fmt.Errorf("%s: %w", name, err)
		}
	}
	if n, err := io.Copy(io.Discard, io.LimitReader(gz, maxTrailingBytes+1)); err != nil { // the gzip checksum
		return m, fmt.Errorf("reading the archive: %w", err)
	} else if n > maxTrailingBytes {
		return m, errors.New("the archive goes on after its end: refused")
	}
	switch {
	case !seen[dbFile]:
		return m, fmt.Errorf("the archive holds no %s", dbFile)
	case left != 0:
		return m, fmt.Errorf("the archive holds %d bytes fewer than its manifest declares", left)
	case uploads != m.Counts.Files:
		return m, fmt.Errorf("the archive holds %d files, its manifest counts %d", uploads, m.Counts.Files)
	}
	return m, nil
}

// readManifest reads the first entry, which must be the manifest of a
// version this code reads, for the embedded store, within the limits.
func readManifest(tr *tar.Reader, limits RestoreLimits) (BackupManifest, error) {
	var m BackupManifest
	hdr, err := tr.Next()
	if err != nil {
		return m, fmt.Errorf("not a calendar backup: %w", err)
	}
	if hdr.Name != manifestEntry || hdr.Typeflag != tar.TypeReg || hdr.Size > maxManifestBytes {
		return m, fmt.Errorf("not a calendar backup: its first entry is %q, not a %s", hdr.Name, manifestEntry)
	}
	if err := json.NewDecoder(tr).Decode(&m); err != nil {
		return m, fmt.Errorf("not a calendar backup: %s: %w", manifestEntry, err)
	}
	switch {
	case m.Format != BackupFormat:
		return m, fmt.Errorf("not a calendar backup: its manifest's format is %q", m.Format)
	case m.Version != BackupVersion:
		return m, fmt.Errorf("the archive's format version is %d; this calendar reads version %d only", m.Version, BackupVersion)
	case m.Store != storeEmbedded:
		return m, fmt.Errorf("the archive is of the %q store; restore reads the embedded store's", m.Store)
	case m.Bytes < 0 || m.Bytes > limits.MaxBytes:
		return m, fmt.Errorf("the archive declares %d bytes, beyond the bound of %d: refused", m.Bytes, limits.MaxBytes)
	}
	return m, nil
}

// entryName is the name under the data directory an entry goes to:
// calendar.db, or uploads/ and a name the store takes (no "..", no
// absolute name, no empty or hidden segment). Only regular files.
func entryName(hdr *tar.Header) (string, error) {
	if hdr.Typeflag != tar.TypeReg {
		return "", fmt.Errorf("the archive's entry %q is not a regular file (type %q): refused", hdr.Name, hdr.Typeflag)
	}
	if hdr.Name == dbFile {
		return dbFile, nil
	}
	if name, ok := strings.CutPrefix(hdr.Name, uploadsDir+"/"); ok && storage.CheckFileName(name) == nil {
		return hdr.Name, nil
	}
	return "", fmt.Errorf("the archive's entry %q is not a name a calendar backup holds: refused", hdr.Name)
}

// writeEntry writes size bytes of r to a new file at path, synced.
func writeEntry(path string, r io.Reader, size int64) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.CopyN(f, r, size)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// checkRestored opens the extracted database and checks it against the
// manifest: its buckets, counts and sequence, and that each file its files
// bucket names was extracted, at its size (extractBackup counted the files).
func checkRestored(staging string, m BackupManifest) (err error) {
	db, err := bbolt.Open(filepath.Join(staging, dbFile), 0o600, &bbolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return fmt.Errorf("%s is not a database: %w", dbFile, err)
	}
	defer db.Close()
	defer func() { // bbolt panics on some damaged pages
		if p := recover(); p != nil {
			err = fmt.Errorf("%s is damaged: %v", dbFile, p)
		}
	}()
	return db.View(func(tx *bbolt.Tx) error {
		for _, b := range []string{string(metaBucket), string(changesBucket), string(filesBucket), storage.UsersCollection, storage.PostsCollection, storage.TermsCollection} {
			if tx.Bucket([]byte(b)) == nil {
				return fmt.Errorf("%s has no %s bucket: not a calendar store", dbFile, b)
			}
		}
		found := manifestOf(tx)
		if found.Counts != m.Counts || found.Seq != m.Seq || found.Bytes != m.Bytes {
			return fmt.Errorf("the manifest says %+v, sequence %d, %d bytes; the archive holds %+v, sequence %d, %d bytes: it was altered",
				m.Counts, m.Seq, m.Bytes, found.Counts, found.Seq, found.Bytes)
		}
		return tx.Bucket(filesBucket).ForEach(func(k, v []byte) error {
			if err := storage.CheckFileName(string(k)); err != nil {
				return fmt.Errorf("%s names a file no store takes: %w", dbFile, err)
			}
			fi, err := os.Lstat(filepath.Join(staging, uploadsDir, filepath.FromSlash(string(k))))
			if err != nil || !fi.Mode().IsRegular() || fi.Size() != decodeFileEntry(v).Size {
				return fmt.Errorf("%s/%s: the database names it, the archive does not hold it as stored", uploadsDir, k)
			}
			return nil
		})
	})
}

// syncTree syncs every directory under root, root included, so that what
// was extracted survives a crash once moved into place.
func syncTree(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			err = syncDir(p)
		}
		return err
	})
}
