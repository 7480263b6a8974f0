package controllers_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"calendar/controllers"
)

// startServiceJSONLogs starts the service with the JSON logger the command uses.
func startServiceJSONLogs(t *testing.T) (*service, *lockedBuffer) {
	t.Helper()
	logs := &lockedBuffer{}
	s := startServiceWith(t, func(c *controllers.Config) {
		c.Logger = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	return s, logs
}

// logLines parses every log line, failing on one that is not a JSON object.
func logLines(t *testing.T, logs *lockedBuffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if line == "" { // nothing logged yet: a waiting caller looks again
			continue
		}
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("a log line is not JSON: %v\n%s", err, line)
		}
		out = append(out, entry)
	}
	return out
}

// linesOf returns the log lines carrying the request ID.
// It waits for the request's access line, which is written once the answer
// has gone out: a client can read the answer before it is there.
func linesOf(t *testing.T, logs *lockedBuffer, id string) []map[string]any {
	t.Helper()
	var out []map[string]any
	waitUntil(t, func() bool {
		out = out[:0]
		logged := false
		for _, entry := range logLines(t, logs) {
			if entry["request_id"] == id {
				out = append(out, entry)
				logged = logged || entry["msg"] == "request"
			}
		}
		return logged
	})
	return out
}

var generatedID = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestEveryRequestGetsAnIDEchoedAndInItsAccessLogLine(t *testing.T) {
	t.Parallel()
	s, logs := startServiceJSONLogs(t)
	long := strings.Repeat("a", 128)
	cases := []struct {
		name, given string
		kept        bool
	}{
		{"a sane ID is kept", "req-42_A.b", true},
		{"128 characters are kept", long, true},
		{"none is generated", "", false},
		{"129 characters are replaced", long + "a", false},
		{"spaces are replaced", "two words", false},
		{"quotes and slashes are replaced", `a"b/c`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var opts []option
			if c.given != "" {
				opts = append(opts, header("X-Request-ID", c.given))
			}
			res := s.do("GET", "/fr/vendor/events/v1/venues/", opts...)
			res.expectStatus(t, http.StatusOK)
			id := res.Header.Get("X-Request-ID")
			if c.kept && id != c.given || !c.kept && !generatedID.MatchString(id) {
				t.Fatalf("X-Request-ID = %q for %q", id, c.given)
			}
			lines := linesOf(t, logs, id)
			if len(lines) != 1 {
				t.Fatalf("%d log lines carry %s, want the access line:\n%s", len(lines), id, logs.String())
			}
			line := lines[0]
			if line["msg"] != "request" || line["method"] != "GET" || line["route"] != "/vendor/events/v1/venues" ||
				line["status"] != float64(200) || line["level"] != "INFO" {
				t.Fatalf("access line = %v", line)
			}
			if d, _ := line["duration_ms"].(float64); d <= 0 {
				t.Fatalf("duration_ms = %v", line["duration_ms"])
			}
			if b, _ := line["bytes"].(float64); int(b) != len(res.Body) {
				t.Fatalf("bytes = %v, body has %d", line["bytes"], len(res.Body))
			}
		})
	}
	t.Run("two requests without an ID get different ones", func(t *testing.T) {
		a, b := s.do("GET", "/healthz"), s.do("GET", "/healthz")
		if a.Header.Get("X-Request-ID") == b.Header.Get("X-Request-ID") {
			t.Fatal("the same generated ID twice")
		}
	})
}

func TestAccessLinesNameTheRoutePatternAndTheStatus(t *testing.T) {
	t.Parallel()
	s, logs := startServiceJSONLogs(t)
	cases := []struct {
		method, path, route string
		status              int
		opts                []option
	}{
		{"GET", "/vendor/events/v1/venues/12345", "/vendor/events/v1/venues/{id}", 400, nil},
		{"GET", "/vendor/events/v1/nope/1", "unmatched", 404, nil},
		{"GET", "/vendor/events/v1/doc?x=1", "/vendor/events/v1/doc", 200, nil},
		{"POST", "/vendor/events/v1/venues", "/vendor/events/v1/venues", 401, []option{basic("admin", "wrong")}},
		{"OPTIONS", "/vendor/events/v1/events/3", "/vendor/events/v1/events/{id}", 200, nil},
		{"GET", "/healthz", "/healthz", 200, nil},
	}
	for i, c := range cases {
		id := "route-case-" + formatFloat(float64(i))
		res := s.do(c.method, c.path, append(c.opts, header("X-Request-ID", id))...)
		res.expectStatus(t, c.status)
		lines := linesOf(t, logs, id)
		if len(lines) != 1 || lines[0]["route"] != c.route || lines[0]["status"] != float64(c.status) || lines[0]["method"] != c.method {
			t.Fatalf("%s %s: lines %v", c.method, c.path, lines)
		}
		if path, _ := lines[0]["path"].(string); strings.Contains(path, "?") {
			t.Fatalf("the query string is logged: %v", lines[0])
		}
	}
	if lines := linesOf(t, logs, "route-case-5"); lines[0]["level"] != "DEBUG" {
		t.Fatalf("a probe is logged at %v, want DEBUG", lines[0]["level"])
	}
}

func TestErrorLinesCarryTheRequestID(t *testing.T) {
	t.Parallel()
	s, logs := startServiceJSONLogs(t)
	created := s.do("POST", "/vendor/events/v1/venues", asAdmin(), jsonBody(map[string]string{"venue": "Hall"}))
	created.expectStatus(t, http.StatusCreated)
	if err := s.store.Close(context.Background()); err != nil { // the store fails from now on
		t.Fatal(err)
	}
	s.do("GET", "/vendor/events/v1/venues/"+formatFloat(created.object(t)["id"].(float64)),
		header("X-Request-ID", "broken-store")).expectError(t, http.StatusInternalServerError, "internal_error")
	s.do("GET", "/readyz", header("X-Request-ID", "not-ready")).expectError(t, http.StatusServiceUnavailable, "not_ready")
	for id, want := range map[string][]string{
		"broken-store": {"request failed", "request"},
		"not-ready":    {"not ready", "request refused", "request"},
	} {
		var got []string
		for _, line := range linesOf(t, logs, id) {
			got = append(got, line["msg"].(string))
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("lines of %s: %q, want %q\n%s", id, got, want, logs.String())
		}
	}
}
