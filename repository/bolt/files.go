package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.etcd.io/bbolt"

	"calendar/app/calendar"
	"calendar/repository/internal/storage"
)

// boltFiles keeps uploads as plain files under <dir>/uploads, and each name's
// owner, size and write time in the "files" bucket, which alone answers
// OpenFile's lookup and ListFiles.
//
// Crash safety: the bucket entry is the commit point, and a name is stored
// when its entry is and its file has the entry's size. PutFile (1) writes and
// fsyncs a temporary file in uploads/.tmp, (2) claims the name in a bolt
// transaction, (3) renames the temporary file into place and (4) fsyncs the
// directory. DeleteFile removes the entry, then the file. Before serving,
// Open empties .tmp, drops each entry whose file is missing or of another
// size, then removes each file no entry names. So a crash
//   - before (2) leaves a temporary file: emptied, the name absent;
//   - between (2) and a durable (3) leaves an entry without its file: dropped,
//     the name absent;
//   - after (3) reached the disk loses nothing: the data was synced before the
//     rename made it visible, so the file is whole (the size check guards a
//     file system that thinks otherwise);
//   - in the middle of a delete leaves a file without an entry: never reported,
//     since reads start at the bucket, and removed.
//
// Claiming before renaming is also what keeps a losing put from replacing the
// winner's file. A lock per name (striped) keeps one name's claim and rename,
// a delete's two steps and an open from interleaving.
//
// While a backup runs (hold), DeleteFile moves the file into .tmp instead of
// removing it: the backup's snapshot may name it still, and finds it there
// (openAsOf). The last backup to end removes what was kept; a crash leaves
// it in .tmp, which the next open empties.
type boltFiles struct {
	db    *bbolt.DB
	w     *committer
	root  string
	seed  maphash.Seed
	locks [64]sync.RWMutex
	// dirs makes creating a directory and syncing it into its parent one step
	// for the other puts: none renames into a directory not yet durable.
	dirs sync.Mutex
	held heldFiles
}

// heldFiles counts the backups running and keeps, by name, the files
// deleted meanwhile, each with the bucket entry it had.
type heldFiles struct {
	mu      sync.Mutex
	backups int
	kept    map[string][]keptFile
	n       int // names the kept files: kept-1, kept-2...
}

type keptFile struct {
	entry []byte
	path  string
}

var filesBucket = []byte("files")

// uploadsDir is the files' directory under the data dir; tmpDir, under it,
// holds what a reopen empties: puts' temporary files, backups' spools and
// the files kept aside for them.
const (
	uploadsDir = "uploads"
	tmpDir     = ".tmp"
)

func (s *Store) Files() calendar.Files { return s.files }

// openBoltFiles recovers the uploads as the comment on boltFiles says. The
// files bucket exists already.
func openBoltFiles(dir string, w *committer) (*boltFiles, error) {
	f := &boltFiles{db: w.db, w: w, root: filepath.Join(dir, uploadsDir), seed: maphash.MakeSeed()}
	tmp := filepath.Join(f.root, tmpDir)
	if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(tmp, 0o750); err != nil {
		return nil, err
	}
	if err := f.dropBrokenEntries(); err != nil {
		return nil, err
	}
	return f, f.removeStrays()
}

func (f *boltFiles) dropBrokenEntries() error {
	return f.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(filesBucket)
		var broken [][]byte
		err := b.ForEach(func(k, v []byte) error {
			fi, err := os.Lstat(f.path(string(k)))
			if errors.Is(err, fs.ErrNotExist) || err == nil && (!fi.Mode().IsRegular() || fi.Size() != decodeFileEntry(v).Size) {
				broken = append(broken, bytes.Clone(k))
				return nil
			}
			return err
		})
		for _, k := range broken {
			if err == nil {
				err = b.Delete(k)
			}
		}
		return err
	})
}

// removeStrays removes what no entry names (the files of dropped entries
// among them), then the directories left empty, deepest first.
func (f *boltFiles) removeStrays() error {
	var dirs []string
	err := f.db.View(func(tx *bbolt.Tx) error {
		b := tx.Bucket(filesBucket)
		return filepath.WalkDir(f.root, func(p string, d fs.DirEntry, err error) error {
			rel, _ := filepath.Rel(f.root, p)
			switch {
			case err != nil:
				return err
			case rel == tmpDir:
				return filepath.SkipDir
			case d.IsDir():
				dirs = append(dirs, p)
			case b.Get([]byte(filepath.ToSlash(rel))) == nil:
				return os.Remove(p)
			}
			return nil
		})
	})
	sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	for _, d := range dirs[:max(len(dirs)-1, 0)] { // the last is the root
		_ = os.Remove(d) // fails on the ones not empty
	}
	return err
}

// A bucket value holds owner, size and write time (Unix nanoseconds).
func encodeFileEntry(info calendar.FileInfo) []byte {
	v := make([]byte, 24)
	binary.BigEndian.PutUint64(v, uint64(info.Owner))
	binary.BigEndian.PutUint64(v[8:], uint64(info.Size))
	binary.BigEndian.PutUint64(v[16:], uint64(info.Written.UnixNano()))
	return v
}

func decodeFileEntry(v []byte) calendar.FileInfo {
	if len(v) != 24 {
		return calendar.FileInfo{Size: -1} // never matches a file: dropped on open
	}
	return calendar.FileInfo{Owner: btoi(v), Size: btoi(v[8:]), Written: time.Unix(0, btoi(v[16:])).UTC()}
}

func (f *boltFiles) path(name string) string { return filepath.Join(f.root, filepath.FromSlash(name)) }

func (f *boltFiles) lock(name string) *sync.RWMutex {
	return &f.locks[maphash.String(f.seed, name)%uint64(len(f.locks))]
}

func (f *boltFiles) entry(name string) (info calendar.FileInfo, err error) {
	v, err := f.rawEntry(name)
	if err != nil {
		return info, err
	}
	info = decodeFileEntry(v)
	info.Name = name
	return info, nil
}

// rawEntry is a name's bucket value as stored. ErrNotFound.
func (f *boltFiles) rawEntry(name string) (v []byte, err error) {
	err = f.db.View(func(tx *bbolt.Tx) error {
		if v = bytes.Clone(tx.Bucket(filesBucket).Get([]byte(name))); v == nil {
			return calendar.ErrNotFound
		}
		return nil
	})
	return v, err
}

func (f *boltFiles) PutFile(ctx context.Context, name string, owner int64, data []byte) error {
	if err := storage.CheckFileName(name); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, err := f.entry(name); err == nil { // spares writing a file that cannot win
		return calendar.ErrConflict
	}
	tmp, err := f.writeTemp(data)
	if err != nil {
		return err
	}
	defer func() {
		if tmp != "" {
			_ = os.Remove(tmp)
		}
	}()
	m := f.lock(name)
	m.Lock()
	defer m.Unlock()
	if err := f.mkdirs(path.Dir(name)); err != nil {
		return err
	}
	key := []byte(name)
	value := encodeFileEntry(calendar.FileInfo{Owner: owner, Size: int64(len(data)), Written: time.Now()})
	err = f.w.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(filesBucket)
		if b.Get(key) != nil {
			return calendar.ErrConflict
		}
		return b.Put(key, value)
	})
	if err != nil {
		return err
	}
	target := f.path(name)
	if err = os.Rename(tmp, target); err == nil {
		tmp = ""
		if err = syncDir(filepath.Dir(target)); err != nil {
			_ = os.Remove(target)
		}
	}
	if err != nil { // give the name back: it is ours, as we hold its lock
		_ = f.w.update(func(tx *bbolt.Tx) error { return tx.Bucket(filesBucket).Delete(key) })
	}
	return err
}

func (f *boltFiles) writeTemp(data []byte) (string, error) {
	t, err := os.CreateTemp(filepath.Join(f.root, tmpDir), "put-")
	if err != nil {
		return "", err
	}
	_, err = t.Write(data)
	if err == nil {
		err = t.Sync()
	}
	if cerr := t.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(t.Name())
		return "", err
	}
	return t.Name(), nil
}

// mkdirs creates the missing directories of rel, each synced into its parent
// so that a rename into it, once synced, survives a crash.
func (f *boltFiles) mkdirs(rel string) error {
	f.dirs.Lock()
	defer f.dirs.Unlock()
	if _, err := os.Stat(f.path(rel)); err == nil {
		return nil
	}
	dir := f.root
	for _, seg := range strings.Split(rel, "/") {
		next := filepath.Join(dir, seg)
		err := os.Mkdir(next, 0o750)
		if err == nil {
			err = syncDir(dir)
		} else if errors.Is(err, fs.ErrExist) {
			err = nil
		}
		if err != nil {
			return err
		}
		dir = next
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// OpenFile reports a name that could not be stored as not found.
func (f *boltFiles) OpenFile(ctx context.Context, name string) (calendar.StoredFile, error) {
	if storage.CheckFileName(name) != nil {
		return nil, calendar.ErrNotFound
	}
	m := f.lock(name)
	m.RLock()
	defer m.RUnlock()
	info, err := f.entry(name)
	if err != nil {
		return nil, err
	}
	file, err := os.Open(f.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, calendar.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return &diskFile{File: file, info: info}, nil
}

func (f *boltFiles) StatFile(ctx context.Context, name string) (calendar.FileInfo, error) {
	if storage.CheckFileName(name) != nil {
		return calendar.FileInfo{}, calendar.ErrNotFound
	}
	m := f.lock(name)
	m.RLock()
	defer m.RUnlock()
	return f.entry(name)
}

type diskFile struct {
	*os.File
	info calendar.FileInfo
}

func (d *diskFile) Info() calendar.FileInfo { return d.info }

// DeleteFile leaves empty directories to the next open, where no put can be
// about to rename into one.
func (f *boltFiles) DeleteFile(ctx context.Context, name string) error {
	if err := storage.CheckFileName(name); err != nil {
		return err
	}
	m := f.lock(name)
	m.Lock()
	defer m.Unlock()
	entry, err := f.rawEntry(name)
	if errors.Is(err, calendar.ErrNotFound) {
		return nil // and a stray file there is the next open's
	} else if err != nil {
		return err
	}
	if err := f.w.update(func(tx *bbolt.Tx) error { return tx.Bucket(filesBucket).Delete([]byte(name)) }); err != nil {
		return err
	}
	if kept, err := f.keepAside(name, entry); kept || err != nil {
		return err
	}
	if err := os.Remove(f.path(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// hold keeps on disk every file deleted from now until release, for a
// backup whose snapshot, taken after hold, may name it: a delete that
// commits after the snapshot began looks for backups after its commit, so
// it finds this one.
func (f *boltFiles) hold() (release func()) {
	h := &f.held
	h.mu.Lock()
	h.backups++
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.backups--; h.backups == 0 {
			for _, kept := range h.kept {
				for _, k := range kept {
					_ = os.Remove(k.path) // else the next open's, as it is in .tmp
				}
			}
			h.kept = nil
		}
	}
}

// keepAside moves a file whose entry was just deleted into .tmp when a
// backup runs, reporting whether one did. The caller holds the name's lock.
func (f *boltFiles) keepAside(name string, entry []byte) (bool, error) {
	h := &f.held
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.backups == 0 {
		return false, nil
	}
	h.n++
	aside := filepath.Join(f.root, tmpDir, "kept-"+strconv.Itoa(h.n))
	if err := os.Rename(f.path(name), aside); errors.Is(err, fs.ErrNotExist) {
		return true, nil // nothing was there to keep
	} else if err != nil {
		return true, err
	}
	if h.kept == nil {
		h.kept = map[string][]keptFile{}
	}
	h.kept[name] = append(h.kept[name], keptFile{entry: entry, path: aside})
	return true, nil
}

// openAsOf opens the file a backup's snapshot names with that bucket entry:
// the one in place while the name still has that entry, else the one a
// delete kept aside (under hold). A name the snapshot has with no file
// anywhere is an error: the backup would not be whole.
func (f *boltFiles) openAsOf(name string, entry []byte) (*os.File, error) {
	m := f.lock(name)
	m.RLock()
	current, err := f.rawEntry(name)
	if err == nil && bytes.Equal(current, entry) {
		defer m.RUnlock()
		return os.Open(f.path(name))
	}
	m.RUnlock()
	if err != nil && !errors.Is(err, calendar.ErrNotFound) {
		return nil, err
	}
	h := &f.held
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, k := range h.kept[name] {
		if bytes.Equal(k.entry, entry) {
			return os.Open(k.path)
		}
	}
	return nil, fmt.Errorf("uploads/%s: the snapshot names it, but no such file is stored", name)
}

func (f *boltFiles) ListFiles(ctx context.Context, before time.Time) ([]calendar.FileInfo, error) {
	var out []calendar.FileInfo
	err := f.db.View(func(tx *bbolt.Tx) error {
		return tx.Bucket(filesBucket).ForEach(func(k, v []byte) error {
			if info := decodeFileEntry(v); info.Written.Before(before) {
				info.Name = string(k)
				out = append(out, info)
			}
			return nil
		})
	})
	return out, err
}
