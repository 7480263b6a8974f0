package controllers_test

import (
	"slices"
	"testing"
)

// nullWhereWritten: OpenAPI 3.1 says "or null" with a type array (3.0's
// nullable is gone); a field the service always writes may be null, one it
// leaves out when it has no value never is.
func nullWhereWritten(t *testing.T, doc map[string]any) {
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	for _, c := range []struct {
		schema, field string
		types         []any
	}{
		{"EventView", "all_day", []any{"boolean", "null"}},
		{"EventView", "featured", []any{"boolean", "null"}},
		{"AttachmentView", "post", []any{"integer", "null"}},
		{"ApplicationPasswordView", "last_used", []any{"string", "null"}},
		{"ApplicationPasswordView", "last_ip", []any{"string", "null"}},
		{"EventView", "distance", nil},
		{"VenueView", "geo_lat", nil},
		{"TermView", "parent", nil},
		{"Rendered", "raw", nil},
	} {
		prop := asMap(asMap(asMap(schemas[c.schema])["properties"])[c.field])
		if _, ok := prop["nullable"]; ok {
			t.Errorf("%s.%s has OpenAPI 3.0's nullable: %v", c.schema, c.field, prop)
		}
		types, isList := prop["type"].([]any)
		switch {
		case c.types == nil && (isList || prop["type"] == nil):
			t.Errorf("%s.%s is never null, documented %v", c.schema, c.field, prop)
		case c.types != nil && !slices.Equal(types, c.types):
			t.Errorf("%s.%s types = %v, want %v", c.schema, c.field, prop["type"], c.types)
		}
	}
}
