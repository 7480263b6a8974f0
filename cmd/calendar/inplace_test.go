package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"calendar/app"
	"calendar/index"
)

// A visitor's reads that need the index, as a CDN in front of the service
// would ask for them.
var indexedReads = []string{"/vendor/events/v1/venues", "/vendor/events/v1/events", "/vendor/events/v1/events.ics", "/vendor/events/v1/categories"}

// expectNotNow checks a visitor's answer while the index is not whole: 503,
// the error shape, a Retry-After, and nothing a cache may keep.
func expectNotNow(t *testing.T, path string, res *http.Response) {
	t.Helper()
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var e struct{ Code string }
	_ = json.Unmarshal(raw, &e)
	retry, err := strconv.Atoi(res.Header.Get("Retry-After"))
	if res.StatusCode != http.StatusServiceUnavailable || e.Code != "index_building" || err != nil || retry < 1 ||
		res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("ETag") != "" {
		t.Fatalf("%s while the index is built in place: %d, Retry-After %q, Cache-Control %q, ETag %q: %s",
			path, res.StatusCode, res.Header.Get("Retry-After"), res.Header.Get("Cache-Control"), res.Header.Get("ETag"), raw)
	}
}

// servesTrueWhileBuiltInPlace starts the service on environment's data
// directory as a release of versions, its fill in place held at its first
// batch, and checks that no list a visitor asks for answers anything but a
// 503 that no cache keeps (the very first answer included), that the log
// line starting the rebuild says why (why) and from which mapping version
// to which, and, once the fill is let go, that the venues are want.
func servesTrueWhileBuiltInPlace(t *testing.T, environment func(string) string, versions index.Versions, why string, from int, want string) {
	t.Helper()
	addr := environment("CALENDAR_ADDR")
	logs := &syncWriter{b: &strings.Builder{}}
	held, release := make(chan struct{}), make(chan struct{})
	var holdOnce, releaseOnce sync.Once
	letGo := func() { releaseOnce.Do(func() { close(release) }) }
	defer letGo() // a failed check must not leave the service held
	stop := serveAs(t, environment, versions, func(s *app.Settings) {
		s.ReindexPace = func(ctx context.Context) {
			holdOnce.Do(func() {
				close(held)
				select {
				case <-release:
				case <-ctx.Done():
				}
			})
		}
	}, logs)

	var first *http.Response
	waitFor(t, func() bool {
		res, err := http.Get("http://" + addr + indexedReads[0])
		first = res
		return err == nil
	}, func() string { return "the service to answer; logs:\n" + logs.String() })
	expectNotNow(t, indexedReads[0]+" (the first answer)", first)
	waitFor(t, func() bool {
		select {
		case <-held:
			return true
		default:
			return false
		}
	}, func() string { return "the fill in place to be held; logs:\n" + logs.String() })
	for _, path := range indexedReads {
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		expectNotNow(t, path, res)
	}
	if ready(addr) {
		t.Fatal("readyz 200 while the index is built in place")
	}
	started := false
	for _, line := range strings.Split(logs.String(), "\n") {
		var entry struct {
			Msg, Why    string
			FromVersion int `json:"from_version"`
			ToVersion   int `json:"to_version"`
		}
		if json.Unmarshal([]byte(line), &entry) != nil || !strings.HasPrefix(entry.Msg, "building the index from the store in place") {
			continue
		}
		started = true
		if !strings.Contains(entry.Why, why) || entry.FromVersion != from || entry.ToVersion != versions.Mapping {
			t.Errorf("the rebuild's first line %s: want why %q, from version %d to %d", line, why, from, versions.Mapping)
		}
	}
	if !started {
		t.Errorf("no line starting the rebuild in the logs:\n%s", logs.String())
	}

	letGo()
	waitReady(t, addr)
	if got := venueNames(t, addr); got != want {
		t.Fatalf("once the index is whole the venues are %q, want %q", got, want)
	}
	stop()
}

// servedWith starts the service of this release on environment, lets post
// write venues named names as the administrator, and stops it cleanly.
func servedWith(t *testing.T, environment func(string) string, versions index.Versions, names ...string) {
	t.Helper()
	stop := serveAs(t, environment, versions, nil, io.Discard)
	addr := environment("CALENDAR_ADDR")
	waitReady(t, addr)
	c := &child{addr: addr}
	for _, name := range names {
		if status, _, err := c.post("/vendor/events/v1/venues", fmt.Sprintf(`{"venue": %q}`, name)); err != nil || status != http.StatusCreated {
			t.Fatalf("writing venue %s: %d, %v", name, status, err)
		}
	}
	stop()
}

func environmentOf(dir, addr string) func(string) string {
	return env(map[string]string{"CALENDAR_ADDR": addr, "CALENDAR_DATA_DIR": dir, "CALENDAR_ADMIN_PASSWORD": childPassword})
}

// Whenever the service starts with no index that can answer for its store,
// it builds one in place, and meanwhile no list answers an empty 200 that a
// CDN or a browser would keep: a data directory whose index was lost, one
// restored from a backup (and started without calendar reindex), and a
// store put back under a newer index (a backup's calendar.db copied in, or
// a mongorestore, with the service stopped) whose index would list what the
// store no longer holds.
func TestNoListAnswersACacheable200WhileTheIndexIsBuiltInPlace(t *testing.T) {
	t.Parallel()
	this := index.ThisRelease
	for _, c := range []struct {
		name string
		// prepare writes through the service and leaves the data directory
		// the next start finds.
		prepare   func(t *testing.T, dir, addr string) string
		why, want string
		from      int
	}{
		{"an index lost", func(t *testing.T, dir, addr string) string {
			servedWith(t, environmentOf(dir, addr), this, "v0", "v1")
			if err := index.Remove(dir); err != nil {
				t.Fatal(err)
			}
			return dir
		}, "there was no index", "v0,v1", 0},
		{"a restore without reindex", func(t *testing.T, dir, addr string) string {
			environment := environmentOf(dir, addr)
			servedWith(t, environment, this, "v0", "v1")
			stop := serveAs(t, environment, this, nil, io.Discard)
			waitReady(t, addr)
			archive := filepath.Join(t.TempDir(), "backup.tar.gz")
			req, _ := http.NewRequest("GET", "http://"+addr+"/vendor/admin/v1/backup", nil)
			req.SetBasicAuth("admin", childPassword)
			res, err := http.DefaultClient.Do(req)
			if err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("backup: %v %v", res, err)
			}
			raw, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil || os.WriteFile(archive, raw, 0o600) != nil {
				t.Fatalf("backup: %v", err)
			}
			stop()
			restored := t.TempDir()
			if err := restore([]string{archive}, environmentOf(restored, addr), io.Discard); err != nil {
				t.Fatal(err)
			}
			return restored
		}, "there was no index", "v0,v1", 0},
		{"a store put back under a newer index", func(t *testing.T, dir, addr string) string {
			environment := environmentOf(dir, addr)
			servedWith(t, environment, this, "v0")
			db := filepath.Join(dir, "calendar.db")
			backup, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			servedWith(t, environment, this, "v1", "v2")
			if err := os.WriteFile(db, backup, 0o600); err != nil {
				t.Fatal(err)
			}
			return dir
		}, "the store was restored (or replaced) under it", "v0", this.Mapping},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			addr := freeAddr(t)
			dir := c.prepare(t, t.TempDir(), addr)
			servesTrueWhileBuiltInPlace(t, environmentOf(dir, addr), this, c.why, c.from, c.want)
		})
	}
}
