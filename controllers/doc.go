package controllers

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-fuego/fuego"
)

// Placeholders in the prepared document, replaced by each request's URLs.
const (
	eventsServerPlaceholder = "https://api.invalid/events-root/"
	adminServerPlaceholder  = "https://api.invalid/admin-root/"
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
			paths.Set(rel, item)
		case strings.HasPrefix(path, adminPrefix):
			// Relative to {base}/vendor/admin/ so the admin root does not clash with "/".
			item.Servers = openapi3.Servers{{URL: adminServerPlaceholder}}
			paths.Set(strings.TrimPrefix(path, adminPrefix), item)
		}
	}
	doc := *spec
	doc.Paths = paths
	doc.Servers = openapi3.Servers{{URL: eventsServerPlaceholder}}
	raw, err := json.Marshal(&doc)
	if err != nil {
		panic("the generated OpenAPI document does not encode: " + err.Error())
	}
	return &openAPIDoc{template: raw}
}

func (d *openAPIDoc) forRoots(eventsRoot, adminRoot string) json.RawMessage {
	out := bytes.ReplaceAll(d.template, []byte(eventsServerPlaceholder), jsonStringBody(eventsRoot))
	return bytes.ReplaceAll(out, []byte(adminServerPlaceholder), jsonStringBody(adminRoot))
}

// jsonStringBody is s encoded as a JSON string, without the quotes.
func jsonStringBody(s string) []byte {
	raw, _ := json.Marshal(s)
	return raw[1 : len(raw)-1]
}

// mountDoc registers GET {api}/doc.
func (api *API) mountDoc() {
	handle(api, EventsNamespace, []string{http.MethodGet}, "/doc", nil, func(r *Request) (json.RawMessage, error) {
		adminRoot := strings.TrimSuffix(api.apiRoot(r.lang, AdminNamespace), "v1/")
		return api.doc.forRoots(api.apiRoot(r.lang, EventsNamespace), adminRoot), nil
	},
		fuego.OptionSummary("OpenAPI document"),
		fuego.OptionDescription("This document: every route, parameter and schema of the API."),
		fuego.OptionAddResponse(http.StatusOK, "An OpenAPI 3 document", fuego.Response{Type: map[string]any{}}))
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
