package controllers_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The OpenAPI document lists every status an operation answers: each
// service the tests start reports, from its own metrics, the statuses its
// routes answered, and once every test has run, each of them must be in
// the document's responses of that operation (derived from the table of
// error kinds, controllers/errors.go). A route that answers a status its
// document does not list fails the package.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if missing := undocumentedAnswers(); len(missing) > 0 {
			fmt.Fprintln(os.Stderr, "--- FAIL: the OpenAPI document does not list statuses the service answered in these tests:")
			for _, line := range missing {
				fmt.Fprintln(os.Stderr, "    "+line)
			}
			code = 1
		}
	}
	os.Exit(code)
}

var answered = struct {
	sync.Mutex
	doc       map[string]map[string]json.RawMessage // route (its namespace's path) -> method -> operation
	statuses  map[string]map[int]bool               // "GET /vendor/events/v1/venues/{id}" -> statuses
	processes int
}{statuses: map[string]map[int]bool{}}

var requestsLine = regexp.MustCompile(`^calendar_http_requests_total\{code="(\d+)",method="([A-Z]+)",route="([^"]*)"\} `)

// recordAnswers reads, before the service stops, the statuses its routes
// answered, and the namespaces' documents once.
func (s *service) recordAnswers() {
	res, err := http.Get(s.URL + "/metrics")
	if err != nil {
		return
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	answered.Lock()
	defer answered.Unlock()
	for _, line := range strings.Split(string(raw), "\n") {
		m := requestsLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		status, _ := strconv.Atoi(m[1])
		op := m[2] + " " + m[3]
		if answered.statuses[op] == nil {
			answered.statuses[op] = map[int]bool{}
		}
		answered.statuses[op][status] = true
	}
	if answered.doc == nil {
		operations := map[string]map[string]json.RawMessage{}
		for _, namespace := range []string{"/vendor/events/v1", "/vendor/admin/v1"} {
			res, err := http.Get(s.URL + namespace + "/doc")
			if err != nil {
				return
			}
			var doc struct {
				Paths map[string]map[string]json.RawMessage
			}
			err = json.NewDecoder(res.Body).Decode(&doc)
			res.Body.Close()
			if err != nil {
				return
			}
			for path, item := range doc.Paths {
				operations[strings.TrimSuffix(namespace+path, "/")] = item
			}
		}
		answered.doc = operations
	}
}

// undocumentedAnswers are the operations and statuses answered that the
// document does not list.
func undocumentedAnswers() []string {
	answered.Lock()
	defer answered.Unlock()
	var missing []string
	for op, statuses := range answered.statuses {
		method, route, _ := strings.Cut(op, " ")
		path, ok := documentedPath(route)
		if !ok || method == http.MethodOptions { // probes, files, unknown paths; OPTIONS describes any route
			continue
		}
		if method == http.MethodHead {
			method = http.MethodGet
		}
		var operation struct{ Responses map[string]any }
		raw, ok := answered.doc[path][strings.ToLower(method)]
		if !ok || json.Unmarshal(raw, &operation) != nil {
			if len(statuses) > 1 || !statuses[http.StatusNotFound] { // a method the path does not take: rest_no_route
				missing = append(missing, op+": no such operation in the document")
			}
			continue
		}
		for status := range statuses {
			if _, ok := operation.Responses[strconv.Itoa(status)]; !ok {
				missing = append(missing, fmt.Sprintf("%s answered %d", op, status))
			}
		}
	}
	sort.Strings(missing)
	return missing
}

// documentedPath is the route pattern of an operation of a namespace's
// document (its server's path and the document's path).
func documentedPath(route string) (string, bool) {
	if strings.HasPrefix(route, "/vendor/events/v1/doc/ui") { // the Swagger UI's page and files, not the API's
		return "", false
	}
	return route, strings.HasPrefix(route, "/vendor/events/v1") || strings.HasPrefix(route, "/vendor/admin/v1")
}

// The check itself: an operation's answered statuses are found in the
// document, and one it does not list is reported.
func TestUndocumentedAnswersAreReported(t *testing.T) {
	answered.Lock()
	saved := answered.statuses
	answered.statuses = map[string]map[int]bool{}
	doc := answered.doc
	answered.doc = map[string]map[string]json.RawMessage{
		"/vendor/events/v1/venues/{id}": {"get": json.RawMessage(`{"responses":{"200":{},"404":{}}}`)},
		"/vendor/admin/v1/users":        {"post": json.RawMessage(`{"responses":{"201":{}}}`)},
	}
	answered.statuses["GET /vendor/events/v1/venues/{id}"] = map[int]bool{200: true, 404: true, 409: true}
	answered.statuses["HEAD /vendor/events/v1/venues/{id}"] = map[int]bool{200: true}
	answered.statuses["POST /vendor/admin/v1/users"] = map[int]bool{201: true}
	answered.statuses["GET /healthz"] = map[int]bool{503: true}
	answered.statuses["DELETE /vendor/events/v1/venues"] = map[int]bool{404: true}
	answered.statuses["PUT /vendor/admin/v1/users"] = map[int]bool{404: true, 200: true}
	answered.Unlock()
	missing := undocumentedAnswers()
	answered.Lock()
	answered.statuses, answered.doc = saved, doc
	answered.Unlock()
	if want := []string{"GET /vendor/events/v1/venues/{id} answered 409", "PUT /vendor/admin/v1/users: no such operation in the document"}; strings.Join(missing, "|") != strings.Join(want, "|") {
		t.Fatalf("reported %q, want %q", missing, want)
	}
}
