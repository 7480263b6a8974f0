package controllers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-fuego/fuego"
)

// Placeholders in the prepared documents, replaced by each request's URLs:
// each namespace's root, {api}/ and {admin}/, with the trailing slash the
// plugin's document has and the contract requires (a client that joins a
// path to it doubles the slash, which the router redirects, 307).
const (
	eventsServerPlaceholder = "https://api.invalid/events-root/"
	adminServerPlaceholder  = "https://api.invalid/admin-root/"
)

// openAPIDoc is the document fuego generated from the routes, as the two
// namespaces serve it: one document each, with paths relative to their root
// and the server URL of the request. One document with per-path servers
// for the administration lost generated clients that read only the
// document's servers (openapi-fetch called {api}/v1/users).
type openAPIDoc struct {
	events, admin []byte
}

func newOpenAPIDoc(spec *openapi3.T) *openAPIDoc {
	refineSchemas(spec.Components.Schemas)
	return &openAPIDoc{
		events: namespaceDoc(spec, EventsNamespace, eventsServerPlaceholder,
			"The administration routes (users, application passwords, backups, the index) have a document of their own: "+adminServerPlaceholder+"doc."),
		admin: namespaceDoc(spec, AdminNamespace, adminServerPlaceholder,
			"Users, their application passwords, backups and the search index of the calendar at "+eventsServerPlaceholder+" (its document: "+eventsServerPlaceholder+"doc). Every route but this document and the namespace index needs an administrator's or the user's own credentials."),
	}
}

// namespaceDoc is the document of one namespace's routes, its server the
// placeholder server, described so.
func namespaceDoc(spec *openapi3.T, namespace, server, description string) []byte {
	paths := openapi3.NewPaths()
	prefix := "/" + namespace
	for path, item := range spec.Paths.Map() {
		rel, ok := strings.CutPrefix(path, prefix)
		if !ok || (rel != "" && !strings.HasPrefix(rel, "/")) {
			continue
		}
		if rel == "" {
			rel = "/"
		}
		dropAcceptHeader(item)
		describeOperations(rel, item, namespace == AdminNamespace)
		paths.Set(rel, item)
	}
	if namespace == EventsNamespace {
		documentEventFile(paths)
	}
	doc := *spec
	info := *spec.Info
	info.Description += " " + description
	doc.Info = &info
	doc.Paths = paths
	doc.Components = pruneUnreferenced(spec.Components, paths)
	doc.Components.SecuritySchemes = securitySchemes
	doc.Servers = openapi3.Servers{{URL: server}}
	raw, err := json.Marshal(&doc)
	if err != nil {
		panic("the generated OpenAPI document does not encode: " + err.Error())
	}
	return raw
}

// forRoots is a document with the request's namespace roots (each with its
// trailing slash) in place of the placeholders.
func forRoots(template []byte, eventsRoot, adminRoot string) json.RawMessage {
	out := bytes.ReplaceAll(template, []byte(eventsServerPlaceholder), jsonStringBody(eventsRoot))
	return bytes.ReplaceAll(out, []byte(adminServerPlaceholder), jsonStringBody(adminRoot))
}

// jsonStringBody is s encoded as a JSON string, without the quotes.
func jsonStringBody(s string) []byte {
	raw := jsonString(s)
	return raw[1 : len(raw)-1]
}

// mountDoc registers GET {namespace}/doc: {api}/doc, {admin}/doc.
func (api *API) mountDoc(namespace string) {
	handle(api, namespace, []string{http.MethodGet}, "/doc", nil, func(r *Request) (json.RawMessage, error) {
		doc := api.doc()
		template := doc.events
		if namespace == AdminNamespace {
			template = doc.admin
		} else if api.publicFields != nil {
			fields, err := api.publicFields(r.Context())
			if err != nil {
				return nil, err
			}
			template = withDeclaredFields(template, fields)
		}
		return forRoots(template, api.apiRoot(r.via, EventsNamespace), api.apiRoot(r.via, AdminNamespace)), nil
	},
		fuego.OptionSummary("OpenAPI document"),
		fuego.OptionDescription("This namespace's OpenAPI document: every route, parameter and schema of it."),
		fuego.OptionAddResponse(http.StatusOK, "An OpenAPI 3 document", fuego.Response{Type: OpenAPIDocument{}}))
}

// documentEventFile documents {api}/events/{id}.ics, which the router
// serves as /events/{id} (its pattern cannot end a segment with .ics): the
// read's parameters, an iCalendar answer.
func documentEventFile(paths *openapi3.Paths) {
	item := paths.Value("/events/{id}")
	if item == nil || item.Get == nil {
		return
	}
	op := *item.Get
	op.OperationID += "_ics"
	op.Summary = "An event as an iCalendar file (what an add-to-calendar button downloads)"
	op.Description = "The event as GET /events/{id} reads it, as one VEVENT (an occurrence of a series without its rules); the same as /events/{id} with Accept: text/calendar."
	responses := openapi3.NewResponses()
	for code, r := range op.Responses.Map() {
		if code != "200" {
			responses.Set(code, r)
		}
	}
	ok := openapi3.NewResponse().WithDescription("The iCalendar file")
	ok.Content = openapi3.Content{calendarType: openapi3.NewMediaType().WithSchema(openapi3.NewStringSchema())}
	responses.Set("200", &openapi3.ResponseRef{Value: ok})
	op.Responses = responses
	paths.Set("/events/{id}.ics", &openapi3.PathItem{Get: &op})
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

// documents are the OpenAPI documents made in this process, by their
// routes' fingerprint. Making one costs fuego's validation of the spec and
// three encodings of it (a fifth of a second; seconds under the race
// detector): a process that starts many APIs with the same routes (the
// tests, the benchmarks) makes it once.
var documents sync.Map // string (routesFingerprint) -> *openAPIDoc

// routesFingerprint is what a document is made from, short of the schemas
// of the Go types (fixed in a build): the document's title, version and
// description, and each operation's path, method, ID, texts and parameters
// with their bounds. Two APIs whose routes differ in any of these get
// documents of their own.
func routesFingerprint(spec *openapi3.T) string {
	var b strings.Builder
	if spec.Info != nil {
		fmt.Fprintf(&b, "%q %q %q\n", spec.Info.Title, spec.Info.Version, spec.Info.Description)
	}
	paths := spec.Paths.Map()
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		ops := paths[path].Operations()
		for _, method := range slices.Sorted(maps.Keys(ops)) {
			op := ops[method]
			fmt.Fprintf(&b, "%s %s %q %q %q %v\n", method, path, op.OperationID, op.Summary, op.Description, op.Deprecated)
			for _, p := range op.Parameters {
				if p.Value == nil {
					continue
				}
				fmt.Fprintf(&b, "\t%s %s %v %q", p.Value.In, p.Value.Name, p.Value.Required, p.Value.Description)
				if s := p.Value.Schema; s != nil && s.Value != nil {
					v := s.Value
					fmt.Fprintf(&b, " %v %q %v %v %v %v %d %v %v", v.Type, v.Format, v.Enum, v.Default, ptrValue(v.Min), ptrValue(v.Max), v.MinLength, ptrValue(v.MaxLength), ptrValue(v.MaxItems))
				}
				b.WriteByte('\n')
			}
			if op.Responses != nil {
				for _, code := range slices.Sorted(maps.Keys(op.Responses.Map())) {
					if r := op.Responses.Value(code); r != nil && r.Value != nil && r.Value.Description != nil {
						fmt.Fprintf(&b, "\t%s %q\n", code, *r.Value.Description)
					}
				}
			}
		}
	}
	return b.String()
}

// ptrValue is what p points to, or nil.
func ptrValue[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
