package controllers

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-fuego/fuego"
)

// Placeholders in the prepared document, replaced by each request's URLs.
// A client appends a path ("/v1/users") to its server URL as it is, so the
// admin server has no trailing slash; the namespace's is {api}/ all the same,
// as the plugin's document has it and the contract requires (a path joined to
// it has a doubled slash, which the router redirects).
const (
	eventsServerPlaceholder = "https://api.invalid/events-root/"
	adminServerPlaceholder  = "https://api.invalid/admin-root"
)

// openAPIDoc is the document fuego generated from the routes, rearranged as
// the namespace serves it: paths relative to {api}/, the admin namespace's paths
// under their own server, and the server URLs of the request.
type openAPIDoc struct {
	template []byte
}

func newOpenAPIDoc(spec *openapi3.T) *openAPIDoc {
	paths := openapi3.NewPaths()
	adminPrefix := "/" + strings.TrimSuffix(AdminNamespace, "/v1")
	for path, item := range spec.Paths.Map() {
		dropAcceptHeader(item)
		switch {
		case strings.HasPrefix(path, "/"+EventsNamespace):
			rel := strings.TrimPrefix(path, "/"+EventsNamespace)
			if rel == "" {
				rel = "/"
			}
			describeOperations(rel, item, false)
			paths.Set(rel, item)
		case strings.HasPrefix(path, adminPrefix):
			// Relative to {base}/vendor/admin so the admin root does not clash with "/".
			item.Servers = openapi3.Servers{{URL: adminServerPlaceholder}}
			describeOperations(path, item, true)
			paths.Set(strings.TrimPrefix(path, adminPrefix), item)
		}
	}
	doc := *spec
	doc.Paths = paths
	doc.Components = pruneUnreferenced(spec.Components, paths)
	doc.Components.SecuritySchemes = securitySchemes
	refineSchemas(doc.Components.Schemas)
	doc.Servers = openapi3.Servers{{URL: eventsServerPlaceholder}}
	raw, err := json.Marshal(&doc)
	if err != nil {
		panic("the generated OpenAPI document does not encode: " + err.Error())
	}
	return &openAPIDoc{template: raw}
}

func (d *openAPIDoc) forRoots(eventsRoot, adminRoot string) json.RawMessage {
	adminRoot = strings.TrimSuffix(adminRoot, "/")
	out := bytes.ReplaceAll(d.template, []byte(eventsServerPlaceholder), jsonStringBody(eventsRoot))
	return bytes.ReplaceAll(out, []byte(adminServerPlaceholder), jsonStringBody(adminRoot))
}

// jsonStringBody is s encoded as a JSON string, without the quotes.
func jsonStringBody(s string) []byte {
	raw := jsonString(s)
	return raw[1 : len(raw)-1]
}

// mountDoc registers GET {api}/doc.
func (api *API) mountDoc() {
	handle(api, EventsNamespace, []string{http.MethodGet}, "/doc", nil, func(r *Request) (json.RawMessage, error) {
		adminRoot := strings.TrimSuffix(api.apiRoot(r.via, AdminNamespace), "v1/")
		return api.doc().forRoots(api.apiRoot(r.via, EventsNamespace), adminRoot), nil
	},
		fuego.OptionSummary("OpenAPI document"),
		fuego.OptionDescription("This document: every route, parameter and schema of the API."),
		fuego.OptionAddResponse(http.StatusOK, "An OpenAPI 3 document", fuego.Response{Type: OpenAPIDocument{}}))
}

// dropAcceptHeader removes the Accept header parameter fuego documents on every
// operation: the API always answers JSON.
func dropAcceptHeader(item *openapi3.PathItem) {
	for _, op := range item.Operations() {
		kept := op.Parameters[:0]
		for _, p := range op.Parameters {
			if p.Value == nil || p.Value.In != openapi3.ParameterInHeader || p.Value.Name != "Accept" {
				kept = append(kept, p)
			}
		}
		op.Parameters = kept
	}
}

// OpenAPIDocument documents the answer of /doc.
type OpenAPIDocument struct {
	OpenAPI    string         `json:"openapi"`
	Info       map[string]any `json:"info"`
	Servers    []Link         `json:"servers"`
	Paths      map[string]any `json:"paths"`
	Components map[string]any `json:"components"`
}

// pruneUnreferenced drops the schemas no path refers to, directly or through
// other schemas: fuego registers a few for its own defaults that we replaced.
func pruneUnreferenced(c *openapi3.Components, paths *openapi3.Paths) *openapi3.Components {
	if c == nil {
		return c
	}
	used := map[string]bool{}
	raw, _ := json.Marshal(paths)
	pending := [][]byte{raw}
	for len(pending) > 0 {
		next := pending[0]
		pending = pending[1:]
		for _, m := range schemaRef.FindAllSubmatch(next, -1) {
			name := string(m[1])
			if used[name] {
				continue
			}
			used[name] = true
			if s, ok := c.Schemas[name]; ok {
				sub, _ := json.Marshal(s)
				pending = append(pending, sub)
			}
		}
	}
	pruned := *c
	pruned.Schemas = openapi3.Schemas{}
	for name, s := range c.Schemas {
		if used[name] {
			pruned.Schemas[name] = s
		}
	}
	return &pruned
}

var schemaRef = regexp.MustCompile(`"#/components/schemas/([^"]+)"`)
