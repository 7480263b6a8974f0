package controllers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"calendar/app"
	"calendar/controllers"
)

// hookReceiver is a receiver on loopback: it verifies each delivery's
// signature with Standard Webhooks' own library (not this service's code)
// and answers as its mode says.
type hookReceiver struct {
	t      *testing.T
	mu     sync.Mutex
	mode   string // "ok", "503", "slow" (past the sender's timeout)
	secret string
	got    []hookMessage
	bad    []string
}

type hookMessage struct {
	ID      string
	Type    string
	Item    int64
	Seq     int64
	Object  map[string]any
	Changed []string
}

func (h *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	mode, secret := h.mode, h.secret
	h.mu.Unlock()
	switch mode {
	case "503":
		http.Error(w, "not now", http.StatusServiceUnavailable)
		return
	case "slow":
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
		return
	}
	wh, err := standardwebhooks.NewWebhook(secret)
	if err == nil {
		err = wh.Verify(body, r.Header)
	}
	var p struct {
		Type string `json:"type"`
		Data struct {
			ID      int64          `json:"id"`
			Seq     int64          `json:"seq"`
			Object  map[string]any `json:"object"`
			Changed []string       `json:"changed"`
		} `json:"data"`
	}
	if err == nil {
		err = json.Unmarshal(body, &p)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil {
		h.bad = append(h.bad, fmt.Sprintf("%s: %v", r.Header.Get("webhook-id"), err))
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	h.got = append(h.got, hookMessage{ID: r.Header.Get("webhook-id"), Type: p.Type, Item: p.Data.ID, Seq: p.Data.Seq, Object: p.Data.Object, Changed: p.Data.Changed})
	w.WriteHeader(http.StatusNoContent)
}

func (h *hookReceiver) set(mode string) {
	h.mu.Lock()
	h.mode = mode
	h.mu.Unlock()
}

// heard is what the receiver took, as "type #item", in order.
func (h *hookReceiver) heard() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, m := range h.got {
		out = append(out, fmt.Sprintf("%s #%d", m.Type, m.Item))
	}
	return strings.Join(out, ", ")
}

// waitFor waits until the receiver heard want, as long as the test binary
// allows; failing, it says what it heard.
func (h *hookReceiver) waitFor(want string) {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Minute)
	if d, ok := h.t.Deadline(); ok {
		deadline = d.Add(-20 * time.Second)
	}
	for h.heard() != want {
		if time.Now().After(deadline) {
			h.mu.Lock()
			defer h.mu.Unlock()
			var heard []string
			for _, m := range h.got {
				heard = append(heard, fmt.Sprintf("%s #%d (%s)", m.Type, m.Item, m.ID))
			}
			h.t.Fatalf("the receiver heard %s, want %s; refused: %v", strings.Join(heard, ", "), want, h.bad)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// deliveringSettings deliver under an egress policy that opens loopback,
// retrying every 20 ms, a delivery timing out after 300 ms.
func deliveringSettings(s *app.Settings) {
	s.Webhooks = app.WebhookSettings{
		Sender:        controllers.NewWebhookSender(controllers.NewEgress([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}), 300*time.Millisecond),
		RetrySchedule: slices.Repeat([]time.Duration{20 * time.Millisecond}, 1000), Poll: 20 * time.Millisecond, Settle: 50 * time.Millisecond,
	}
}

// deliver runs the service's dispatcher until the test ends.
func (s *service) deliver() {
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.app.Webhooks.Run(ctx) }()
	s.t.Cleanup(func() { stop(); <-done })
}

// TestWebhooksReachAReceiverThatComesBackWithEveryChangeInOrder: on each
// store, a receiver that refuses connections, then answers 503, then takes
// longer than the timeout, then recovers, gets every change made meanwhile,
// in the order of the feed, none missing, each signed as Standard Webhooks'
// library verifies it, under one webhook-id per change however often it
// was tried.
func TestWebhooksReachAReceiverThatComesBackWithEveryChangeInOrder(t *testing.T) {
	t.Parallel()
	long(t)
	onBothStores(t, deliveringSettings, func(t *testing.T, s *service) {
		s.deliver()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close() // nothing listens there yet: connections are refused
		made := s.do("POST", "/vendor/admin/v1/webhooks", asAdmin(), jsonBody(map[string]any{"url": "http://" + addr + "/in"}))
		made.expectStatus(t, http.StatusCreated)
		hook := made.object(t)
		h := &hookReceiver{t: t, mode: "503", secret: hook["secret"].(string)}
		event := s.event(map[string]any{"title": "Kept", "start_date": "2030-03-01 10:00", "end_date": "2030-03-01 11:00"})
		waitUntil(t, func() bool { // refused, at least once
			return s.do("GET", "/vendor/admin/v1/webhooks/"+idOf(hook), asAdmin()).object(t)["failing"] != nil
		})
		srv := &http.Server{Handler: h}
		ln, err = net.Listen("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
		venue := s.create("venue", asAdmin(), "venue", "Hall")
		gone := s.event(map[string]any{"title": "Gone", "start_date": "2030-03-02 10:00", "end_date": "2030-03-02 11:00"})
		failures := func() float64 {
			f, _ := s.do("GET", "/vendor/admin/v1/webhooks/"+idOf(hook), asAdmin()).object(t)["failing"].(map[string]any)
			n, _ := f["failures"].(float64)
			return n
		}
		before := failures()
		waitUntil(t, func() bool { return failures() > before+1 }) // 503s
		h.set("slow")
		before = failures()
		waitUntil(t, func() bool { return failures() > before }) // a timeout
		s.do("PATCH", "/vendor/events/v1/events/"+idOf(event), asAdmin(), jsonBody(map[string]any{"title": "Kept, renamed"})).expectStatus(t, http.StatusOK)
		s.do("DELETE", "/vendor/events/v1/events/"+idOf(gone)+"?force=true", asAdmin()).expectStatus(t, http.StatusOK)
		h.set("ok")

		want := fmt.Sprintf("venue.created #%s, event.created #%s, event.deleted #%s", idOf(venue), idOf(event), idOf(gone))
		h.waitFor(want)
		s.do("PATCH", "/vendor/events/v1/events/"+idOf(event), asAdmin(), jsonBody(map[string]any{"title": "Kept, again"})).expectStatus(t, http.StatusOK)
		want += fmt.Sprintf(", event.updated #%s", idOf(event))
		h.waitFor(want)

		// The log, a test delivery, a replay, the metrics.
		one := "/vendor/admin/v1/webhooks/" + idOf(hook)
		var log []map[string]any
		waitUntil(t, func() bool { // the run's deliveries are written when it ends
			log = s.do("GET", one+"/deliveries", asAdmin()).list(t)
			return len(log) > 0 && log[0]["outcome"] == "delivered" && log[0]["type"] == "event.updated"
		})
		outcomes := map[any]int{}
		for _, a := range log {
			outcomes[a["outcome"]]++
		}
		if log[0]["outcome"] != "delivered" || log[0]["response_code"] != float64(204) || outcomes["failed"] == 0 || len(log) > 50 {
			t.Fatalf("the log, newest first, of its last 50 attempts: %v", log)
		}
		ping := s.do("POST", one+"/ping", asAdmin())
		if ping.expectStatus(t, http.StatusOK); ping.object(t)["outcome"] != "delivered" || ping.object(t)["type"] != "webhook.ping" {
			t.Fatalf("ping: %s", ping.Body)
		}
		want += ", webhook.ping #" + idOf(hook)
		h.waitFor(want)
		h.mu.Lock()
		replayFrom := h.got[0].Seq - 1 // the first change again, and all after it
		h.mu.Unlock()
		s.do("POST", one+"/replay", asAdmin(), jsonBody(map[string]any{"since": replayFrom})).expectStatus(t, http.StatusOK)
		want += fmt.Sprintf(", venue.created #%s, event.deleted #%s, event.updated #%s", idOf(venue), idOf(gone), idOf(event))
		h.waitFor(want)
		metrics := string(s.do("GET", "/metrics").Body)
		for _, line := range []string{`calendar_webhook_deliveries_total{outcome="delivered"}`, `calendar_webhook_deliveries_total{outcome="refused"}`,
			`calendar_webhook_lag_changes{status="active",webhook="` + idOf(hook) + `"}`} {
			if !strings.Contains(metrics, line) {
				t.Errorf("/metrics has no %s", line)
			}
		}

		h.mu.Lock()
		defer h.mu.Unlock()
		if len(h.bad) > 0 {
			t.Fatalf("deliveries the library did not verify: %v", h.bad)
		}
		for i, m := range h.got[:4] {
			if i > 0 && m.Seq <= h.got[i-1].Seq {
				t.Fatalf("out of order: %+v", h.got)
			}
			if m.ID != fmt.Sprintf("msg_%s_%d", idOf(hook), m.Seq) {
				t.Fatalf("webhook-id %q for change %d", m.ID, m.Seq)
			}
		}
		if replayed := h.got[5]; replayed.ID != fmt.Sprintf("msg_%s_%d_r1", idOf(hook), replayed.Seq) || replayed.Seq != h.got[0].Seq {
			t.Fatalf("the replay's first: %+v, want change %d under a new webhook-id", replayed, h.got[0].Seq)
		}
		if h.got[1].Object["title"] != "Kept, renamed" || h.got[1].Object["rest_url"] == nil || h.got[2].Object != nil ||
			strings.Join(h.got[3].Changed, ",") != "title" {
			t.Fatalf("objects and changes: %+v", h.got)
		}
	})
}
