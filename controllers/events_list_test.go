package controllers_test

import (
	"net/http"
	"strings"
	"testing"
)

// titles lists the titles of an event list answer, in order.
func titles(t *testing.T, res *response) string {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	var out []string
	for _, e := range res.object(t)["events"].([]any) {
		out = append(out, e.(map[string]any)["title"].(string))
	}
	return strings.Join(out, ",")
}
