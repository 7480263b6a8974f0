package bolt

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"calendar/app/calendar"
	"calendar/repository/backuptest"
	"calendar/repository/storetest"
)

// backupOf writes the store's backup into memory.
func backupOf(t *testing.T, s *Store) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := s.Backup(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// restored restores an archive into a new data dir and opens the store there.
func restored(t *testing.T, archive []byte) (*Store, BackupManifest) {
	t.Helper()
	dir := t.TempDir()
	m, err := Restore(dir, bytes.NewReader(archive), RestoreLimits{MaxBytes: 1 << 30})
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	return openDir(t, dir), m
}

func insertVenue(t *testing.T, s *Store, slug string) {
	t.Helper()
	p := &calendar.Post{Type: calendar.PostTypeVenue, Slug: slug, Status: "publish", Title: "Venue " + slug}
	if err := s.Posts().Insert(context.Background(), p); err != nil {
		t.Fatal(err)
	}
}

func putFile(t *testing.T, s *Store, name string, owner int64, data []byte) {
	t.Helper()
	if err := s.Files().PutFile(context.Background(), name, owner, data); err != nil {
		t.Fatal(err)
	}
}

// tmpLeft lists what uploads/.tmp holds.
func tmpLeft(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, uploadsDir, tmpDir))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestBoltBackupIsOneSnapshotWithEveryFileItNames: what commits after the
// snapshot is not in the archive, and a file the snapshot names is, even
// deleted (or deleted and put again with other content) before the backup
// copies it; the live store shows the deletes at once and keeps nothing
// aside once the backup ends.
func TestBoltBackupIsOneSnapshotWithEveryFileItNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	s := openDir(t, dir)
	for _, slug := range []string{"a", "b", "c"} {
		insertVenue(t, s, slug)
	}
	for _, term := range []*calendar.Term{{Taxonomy: "category", Name: "Jazz", Slug: "jazz"}, {Taxonomy: "post_tag", Name: "Free", Slug: "free"}} {
		if err := s.Terms().Insert(ctx, term); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Users().Insert(ctx, &calendar.User{Login: "ann", Role: calendar.RoleEditor, PasswordHash: "h"}); err != nil {
		t.Fatal(err)
	}
	kept, deleted, replaced := storetest.RandomBytes(1000), storetest.RandomBytes(2000), storetest.RandomBytes(3000)
	putFile(t, s, "2026/01/kept.jpg", 1, kept)
	putFile(t, s, "2026/01/deleted.jpg", 2, deleted)
	putFile(t, s, "2026/01/replaced.jpg", 3, replaced)
	seq, _ := s.LastSeq(ctx)

	s.snapshotted = func() {
		insertVenue(t, s, "after")
		putFile(t, s, "2026/01/after.jpg", 4, storetest.RandomBytes(10))
		for _, name := range []string{"2026/01/deleted.jpg", "2026/01/replaced.jpg"} {
			if err := s.Files().DeleteFile(ctx, name); err != nil {
				t.Error(err)
			}
		}
		putFile(t, s, "2026/01/replaced.jpg", 5, storetest.RandomBytes(4000))
		assertGone(t, s, "2026/01/deleted.jpg") // at once, for the service
	}
	archive := backupOf(t, s)
	if left := tmpLeft(t, dir); len(left) != 0 {
		t.Fatalf("the backup left %v in uploads/.tmp", left)
	}
	if _, err := os.Stat(filepath.Join(dir, uploadsDir, "2026/01/deleted.jpg")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the deleted file is still in place: %v", err)
	}
	storetest.MustOpen(t, s.Files(), "2026/01/replaced.jpg", storetest.RandomBytes(4000))

	r, m := restored(t, archive)
	want := BackupCounts{Posts: 3, Terms: 2, Users: 1, Files: 3}
	if m.Counts != want || m.Seq != seq || m.Version != BackupVersion || m.Store != "embedded" {
		t.Fatalf("manifest %+v, want counts %+v and sequence %d", m, want, seq)
	}
	if n, err := r.Posts().Count(ctx); err != nil || n != 3 {
		t.Fatalf("restored posts: %d, %v; want the 3 of the snapshot", n, err)
	}
	if _, err := r.Posts().FindByKey(ctx, "type_slug", calendar.PostTypeVenue+"/after"); !errors.Is(err, calendar.ErrNotFound) {
		t.Fatalf("a post written after the snapshot was restored: %v", err)
	}
	if last, _ := r.LastSeq(ctx); last != seq {
		t.Fatalf("restored sequence %d, want %d", last, seq)
	}
	storetest.MustOpen(t, r.Files(), "2026/01/kept.jpg", kept)
	storetest.MustOpen(t, r.Files(), "2026/01/deleted.jpg", deleted)
	storetest.MustOpen(t, r.Files(), "2026/01/replaced.jpg", replaced)
	assertGone(t, r, "2026/01/after.jpg")
	if u, err := r.Users().FindByKey(ctx, "login", "ann"); err != nil || u.Role != calendar.RoleEditor {
		t.Fatalf("restored user: %+v, %v", u, err)
	}
}

// TestBoltBackupsWhileFilesComeAndGo: backups, two at once, taken while
// writers put and delete files and insert posts, each restore whole (the
// restore checks that every file the database names is there at its size),
// and hold everything acknowledged before they began and not deleted before.
func TestBoltBackupsWhileFilesComeAndGo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openDir(t, t.TempDir())
	var mu sync.Mutex
	stored := map[string]int{} // acknowledged files no delete began on, by size
	// deleteBegun: files whose delete began, which a backup that starts after
	// may lack (the snapshot test pins what one that starts before keeps).
	deleteBegun := map[string]bool{}
	posts := 0
	var stopped atomic.Bool
	var wg sync.WaitGroup
	stopWriters := func() { stopped.Store(true); wg.Wait() }
	t.Cleanup(stopWriters) // before the store closes, also when the test fails
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stopped.Load(); i++ {
				name, size := fmt.Sprintf("w%d/%d.jpg", w, i), 100+i%50
				if err := s.Files().PutFile(ctx, name, int64(i), storetest.RandomBytes(size)); err != nil {
					t.Error(err)
					return
				}
				insertVenue(t, s, fmt.Sprintf("w%d-%d", w, i))
				mu.Lock()
				stored[name] = size
				posts++
				previous := fmt.Sprintf("w%d/%d.jpg", w, i-1)
				_, deleting := stored[previous]
				deleting = deleting && i%2 == 1
				if deleting {
					delete(stored, previous) // from the moment its delete begins
					deleteBegun[previous] = true
				}
				mu.Unlock()
				if deleting {
					if err := s.Files().DeleteFile(ctx, previous); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	for range 3 {
		mu.Lock()
		must, mustPosts := make(map[string]int, len(stored)), posts
		for k, v := range stored {
			must[k] = v
		}
		mu.Unlock()
		archives := make([][]byte, 2)
		var both sync.WaitGroup
		for i := range archives {
			both.Add(1)
			go func() {
				defer both.Done()
				var buf bytes.Buffer
				if err := s.Backup(ctx, &buf); err != nil {
					t.Error(err)
				}
				archives[i] = buf.Bytes()
			}()
		}
		both.Wait()
		for _, archive := range archives {
			r, m := restored(t, archive)
			if m.Counts.Posts < int64(mustPosts) {
				t.Fatalf("%d posts restored, %d were acknowledged before the backup", m.Counts.Posts, mustPosts)
			}
			mu.Lock()
			var kept []string // not deleted since must was taken: no delete can have raced the backup
			for name := range must {
				if !deleteBegun[name] {
					kept = append(kept, name)
				}
			}
			mu.Unlock()
			for _, name := range kept {
				storetest.MustOpen(t, r.Files(), name, storetest.RandomBytes(must[name]))
			}
			if err := r.Close(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	stopWriters()
}

// withManifest changes the manifest of entries, whose first it is.
func withManifest(t *testing.T, entries []backuptest.Entry, change func(m map[string]any)) []backuptest.Entry {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(entries[0].Data, &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	raw, _ := json.Marshal(m)
	return append([]backuptest.Entry{{Header: entries[0].Header, Data: raw}}, entries[1:]...)
}

// TestRestoreBoltRefusesWhatIsNotAWholeBackup: a non-empty directory, and
// archives altered or hostile (names outside the data directory, links,
// another version, counts or sizes that are not the manifest's, more than
// the bound) are refused; the directory is left empty and nothing is
// written outside it.
func TestRestoreBoltRefusesWhatIsNotAWholeBackup(t *testing.T) {
	t.Parallel()
	s := openDir(t, t.TempDir())
	insertVenue(t, s, "a")
	putFile(t, s, "2026/01/a.jpg", 1, storetest.RandomBytes(500))
	putFile(t, s, "2026/01/b.jpg", 1, storetest.RandomBytes(600))
	good := backuptest.Read(t, backupOf(t, s))
	if len(good) != 4 || good[0].Header.Name != "manifest.json" || good[1].Header.Name != "calendar.db" {
		t.Fatalf("archive entries: %v", good)
	}
	outside := t.TempDir()
	escape := filepath.Join(outside, "escape")
	upload := func(name string, typ byte, data string, link string) backuptest.Entry {
		return backuptest.Entry{Header: tar.Header{Name: name, Typeflag: typ, Mode: 0o600, Linkname: link}, Data: []byte(data)}
	}
	with := func(extra ...backuptest.Entry) []byte {
		return backuptest.Write(t, append(append([]backuptest.Entry{}, good...), extra...)...)
	}
	// an extra entry the manifest's bytes make room for: only its name or type refuses it
	roomy := func(extra ...backuptest.Entry) []byte {
		return backuptest.Write(t, append(withManifest(t, good, func(m map[string]any) { m["bytes"] = m["bytes"].(float64) + 100 }), extra...)...)
	}
	cases := map[string]struct {
		archive []byte
		says    string
	}{
		"a parent's name":            {roomy(upload("../escape", tar.TypeReg, "x", "")), "not a name"},
		"a parent's name in uploads": {roomy(upload("uploads/../../escape", tar.TypeReg, "x", "")), "not a name"},
		"an absolute name":           {roomy(upload(escape, tar.TypeReg, "x", "")), "not a name"},
		"a hidden name":              {roomy(upload("uploads/.tmp/x", tar.TypeReg, "x", "")), "not a name"},
		"a symbolic link":            {roomy(upload("uploads/2026/link.jpg", tar.TypeSymlink, "", escape)), "not a regular file"},
		"a hard link":                {roomy(upload("uploads/2026/hard.jpg", tar.TypeLink, "", "uploads/2026/01/a.jpg")), "not a regular file"},
		"a directory":                {roomy(upload("uploads/2027/", tar.TypeDir, "", "")), "not a regular file"},
		"an entry twice":             {roomy(good[2]), "twice"},
		"more than declared":         {with(upload("uploads/2026/01/c.jpg", tar.TypeReg, "more", "")), "beyond"},
		"an unknown version": {backuptest.Write(t, withManifest(t, good, func(m map[string]any) { m["version"] = 2 })...),
			"version is 2; this calendar reads version 1 only"},
		"another format": {backuptest.Write(t, withManifest(t, good, func(m map[string]any) { m["format"] = "tarball" })...), "not a calendar backup"},
		"altered counts": {backuptest.Write(t, withManifest(t, good, func(m map[string]any) {
			m["counts"].(map[string]any)["posts"] = 2
		})...), "altered"},
		"a file missing": {backuptest.Write(t, good[:3]...), "fewer than"},
		"a file short":   {backuptest.Write(t, append(good[:3:3], backuptest.Entry{Header: good[3].Header, Data: good[3].Data[:10]})...), "fewer than"},
		"a file under another name": {backuptest.Write(t, append(good[:3:3], upload("uploads/2026/01/c.jpg", tar.TypeReg, string(good[3].Data), ""))...),
			"uploads/2026/01/b.jpg: the database names it, the archive does not hold it"},
		"a file hidden from the manifest": {backuptest.Write(t, withManifest(t, good[:3], func(m map[string]any) {
			m["bytes"] = m["bytes"].(float64) - 600
			m["counts"].(map[string]any)["files"] = 1
		})...), "altered"},
		"no manifest first": {backuptest.Write(t, append([]backuptest.Entry{good[1], good[0]}, good[2:]...)...), "not a calendar backup"},
		"not gzip":          {[]byte("PK\x03\x04 a zip"), "not a calendar backup"},
		"truncated":         {with()[:len(with())/2], "unexpected EOF"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			_, err := Restore(dir, bytes.NewReader(c.archive), RestoreLimits{MaxBytes: 1 << 30})
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %v, want one saying %q", err, c.says)
			}
			assertEmpty(t, dir)
			assertEmpty(t, outside)
			if siblings, _ := os.ReadDir(filepath.Dir(dir)); len(siblings) != 1 {
				t.Fatalf("beside the data directory: %v", siblings)
			}
		})
	}
	t.Run("beyond the bound", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := Restore(dir, bytes.NewReader(with()), RestoreLimits{MaxBytes: 1000}); err == nil || !strings.Contains(err.Error(), "beyond the bound") {
			t.Fatalf("err = %v", err)
		}
		assertEmpty(t, dir)
	})
	t.Run("a directory not empty", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "calendar.db"), []byte("live"))
		if _, err := Restore(dir, bytes.NewReader(with()), RestoreLimits{MaxBytes: 1 << 30}); err == nil || !strings.Contains(err.Error(), "not empty") {
			t.Fatalf("err = %v", err)
		}
		if raw, _ := os.ReadFile(filepath.Join(dir, "calendar.db")); string(raw) != "live" {
			t.Fatalf("the directory's file was changed: %q", raw)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Fatalf("the directory holds %v", entries)
		}
	})
	t.Run("the archive unaltered restores", func(t *testing.T) {
		r, _ := restored(t, with())
		storetest.MustOpen(t, r.Files(), "2026/01/b.jpg", storetest.RandomBytes(600))
	})
}

// assertEmpty fails unless dir is missing or empty.
func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Fatalf("%s holds %v", dir, entries)
	}
}
