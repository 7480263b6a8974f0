package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"calendar/repository/ferretdbtest"
)

// webhookEnv lets the service deliver to receivers on loopback, retrying
// at once.
var webhookEnv = []string{"CALENDAR_OUTBOUND_ALLOWED_NETWORKS=127.0.0.0/8", "CALENDAR_WEBHOOK_RETRY_SCHEDULE=" + strings.Repeat("20ms,", 19) + "20ms"}

// tally is a receiver on loopback that counts each delivery by its
// webhook-id and notes the item and change of each id.
type tally struct {
	mu     sync.Mutex
	byID   map[string]int
	change map[string]string // webhook-id -> "item@seq"
	items  map[int64]bool
	slow   time.Duration
}

func newTally(slow time.Duration) (*tally, *httptest.Server) {
	tl := &tally{byID: map[string]int{}, change: map[string]string{}, items: map[int64]bool{}, slow: slow}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var p struct {
			Data struct {
				ID  int64 `json:"id"`
				Seq int64 `json:"seq"`
			} `json:"data"`
		}
		_ = json.Unmarshal(body, &p)
		time.Sleep(tl.slow) // deliveries stay in flight a while
		id := r.Header.Get("webhook-id")
		tl.mu.Lock()
		tl.byID[id]++
		tl.items[p.Data.ID] = true
		was, seen := tl.change[id]
		tl.change[id] = fmt.Sprintf("%d@%d", p.Data.ID, p.Data.Seq)
		if seen && was != tl.change[id] {
			tl.change[id] = "TWO CHANGES: " + was + " and " + tl.change[id]
		}
		tl.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	return tl, srv
}

// missing are the acknowledged items the receiver has not heard of.
func (tl *tally) missing(acked []int64) []int64 {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	var out []int64
	for _, id := range acked {
		if !tl.items[id] {
			out = append(out, id)
		}
	}
	return out
}

func subscribe(t *testing.T, c *child, url string) {
	t.Helper()
	status, m, err := c.post("/vendor/admin/v1/webhooks", fmt.Sprintf(`{"url": %q}`, url))
	if err != nil || status != http.StatusCreated {
		t.Fatalf("subscribe: %d %v %v", status, m, err)
	}
}

// TestWebhooksLoseNothingToASIGKILL: on each store, a service delivering
// webhooks while it takes writes is killed with SIGKILL; once restarted, every write it
// acknowledged reaches the receiver, and a delivery made again (in flight at
// the kill) carries the webhook-id it had.
func TestWebhooksLoseNothingToASIGKILL(t *testing.T) {
	t.Parallel()
	long(t)
	t.Run("on the embedded store", func(t *testing.T) {
		t.Parallel()
		webhooksSurviveASIGKILL(t, webhookEnv)
	})
	t.Run("on MongoDB", func(t *testing.T) {
		t.Parallel()
		// The restarted service delivers once the killed one's lease on the
		// subscription has expired (30 s): a SIGKILL gives nothing back.
		webhooksSurviveASIGKILL(t, append(slices.Clone(webhookEnv),
			"CALENDAR_MONGODB_URI="+ferretdbtest.Start(t), "CALENDAR_MONGODB_DB=hookskill"))
	})
}

func webhooksSurviveASIGKILL(t *testing.T, env []string) {
	tl, srv := newTally(5 * time.Millisecond)
	defer srv.Close()
	dir, addr := t.TempDir(), freeAddr(t)
	c := startChild(t, dir, addr, env...)
	subscribe(t, c, srv.URL+"/in")
	var mu sync.Mutex
	var acked []int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				status, m, err := c.post("/vendor/events/v1/venues", fmt.Sprintf(`{"venue": "hall %d-%d"}`, w, i))
				if err != nil {
					return // killed
				}
				if status == http.StatusCreated {
					mu.Lock()
					acked = append(acked, int64(m["id"].(float64)))
					mu.Unlock()
				}
			}
		}()
	}
	c.killOnce(t, 20, func() int { mu.Lock(); defer mu.Unlock(); return len(acked) })
	close(stop)
	wg.Wait()
	c = startChild(t, dir, addr, env...)
	defer c.stop(t)
	waitFor(t, func() bool { return len(tl.missing(acked)) == 0 }, func() string {
		return fmt.Sprintf("deliveries of %v (acknowledged before the kill); logs:\n%s", tl.missing(acked), c.logs.String())
	})
	tl.mu.Lock()
	defer tl.mu.Unlock()
	repeats := 0
	for id, n := range tl.byID {
		if strings.HasPrefix(tl.change[id], "TWO") {
			t.Fatalf("webhook-id %s named %s", id, tl.change[id])
		}
		repeats += n - 1
	}
	t.Logf("%d writes acknowledged before the kill, %d deliveries made again after it", len(acked), repeats)
}

// TestTwoReplicasDeliverEachChangeOnce: two replicas on one MongoDB-protocol
// server, both delivering, take writes on either; the receiver hears of each
// change once (one delivery per webhook-id), none missing.
func TestTwoReplicasDeliverEachChangeOnce(t *testing.T) {
	t.Parallel()
	long(t)
	uri := ferretdbtest.Start(t)
	tl, srv := newTally(0)
	defer srv.Close()
	replica := func() (*child, func()) {
		settings := map[string]string{"CALENDAR_DATA_DIR": t.TempDir(), "CALENDAR_MONGODB_URI": uri,
			"CALENDAR_MONGODB_DB": "hooks", "CALENDAR_SYNC_INTERVAL": "200ms", "CALENDAR_ADMIN_PASSWORD": childPassword}
		for _, kv := range webhookEnv {
			k, v, _ := strings.Cut(kv, "=")
			settings[k] = v
		}
		logs := &syncWriter{b: &strings.Builder{}}
		addr, stop := serveInProcess(t, settings, logs)
		return &child{addr: addr, logs: logs}, func() {
			if err := stop(); err != nil {
				t.Errorf("replica: %v", err)
			}
		}
	}
	a, stopA := replica()
	defer stopA()
	b, stopB := replica()
	defer stopB()
	subscribe(t, a, srv.URL+"/in")
	var acked []int64
	var made atomic.Int32
	for i := range 16 {
		on := a
		if i%2 == 1 {
			on = b
		}
		status, m, err := on.post("/vendor/events/v1/venues", fmt.Sprintf(`{"venue": "hall %d"}`, i))
		if err != nil || status != http.StatusCreated {
			t.Fatalf("create on %s: %d %v", on.addr, status, err)
		}
		acked = append(acked, int64(m["id"].(float64)))
		made.Add(1)
	}
	waitFor(t, func() bool { return len(tl.missing(acked)) == 0 }, func() string {
		return fmt.Sprintf("deliveries of %v; logs:\n%s\n%s", tl.missing(acked), a.logs.String(), b.logs.String())
	})
	tl.mu.Lock()
	defer tl.mu.Unlock()
	for id, n := range tl.byID {
		if n != 1 {
			t.Errorf("webhook-id %s (%s) delivered %d times", id, tl.change[id], n)
		}
	}
}
