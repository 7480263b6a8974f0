package controllers_test

import (
	"net/http"
	"testing"
)

// TestTheDocAsClientsReadIt: what linters and generated clients read in the
// document the service serves. The cases share one service and its document
// (making it is most of their cost).
func TestTheDocAsClientsReadIt(t *testing.T) {
	t.Parallel()
	s := startService(t)
	res := s.do("GET", "/vendor/events/v1/doc")
	res.expectStatus(t, http.StatusOK)
	doc := res.object(t)
	t.Run("the pinned OpenAPI linter finds no error", func(t *testing.T) { lintsClean(t, res.Body) })
	t.Run("a field is null only where the service writes null", func(t *testing.T) { nullWhereWritten(t, doc) })
	t.Run("every URL it names is routed, with or without a trailing slash", func(t *testing.T) {
		routedWithOrWithoutATrailingSlash(t, doc)
	})
	t.Run("a term read in every context has the fields the document requires", func(t *testing.T) {
		term := s.do("POST", "/vendor/events/v1/categories", asAdmin(), form("name", "Jazz")).object(t)
		required := asList(asMap(asMap(asMap(doc["components"])["schemas"])["TermAnswer"])["required"])
		if len(required) == 0 {
			t.Fatal("TermAnswer requires nothing")
		}
		for _, context := range []string{"view", "embed", "edit"} {
			got := s.do("GET", "/vendor/events/v1/categories/"+idOf(term)+"?context="+context).object(t)
			for _, name := range required {
				if _, ok := got[name.(string)]; !ok {
					t.Errorf("context=%s: no %v, which the document requires", context, name)
				}
			}
		}
	})
}
