package controllers_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/repository/bolt"
)

const backupPath = "/vendor/admin/v1/backup"

var backupFileName = regexp.MustCompile(`^attachment; filename="calendar-backup-\d{8}T\d{6}Z\.tar\.gz"$`)

// archiveEntries reads a backup: its entries' names, and its manifest.
func archiveEntries(t *testing.T, archive []byte) ([]string, map[string]any) {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	tr := tar.NewReader(gz)
	var names []string
	var manifest map[string]any
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return names, manifest
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, hdr.Name)
		if hdr.Name == "manifest.json" {
			if err := json.NewDecoder(tr).Decode(&manifest); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestTheBackupRouteIsForAdministratorsAndStreamsAnArchive: anonymous
// callers are asked to sign in, other roles refused, in the plugin's error
// shape; an administrator gets a download streamed (no length known ahead,
// no ETag, no envelope, no 304), the manifest first, each upload's files.
func TestTheBackupRouteIsForAdministratorsAndStreamsAnArchive(t *testing.T) {
	t.Parallel()
	s := startService(t)
	_, editor := s.createUser("eddie", calendar.RoleEditor)
	_, subscriber := s.createUser("sue", calendar.RoleSubscriber)
	s.upload("poster.jpg", photo(t, 300, 200))

	s.do("GET", backupPath).expectError(t, http.StatusUnauthorized, "rest_forbidden")
	s.do("GET", backupPath, basic("eddie", editor)).expectError(t, http.StatusForbidden, "rest_forbidden")
	s.do("GET", backupPath, bearer(subscriber)).expectError(t, http.StatusForbidden, "rest_forbidden")
	s.do("GET", backupPath, basic("admin", "not the password")).expectError(t, http.StatusUnauthorized, "incorrect_password")
	if res := s.do("HEAD", backupPath, basic("eddie", editor)); res.Status != http.StatusForbidden || len(res.Body) != 0 {
		t.Fatalf("HEAD as an editor: %d %q", res.Status, res.Body)
	}

	for _, query := range []string{"", "?_envelope&_fields=id"} {
		res := s.do("GET", backupPath+query, asAdmin(), header("If-None-Match", "*"))
		res.expectStatus(t, http.StatusOK)
		if ct := res.Header.Get("Content-Type"); ct != "application/gzip" {
			t.Fatalf("Content-Type %q", ct)
		}
		if cd := res.Header.Get("Content-Disposition"); !backupFileName.MatchString(cd) {
			t.Fatalf("Content-Disposition %q", cd)
		}
		for _, h := range []string{"Content-Length", "ETag", "X-Powered-By", "Server-Timing"} {
			if v := res.Header.Get(h); v != "" {
				t.Fatalf("%s: %q on a streamed answer", h, v)
			}
		}
		names, manifest := archiveEntries(t, res.Body)
		if len(names) < 3 || names[0] != "manifest.json" || names[1] != "calendar.db" {
			t.Fatalf("entries %v", names)
		}
		counts, _ := manifest["counts"].(map[string]any)
		if manifest["version"] != float64(1) || manifest["store"] != "embedded" || counts["users"] != float64(3) ||
			counts["posts"] != float64(1) || counts["files"] != float64(len(names)-2) {
			t.Fatalf("manifest %v for entries %v", manifest, names)
		}
		for _, name := range names[2:] {
			if !strings.HasPrefix(name, "uploads/") || !strings.Contains(name, "poster") {
				t.Fatalf("entry %s", name)
			}
		}
	}
	head := s.do("HEAD", backupPath, asAdmin())
	if head.Status != http.StatusOK || len(head.Body) != 0 || head.Header.Get("Content-Type") != "application/gzip" ||
		!backupFileName.MatchString(head.Header.Get("Content-Disposition")) {
		t.Fatalf("HEAD as admin: %d %v %q", head.Status, head.Header, head.Body)
	}
}

// TestTheBackupRouteOnMongoDBPointsToItsTools: MongoDB's own tools back it
// up (GridFS included); the route says so with a 501, after the
// permission check.
func TestTheBackupRouteOnMongoDBPointsToItsTools(t *testing.T) {
	t.Parallel()
	s := startServiceOn(t, mongoDB, func(*app.Settings) {}, noConfig)
	s.do("GET", backupPath).expectError(t, http.StatusUnauthorized, "rest_forbidden")
	m := s.do("GET", backupPath, asAdmin()).expectError(t, http.StatusNotImplemented, "backup_not_supported")
	if msg := m["message"].(string); !strings.Contains(msg, "mongodump") || !strings.Contains(msg, "mongorestore") {
		t.Fatalf("message %q names no tool", msg)
	}
}

// failingBackup is the embedded store whose backups fail after written
// bytes (0: before any).
type failingBackup struct {
	*bolt.Store
	written int
}

var errBackupFailed = errors.New("the disk went away")

func (f failingBackup) Backup(ctx context.Context, w io.Writer) error {
	if f.written > 0 {
		if _, err := w.Write(bytes.Repeat([]byte{1}, f.written)); err != nil {
			return err
		}
	}
	return errBackupFailed
}

// TestABackupThatFailsIsNeverAWholeLookingFile: a failure before the first
// byte is a 500 in the error shape; one after it cuts the connection, so the
// client's download fails instead of ending as if whole.
func TestABackupThatFailsIsNeverAWholeLookingFile(t *testing.T) {
	t.Parallel()
	for _, written := range []int{0, 256 << 10} {
		failing := backend{"failing", func(t *testing.T, dir string) calendar.Store {
			store, err := bolt.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			return failingBackup{Store: store, written: written}
		}}
		s := startServiceOn(t, failing, func(*app.Settings) {}, noConfig)
		if written == 0 {
			s.do("GET", backupPath, asAdmin()).expectError(t, http.StatusInternalServerError, "internal_error")
			continue
		}
		req, _ := http.NewRequest("GET", s.URL+backupPath, nil)
		req.SetBasicAuth("admin", adminPassword)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || err == nil {
			t.Fatalf("status %d, %d bytes read, error %v: want 200 and a broken transfer", res.StatusCode, len(got), err)
		}
		waitUntil(t, func() bool { return strings.Contains(s.logs.String(), errBackupFailed.Error()) })
	}
}
