package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"calendar/app/calendar"
	"calendar/index"
	"calendar/repository/bolt"
)

// TestMain lets the test binary run as the service in a child process.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv("CALENDAR_TEST_MAIN_ARGS"); ok { // runMain: the real main, exit status included (no args: it serves)
		os.Args = append([]string{"calendar"}, strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	if os.Getenv("CALENDAR_TEST_CHILD") == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		if err := run(ctx, nil, os.Getenv, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	// The children are this binary: built with -race, each would sleep a
	// second at its exit (the race detector's atexit_sleep_ms), and the
	// tests run hundreds of them. A race a child finds still fails it.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

const childPassword = "crash test password"

type child struct {
	cmd     *exec.Cmd
	addr    string
	logs    *syncWriter   // the child's standard error
	exited  chan struct{} // closed once the child has exited and been waited for
	exitErr error         // what waiting for it returned
}

// wait waits for the child to exit and returns how it exited.
func (c *child) wait() error {
	<-c.exited
	return c.exitErr
}

func startChild(t *testing.T, dir, addr string, env ...string) *child {
	t.Helper()
	c := &child{addr: addr, logs: &syncWriter{b: &strings.Builder{}}}
	c.cmd = exec.Command(os.Args[0], "-test.run=^$")
	c.cmd.Env = append(append(os.Environ(), "CALENDAR_TEST_CHILD=1", "CALENDAR_ADDR="+addr, "CALENDAR_DATA_DIR="+dir,
		"CALENDAR_ADMIN_PASSWORD="+childPassword, slowMachineSearchBudget), env...)
	c.cmd.Stderr = c.logs
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c.exited = make(chan struct{})
	go func() { c.exitErr = c.cmd.Wait(); close(c.exited) }()
	// A child that exits before it is ready (a port taken meanwhile, a
	// store it cannot open) fails the test at once, not at go test's -timeout.
	exitedEarly := false
	waitFor(t, func() bool {
		select {
		case <-c.exited:
			exitedEarly = true
			return true
		default:
			return ready(addr)
		}
	}, func() string {
		_ = c.cmd.Process.Kill()
		return "the child to get ready; logs:\n" + c.logs.String()
	})
	if exitedEarly {
		t.Fatalf("the child exited before it was ready: %v; logs:\n%s", c.exitErr, c.logs.String())
	}
	return c
}

// stop ends the child gracefully, as an operator would.
func (c *child) stop(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := c.wait(); err != nil {
		t.Fatalf("graceful stop: %v; logs:\n%s", err, c.logs.String())
	}
}

// killOnce kills the child with SIGKILL mid-stream, once acknowledged says
// enough writes were acknowledged, however fast this machine is. The
// deadline only stops a test whose writes stopped: a busy machine takes
// as long as it takes.
func (c *child) killOnce(t *testing.T, enough int, acknowledged func() int) {
	t.Helper()
	waitFor(t, func() bool { return acknowledged() >= enough }, func() string {
		return fmt.Sprintf("%d acknowledged writes (%d so far)", enough, acknowledged())
	})
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.wait()
}

func (c *child) post(path, body string) (int, map[string]any, error) {
	req, _ := http.NewRequest("POST", "http://"+c.addr+path, strings.NewReader(body))
	req.SetBasicAuth("admin", childPassword)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(res.Body).Decode(&m)
	return res.StatusCode, m, nil
}

// TestAcknowledgedWritesSurviveSIGKILLAndTheIndexMatchesTheStore: a child
// service takes concurrent writes and is killed with SIGKILL mid-stream; after
// a restart every acknowledged write is in the store, and the index holds
// exactly what the store holds, field by field.
func TestAcknowledgedWritesSurviveSIGKILLAndTheIndexMatchesTheStore(t *testing.T) {
	t.Parallel()
	long(t)
	dir, addr := t.TempDir(), freeAddr(t)
	c := startChild(t, dir, addr)
	var mu sync.Mutex
	acked := map[int64]string{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				path, body := "/vendor/events/v1/venues", fmt.Sprintf(`{"venue": "venue %d-%d", "city": "c%d"}`, w, i, i)
				if i%3 == 2 {
					path = "/vendor/events/v1/events"
					body = fmt.Sprintf(`{"title": "event %d-%d", "start_date": "2030-01-%02d 10:00", "end_date": "2030-01-%02d 12:00", "categories": "cat%d"}`, w, i, i%28+1, i%28+1, w)
				}
				status, m, err := c.post(path, body)
				if err != nil {
					return // the service is gone
				}
				if status == http.StatusCreated {
					mu.Lock()
					acked[int64(m["id"].(float64))] = path
					mu.Unlock()
				}
			}
		}(w)
	}
	c.killOnce(t, 100, func() int { mu.Lock(); defer mu.Unlock(); return len(acked) })
	close(stop)
	wg.Wait()

	c = startChild(t, dir, addr)
	for id, path := range acked {
		res, err := http.Get(fmt.Sprintf("http://%s%s/%d", addr, path, id))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("acknowledged %s %d answers %d after the restart", path, id, res.StatusCode)
		}
	}
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := c.wait(); err != nil {
		t.Fatalf("graceful stop: %v", err)
	}
	verifyIndexMatchesStore(t, dir)
	t.Logf("%d acknowledged writes checked", len(acked))
}

// verifyIndexMatchesStore compares every post of the store with the index.
func verifyIndexMatchesStore(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	store, err := bolt.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(ctx)
	idx, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if _, err := verifyIndex(ctx, store, idx, func(_ *calendar.Post, problem error) { t.Error(problem) }); err != nil {
		t.Fatal(err)
	}
}

// TestStartUpCatchesUpWithChangesTheIndexMissed writes to the store behind the
// index's back (as a crash between the two writes, or another replica, does):
// the next start applies them, deletes included.
func TestStartUpCatchesUpWithChangesTheIndexMissed(t *testing.T) {
	t.Parallel()
	dir, addr := t.TempDir(), freeAddr(t)
	c := startChild(t, dir, addr)
	_, kept, _ := c.post("/vendor/events/v1/venues", `{"venue": "kept"}`)
	_, gone, _ := c.post("/vendor/events/v1/venues", `{"venue": "gone"}`)
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	_ = c.wait()

	ctx := context.Background()
	store, err := bolt.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	behind := &calendar.Post{Type: calendar.PostTypeVenue, Slug: "behind", Status: calendar.StatusPublish, Title: "behind", Author: 1,
		Date: time.Now().UTC().Truncate(time.Second), Modified: time.Now().UTC().Truncate(time.Second)}
	if err := store.Posts().Insert(ctx, behind); err != nil {
		t.Fatal(err)
	}
	doomed, err := store.Posts().Get(ctx, int64(gone["id"].(float64)))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Posts().Delete(ctx, doomed.ID, doomed.Seq); err != nil {
		t.Fatal(err)
	}
	store.Close(ctx)

	c = startChild(t, dir, addr)
	res, err := http.Get("http://" + addr + "/vendor/events/v1/venues")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Venues []struct {
			Venue string `json:"venue"`
		} `json:"venues"`
	}
	_ = json.NewDecoder(res.Body).Decode(&list)
	res.Body.Close()
	var names []string
	for _, v := range list.Venues {
		names = append(names, v.Venue)
	}
	if strings.Join(names, ",") != "behind,kept" {
		t.Fatalf("after the restart the list has %v, want [behind kept] (%v)", names, kept["id"])
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	_ = c.wait()
	verifyIndexMatchesStore(t, dir)
}

// TestAMissingIndexIsRebuiltFromTheStore: with the index gone (or of an older
// mapping version, which Open discards), the service rebuilds it.
func TestAMissingIndexIsRebuiltFromTheStore(t *testing.T) {
	t.Parallel()
	dir, addr := t.TempDir(), freeAddr(t)
	c := startChild(t, dir, addr)
	for i := 0; i < 5; i++ {
		c.post("/vendor/events/v1/organizers", fmt.Sprintf(`{"organizer": "o%d"}`, i))
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	_ = c.wait()
	if err := index.Remove(dir); err != nil {
		t.Fatal(err)
	}
	c = startChild(t, dir, addr)
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	_ = c.wait()
	if !strings.Contains(c.logs.String(), "built the index from the store") {
		t.Fatalf("no rebuild in the logs:\n%s", c.logs.String())
	}
	verifyIndexMatchesStore(t, dir)
}
