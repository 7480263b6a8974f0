package main

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"calendar/app/calendar"
	"calendar/repository/backuptest"
	"calendar/repository/bolt"
)

// acknowledged are the writes a service answered, as a later check finds them.
type acknowledged struct {
	mu     sync.Mutex
	events map[float64]string // ID -> title
	terms  map[string]float64 // "categories/Name" or "tags/Name" -> ID
	users  map[string]string  // login -> application password
	files  map[float64]bool   // attachment IDs
}

// do sends a request as admin; body, when not nil, is JSON unless
// contentType says otherwise.
func (c *child) do(method, path, contentType string, body []byte, into any) (int, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, _ := http.NewRequest(method, "http://"+c.addr+path, r)
	req.SetBasicAuth("admin", childPassword)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if strings.HasPrefix(contentType, "image/") {
		req.Header.Set("Content-Disposition", `attachment; filename="poster.jpg"`)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if into == nil {
		return res.StatusCode, nil
	}
	return res.StatusCode, json.NewDecoder(res.Body).Decode(into)
}

// create writes one item as admin and returns it, or nil unless 201.
func (c *child) create(path, contentType string, body []byte) map[string]any {
	var m map[string]any
	if status, err := c.do("POST", path, contentType, body, &m); err != nil || status != http.StatusCreated {
		return nil
	}
	return m
}

// served is what the service serves at a URL path, or nil unless 200.
func served(addr, path string) []byte {
	res, err := http.Get("http://" + addr + path)
	if err != nil {
		return nil
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		return nil
	}
	return body
}

// filesOf are the URL paths of an attachment's files: the full size and
// each of WordPress' sizes.
func filesOf(addr string, attachment map[string]any) []string {
	paths := []string{strings.TrimPrefix(attachment["source_url"].(string), "http://"+addr)}
	sizes, _ := attachment["media_details"].(map[string]any)["sizes"].(map[string]any)
	for _, size := range sizes {
		paths = append(paths, strings.TrimPrefix(size.(map[string]any)["source_url"].(string), "http://"+addr))
	}
	return paths
}

// TestABackupTakenUnderWritesRestoresEveryAcknowledgedWrite: the real
// service takes events, terms, users and uploads, then writers keep adding
// events and uploads while an administrator downloads the backup. Restored
// with calendar restore into a new data directory, the service started
// there serves every write acknowledged before the backup was asked for:
// events, terms, users who sign in with their passwords, and each upload's
// files byte for byte; and calendar verify finds the index it built true to
// the store.
func TestABackupTakenUnderWritesRestoresEveryAcknowledgedWrite(t *testing.T) {
	t.Parallel()
	c := startChild(t, t.TempDir(), freeAddr(t))
	ack := &acknowledged{events: map[float64]string{}, terms: map[string]float64{}, users: map[string]string{}, files: map[float64]bool{}}
	jpg := gradientJPEG(t, 400, 300)
	for i, role := range []string{"editor", "author", "subscriber"} {
		login := fmt.Sprintf("user%d", i)
		u := c.create("/vendor/admin/v1/users", "application/json", fmt.Appendf(nil, `{"login": %q, "role": %q}`, login, role))
		if u == nil {
			t.Fatalf("creating %s failed", login)
		}
		ack.users[login] = u["application_password"].(string)
	}
	for i := range 3 {
		for _, kind := range []string{"categories", "tags"} {
			name := fmt.Sprintf("%s %d", kind, i)
			term := c.create("/vendor/events/v1/"+kind, "application/json", fmt.Appendf(nil, `{"name": %q}`, name))
			if term == nil {
				t.Fatalf("creating %s failed", name)
			}
			ack.terms[kind+"/"+name] = term["id"].(float64)
		}
	}
	// started is set once the backup is asked for: what was acknowledged
	// before must be in it.
	var started bool
	record := func(write func()) {
		ack.mu.Lock()
		defer ack.mu.Unlock()
		if !started {
			write()
		}
	}
	writes := 0
	var stopped atomic.Bool
	var wg sync.WaitGroup
	writer := func(w int) {
		defer wg.Done()
		for i := 0; !stopped.Load(); i++ {
			if w == 0 { // uploads
				if a := c.create("/vendor/events/v1/media", "image/jpeg", jpg); a != nil {
					record(func() { ack.files[a["id"].(float64)] = true })
				}
			} else {
				title := fmt.Sprintf("event %d-%d", w, i)
				body := fmt.Appendf(nil, `{"title": %q, "start_date": "2030-03-%02d 10:00", "end_date": "2030-03-%02d 12:00", "categories": "categories %d", "tags": "tags %d"}`,
					title, i%28+1, i%28+1, i%3, i%3)
				if e := c.create("/vendor/events/v1/events", "application/json", body); e != nil {
					record(func() { ack.events[e["id"].(float64)] = title })
				}
			}
			ack.mu.Lock()
			writes++
			ack.mu.Unlock()
		}
	}
	for w := range 3 {
		wg.Add(1)
		go writer(w)
	}
	t.Cleanup(func() { stopped.Store(true); wg.Wait() })
	count := func() int { ack.mu.Lock(); defer ack.mu.Unlock(); return writes }
	waitFor(t, func() bool {
		ack.mu.Lock()
		defer ack.mu.Unlock()
		return len(ack.files) >= 2 && len(ack.events) >= 20
	}, func() string { return fmt.Sprintf("writes before the backup (%d so far)", count()) })

	// The files each acknowledged upload serves, read before the backup:
	// no write changes them.
	ack.mu.Lock()
	started = true
	ack.mu.Unlock()
	files := map[string][]byte{}
	for id := range ack.files {
		var a map[string]any
		if status, err := c.do("GET", fmt.Sprintf("/vendor/events/v1/media/%v", id), "", nil, &a); status != http.StatusOK || err != nil {
			t.Fatalf("upload %v: %d, %v", id, status, err)
		}
		for _, path := range filesOf(c.addr, a) {
			if files[path] = served(c.addr, path); files[path] == nil {
				t.Fatalf("%s is not served", path)
			}
		}
	}
	archive := filepath.Join(t.TempDir(), "calendar-backup.tar.gz")
	req, _ := http.NewRequest("GET", "http://"+c.addr+"/vendor/admin/v1/backup", nil)
	req.SetBasicAuth("admin", childPassword)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(archive)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(f, res.Body)
	res.Body.Close()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/gzip" {
		t.Fatalf("backup: %d %v, %d bytes, %v", res.StatusCode, res.Header, n, err)
	}
	during := count()
	waitFor(t, func() bool { return count() > during }, func() string { return "the writers to go on after the backup" })
	stopped.Store(true)
	wg.Wait()
	c.stop(t)

	dir := t.TempDir()
	out, err := runMainIn(dir, "restore "+archive, nil)
	if err != nil || !strings.Contains(out, "restored the backup") {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	t.Log(strings.TrimSpace(out))
	r := startChild(t, dir, freeAddr(t)) // ready once its index is built
	for id, title := range ack.events {
		var e map[string]any
		if status, err := r.do("GET", fmt.Sprintf("/vendor/events/v1/events/%v", id), "", nil, &e); status != http.StatusOK || err != nil || e["title"] != title {
			t.Fatalf("event %v (%s): %d %v %v", id, title, status, e["title"], err)
		}
	}
	for key, id := range ack.terms {
		kind, name, _ := strings.Cut(key, "/")
		var term map[string]any
		if status, err := r.do("GET", fmt.Sprintf("/vendor/events/v1/%s/%v", kind, id), "", nil, &term); status != http.StatusOK || err != nil || term["name"] != name {
			t.Fatalf("%s: %d %v %v", key, status, term, err)
		}
	}
	for login, password := range ack.users {
		req, _ := http.NewRequest("GET", "http://"+r.addr+"/vendor/events/v1/events", nil)
		req.SetBasicAuth(login, password)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s signs in: %d", login, res.StatusCode)
		}
	}
	for path, want := range files {
		if got := served(r.addr, path); !bytes.Equal(got, want) {
			t.Fatalf("%s: %d bytes served after the restore, %d before", path, len(got), len(want))
		}
	}
	// The index built at start answers the lists: every acknowledged event
	// in one window, found by the category it was written with.
	var listed []map[string]any
	for cat := range 3 {
		var page []map[string]any
		path := fmt.Sprintf("/vendor/events/v1/events?start_date=2030-01-01&end_date=2030-12-31&categories=categories-%d&per_page=50", cat)
		for p := 1; ; p++ {
			page = nil
			if status, err := r.do("GET", fmt.Sprintf("%s&page=%d", path, p), "", nil, &struct {
				Events *[]map[string]any `json:"events"`
			}{&page}); status != http.StatusOK || err != nil {
				break // past the last page
			}
			listed = append(listed, page...)
			if len(page) < 50 {
				break
			}
		}
	}
	if len(listed) < len(ack.events) {
		t.Fatalf("the lists show %d events, %d were acknowledged before the backup", len(listed), len(ack.events))
	}
	r.stop(t)
	if out, err := runMainIn(dir, "verify", nil); err != nil || !strings.Contains(out, "the index holds the store's") {
		t.Fatalf("verify after the restore: %v\n%s", err, out)
	}
	t.Logf("%d events, %d terms, %d users, %d uploads (%d files) acknowledged before the backup, all restored; %d writes in all",
		len(ack.events), len(ack.terms), len(ack.users), len(ack.files), len(files), count())
}

// TestRestoreRefusesANonEmptyDirectoryAndHostileArchives: calendar restore
// exits non-zero, saying why, on a data directory in use or an archive that
// is not a backup it reads (a name outside the directory, a link, another
// version), and writes nothing anywhere; a real backup restores, from a
// file or standard input.
func TestRestoreRefusesANonEmptyDirectoryAndHostileArchives(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	escape := filepath.Join(outside, "escape")
	manifest := func(version int) backuptest.Entry {
		return backuptest.File("manifest.json", fmt.Sprintf(`{"format": "calendar-backup", "version": %d, "store": "embedded", "bytes": 100}`, version))
	}
	link := backuptest.Entry{Header: tar.Header{Name: "uploads/a.jpg", Typeflag: tar.TypeSymlink, Linkname: escape}}
	archives := map[string]struct {
		archive []byte
		says    string
	}{
		"a parent's name":      {backuptest.Write(t, manifest(1), backuptest.File("../escape", "x")), `"../escape" is not a name`},
		"a name under uploads": {backuptest.Write(t, manifest(1), backuptest.File("uploads/../../escape", "x")), "is not a name"},
		"an absolute name":     {backuptest.Write(t, manifest(1), backuptest.File(escape, "x")), "is not a name"},
		"a symbolic link":      {backuptest.Write(t, manifest(1), link), "not a regular file"},
		"an unknown version":   {backuptest.Write(t, manifest(7), backuptest.File("calendar.db", "x")), "version is 7; this calendar reads version 1 only"},
	}
	for name, a := range archives {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "archive.tar.gz")
			if err := os.WriteFile(file, a.archive, 0o600); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "data")
			out, err := runMainIn(dir, "restore "+file, nil)
			if err == nil || !strings.Contains(out, a.says) {
				t.Fatalf("exit %v, want non-zero saying %q:\n%s", err, a.says, out)
			}
			for _, d := range []string{dir, outside} {
				if entries, _ := os.ReadDir(d); len(entries) != 0 {
					t.Fatalf("%s holds %v", d, entries)
				}
			}
		})
	}

	// A real backup, of a store with a post and a file.
	src := t.TempDir()
	store, err := bolt.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	venue := &calendar.Post{Type: calendar.PostTypeVenue, Slug: "hall", Title: "Hall", Status: calendar.StatusPublish}
	if err := store.Posts().Insert(ctx, venue); err != nil {
		t.Fatal(err)
	}
	if err := store.Files().PutFile(ctx, "2026/01/a.jpg", venue.ID, []byte("a file")); err != nil {
		t.Fatal(err)
	}
	var backup bytes.Buffer
	if err := store.Backup(ctx, &backup); err != nil {
		t.Fatal(err)
	}
	store.Close(ctx)
	file := filepath.Join(t.TempDir(), "backup.tar.gz")
	if err := os.WriteFile(file, backup.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	t.Run("a directory not empty", func(t *testing.T) {
		dir := t.TempDir()
		mine := filepath.Join(dir, "calendar.db")
		if err := os.WriteFile(mine, []byte("in use"), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := runMainIn(dir, "restore "+file, nil)
		if err == nil || !strings.Contains(out, "is not empty") {
			t.Fatalf("exit %v:\n%s", err, out)
		}
		if raw, _ := os.ReadFile(mine); string(raw) != "in use" {
			t.Fatalf("the directory's file became %q", raw)
		}
	})
	t.Run("no archive named", func(t *testing.T) {
		if out, err := runMainIn(t.TempDir(), "restore", nil); err == nil || !strings.Contains(out, "calendar restore [flags] FILE") {
			t.Fatalf("exit %v:\n%s", err, out)
		}
	})
	t.Run("MongoDB configured", func(t *testing.T) {
		out, err := runMainIn(t.TempDir(), "restore -mongodb-uri mongodb://localhost "+file, nil)
		if err == nil || !strings.Contains(out, "mongorestore") {
			t.Fatalf("exit %v:\n%s", err, out)
		}
	})
	for _, from := range []string{"a file", "standard input"} {
		t.Run("restores from "+from, func(t *testing.T) {
			dir, args, stdin := t.TempDir(), "restore "+file, io.Reader(nil)
			if from == "standard input" {
				args, stdin = "restore -", bytes.NewReader(backup.Bytes())
			}
			if out, err := runMainIn(dir, args, stdin); err != nil || !strings.Contains(out, "(1 posts, 0 terms, 0 users, 1 files)") {
				t.Fatalf("exit %v:\n%s", err, out)
			}
			restored, err := bolt.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer restored.Close(ctx)
			f, err := restored.Files().OpenFile(ctx, "2026/01/a.jpg")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if got, _ := io.ReadAll(f); string(got) != "a file" {
				t.Fatalf("restored file %q", got)
			}
			if p, err := restored.Posts().Get(ctx, venue.ID); err != nil || p.Title != "Hall" {
				t.Fatalf("restored post %+v, %v", p, err)
			}
		})
	}
}
