package controllers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// malformedValues are wrong in type, size or content for any parameter: one
// of each kind (an operator object, an array of them, blank, negative, too
// large, not finite, a NUL, invalid UTF-8, longer than every bound, a boolean,
// null, a fraction, a number beyond int64, arrays empty, long and deep).
var malformedValues = []any{
	map[string]any{"$where": "sleep(1000)"}, []any{map[string]any{"$ne": 1}},
	" ", "-1", "99999999999999999999999", "1e309", "NaN", "abc\x00def", "\xff\xfe",
	strings.Repeat("x", 70000), true, nil, 1.5, json.Number("123456789012345678901234567890"),
	[]any{}, make([]any, 2000), deepValue(2000),
}

// deepValue is an array nested depth levels deep.
func deepValue(depth int) any {
	var v any = "bottom"
	for i := 0; i < depth; i++ {
		v = []any{v}
	}
	return v
}

// TestNoClientMistakeIsA5xx throws malformed values at every parameter of every
// route the namespace index lists, as JSON bodies and in the query string, as
// the administrator (who gets past every permission check to the handler) and,
// on the event list, as a visitor too (whose read rule changes what that list
// checks: statuses, linked venues and organizers; every route checks its
// parameters before the caller's permission, WordPress' order, so elsewhere a
// visitor goes no further than the administrator), and requires a non-5xx
// answer in the error shape whenever it is an error.
func TestNoClientMistakeIsA5xx(t *testing.T) {
	t.Parallel() // long: it runs beside the others
	long(t)
	s := startService(t)
	v := s.create("venue", asAdmin(), "venue", "Target")
	o := s.create("organizer", asAdmin(), "organizer", "Target")
	fill := func(path string) string {
		path = strings.Replace(path, `/venues/(?P<id>\d+)`, "/venues/"+idOf(v), 1)
		path = strings.Replace(path, `/organizers/(?P<id>\d+)`, "/organizers/"+idOf(o), 1)
		path = wpParam.ReplaceAllString(path, "target")
		return path
	}
	encoded := make([][]byte, len(malformedValues)) // once: the long and deep ones cost more to write than to send
	for i, bad := range malformedValues {
		raw, err := json.Marshal(bad)
		if err != nil {
			t.Fatal(err)
		}
		encoded[i] = raw
	}
	requests := 0
	for _, ns := range []string{"vendor/events/v1", "vendor/admin/v1"} {
		for route, desc := range routesOf(t, s, ns) {
			if strings.Contains(route, "/by-slug/") { // the by-ID route's handler and arguments, found by another key (the matrix tries both)
				continue
			}
			path := fill(route)
			for _, ep := range desc["endpoints"].([]any) {
				endpoint := ep.(map[string]any)
				args, _ := endpoint["args"].(map[string]any)
				for _, method := range oneEditable(toStrings(endpoint["methods"])) {
					for name := range args {
						for i, bad := range malformedValues {
							for _, cred := range []option{asAdmin(), nil} {
								if cred == nil && (method != http.MethodGet || route != "/"+ns+"/events") {
									continue
								}
								opts := []option{body("application/json", `{`+quoted(name)+`:`+string(encoded[i])+`}`)}
								target := path
								if method == http.MethodGet || method == http.MethodDelete {
									text, ok := bad.(string)
									if !ok && len(encoded[i]) > 100 {
										continue // a long array or a deep one is, as text, one more long string
									}
									if !ok {
										text = string(encoded[i])
									}
									target = path + "?" + url.Values{name: {text}}.Encode()
									opts = nil
								}
								if cred != nil {
									opts = append(opts, cred)
								}
								before, _ := s.store.LastSeq(context.Background())
								res := s.do(method, target, opts...)
								requests++
								if after, _ := s.store.LastSeq(context.Background()); res.Status >= 400 && after != before {
									t.Errorf("%s %s with %s=%.80v was refused (%d) but wrote to the store", method, path, name, bad, res.Status)
								}
								if res.Status >= 500 {
									t.Fatalf("%s %s with %s=%.80v: %d %s", method, target[:min(len(target), 120)], name, bad, res.Status, res.Body)
								}
								if res.Status >= 400 {
									var e struct {
										Code    string `json:"code"`
										Message string `json:"message"`
										Data    struct {
											Status int `json:"status"`
										} `json:"data"`
									}
									if err := json.Unmarshal(res.Body, &e); err != nil || e.Code == "" || e.Data.Status != res.Status {
										t.Fatalf("%s %s with %s: error not in shape: %s", method, path, name, res.Body)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if requests < 4000 {
		t.Fatalf("only %d requests sent: the route walk found too little", requests)
	}
	t.Logf("%d malformed requests", requests)
	s.do("GET", "/readyz").expectStatus(t, http.StatusOK)
}

// quoted is a JSON string of s.
func quoted(s string) string {
	raw, _ := json.Marshal(s)
	return string(raw)
}

// oneEditable keeps one of WordPress' EDITABLE methods (POST, PUT, PATCH)
// when an endpoint registers the three: one handler serves them, with the
// same arguments, body decoding and permission (handle registers one
// controller for every method of editable; the permission matrix checks
// that no route takes one of them without the others).
func oneEditable(methods []string) []string {
	if !slices.Contains(methods, http.MethodPost) || !slices.Contains(methods, http.MethodPut) || !slices.Contains(methods, http.MethodPatch) {
		return methods
	}
	return slices.DeleteFunc(slices.Clone(methods), func(m string) bool { return m == http.MethodPut || m == http.MethodPatch })
}
