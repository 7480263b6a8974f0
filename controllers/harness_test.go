package controllers_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
	"calendar/index"
	"calendar/repository/bolt"
	"calendar/repository/ferretdbtest"
	"calendar/repository/mongo"
)

const adminPassword = "test admin password 0001"

// service is the whole calendar service on a real listener, with the embedded
// store and a real index in a temp dir.
type service struct {
	t     *testing.T
	URL   string
	store calendar.Store
	logs  *lockedBuffer
	// app is the service's domain, for what the process does on its own
	// (catching the index up, extending series) rather than on a request.
	app *app.App
	// index is the service's index, dir the data directory it is kept in.
	index *index.Live
	dir   string
	// client sends the requests: from 127.0.0.1 unless from() says otherwise.
	client *http.Client
	// received counts the bytes the service read from its connections.
	received *atomic.Int64
}

// from is the service as a client at another loopback address (127.0.0.2,
// 127.0.0.3...) reaches it, for what the service counts per address.
func (s *service) from(ip string) *service {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	other := *s
	other.client = &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	s.t.Cleanup(other.client.CloseIdleConnections)
	return &other
}

// lockedBuffer collects the service's log lines from any goroutine.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startService(t *testing.T) *service {
	t.Helper()
	return startServiceWith(t, func(*controllers.Config) {})
}

// startServiceWith starts the service with a changed HTTP configuration.
func startServiceWith(t *testing.T, configure func(*controllers.Config)) *service {
	t.Helper()
	return startServiceSettings(t, func(*app.Settings) {}, configure)
}

// noConfig keeps the HTTP configuration of startService.
func noConfig(*controllers.Config) {}

// startServiceSettings starts the service with changed app settings too.
func startServiceSettings(t *testing.T, settings func(*app.Settings), configure func(*controllers.Config)) *service {
	t.Helper()
	return startServiceOn(t, embedded, settings, configure)
}

// backend opens the store a service runs on, its files under dir.
type backend struct {
	name string
	open func(t *testing.T, dir string) calendar.Store
}

var (
	embedded = backend{"embedded", func(t *testing.T, dir string) calendar.Store {
		store, err := bolt.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		return store
	}}
	// mongoDB is a MongoDB server run in the test process.
	mongoDB = backend{"mongodb", func(t *testing.T, dir string) calendar.Store {
		store, err := mongo.Open(context.Background(), ferretdbtest.Start(t), "calendar")
		if err != nil {
			t.Fatal(err)
		}
		return store
	}}
	bothStores = []backend{embedded, mongoDB}
)

// startServiceOn starts the service on the backend's store.
func startServiceOn(t *testing.T, on backend, settings func(*app.Settings), configure func(*controllers.Config)) *service {
	t.Helper()
	dir := t.TempDir()
	store := on.open(t, dir)
	srv := httptest.NewUnstartedServer(nil)
	counting := &countingListener{Listener: srv.Listener, n: new(atomic.Int64)}
	srv.Listener = counting
	url := "http://" + srv.Listener.Addr().String()
	// The search budget answers a slow search with a 503: the tests assert
	// answers, and a busy machine must make them slower, not red (the budget's
	// own answer is tested with a budget of its own).
	set := app.Settings{SiteURL: url, PerPage: 10, SearchBudget: 2 * time.Minute}
	settings(&set)
	idx, err := index.Open(dir, set.Languages...) // the site's languages are the index's, as the binary opens it
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	a := app.New(store, idx, set)
	if _, err := a.Users.EnsureAdmin(context.Background(), adminPassword); err != nil {
		t.Fatal(err)
	}
	upkeep, stopUpkeep := context.WithCancel(context.Background())
	keptInLine := make(chan struct{})
	go func() { defer close(keptInLine); a.Fields.Run(upkeep) }() // as the service does (cmd/calendar)
	logs := &lockedBuffer{}
	cfg := controllers.Config{SiteURL: url, Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	configure(&cfg)
	srv.Config.Handler = controllers.New(cfg, a)
	srv.Start()
	s := &service{t: t, URL: url, store: store, logs: logs, app: a, index: idx, dir: dir, received: counting.n}
	t.Cleanup(func() {
		s.recordAnswers() // for the check that the document lists every status answered (TestMain)
		srv.Close()
		stopUpkeep()
		<-keptInLine
		a.Stop() // a rebuild of the index, before the index closes
		idx.Close()
		store.Close(context.Background())
		if t.Failed() { // what the service logged as errors tells why a 5xx came
			for _, line := range strings.Split(logs.String(), "\n") {
				if strings.Contains(line, "level=ERROR") {
					t.Log(line)
				}
			}
		}
	})
	return s
}

// countingListener counts the bytes read from the connections it accepts.
type countingListener struct {
	net.Listener
	n *atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, n: l.n}, nil
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// option changes a request before it is sent.
type option func(*http.Request)

func basic(login, password string) option {
	return header("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(login+":"+password)))
}

func bearer(password string) option { return header("Authorization", "Bearer "+password) }

func asAdmin() option { return basic("admin", adminPassword) }

func header(name, value string) option {
	return func(r *http.Request) { r.Header.Set(name, value) }
}

func body(contentType, content string) option {
	return func(r *http.Request) {
		r.Header.Set("Content-Type", contentType)
		r.Body = io.NopCloser(strings.NewReader(content))
		r.ContentLength = int64(len(content))
	}
}

func jsonBody(v any) option {
	raw, _ := json.Marshal(v)
	return body("application/json", string(raw))
}

type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (s *service) do(method, path string, opts ...option) *response {
	s.t.Helper()
	req, err := http.NewRequest(method, s.URL+path, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, o := range opts {
		o(req)
	}
	client := s.client
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return &response{Status: res.StatusCode, Header: res.Header, Body: raw}
}

// object decodes the body as a JSON object.
func (r *response) object(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// list decodes the body as a JSON array of objects.
func (r *response) list(t *testing.T) []map[string]any {
	t.Helper()
	var l []map[string]any
	if err := json.Unmarshal(r.Body, &l); err != nil {
		t.Fatalf("body is not a JSON array: %v\n%s", err, r.Body)
	}
	return l
}

// expectError checks status, code and the WordPress error shape.
func (r *response) expectError(t *testing.T, status int, code string) map[string]any {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status = %d, want %d; body %s", r.Status, status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("error Content-Type = %q, want JSON", ct)
	}
	m := r.object(t)
	if m["code"] != code {
		t.Fatalf("code = %v, want %s; body %s", m["code"], code, r.Body)
	}
	if msg, _ := m["message"].(string); msg == "" {
		t.Fatalf("error without a message: %s", r.Body)
	}
	data, _ := m["data"].(map[string]any)
	if data == nil || data["status"] != float64(status) {
		t.Fatalf("data.status = %v, want %d; body %s", data, status, r.Body)
	}
	return m
}

func (r *response) expectStatus(t *testing.T, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status = %d, want %d; body %s", r.Status, status, r.Body)
	}
}

// createUser makes a user of the role as admin and returns its password.
func (s *service) createUser(login string, role calendar.Role) (id float64, password string) {
	s.t.Helper()
	res := s.do("POST", "/vendor/admin/v1/users", asAdmin(), jsonBody(map[string]string{"login": login, "role": string(role)}))
	res.expectStatus(s.t, http.StatusCreated)
	m := res.object(s.t)
	return m["id"].(float64), m["application_password"].(string)
}

func bigBody(n int) string { return string(bytes.Repeat([]byte("a"), n)) }

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', 0, 64) }

// onBothStores runs a test against the service on each store: for what the
// store does under the service beyond its contract (repository's tests run
// that on both): writes that race, a series' lease, files served from GridFS.
func onBothStores(t *testing.T, settings func(*app.Settings), test func(t *testing.T, s *service)) {
	for _, on := range bothStores {
		t.Run(on.name, func(t *testing.T) { test(t, startServiceOn(t, on, settings, noConfig)) })
	}
}

// waitUntil polls cond until it holds. It waits as long as the test binary
// allows (go test's -timeout), never a fixed number of seconds: a busy
// machine makes a test slower, not red; a condition that never comes still
// fails.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Minute)
	if d, ok := t.Deadline(); ok {
		deadline = d.Add(-20 * time.Second)
	}
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("the condition never held")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// long marks a test left out of the edit-test loop (go test -short): the
// walks over every route, caller and value, the races, the crashes and the
// waits for timeouts. The whole suite (go test -race ./...) runs them.
func long(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("long: left out of -short; the whole suite runs it")
	}
}
