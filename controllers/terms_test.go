package controllers_test

import (
	"net/http"
	"strings"
	"testing"
)

// The rules of categories and tags are app's (app/term_test.go,
// app/term_rules_test.go); their routes' HTTP, terms_alone_test.go. Here,
// the helpers the whole-service tests share.

// term creates a category or a tag as the administrator.
func (s *service) term(kind string, pairs ...string) map[string]any {
	s.t.Helper()
	res := s.do("POST", "/vendor/events/v1/"+kind, asAdmin(), form(pairs...))
	res.expectStatus(s.t, http.StatusCreated)
	return res.object(s.t)
}

// names lists the names of a term list's items, in order.
func names(t *testing.T, res *response, key string) string {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	var out []string
	for _, item := range res.object(t)[key].([]any) {
		out = append(out, item.(map[string]any)["name"].(string))
	}
	return strings.Join(out, ",")
}
