package controllers_test

import (
	"maps"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// routesOf reads a namespace index: route regex -> its description.
func routesOf(t *testing.T, s *service, namespace string) map[string]map[string]any {
	t.Helper()
	res := s.do("GET", "/"+namespace)
	res.expectStatus(t, http.StatusOK)
	m := res.object(t)
	if m["namespace"] != namespace {
		t.Fatalf("namespace = %v", m["namespace"])
	}
	out := map[string]map[string]any{}
	for k, v := range m["routes"].(map[string]any) {
		out[k] = v.(map[string]any)
	}
	return out
}

var wpParam = regexp.MustCompile(`\(\?P<([a-z_]+)>[^)]*\)`)

func TestTheNamespaceRootListsEveryRouteWithMethodsAndArgs(t *testing.T) {
	t.Parallel()
	s := startService(t)
	want := map[string][]string{
		"/vendor/events/v1":                                        {"GET"},
		"/vendor/events/v1/doc":                                    {"GET"},
		"/vendor/events/v1/events.ics":                             {"GET"},
		`/vendor/events/v1/events/(?P<id>\d+).ics`:                 {"GET"},
		"/vendor/events/v1/changes":                                {"GET"},
		"/vendor/admin/v1":                                         {"GET"},
		"/vendor/admin/v1/doc":                                     {"GET"},
		"/vendor/admin/v1/users":                                   {"GET", "POST"},
		`/vendor/admin/v1/users/(?P<id>\d+)`:                       {"DELETE", "POST", "PUT", "PATCH"},
		`/vendor/admin/v1/users/(?P<id>\d+)/application-passwords`: {"GET", "POST"},
		`/vendor/admin/v1/users/(?P<id>\d+)/application-passwords/(?P<uuid>[^/]+)`: {"DELETE"},
		"/vendor/admin/v1/users/me":                                       {"GET"},
		"/vendor/admin/v1/users/me/application-passwords":                 {"GET", "POST"},
		"/vendor/admin/v1/users/me/application-passwords/(?P<uuid>[^/]+)": {"DELETE"},
		"/vendor/admin/v1/backup":                                         {"GET"},
		"/vendor/admin/v1/reindex":                                        {"GET", "POST"},
		"/vendor/admin/v1/webhooks":                                       {"GET", "POST"},
		"/vendor/admin/v1/fields":                                         {"GET", "POST"},
		"/vendor/admin/v1/fields/(?P<key>[^/]+)":                          {"GET", "POST", "PUT", "PATCH", "DELETE"},
		`/vendor/admin/v1/webhooks/(?P<id>\d+)`:                           {"GET", "POST", "PUT", "PATCH", "DELETE"},
		`/vendor/admin/v1/webhooks/(?P<id>\d+)/rotate-secret`:             {"POST"},
		`/vendor/admin/v1/webhooks/(?P<id>\d+)/deliveries`:                {"GET"},
		`/vendor/admin/v1/webhooks/(?P<id>\d+)/ping`:                      {"POST"},
		`/vendor/admin/v1/webhooks/(?P<id>\d+)/replay`:                    {"POST"},
		"/vendor/admin/v1/imports":                                        {"GET", "POST"},
		"/vendor/admin/v1/imports/preview":                                {"POST"},
		`/vendor/admin/v1/imports/(?P<id>\d+)`:                            {"GET", "POST", "PUT", "PATCH", "DELETE"},
		`/vendor/admin/v1/imports/(?P<id>\d+)/run`:                        {"POST"},
		`/vendor/admin/v1/imports/(?P<id>\d+)/runs`:                       {"GET"},
	}
	for _, kind := range []string{"venues", "organizers"} {
		base := "/vendor/events/v1/" + kind
		want[base] = []string{"GET", "POST"}
		want[base+`/(?P<id>\d+)`] = []string{"GET", "DELETE", "POST", "PUT", "PATCH"}
		want[base+`/by-slug/(?P<slug>[^/]+)`] = []string{"GET", "DELETE", "POST", "PUT", "PATCH"}
	}
	want["/vendor/events/v1/events"] = []string{"GET", "POST"}
	want[`/vendor/events/v1/events/(?P<id>\d+)`] = []string{"GET", "DELETE", "POST", "PUT", "PATCH"}
	want[`/vendor/events/v1/events/(?P<id>\d+)/(?P<relation>occurrences)`] = []string{"GET"}
	want[`/vendor/events/v1/events/facets/(?P<facet>venue|organizer|categories|tags)`] = []string{"GET"}
	want["/vendor/events/v1/suggest"] = []string{"GET"}
	want["/vendor/admin/v1/synonyms"] = []string{"GET", "POST"}
	want[`/vendor/admin/v1/synonyms/(?P<id>\d+)`] = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}
	want[`/vendor/events/v1/events/by-slug/(?P<slug>[^/]+)`] = []string{"GET", "DELETE", "POST", "PUT", "PATCH"}
	for _, kind := range []string{"categories", "tags", "media"} {
		base := "/vendor/events/v1/" + kind
		want[base] = []string{"GET", "POST"}
		want[base+`/(?P<id>\d+)`] = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}
	}
	got := map[string]map[string]any{}
	for _, ns := range []string{"vendor/events/v1", "vendor/admin/v1"} {
		for k, v := range routesOf(t, s, ns) {
			got[k] = v
		}
	}
	if len(got) != len(want) {
		t.Fatalf("routes = %v, want %v", keys(got), want)
	}
	for path, methods := range want {
		rt, ok := got[path]
		if !ok {
			t.Fatalf("route %s missing from the index", path)
		}
		if strings.Join(toStrings(rt["methods"]), ",") != strings.Join(methods, ",") {
			t.Fatalf("%s methods = %v, want %v", path, rt["methods"], methods)
		}
		if eps, _ := rt["endpoints"].([]any); len(eps) == 0 {
			t.Fatalf("%s has no endpoints", path)
		}
	}
	post := got["/vendor/admin/v1/users"]["endpoints"].([]any)[1].(map[string]any)
	args := post["args"].(map[string]any)
	role := args["role"].(map[string]any)
	if role["type"] != "string" || role["required"] != true || len(role["enum"].([]any)) != 5 {
		t.Fatalf("POST /users role arg = %v", role)
	}

	t.Run("every listed route answers each of its methods", func(t *testing.T) {
		for path, rt := range got {
			url := wpParam.ReplaceAllStringFunc(path, func(m string) string {
				switch wpParam.FindStringSubmatch(m)[1] {
				case "relation":
					return "occurrences"
				case "facet":
					return "venue"
				}
				return "1"
			})
			for _, m := range toStrings(rt["methods"]) {
				res := s.do(m, url)
				if res.Status == http.StatusNotFound && strings.Contains(string(res.Body), "rest_no_route") {
					t.Fatalf("%s %s listed but not routed", m, url)
				}
			}
		}
	})

	t.Run("an unknown namespace asked for is rest_invalid_namespace", func(t *testing.T) {
		s.do("GET", "/vendor/events/v1?namespace=wp/v2").expectError(t, http.StatusNotFound, "rest_invalid_namespace")
		s.do("GET", "/vendor/events/v1?namespace=vendor/admin/v1").expectStatus(t, http.StatusOK)
	})
}

// Each namespace's document is OpenAPI 3, served for {namespace}/ and holds
// every route of its namespace, and none of the other's: one server and
// paths relative to it, which every generated client reads.
func TestEachNamespacesDocIsOpenAPI3WithEveryRouteOfIt(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for _, ns := range []string{"vendor/events/v1", "vendor/admin/v1"} {
		res := s.do("GET", "/"+ns+"/doc")
		res.expectStatus(t, http.StatusOK)
		doc := res.object(t)
		if v, _ := doc["openapi"].(string); !strings.HasPrefix(v, "3.") {
			t.Fatalf("%s: openapi = %v, want 3.x", ns, doc["openapi"])
		}
		for _, key := range []string{"info", "servers", "paths", "components"} {
			if doc[key] == nil {
				t.Fatalf("%s: doc has no %s", ns, key)
			}
		}
		if servers := asList(doc["servers"]); len(servers) != 1 || firstServer(doc) != s.URL+"/"+ns+"/" {
			t.Fatalf("%s: servers = %v, want one, %s", ns, servers, s.URL+"/"+ns+"/")
		}
		paths := doc["paths"].(map[string]any)
		routes := routesOf(t, s, ns)
		for route, desc := range routes {
			item, ok := paths[docPath(ns, route)].(map[string]any)
			if !ok {
				t.Fatalf("%s: route %s (%s) missing from doc paths %v", ns, route, docPath(ns, route), keys(paths))
			}
			for _, m := range toStrings(desc["methods"]) {
				if item[strings.ToLower(m)] == nil {
					t.Fatalf("%s: doc path %s has no %s", ns, docPath(ns, route), m)
				}
			}
		}
		if len(paths) != len(routes) {
			t.Fatalf("%s: the document has %d paths, the namespace %d routes: %v", ns, len(paths), len(routes), keys(paths))
		}
		for _, item := range paths {
			if item.(map[string]any)["servers"] != nil {
				t.Fatalf("%s: a path has servers of its own: %v", ns, item)
			}
		}
		loader := openapi3.NewLoader()
		spec, err := loader.LoadFromData(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		if err := spec.Validate(loader.Context); err != nil {
			t.Fatalf("%s: the document is not valid OpenAPI: %v", ns, err)
		}
		t.Run(ns+": every argument of the index is in the doc with its type", func(t *testing.T) {
			for route, desc := range routes {
				item := paths[docPath(ns, route)].(map[string]any)
				for _, ep := range desc["endpoints"].([]any) {
					endpoint := ep.(map[string]any)
					args, _ := endpoint["args"].(map[string]any)
					for _, m := range toStrings(endpoint["methods"]) {
						op := item[strings.ToLower(m)].(map[string]any)
						for name, a := range args {
							want := a.(map[string]any)["type"]
							if want == "mixed" {
								want = nil // several shapes: no single type in the document
							}
							if got := docType(op, name); got != want {
								t.Errorf("%s %s: %s documented as %v, declared %v", m, docPath(ns, route), name, got, want)
							}
						}
					}
				}
			}
		})
		if doc["components"].(map[string]any)["schemas"].(map[string]any)["ErrorBody"] == nil {
			t.Fatalf("%s: the error schema is not in the document", ns)
		}
		if ns != "vendor/admin/v1" {
			continue
		}
		post := paths["/users"].(map[string]any)["post"].(map[string]any)
		if post["requestBody"] == nil {
			t.Fatal("POST /users has no documented request body")
		}
		if ref := post["responses"].(map[string]any)["403"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)["$ref"]; ref != "#/components/schemas/ErrorBody" {
			t.Fatalf("403 response schema = %v, want the error schema", ref)
		}
	}
}

// bothDocs is the two namespaces' documents as one: their paths in full
// (the server's path, then the document's), their schemas together.
func bothDocs(t *testing.T, s *service) map[string]any {
	t.Helper()
	paths, schemas := map[string]any{}, map[string]any{}
	for _, ns := range []string{"/vendor/events/v1", "/vendor/admin/v1"} {
		doc := s.do("GET", ns+"/doc").object(t)
		for path, item := range asMap(doc["paths"]) {
			paths[strings.TrimSuffix(ns+path, "/")] = item
		}
		maps.Copy(schemas, asMap(asMap(doc["components"])["schemas"]))
	}
	return map[string]any{"paths": paths, "components": map[string]any{"schemas": schemas}}
}

// docPath is the path a namespace's document gives one of its routes (a
// namespace index's key).
func docPath(namespace, route string) string {
	path := strings.TrimPrefix(wpParam.ReplaceAllString(route, "{$1}"), "/"+namespace)
	if path == "" {
		return "/"
	}
	return path
}

func TestALanguageSegmentIsKeptInTheURLsTheServiceWrites(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for _, ns := range []string{"/fr/vendor/events/v1", "/fr/vendor/admin/v1"} {
		doc := s.do("GET", ns+"/doc")
		doc.expectStatus(t, http.StatusOK)
		if url := firstServer(doc.object(t)); url != s.URL+ns+"/" {
			t.Fatalf("servers[0].url = %s, want %s", url, s.URL+ns+"/")
		}
	}
	root := s.do("GET", "/pt-br/vendor/events/v1")
	root.expectStatus(t, http.StatusOK)
	self := root.object(t)["routes"].(map[string]any)["/vendor/events/v1/doc"].(map[string]any)["_links"].(map[string]any)["self"].([]any)[0].(map[string]any)["href"]
	if self != s.URL+"/pt-br/vendor/events/v1/doc" {
		t.Fatalf("self link = %v", self)
	}
	s.do("GET", "/de/vendor/admin/v1/users", asAdmin()).expectStatus(t, http.StatusOK)
}

func firstServer(doc map[string]any) string {
	servers, _ := doc["servers"].([]any)
	if len(servers) == 0 {
		return ""
	}
	url, _ := servers[0].(map[string]any)["url"].(string)
	return url
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// docType finds a parameter's type in an operation: its parameters, else its
// JSON request body.
func docType(op map[string]any, name string) any {
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		if pm := p.(map[string]any); pm["name"] == name {
			return pm["schema"].(map[string]any)["type"]
		}
	}
	body, _ := op["requestBody"].(map[string]any)
	if body == nil {
		return nil
	}
	content := body["content"].(map[string]any)
	media, ok := content["application/json"].(map[string]any)
	if !ok { // an upload: a form beside the file
		media = content["multipart/form-data"].(map[string]any)
	}
	schema := media["schema"].(map[string]any)
	if prop, ok := schema["properties"].(map[string]any)[name].(map[string]any); ok {
		return prop["type"]
	}
	return nil
}

// TestTheDocTellsTheTruth: who may call each operation, what each parameter
// is, what each answer's content and schema are, as the service does them.
func TestTheDocTellsTheTruth(t *testing.T) {
	t.Parallel()
	s := startService(t)
	schemas := map[string]any{}
	operations := 0
	for _, ns := range []string{"vendor/events/v1", "vendor/admin/v1"} {
		doc := s.do("GET", "/"+ns+"/doc").object(t)
		admin := ns == "vendor/admin/v1"
		components := doc["components"].(map[string]any)
		maps.Copy(schemas, components["schemas"].(map[string]any))
		schemes, _ := components["securitySchemes"].(map[string]any)
		for name, scheme := range map[string]string{"basic": "basic", "bearer": "bearer"} {
			if sc, _ := schemes[name].(map[string]any); sc["type"] != "http" || sc["scheme"] != scheme {
				t.Errorf("%s: security scheme %s = %v", ns, name, schemes[name])
			}
		}
		for path, item := range doc["paths"].(map[string]any) {
			for method, o := range item.(map[string]any) {
				op := o.(map[string]any)
				operations++
				where := strings.ToUpper(method) + " /" + ns + path
				first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
				if tags, _ := op["tags"].([]any); len(tags) != 1 || (first != "" && first != "events.ics" && tags[0] != first) {
					t.Errorf("%s: tags %v", where, tags)
				}
				security, _ := op["security"].([]any)
				optional := false
				for _, req := range security {
					optional = optional || len(req.(map[string]any)) == 0
				}
				// Reads are open, but in the administration only its index and its document.
				if len(security) == 0 || optional != (method == "get" && (!admin || path == "/" || path == "/doc")) {
					t.Errorf("%s: security %v", where, op["security"])
				}
				for _, p := range asList(op["parameters"]) {
					if d, _ := p.(map[string]any)["description"].(string); d == "" || d == "No description provided" {
						t.Errorf("%s: parameter %v has no description", where, p.(map[string]any)["name"])
					}
				}
				if body, ok := op["requestBody"].(map[string]any); ok {
					content := body["content"].(map[string]any)
					media, ok := content["application/json"].(map[string]any)
					if !ok { // an upload: a form beside the file
						media = content["multipart/form-data"].(map[string]any)
					}
					schema := media["schema"].(map[string]any)
					for name, prop := range schema["properties"].(map[string]any) {
						if d, _ := prop.(map[string]any)["description"].(string); d == "" {
							t.Errorf("%s: body parameter %s has no description", where, name)
						}
					}
				}
				for code, r := range op["responses"].(map[string]any) {
					for contentType := range asMap(r.(map[string]any)["content"]) {
						if contentType != "application/json" && !(contentType == "text/calendar" && strings.HasSuffix(path, ".ics")) {
							t.Errorf("%s %s: content type %s", where, code, contentType)
						}
					}
				}
			}
		}
	}
	if operations < 30 {
		t.Fatalf("only %d operations", operations)
	}
	for name, s := range schemas {
		for prop, p := range asMap(s.(map[string]any)["properties"]) {
			pm := p.(map[string]any)
			if len(pm) == 0 || pm["type"] == "null" {
				t.Errorf("schema %s: %s is %v", name, prop, pm)
			}
		}
	}
	event := schemas["EventView"].(map[string]any)["properties"].(map[string]any)
	for _, prop := range []string{"image", "venue"} {
		if len(asList(event[prop].(map[string]any)["oneOf"])) != 2 {
			t.Errorf("EventView.%s = %v", prop, event[prop])
		}
	}
	if event["json_ld"].(map[string]any)["type"] != "object" {
		t.Errorf("EventView.json_ld = %v", event["json_ld"])
	}
	data := schemas["ErrorBody"].(map[string]any)["properties"].(map[string]any)["data"].(map[string]any)["properties"].(map[string]any)
	if len(asList(data["params"].(map[string]any)["oneOf"])) != 2 || len(asList(data["details"].(map[string]any)["oneOf"])) != 2 {
		t.Errorf("ErrorBody.data = %v", data)
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
