package controllers_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// routedWithOrWithoutATrailingSlash: an operation's URL is its server's and
// its path, perhaps with a trailing slash, as the plugin's URLs may have one;
// every such URL reaches its route at once (no redirect, no rest_no_route).
// The server is the namespace's root, {api}/ as the contract has it, and its
// paths join after that slash.
func routedWithOrWithoutATrailingSlash(t *testing.T, doc map[string]any) {
	server := strings.TrimSuffix(firstServer(doc), "/")
	values := strings.NewReplacer("{id}", "1", "{relation}", "occurrences", "{facet}", "venue", "{slug}", "a-slug", "{uuid}", "00000000-0000-4000-8000-000000000000")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for path, item := range doc["paths"].(map[string]any) {
		url := server + values.Replace(path)
		urls := []string{url}
		if !strings.HasSuffix(url, "/") {
			urls = append(urls, url+"/")
		}
		for method := range item.(map[string]any) {
			for _, u := range urls {
				// Anonymous: a write is refused before it changes anything.
				req, err := http.NewRequest(strings.ToUpper(method), u, nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				var body struct{ Code string }
				raw, _ := io.ReadAll(res.Body)
				res.Body.Close()
				_ = json.Unmarshal(raw, &body)
				if res.StatusCode >= 300 && res.StatusCode < 400 || body.Code == "rest_no_route" {
					t.Errorf("%s %s (the doc's %s): %d %s", req.Method, u, path, res.StatusCode, raw)
				}
			}
		}
	}
}
