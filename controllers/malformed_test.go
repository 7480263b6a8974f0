package controllers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// malformedValues are wrong in type, size or content for any parameter.
var malformedValues = []any{
	map[string]any{"$gt": ""}, map[string]any{"$where": "sleep(1000)"}, []any{map[string]any{"$ne": 1}},
	"", " ", "-1", "0", "99999999999999999999999", "1e309", "NaN", "abc\x00def", "\xff\xfe",
	strings.Repeat("x", 100000), true, false, nil, 1.5, -7, json.Number("123456789012345678901234567890"),
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
// anonymous and as the administrator, and requires a non-5xx answer in the
// error shape whenever it is an error.
func TestNoClientMistakeIsA5xx(t *testing.T) {
	t.Parallel() // long: it runs beside the others
	s := startService(t)
	v := s.create("venue", asAdmin(), "venue", "Target")
	o := s.create("organizer", asAdmin(), "organizer", "Target")
	fill := func(path string) string {
		path = strings.Replace(path, `/venues/(?P<id>\d+)`, "/venues/"+idOf(v), 1)
		path = strings.Replace(path, `/organizers/(?P<id>\d+)`, "/organizers/"+idOf(o), 1)
		path = wpParam.ReplaceAllString(path, "target")
		return path
	}
	requests := 0
	for _, ns := range []string{"vendor/events/v1", "vendor/admin/v1"} {
		for route, desc := range routesOf(t, s, ns) {
			path := fill(route)
			for _, ep := range desc["endpoints"].([]any) {
				endpoint := ep.(map[string]any)
				args, _ := endpoint["args"].(map[string]any)
				for _, method := range toStrings(endpoint["methods"]) {
					for name := range args {
						for _, bad := range malformedValues {
							for _, cred := range []option{nil, asAdmin()} {
								opts := []option{jsonBody(map[string]any{name: bad})}
								target := path
								if method == http.MethodGet || method == http.MethodDelete {
									raw, _ := json.Marshal(bad)
									text, ok := bad.(string)
									if !ok {
										text = string(raw)
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
	if requests < 10000 {
		t.Fatalf("only %d requests sent: the route walk found too little", requests)
	}
	t.Logf("%d malformed requests", requests)
	s.do("GET", "/readyz").expectStatus(t, http.StatusOK)
}
