package controllers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

const reindexPath = "/vendor/admin/v1/reindex"

// call is one request from a goroutine other than the test's: its status
// and body, or the transport's error, without failing the test there.
func (s *service) call(method, path string, opts ...option) (int, []byte, error) {
	req, err := http.NewRequest(method, s.URL+path, nil)
	if err != nil {
		return 0, nil, err
	}
	for _, o := range opts {
		o(req)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res.StatusCode, raw, err
}

func (s *service) reindexStatus(t *testing.T) app.ReindexStatus {
	t.Helper()
	res := s.do("GET", reindexPath, asAdmin())
	res.expectStatus(t, http.StatusOK)
	var st app.ReindexStatus
	if err := json.Unmarshal(res.Body, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// eventIDsFound are the IDs of the events a search lists.
func (s *service) eventIDsFound(t *testing.T, search string) []int64 {
	t.Helper()
	res := s.do("GET", "/vendor/events/v1/events?per_page=50&search="+url.QueryEscape(search), asAdmin())
	res.expectStatus(t, http.StatusOK)
	var list struct {
		Events []struct {
			ID int64 `json:"id"`
		} `json:"events"`
	}
	if err := json.Unmarshal(res.Body, &list); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, e := range list.Events {
		ids = append(ids, e.ID)
	}
	return ids
}

// ledger is what the writers were told: each event's last acknowledged
// title, or that it was deleted.
type ledger struct {
	mu      sync.Mutex
	titles  map[int64]string
	deleted map[int64]bool
	acks    atomic.Int64
}

// writer creates events, renames and deletes some of its own, until stop,
// recording every acknowledged write; what is not 2xx must be no 5xx.
func writer(s *service, w int, l *ledger, stop <-chan struct{}, fault func(string)) {
	var mine []int64
	for n := 0; ; n++ {
		select {
		case <-stop:
			return
		default:
		}
		var status int
		var raw []byte
		var err error
		switch {
		case n%5 == 4 && len(mine) > 1: // delete the oldest of its own for good
			id := mine[0]
			mine = mine[1:]
			status, raw, err = s.call("DELETE", fmt.Sprintf("/vendor/events/v1/events/%d?force=true", id), asAdmin())
			if err == nil && status == http.StatusOK {
				l.mu.Lock()
				l.deleted[id] = true
				l.mu.Unlock()
			}
		case n%3 == 2 && len(mine) > 0: // rename the newest
			id, title := mine[len(mine)-1], fmt.Sprintf("renamed%dx%d", w, n)
			status, raw, err = s.call("POST", fmt.Sprintf("/vendor/events/v1/events/%d", id), asAdmin(), jsonBody(map[string]any{"title": title}))
			if err == nil && status == http.StatusOK {
				l.mu.Lock()
				l.titles[id] = title
				l.mu.Unlock()
			}
		default:
			title := fmt.Sprintf("acked%dx%d", w, n)
			status, raw, err = s.call("POST", "/vendor/events/v1/events", asAdmin(), jsonBody(map[string]any{"title": title,
				"start_date": "next monday 10am", "end_date": "next monday 12pm", "venue": map[string]any{"venue": fmt.Sprintf("Hall %d", w)}}))
			var made struct {
				ID int64 `json:"id"`
			}
			if err == nil && status == http.StatusCreated && json.Unmarshal(raw, &made) == nil {
				mine = append(mine, made.ID)
				l.mu.Lock()
				l.titles[made.ID] = title
				l.mu.Unlock()
			}
		}
		switch {
		case err != nil:
			fault(err.Error())
		case status >= 500:
			fault(fmt.Sprintf("a write answered %d: %s", status, raw))
		case status < 300:
			l.acks.Add(1)
		}
	}
}

// reader lists and probes until stop; a 5xx, or a /readyz that is not 200,
// is a fault.
func reader(s *service, stop <-chan struct{}, fault func(string)) {
	paths := []string{"/vendor/events/v1/events?search=acked", "/vendor/events/v1/events", "/vendor/events/v1/venues", "/readyz"}
	for n := 0; ; n++ {
		select {
		case <-stop:
			return
		default:
		}
		path := paths[n%len(paths)]
		status, raw, err := s.call("GET", path)
		switch {
		case err != nil:
			fault(err.Error())
		case status >= 500 || (path == "/readyz" && status != http.StatusOK):
			fault(fmt.Sprintf("GET %s answered %d: %s", path, status, raw))
		}
	}
}

// TestAReindexServesThroughoutLosesNoWriteAndRemovesTheOldIndex rebuilds
// the index beside the live one under writers and readers, holding the
// rebuild at its first batch while writes go on: /readyz stays 200, no list
// answers 5xx, every acknowledged write (creates, renames, deletes, those
// made while the new index was being filled included) is in the new index
// once it is live, and only the new index's directory is left.
func TestAReindexServesThroughoutLosesNoWriteAndRemovesTheOldIndex(t *testing.T) {
	t.Parallel()
	held, release := make(chan struct{}), make(chan struct{})
	s := startServiceSettings(t, func(set *app.Settings) { set.ReindexPace = holdAtFirstBatch(held, release) }, noConfig)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release) // a test that failed while the rebuild was held
		}
	})
	for i := 0; i < 40; i++ {
		s.event(map[string]any{"title": fmt.Sprintf("seeded%d", i), "start_date": "next tuesday 10am", "end_date": "next tuesday 11am",
			"venue": map[string]any{"venue": fmt.Sprintf("Seed hall %d", i%4)}, "categories": []string{"Seeded"}})
	}

	l := &ledger{titles: map[int64]string{}, deleted: map[int64]bool{}}
	var faults []string
	var faultsMu sync.Mutex
	fault := func(f string) {
		faultsMu.Lock()
		defer faultsMu.Unlock()
		faults = append(faults, f)
	}
	stop := make(chan struct{})
	var running sync.WaitGroup
	for w := 0; w < 3; w++ {
		running.Add(2)
		go func() { defer running.Done(); writer(s, w, l, stop, fault) }()
		go func() { defer running.Done(); reader(s, stop, fault) }()
	}
	stopped := false
	stopAll := func() {
		if !stopped {
			stopped = true
			close(stop)
			running.Wait()
		}
	}
	defer stopAll()
	waitFor := func(acks int64) {
		target := l.acks.Load() + acks
		waitUntil(t, func() bool { return l.acks.Load() >= target })
	}
	waitFor(5)

	res := s.do("POST", reindexPath, asAdmin())
	res.expectStatus(t, http.StatusAccepted)
	if st := res.object(t); st["state"] != app.ReindexBuilding || st["reason"] != app.ReindexRequested || st["started_at"] == nil {
		t.Fatalf("the POST's answer: %s", res.Body)
	}
	<-held
	waitFor(20) // writes while the new index is being filled: the old one takes them
	if st := s.reindexStatus(t); st.State != app.ReindexBuilding || st.DocumentsTotal < 40 || st.FinishedAt != nil {
		t.Fatalf("while held: %+v", st)
	}
	s.do("POST", reindexPath, asAdmin()).expectError(t, http.StatusConflict, "reindex_running")
	if gaugeValue(t, s.scrape(), "calendar_index_rebuilding") != 1 {
		t.Fatal("calendar_index_rebuilding is not 1 while the new index is built")
	}
	whileHeld := s.event(map[string]any{"title": "madewhileheld", "start_date": "next wednesday 10am", "end_date": "next wednesday 11am"})
	if id := int64(whileHeld["id"].(float64)); !slices.Contains(s.eventIDsFound(t, "madewhileheld"), id) {
		t.Fatalf("event %d, made while the new index was held, is not listed: the old index took no write", id)
	}

	close(release)
	waitUntil(t, func() bool {
		st := s.reindexStatus(t)
		if st.State == app.ReindexFailed {
			t.Fatalf("the rebuild failed: %+v", st)
		}
		return st.State == app.ReindexDone
	})
	waitFor(5) // and on the new index
	stopAll()

	if len(faults) > 0 {
		t.Fatalf("%d faults during the rebuild, the first: %s", len(faults), faults[0])
	}
	if st := s.reindexStatus(t); st.DocumentsDone < 40 || st.FinishedAt == nil || st.Error != "" {
		t.Fatalf("once done: %+v", st)
	}
	// The new index is the store's, post by post (every acknowledged write).
	ctx := context.Background()
	var after int64
	stored := 0
	for {
		posts, err := s.store.Posts().Scan(ctx, after, 500)
		if err != nil {
			t.Fatal(err)
		}
		if len(posts) == 0 {
			break
		}
		if err := app.PlaceEvents(ctx, s.store, posts); err != nil {
			t.Fatal(err)
		}
		for _, p := range posts {
			if err := s.index.VerifyPost(ctx, p); err != nil {
				t.Error(err)
			}
		}
		stored += len(posts)
		after = posts[len(posts)-1].ID
	}
	if indexed, err := s.index.CountPosts(ctx); err != nil || indexed != stored {
		t.Fatalf("the new index holds %d posts (%v), the store %d", indexed, err, stored)
	}
	// And as the lists show them.
	for id, title := range l.titles {
		if found := slices.Contains(s.eventIDsFound(t, title), id); found == l.deleted[id] {
			t.Errorf("event %d (%q, deleted %v): listed %v", id, title, l.deleted[id], found)
		}
	}
	t.Logf("%d acknowledged writes, %d events checked", l.acks.Load(), len(l.titles))

	entries, err := os.ReadDir(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	var indexes []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "index") {
			indexes = append(indexes, e.Name())
		}
	}
	if live, _ := os.ReadFile(s.dir + "/index.live"); !slices.Equal(indexes, []string{"index-1"}) || strings.TrimSpace(string(live)) != "index-1" {
		t.Fatalf("index directories %v, index.live %q: want the new one alone", indexes, live)
	}
}

func TestTheReindexStatusBeforeAnyRebuildIsIdle(t *testing.T) {
	t.Parallel()
	s := startService(t)
	st := s.do("GET", reindexPath, asAdmin()).object(t)
	want := map[string]any{"state": app.ReindexIdle, "documents_done": float64(0), "documents_total": float64(0), "started_at": nil, "finished_at": nil}
	for k, v := range want {
		if st[k] != v {
			t.Fatalf("%s = %v, want %v: %v", k, st[k], v, st)
		}
	}
	if _, ok := st["error"]; ok {
		t.Fatalf("an idle status with an error key: %v", st)
	}
}

// Rebuilding the index is the site's own running: administrators only.
func TestOnlyAdministratorsRebuildTheIndex(t *testing.T) {
	t.Parallel()
	s := startService(t)
	_, editor := s.createUser("eddie", calendar.RoleEditor)
	for _, method := range []string{"GET", "POST"} {
		s.do(method, reindexPath).expectError(t, http.StatusUnauthorized, "rest_forbidden")
		s.do(method, reindexPath, basic("eddie", editor)).expectError(t, http.StatusForbidden, "rest_forbidden")
	}
	if st := s.reindexStatus(t); st.State != app.ReindexIdle {
		t.Fatalf("a refused POST started a rebuild: %+v", st)
	}
}

// holdAtFirstBatch is a ReindexPace that holds a rebuild at its first
// batch until release is closed (or the rebuild's context ends), after
// closing held.
func holdAtFirstBatch(held, release chan struct{}) func(context.Context) {
	var once sync.Once
	return func(ctx context.Context) {
		once.Do(func() {
			close(held)
			select {
			case <-release:
			case <-ctx.Done():
			}
		})
	}
}

// A service that stops during a rebuild discards the half-built index; the
// live one was never touched.
func TestAStopDuringAReindexDiscardsTheNewIndexAndKeepsTheLiveOne(t *testing.T) {
	t.Parallel()
	held, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	s := startServiceSettings(t, func(set *app.Settings) { set.ReindexPace = holdAtFirstBatch(held, release) }, noConfig)
	venue := s.create("venue", asAdmin(), "venue", "Kept hall")
	s.do("POST", reindexPath, asAdmin()).expectStatus(t, http.StatusAccepted)
	<-held
	s.app.Stop()
	st := s.reindexStatus(t)
	if st.State != app.ReindexFailed || st.Error == "" || st.FinishedAt == nil {
		t.Fatalf("after a stop: %+v", st)
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "index") && e.Name() != "index" {
			t.Fatalf("%s is left after the rebuild was stopped", e.Name())
		}
	}
	res := s.do("GET", "/vendor/events/v1/venues")
	res.expectStatus(t, http.StatusOK)
	if !strings.Contains(string(res.Body), `"id":`+formatFloat(venue["id"].(float64))) {
		t.Fatalf("the live index lost the venue: %s", res.Body)
	}
	s.do("POST", reindexPath, asAdmin()).expectError(t, http.StatusServiceUnavailable, "service_stopping")
}
