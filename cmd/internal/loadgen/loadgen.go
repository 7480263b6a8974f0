// Package loadgen drives a running calendar service with many concurrent
// clients mixing reads and writes, and then checks that every write the
// service acknowledged is there: readable by ID with its last acknowledged
// title, and listed by the index. It runs in a process of its own, so the
// service is measured over loopback as a client sees it.
package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Config says where and how hard to push.
type Config struct {
	BaseURL  string // e.g. http://127.0.0.1:8080
	Login    string // an editor or administrator
	Password string
	Clients  int
	Duration time.Duration
	// MinWrites keeps the run going past Duration until that many writes are
	// acknowledged (or ctx ends), so a slow machine still proves something.
	MinWrites int
	Seed      uint64
	// RequestTimeout bounds each request (30 s when zero). A test gives
	// it its own deadline: on a machine loaded twentyfold a write can
	// wait longer than that, which is slowness, not an error.
	RequestTimeout time.Duration
}

// Report is what a run found.
type Report struct {
	Requests     int            `json:"requests"`
	Errors       int            `json:"errors"`
	ErrorSamples []string       `json:"error_samples,omitempty"`
	PerSecond    float64        `json:"requests_per_second"`
	Latency      map[string]Pct `json:"latency"`
	Acknowledged int            `json:"acknowledged_writes"`
	Lost         []string       `json:"lost,omitempty"` // acknowledged writes the service no longer shows
	Elapsed      time.Duration  `json:"-"`
	Seconds      float64        `json:"seconds"`
}

// Pct holds latency percentiles of one kind of request, in milliseconds.
type Pct struct {
	Count int     `json:"count"`
	P50   float64 `json:"p50_ms"`
	P99   float64 `json:"p99_ms"`
	Max   float64 `json:"max_ms"`
}

const api = "/vendor/events/v1"

// Run drives the service for cfg.Duration and then verifies what was
// acknowledged. An error means the run itself could not be set up.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	timeout := cfg.RequestTimeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	l := &load{cfg: cfg, client: &http.Client{
		Timeout:   timeout,
		Transport: &http.Transport{MaxIdleConnsPerHost: cfg.Clients, MaxConnsPerHost: cfg.Clients},
	}, latencies: map[string][]time.Duration{}}
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	l.category = "load-" + run
	status, body, err := l.do(ctx, "setup", http.MethodPost, api+"/categories", map[string]any{"name": l.category}, true)
	if err != nil || status != http.StatusCreated {
		return nil, fmt.Errorf("creating the run's category: %d %v %s", status, err, body)
	}
	var cat struct{ Slug string }
	_ = json.Unmarshal(body, &cat)
	l.category = cat.Slug

	clients := make([]*client, cfg.Clients)
	for i := range clients {
		clients[i] = &client{l: l, id: i, rnd: rand.New(rand.NewPCG(cfg.Seed, uint64(i))), events: map[int64]string{}}
	}
	for i := 0; i < 10; i++ { // so that page 2 of five exists from the start
		clients[0].create(ctx)
	}
	start := time.Now()
	deadline := start.Add(cfg.Duration)
	var wg sync.WaitGroup
	var acked atomic.Int64
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for (time.Now().Before(deadline) || acked.Load() < int64(cfg.MinWrites)) && ctx.Err() == nil {
				before := c.acked
				c.step(ctx)
				acked.Add(int64(c.acked - before))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)

	rep := &Report{Requests: l.requests, Errors: l.errors, ErrorSamples: l.samples, Elapsed: elapsed, Seconds: elapsed.Seconds(),
		PerSecond: float64(l.requests) / elapsed.Seconds(), Latency: map[string]Pct{}}
	for kind, ds := range l.latencies {
		rep.Latency[kind] = percentiles(ds)
	}
	live := map[int64]string{}
	for _, c := range clients {
		rep.Acknowledged += c.acked
		for id, title := range c.events {
			live[id] = title
		}
	}
	rep.Lost = l.verify(context.WithoutCancel(ctx), live) // an interrupted run is still checked
	return rep, nil
}

type load struct {
	cfg      Config
	client   *http.Client
	category string

	mu        sync.Mutex
	requests  int
	errors    int
	samples   []string
	latencies map[string][]time.Duration
}

// do sends one request; a non-2xx status is counted as an error by the caller
// when it did not expect it.
func (l *load) do(ctx context.Context, kind, method, path string, body any, auth bool) (int, []byte, error) {
	var reader io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		reader = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, l.cfg.BaseURL+path, reader)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth {
		req.SetBasicAuth(l.cfg.Login, l.cfg.Password)
	}
	t := time.Now()
	res, err := l.client.Do(req)
	var raw []byte
	if err == nil {
		raw, err = io.ReadAll(res.Body)
		res.Body.Close()
	}
	took := time.Since(t)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests++
	l.latencies[kind] = append(l.latencies[kind], took)
	if err != nil {
		return 0, nil, err
	}
	return res.StatusCode, raw, nil
}

func (l *load) failed(what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errors++
	if len(l.samples) < 20 {
		l.samples = append(l.samples, what)
	}
}

// client is one simulated front-end or editor. It owns the events it created,
// so its record of their last acknowledged titles is exact.
type client struct {
	l      *load
	id     int
	rnd    *rand.Rand
	events map[int64]string
	ids    []int64 // of events, for picking one
	acked  int
	serial int
}

var readPaths = []string{
	api + "/events",
	api + "/events?per_page=50",
	api + "/events?start_date=2027-01-01&end_date=2027-03-31",
	api + "/events?search=concert",
	api + "/events?page=2&per_page=5",
	api + "/venues",
	api + "/categories?hide_empty=false",
	api + "/tags",
	api,
}

// step does one thing: mostly reads, some creates, updates and deletes.
func (c *client) step(ctx context.Context) {
	switch r := c.rnd.IntN(100); {
	case r < 55:
		c.expect(ctx, "list", http.MethodGet, readPaths[c.rnd.IntN(len(readPaths))], nil, c.rnd.IntN(2) == 0, http.StatusOK)
	case r < 70 && len(c.ids) > 0:
		id := c.ids[c.rnd.IntN(len(c.ids))]
		c.expect(ctx, "get", http.MethodGet, api+"/events/"+strconv.FormatInt(id, 10), nil, true, http.StatusOK)
	case r < 88 || len(c.ids) == 0:
		c.create(ctx)
	case r < 97:
		c.update(ctx)
	default:
		c.remove(ctx)
	}
}

func (c *client) expect(ctx context.Context, kind, method, path string, body any, auth bool, want int) []byte {
	status, raw, err := c.l.do(ctx, kind, method, path, body, auth)
	if ctx.Err() != nil {
		return nil
	}
	if err != nil || status != want {
		c.l.failed(fmt.Sprintf("%s %s: want %d, got %d %v %.200s", method, path, want, status, err, raw))
		return nil
	}
	return raw
}

func (c *client) title() string {
	c.serial++
	return fmt.Sprintf("Concert %d-%d %s", c.id, c.serial, c.l.category)
}

func (c *client) create(ctx context.Context) {
	title := c.title()
	day := time.Date(2027, 1, 1, 20, 0, 0, 0, time.UTC).AddDate(0, 0, c.rnd.IntN(365))
	raw := c.expect(ctx, "create", http.MethodPost, api+"/events", map[string]any{
		"title": title, "status": "publish", "categories": c.l.category,
		"start_date": day.Format("2006-01-02 15:04:05"), "end_date": day.Add(2 * time.Hour).Format("2006-01-02 15:04:05"),
	}, true, http.StatusCreated)
	var e struct{ ID int64 }
	if raw == nil || json.Unmarshal(raw, &e) != nil || e.ID == 0 {
		return
	}
	c.events[e.ID] = title
	c.ids = append(c.ids, e.ID)
	c.acked++
}

func (c *client) update(ctx context.Context) {
	if len(c.ids) == 0 {
		return
	}
	id := c.ids[c.rnd.IntN(len(c.ids))]
	title := c.title()
	if c.expect(ctx, "update", http.MethodPost, api+"/events/"+strconv.FormatInt(id, 10), map[string]any{"title": title}, true, http.StatusOK) != nil {
		c.events[id] = title
		c.acked++
	}
}

func (c *client) remove(ctx context.Context) {
	if len(c.ids) == 0 {
		return
	}
	i := c.rnd.IntN(len(c.ids))
	id := c.ids[i]
	if c.expect(ctx, "delete", http.MethodDelete, api+"/events/"+strconv.FormatInt(id, 10)+"?force=true", nil, true, http.StatusOK) != nil {
		delete(c.events, id)
		c.ids = append(c.ids[:i], c.ids[i+1:]...)
		c.acked++
	}
}

// verifyRead reads as a client does that must know: a 503 (a search over
// its budget on a loaded machine, a replica not ready) says "later", not
// "gone", so it asks again, a few times, a second apart.
func (l *load) verifyRead(ctx context.Context, path string) (int, []byte, error) {
	for attempt := 1; ; attempt++ {
		status, raw, err := l.do(ctx, "verify", http.MethodGet, path, nil, true)
		if status != http.StatusServiceUnavailable || attempt == 30 {
			return status, raw, err
		}
		select {
		case <-ctx.Done():
			return status, raw, err
		case <-time.After(time.Second):
		}
	}
}

// verify reads every event the run left alive by ID, and lists the run's
// category through the index: both must show exactly the acknowledged state.
func (l *load) verify(ctx context.Context, live map[int64]string) []string {
	var lost []string
	for id, title := range live {
		status, raw, err := l.verifyRead(ctx, api+"/events/"+strconv.FormatInt(id, 10))
		var e struct{ Title string }
		if err != nil || status != http.StatusOK || json.Unmarshal(raw, &e) != nil || e.Title != title {
			lost = append(lost, fmt.Sprintf("event %d: want title %q, got %d %v %.200s", id, title, status, err, raw))
		}
	}
	listed := map[int64]bool{}
	for page := 1; ; page++ {
		path := fmt.Sprintf("%s/events?categories=%s&start_date=2026-12-31&per_page=50&page=%d", api, l.category, page)
		status, raw, err := l.verifyRead(ctx, path)
		if status == http.StatusBadRequest && page > 1 { // past the last page
			break
		}
		var list struct {
			Events     []struct{ ID int64 }
			TotalPages int `json:"total_pages"`
		}
		if err != nil || status != http.StatusOK || json.Unmarshal(raw, &list) != nil {
			lost = append(lost, fmt.Sprintf("listing page %d: %d %v %.200s", page, status, err, raw))
			break
		}
		for _, e := range list.Events {
			listed[e.ID] = true
		}
		if page >= list.TotalPages {
			break
		}
	}
	for id := range live {
		if !listed[id] {
			lost = append(lost, fmt.Sprintf("event %d is not listed", id))
		}
	}
	for id := range listed {
		if _, ok := live[id]; !ok {
			lost = append(lost, fmt.Sprintf("event %d is listed, but no acknowledged write left it there (deleted, or a create that got no answer)", id))
		}
	}
	sort.Strings(lost)
	return lost
}

func percentiles(ds []time.Duration) Pct {
	if len(ds) == 0 {
		return Pct{}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return Pct{Count: len(ds), P50: ms(ds[len(ds)/2]), P99: ms(ds[len(ds)*99/100]), Max: ms(ds[len(ds)-1])}
}
