package controllers_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
)

// What the small worlds share (terms_alone_test.go, events_alone_test.go...):
// a resource's routes alone, over a service that records what it is asked
// and answers what it is told.

// recorder is the memory of a recording service: the calls it was asked, by
// whom, with what, and the error it answers every call with.
type recorder struct {
	mu     sync.Mutex
	calls  []string
	caller app.Caller
	given  []any // what the last call was given besides the caller
	err    error
}

// record notes a call and returns the error the service answers.
func (r *recorder) record(call string, caller app.Caller, given ...any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, call)
	r.caller, r.given = caller, given
	return r.err
}

// called lists the calls asked so far, in order.
func (r *recorder) called() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.calls, ",")
}

// got is what the last call was given besides the caller.
func (r *recorder) got() []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.given
}

// asked is who asked the last call.
func (r *recorder) asked() app.Caller {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.caller
}

// failWith makes every call answer err.
func (r *recorder) failWith(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.err = err
}

// serveAlone serves the handler made for its own URL on a real listener.
func serveAlone(t *testing.T, handler func(controllers.Config) http.Handler) *service {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String()
	srv.Config.Handler = handler(controllers.Config{SiteURL: url, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	srv.Start()
	t.Cleanup(srv.Close)
	return &service{t: t, URL: url}
}

// kindStatuses are the statuses of the error kinds a service answers.
var kindStatuses = map[calendar.Kind]int{
	calendar.KindInvalid: http.StatusBadRequest, calendar.KindUnauthorized: http.StatusUnauthorized,
	calendar.KindForbidden: http.StatusForbidden, calendar.KindNotFound: http.StatusNotFound,
	calendar.KindConflict: http.StatusConflict, calendar.KindGone: http.StatusGone,
	calendar.KindTooLarge: http.StatusRequestEntityTooLarge, calendar.KindThrottled: http.StatusTooManyRequests,
	calendar.KindUnavailable: http.StatusServiceUnavailable, calendar.KindNotImplemented: http.StatusNotImplemented,
	calendar.KindPreconditionFailed: http.StatusPreconditionFailed, calendar.KindInternal: http.StatusInternalServerError,
}

// request is one request of a small world's test.
type request struct{ method, path string }

// expectEachKind checks that every error kind the service answers leaves
// each request with its status, in the plugin's shape and nothing more.
func expectEachKind(t *testing.T, rec *recorder, s *service, requests ...request) {
	t.Helper()
	for kind, status := range kindStatuses {
		rec.failWith(calendar.NewError(kind, "the_code", "The message."))
		for _, req := range requests {
			m := s.do(req.method, req.path, bearer("editor-token")).expectError(t, status, "the_code")
			if m["message"] != "The message." || len(m) != 3 {
				t.Errorf("kind %d on %s %s: %v, want code, message and data alone", kind, req.method, req.path, m)
			}
		}
	}
}

// rawAt is the JSON value at a path of keys in raw.
func rawAt(t *testing.T, raw []byte, path ...string) json.RawMessage {
	t.Helper()
	for _, key := range path {
		var object map[string]json.RawMessage
		if err := json.Unmarshal(raw, &object); err != nil {
			t.Fatalf("no object for %q in %s: %v", key, raw, err)
		}
		value, ok := object[key]
		if !ok {
			t.Fatalf("no %q in %s", key, raw)
		}
		raw = value
	}
	return raw
}
