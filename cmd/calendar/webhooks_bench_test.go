package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"calendar/repository/ferretdbtest"
)

// BenchmarkWebhookDeliveries measures webhooks at work with the default
// settings (docs/benchmarks.md, "Webhooks"): the service in a child
// process on the embedded store, 100 subscriptions (5 editors' 20 each) to
// 100 receivers on loopback in this process, 1,000 event creates from two
// writers; the time from each write's answer to its delivery to each
// receiver (p50, p99), the service's memory (peak and final resident set),
// and a visitor's event list (p50) while it runs against the same list
// quiet.
//
//	go test -run '^$' -bench BenchmarkWebhookDeliveries -benchtime 1x ./cmd/calendar/
func BenchmarkWebhookDeliveries(b *testing.B) {
	for range b.N {
		benchWebhooks(b, 100, 1000, 0)
	}
}

// BenchmarkWebhookDeliveriesPaced is the same with the writes paced at 25
// a second (2,500 deliveries a second), under what the two cores deliver.
func BenchmarkWebhookDeliveriesPaced(b *testing.B) {
	for range b.N {
		benchWebhooks(b, 100, 1000, 40*time.Millisecond)
	}
}

// benchWebhooks: pace is the time between two writes (0: as fast as the
// two writers go).
func benchWebhooks(b *testing.B, subscriptions, writes int, pace time.Duration) {
	dir, addr := b.TempDir(), ferretdbtest.FreeAddr(b)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CALENDAR_TEST_CHILD=1", "CALENDAR_ADDR="+addr, "CALENDAR_DATA_DIR="+dir,
		"CALENDAR_ADMIN_PASSWORD="+childPassword, "CALENDAR_OUTBOUND_ALLOWED_NETWORKS=127.0.0.0/8", "CALENDAR_LOG_FORMAT=text")
	logs := &syncWriter{b: &strings.Builder{}}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() }()
	for deadline := time.Now().Add(2 * time.Minute); !ready(addr); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatalf("the service never got ready:\n%s", logs.String())
		}
	}
	var password string // the editor's whose subscriptions are being made
	mustPost := func(path, body string, as ...string) map[string]any {
		req, _ := http.NewRequest("POST", "http://"+addr+path, strings.NewReader(body))
		req.SetBasicAuth("admin", childPassword)
		if len(as) > 0 {
			req.Header.Set("Authorization", "Bearer "+as[0])
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(res.Body).Decode(&m)
		if res.StatusCode != http.StatusCreated {
			b.Fatalf("POST %s: %d %v", path, res.StatusCode, m)
		}
		return m
	}
	event := func(i int) string {
		day := 1 + i%28
		return fmt.Sprintf(`{"title": "Concert %d", "start_date": "2030-02-%02d 20:00", "end_date": "2030-02-%02d 22:00"}`, i, day, day)
	}
	for i := range 100 { // something for the visitor's list
		mustPost("/vendor/events/v1/events", event(10000+i))
	}
	// list times a visitor's event list until stop is closed (or n times).
	list := func(n int, stop <-chan struct{}) []time.Duration {
		var out []time.Duration
		for i := 0; n == 0 || i < n; i++ {
			select {
			case <-stop:
				return out
			default:
			}
			start := time.Now()
			res, err := http.Get("http://" + addr + "/vendor/events/v1/events")
			if err == nil {
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			out = append(out, time.Since(start))
		}
		return out
	}
	quiet := list(300, nil)

	// The receivers: the first arrival of each item at each.
	var mu sync.Mutex
	arrived := make([]map[int64]time.Time, subscriptions)
	for i := range subscriptions {
		arrived[i] = map[int64]time.Time{}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var p struct {
				Data struct {
					ID int64 `json:"id"`
				} `json:"data"`
			}
			_ = json.NewDecoder(r.Body).Decode(&p)
			now := time.Now()
			mu.Lock()
			if _, seen := arrived[i][p.Data.ID]; !seen {
				arrived[i][p.Data.ID] = now
			}
			mu.Unlock()
			w.WriteHeader(http.StatusNoContent)
		}))
		defer srv.Close()
		if i%20 == 0 { // 20 subscriptions a user
			created := mustPost("/vendor/admin/v1/users", fmt.Sprintf(`{"login": "editor%d", "role": "editor"}`, i))
			password = created["application_password"].(string)
		}
		mustPost("/vendor/admin/v1/webhooks", fmt.Sprintf(`{"url": %q, "types": ["event.created"]}`, srv.URL+"/in"), password)
	}

	answered := map[int64]time.Time{}
	var answeredMu sync.Mutex
	delivered := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, a := range arrived {
			n += len(a)
		}
		return n
	}
	busyDone := make(chan []time.Duration)
	stopBusy := make(chan struct{})
	go func() { busyDone <- list(0, stopBusy) }()
	started := time.Now()
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next := time.Now()
			for i := w; i < writes; i += 2 {
				if pace > 0 {
					next = next.Add(2 * pace)
					time.Sleep(time.Until(next))
				}
				m := mustPost("/vendor/events/v1/events", event(i))
				answeredMu.Lock()
				answered[int64(m["id"].(float64))] = time.Now()
				answeredMu.Unlock()
			}
		}()
	}
	wg.Wait()
	wrote := time.Since(started)
	peak := peakRSS(cmd.Process.Pid)
	for deadline := time.Now().Add(15 * time.Minute); delivered() < subscriptions*writes && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		peak = max(peak, peakRSS(cmd.Process.Pid))
	}
	all := time.Since(started)
	close(stopBusy)
	busy := <-busyDone

	mu.Lock()
	var latency []time.Duration
	missing := 0
	for _, a := range arrived {
		for id, at := range answered {
			if got, ok := a[id]; ok {
				latency = append(latency, max(got.Sub(at), 0))
			} else {
				missing++
			}
		}
	}
	mu.Unlock()
	p50, p99 := quantile(latency, 0.50), quantile(latency, 0.99)
	quietP50, busyP50 := quantile(quiet, 0.5), quantile(busy, 0.5)
	b.ReportMetric(ms(p50), "delivery-p50-ms")
	b.ReportMetric(ms(p99), "delivery-p99-ms")
	b.ReportMetric(float64(peak)/(1<<20), "peak-rss-MiB")
	b.ReportMetric(ms(quietP50), "list-quiet-p50-ms")
	b.ReportMetric(ms(busyP50), "list-busy-p50-ms")
	b.Logf("%d subscriptions, %d writes in %v, %d deliveries in %v (%.0f/s), %d missing; delivery p50 %v p99 %v max %v; "+
		"service peak RSS %d MiB, final %d MiB; visitor's list p50 quiet %v (%d requests), during %v (%d requests, %.2f×)",
		subscriptions, writes, wrote.Round(time.Millisecond), len(latency), all.Round(time.Millisecond), float64(len(latency))/all.Seconds(), missing,
		p50.Round(time.Millisecond), p99.Round(time.Millisecond), quantile(latency, 1).Round(time.Millisecond),
		peak>>20, rss(cmd.Process.Pid)>>20, quietP50.Round(10*time.Microsecond), len(quiet), busyP50.Round(10*time.Microsecond), len(busy),
		float64(busyP50)/float64(quietP50))
}

func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(int(q*float64(len(s))), len(s)-1)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// peakRSS and rss read a process's peak and current resident set (Linux).
func peakRSS(pid int) int64 { return procStatus(pid, "VmHWM:") }
func rss(pid int) int64     { return procStatus(pid, "VmRSS:") }

func procStatus(pid int, field string) int64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
