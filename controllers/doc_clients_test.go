package controllers_test

import (
	"net/http"
	"testing"
)

// TestTheDocAsClientsReadIt: what linters and generated clients read in the
// documents the service serves. The cases share one service and its
// documents (making them is most of their cost).
func TestTheDocAsClientsReadIt(t *testing.T) {
	t.Parallel()
	s := startService(t)
	res := s.do("GET", "/vendor/events/v1/doc")
	res.expectStatus(t, http.StatusOK)
	doc := res.object(t)
	admin := s.do("GET", "/vendor/admin/v1/doc")
	admin.expectStatus(t, http.StatusOK)
	t.Run("the pinned OpenAPI linter finds no error", func(t *testing.T) {
		lintsClean(t, res.Body)
		lintsClean(t, admin.Body)
	})
	t.Run("a field is null only where the service writes null", func(t *testing.T) { nullWhereWritten(t, bothDocs(t, s)) })
	t.Run("every URL it names is routed, with or without a trailing slash", func(t *testing.T) {
		routedWithOrWithoutATrailingSlash(t, doc)
		routedWithOrWithoutATrailingSlash(t, admin.object(t))
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
	t.Run("custom_fields names each public field declared at the time of the request, and lints clean", func(t *testing.T) {
		for _, d := range []map[string]any{
			{"key": "age", "label": "Age limit", "type": "number", "public": true},
			{"key": "lang", "label": "Language", "type": "multiselect", "options": []string{"en", "fr"}, "public": true},
			{"key": "budget", "label": "Budget", "type": "number"},
		} {
			s.do("POST", "/vendor/admin/v1/fields", asAdmin(), jsonBody(d)).expectStatus(t, http.StatusCreated)
		}
		declared := s.do("GET", "/vendor/events/v1/doc")
		custom := asMap(asMap(asMap(asMap(asMap(declared.object(t)["components"])["schemas"])["EventView"])["properties"])["custom_fields"])
		byKey := asMap(asList(custom["oneOf"])[1])
		properties := asMap(byKey["properties"])
		if properties["age"] == nil || properties["lang"] == nil || properties["budget"] != nil {
			t.Fatalf("custom_fields' properties: %v", byKey)
		}
		lintsClean(t, declared.Body)
	})
}
