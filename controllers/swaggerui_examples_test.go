package controllers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Swagger UI's first "Try it out", then "Execute", with no edit works: it
// sends each query parameter's example (else its schema's, else its
// default) and, for a write, the sample it makes of the body's schema;
// every operation of both documents, sent so by an anonymous caller (with
// the path's values an item of the small world has), answers no 4xx but the
// 401 of what an anonymous caller may not do.
func TestSwaggerUIsFirstExecuteOfEveryOperationIsAnswered(t *testing.T) {
	t.Parallel()
	s := startService(t)
	ids, slugs := map[string]string{}, map[string]string{}
	event := s.do("POST", "/vendor/events/v1/events", asAdmin(), jsonBody(map[string]any{"title": "Jazz night",
		"start_date": "tomorrow 8pm", "end_date": "tomorrow 11pm", "venue": map[string]any{"venue": "Salle Pleyel", "city": "Paris", "country": "France"},
		"organizer": map[string]any{"organizer": "Le club"}, "categories": "Jazz", "tags": "live",
		"recurrence": "RRULE:FREQ=WEEKLY;COUNT=2"})) // a series: its occurrences are listed
	event.expectStatus(t, http.StatusCreated)
	e := event.object(t)
	ids["events"], slugs["events"] = idOf(e), e["slug"].(string)
	for kind, key := range map[string]string{"venues": "venue", "organizers": "organizer"} {
		linked := e[key]
		if list, ok := linked.([]any); ok {
			linked = list[0]
		}
		ids[kind], slugs[kind] = idOf(asMap(linked)), asMap(linked)["slug"].(string)
	}
	ids["categories"], ids["tags"] = idOf(asMap(asList(e["categories"])[0])), idOf(asMap(asList(e["tags"])[0]))
	ids["media"] = idOf(s.upload("poster.png", pngImage(t, 20, 20)))
	ids["users"] = "1"
	s.do("POST", "/vendor/admin/v1/fields", asAdmin(), jsonBody(map[string]any{"key": "age_min", "label": "Minimum age", "type": "number", "public": true})).expectStatus(t, http.StatusCreated)
	hook := s.do("POST", "/vendor/admin/v1/webhooks", asAdmin(), jsonBody(map[string]any{"url": "https://hooks.example/in"}))
	hook.expectStatus(t, http.StatusCreated)
	ids["webhooks"] = idOf(hook.object(t))
	synonym := s.do("POST", "/vendor/admin/v1/synonyms", asAdmin(), jsonBody(map[string]any{"words": []string{"gig", "concert"}}))
	synonym.expectStatus(t, http.StatusCreated)
	ids["synonyms"] = idOf(synonym.object(t))
	source := s.do("POST", "/vendor/admin/v1/imports", asAdmin(), jsonBody(map[string]any{"kind": "ical", "url": "https://feeds.example/in.ics"}))
	source.expectStatus(t, http.StatusCreated)
	ids["imports"] = idOf(source.object(t))
	passwords := s.do("GET", "/vendor/admin/v1/users/1/application-passwords", asAdmin()).list(t)
	uuid := passwords[0]["uuid"].(string)

	for _, ns := range []string{"/vendor/events/v1", "/vendor/admin/v1"} {
		doc := s.do("GET", ns+"/doc").object(t)
		server := strings.TrimSuffix(firstServer(doc), "/")
		paths := asMap(doc["paths"])
		for _, path := range keys(paths) {
			resource, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
			target := strings.NewReplacer("{id}", ids[resource], "{relation}", "occurrences", "{facet}", "venue", "{key}", "age_min", "{slug}", slugs[resource], "{uuid}", uuid).Replace(path)
			for _, method := range keys(asMap(paths[path])) {
				op := asMap(asMap(paths[path])[method])
				where := strings.ToUpper(method) + " " + ns + path
				query, opts := swaggerUIRequest(t, doc, op)
				u := server + target
				if query != "" {
					u += "?" + query
				}
				res := s.do(strings.ToUpper(method), strings.TrimPrefix(u, s.URL), opts...)
				if res.Status >= 400 && res.Status < 500 && (res.Status != http.StatusUnauthorized || !signedInOnly(op)) {
					t.Errorf("%s?%s: %d %s", where, query, res.Status, res.Body)
				}
			}
		}
	}
}

// signedInOnly: the operation's security names no anonymous caller.
func signedInOnly(op map[string]any) bool {
	for _, req := range asList(op["security"]) {
		if len(asMap(req)) == 0 {
			return false
		}
	}
	return true
}

// swaggerUIRequest is what Swagger UI sends for an operation when nothing
// is edited: each query parameter that has an example, a schema example or
// a default, with that value (arrays exploded: a=1&a=2); and a request
// body's sample, as JSON when the operation takes it.
func swaggerUIRequest(t *testing.T, doc, op map[string]any) (string, []option) {
	query := url.Values{}
	for _, p := range asList(op["parameters"]) {
		param := asMap(p)
		if param["in"] != "query" {
			continue
		}
		schema := asMap(param["schema"])
		value, ok := param["example"]
		if !ok {
			value, ok = schema["example"]
		}
		if !ok {
			value, ok = schema["default"]
		}
		if !ok {
			continue
		}
		name := param["name"].(string)
		if list, isList := value.([]any); isList {
			for _, v := range list {
				query.Add(name, fmt.Sprint(v))
			}
		} else {
			query.Set(name, fmt.Sprint(value))
		}
	}
	content := asMap(asMap(op["requestBody"])["content"])
	media, ok := content["application/json"]
	if !ok {
		return query.Encode(), nil // none, or an upload: its file must be chosen first
	}
	raw, err := json.Marshal(sample(doc, asMap(asMap(media)["schema"])))
	if err != nil {
		t.Fatal(err)
	}
	return query.Encode(), []option{body("application/json", string(raw))}
}

// sample is Swagger UI's sample of a schema (sampleFromSchemaGeneric): its
// example, else its default; else an object of its properties' samples, a
// list of one item's, the first of an enum, or a placeholder of its type
// ("string" cut to maxLength, a number at its bounds, true).
func sample(doc, schema map[string]any) any {
	if ref, ok := schema["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		return sample(doc, asMap(asMap(asMap(doc["components"])["schemas"])[name]))
	}
	if v, ok := schema["example"]; ok {
		return v
	}
	if v, ok := schema["default"]; ok {
		return v
	}
	for _, of := range []string{"oneOf", "anyOf"} {
		if list := asList(schema[of]); len(list) > 0 {
			return sample(doc, asMap(list[0]))
		}
	}
	kind, _ := schema["type"].(string)
	if types := asList(schema["type"]); len(types) > 0 {
		kind, _ = types[0].(string)
	}
	if kind == "" && schema["properties"] != nil {
		kind = "object"
	}
	switch {
	case kind == "object":
		out := map[string]any{}
		for name, p := range asMap(schema["properties"]) {
			out[name] = sample(doc, asMap(p))
		}
		return out
	case kind == "array":
		return []any{sample(doc, asMap(schema["items"]))}
	case len(asList(schema["enum"])) > 0:
		return asList(schema["enum"])[0]
	case kind == "integer" || kind == "number":
		n := 0.0
		if min, ok := schema["minimum"].(float64); ok {
			n = min
		}
		if min, ok := schema["exclusiveMinimum"].(float64); ok {
			n = min + 1
		}
		if max, ok := schema["maximum"].(float64); ok {
			n = max
		}
		return n
	case kind == "boolean":
		return true
	}
	s := "string"
	if max, ok := schema["maxLength"].(float64); ok && int(max) < len(s) {
		s = s[:int(max)]
	}
	return s
}
