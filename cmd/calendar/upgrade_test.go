package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"calendar/app"
	"calendar/index"
)

// serveAs serves in this process with the environment, as a release of
// those index versions, until the returned stop is called.
func serveAs(t *testing.T, environment func(string) string, versions index.Versions, settings func(*app.Settings), logs io.Writer) (stop func()) {
	t.Helper()
	cfg, err := loadConfig(nil, environment, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg.indexVersions, cfg.appSettings = versions, settings
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, logs) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve returned %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// adminGet reads a JSON object from the service as its administrator.
func adminGet(t *testing.T, addr, path string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
	req.SetBasicAuth("admin", childPassword)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d, %v", path, res.StatusCode, err)
	}
	return m
}

// venueNames lists the venues' names, sorted.
func venueNames(t *testing.T, addr string) string {
	t.Helper()
	var names []string
	for _, v := range adminGet(t, addr, "/vendor/events/v1/venues?per_page=50")["venues"].([]any) {
		names = append(names, v.(map[string]any)["venue"].(string))
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

// TestANewMappingVersionIsBuiltBesideTheOldIndexWhileItServes upgrades a
// data directory from a release of the mapping version before to one that
// still serves it: the service is ready while the new index is held half
// built, lists are answered from the old index and writes go on; then the
// new index is live, holds every write, the old one is gone, and calendar
// verify agrees with the store.
func TestANewMappingVersionIsBuiltBesideTheOldIndexWhileItServes(t *testing.T) {
	t.Parallel()
	dir, addr := t.TempDir(), freeAddr(t)
	environment := env(map[string]string{"CALENDAR_ADDR": addr, "CALENDAR_DATA_DIR": dir, "CALENDAR_ADMIN_PASSWORD": childPassword})
	logs := &syncWriter{b: &strings.Builder{}}
	this := index.MappingVersion
	stop := serveAs(t, environment, index.Versions{Mapping: this - 1, ServesFrom: this - 1}, nil, logs)
	waitReady(t, addr)
	before := &child{addr: addr}
	for i := 0; i < 3; i++ {
		if status, _, err := before.post("/vendor/events/v1/venues", fmt.Sprintf(`{"venue": "before %d"}`, i)); err != nil || status != http.StatusCreated {
			t.Fatalf("a write to the release before: %d, %v", status, err)
		}
	}
	stop()

	held, release := make(chan struct{}), make(chan struct{})
	var holdOnce sync.Once
	stop = serveAs(t, environment, index.Versions{Mapping: this, ServesFrom: this - 1}, func(s *app.Settings) {
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
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	<-held
	waitReady(t, addr) // while the new index is half built
	if st := adminGet(t, addr, "/vendor/admin/v1/reindex"); st["state"] != app.ReindexBuilding || st["reason"] != app.ReindexMappingVersion {
		t.Fatalf("while held, the rebuild: %v", st)
	}
	if got := venueNames(t, addr); got != "before 0,before 1,before 2" {
		t.Fatalf("the old index lists %q while the new one is built", got)
	}
	if status, _, err := before.post("/vendor/events/v1/venues", `{"venue": "during"}`); err != nil || status != http.StatusCreated {
		t.Fatalf("a write during the rebuild: %d, %v", status, err)
	}
	close(release)
	waitFor(t, func() bool {
		return adminGet(t, addr, "/vendor/admin/v1/reindex")["state"] == app.ReindexDone
	}, func() string { return "the new index to be live; logs:\n" + logs.String() })
	if got := venueNames(t, addr); got != "before 0,before 1,before 2,during" {
		t.Fatalf("the new index lists %q", got)
	}
	stop()

	var out strings.Builder
	if err := verify(context.Background(), nil, environment, &out); err != nil || !strings.Contains(out.String(), "as they are") {
		t.Fatalf("calendar verify after the upgrade: %v\n%s", err, out.String())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var indexes []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "index") {
			indexes = append(indexes, e.Name())
		}
	}
	if strings.Join(indexes, ",") != "index-1" {
		t.Fatalf("index directories after the upgrade: %v, want index-1 alone", indexes)
	}
	for _, line := range []string{"building a new index beside the live one, which serves meanwhile", `"cause":"mapping_version"`, "the new index is live",
		fmt.Sprintf(`"why":"the index is of mapping version %d, older than version %d this release builds`, this-1, this),
		fmt.Sprintf(`"from_version":%d,"to_version":%d`, this-1, this)} {
		if !strings.Contains(logs.String(), line) {
			t.Errorf("no %q in the logs:\n%s", line, logs.String())
		}
	}
}

// TestAnUpgradeAcrossAMappingNoLongerServedAnswers503UntilTheNewIndexIsWhole
// runs the operations guide's upgrade when the new release does not serve
// the old index (index.ServesFrom above its version): the new binary opens
// the index the release before left, discards it and builds its own in
// place; meanwhile every list answers 503 with Retry-After and no-store,
// never an empty 200 a cache keeps, and the log says why and from which
// version to which. Then the lists hold what the old release wrote.
func TestAnUpgradeAcrossAMappingNoLongerServedAnswers503UntilTheNewIndexIsWhole(t *testing.T) {
	t.Parallel()
	dir, addr := t.TempDir(), freeAddr(t)
	environment := environmentOf(dir, addr)
	this := index.MappingVersion
	servedWith(t, environment, index.Versions{Mapping: this - 1, ServesFrom: this - 1}, "before 0", "before 1")
	servesTrueWhileBuiltInPlace(t, environment, index.Versions{Mapping: this, ServesFrom: this},
		fmt.Sprintf("mapping version %d, which this release does not serve", this-1), this-1, "before 0,before 1")
}
