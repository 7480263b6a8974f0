package controllers

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// route is one path of a namespace, with the endpoints registered on it, as the
// namespace index and OPTIONS describe it.
type route struct {
	namespace string
	path      string // fuego pattern, e.g. /vendor/events/v1/venues/{id}
	endpoints []endpoint
}

type endpoint struct {
	methods []string
	args    []Arg
}

func (rt *route) methods() []string {
	var out []string
	for _, e := range rt.endpoints {
		out = append(out, e.methods...)
	}
	return out
}

// Request is what a handler receives: the checked parameters, the caller and a
// way to set the status and headers of the answer.
type Request struct {
	HTTP   *http.Request
	Values Values
	// Caller is who asks, from where, through which root of the API.
	Caller app.Caller
	via    via
	header http.Header
	status int
}

// Context is the request's context.
func (r *Request) Context() context.Context { return r.HTTP.Context() }

// SetStatus sets the status of a successful answer (200 when not set).
func (r *Request) SetStatus(code int) { r.status = code }

// listItems tells _fields which key of the answer holds the list's items.
func (r *Request) listItems(key string) {
	if a := infoOf(r.Context()).answer; a != nil {
		a.listKey = key
	}
}

// inContext keeps, of the answer, the fields of the context the request
// asked for (WordPress' context=embed).
func (r *Request) inContext(view fieldTree) {
	if a := infoOf(r.Context()).answer; a != nil {
		a.view = view
	}
}

// Header gives the answer's headers.
func (r *Request) Header() http.Header { return r.header }

// lastModifier is an answer that knows when it last changed.
type lastModifier interface{ LastModified() time.Time }

var (
	pathParam   = regexp.MustCompile(`\{([a-z_]+)\}`)
	digitsOnly  = regexp.MustCompile(`^[0-9]+$`)
	routeRegexp = map[string]string{"id": `(?P<id>\d+)`, "slug": `(?P<slug>[^/]+)`, "relation": `(?P<relation>occurrences)`,
		"facet": `(?P<facet>` + strings.Join(app.SearchableFacets, "|") + `)`}
	// pathShapes are what a path parameter may be, else the path is no
	// route (rest_no_route). A relation names what an item's sub-path
	// lists: Go's mux takes no /events/{id}/occurrences beside
	// /events/by-slug/{slug} (both match /events/by-slug/occurrences, neither
	// more specific), so such a route is /events/{id}/{relation}.
	pathShapes = map[string]*regexp.Regexp{"id": digitsOnly, "relation": regexp.MustCompile(`^occurrences$`),
		"facet": regexp.MustCompile(`^(` + strings.Join(app.SearchableFacets, "|") + `)$`)}
)

// Methods that update: WordPress' EDITABLE.
var editable = []string{http.MethodPost, http.MethodPut, http.MethodPatch}

// handle registers one endpoint: for each method a fuego route (documented from
// args), and the endpoint in the namespace registry. The handler runs after the
// path check ({id} must be digits, else rest_no_route), the decoding and
// CheckArgs; it does the permission check itself, after them, as WordPress.
func handle[T any](api *API, namespace string, methods []string, path string, args []Arg,
	h func(*Request) (T, error), doc ...fuego.RouteOption) {
	full := "/" + namespace + path
	api.register(namespace, full, methods, args)
	names := pathNames(path)
	controller := func(c fuego.ContextNoBody) (T, error) {
		var zero T
		r := c.Request()
		pathValues := map[string]string{}
		for _, name := range names {
			v := r.PathValue(name)
			if re := pathShapes[name]; re != nil && !re.MatchString(v) {
				return zero, errNoRoute()
			}
			pathValues[name] = v
		}
		values, err := decodeValues(r, pathValues, args)
		if err != nil {
			return zero, err
		}
		if err := CheckArgs(values, args); err != nil {
			return zero, err
		}
		info := infoOf(r.Context())
		req := &Request{HTTP: r, Values: values, via: info.via, header: c.Response().Header(),
			Caller: app.Caller{User: info.actor, Client: clientOf(r), Root: api.apiRoot(info.via, EventsNamespace),
				Site: strings.TrimSuffix(api.siteRoot(info.via), "/"), Language: info.via.lang}}
		if len(names) > 0 && r.Method != http.MethodGet {
			req.Caller.Expect = precondition(r)
		}
		out, err := h(req)
		if err != nil {
			return zero, err
		}
		if s, ok := any(out).(streamBody); ok && info.answer != nil {
			return out, api.stream(info.answer, r, s) // sendJSON then writes nothing
		}
		if item, ok := any(out).(revisioned); ok && info.answer != nil {
			info.answer.revision = item.Revision()
		}
		if m, ok := any(out).(lastModifier); ok && r.Method == http.MethodGet && !m.LastModified().IsZero() {
			req.header.Set("Last-Modified", m.LastModified().UTC().Format(http.TimeFormat))
		}
		if req.status != 0 && req.status != http.StatusOK {
			c.Response().WriteHeader(req.status)
		}
		return out, nil
	}
	for _, m := range methods {
		opts := append([]fuego.RouteOption{documentArgs(m, names, args), documentErrors(m, len(names) > 0)}, doc...)
		switch m {
		case http.MethodGet:
			fuego.Get(api.server, full, controller, opts...)
		case http.MethodPost:
			fuego.Post(api.server, full, controller, opts...)
		case http.MethodPut:
			fuego.Put(api.server, full, controller, opts...)
		case http.MethodPatch:
			fuego.Patch(api.server, full, controller, opts...)
		case http.MethodDelete:
			fuego.Delete(api.server, full, controller, opts...)
		default:
			panic("unsupported method " + m)
		}
	}
}

func (api *API) register(namespace, full string, methods []string, args []Arg) {
	for _, rt := range api.routes {
		if rt.path == full {
			rt.endpoints = append(rt.endpoints, endpoint{methods: methods, args: args})
			return
		}
	}
	rt := &route{namespace: namespace, path: full, endpoints: []endpoint{{methods: methods, args: args}}}
	api.routes = append(api.routes, rt)
	if !strings.Contains(full, "}.") { // an event's .ics is routed as the event (readdress): the mux takes no such pattern
		api.lookup.Handle(full, routeHandler{rt})
	}
}

// routeHandler only carries a route through the lookup mux.
type routeHandler struct{ rt *route }

func (routeHandler) ServeHTTP(http.ResponseWriter, *http.Request) {}

func pathNames(path string) []string {
	var names []string
	for _, m := range pathParam.FindAllStringSubmatch(path, -1) {
		names = append(names, m[1])
	}
	return names
}

// regexpPath writes a route the way WordPress names it: /ns/venues/(?P<id>\d+).
func regexpPath(path string) string {
	return pathParam.ReplaceAllStringFunc(path, func(m string) string {
		if re, ok := routeRegexp[m[1:len(m)-1]]; ok {
			return re
		}
		return `(?P<` + m[1:len(m)-1] + `>[^/]+)`
	})
}

// documentArgs writes the declared parameters into the OpenAPI operation: path
// parameters, then query parameters for reads and deletes, or a request body
// (JSON or form) for writes. Arrays say how a query or a form sends them:
// style form, exploded (a=1&a=2), which the service reads as a list
// (phpForm), beside a[]=1&a[]=2 and a=1,2.
func documentArgs(method string, pathParams []string, args []Arg) fuego.RouteOption {
	return func(r *fuego.BaseRoute) {
		inPath := map[string]bool{}
		for _, name := range pathParams {
			inPath[name] = true
			arg := findArg(args, name)
			p := openapi3.NewPathParameter(name).WithDescription(describe(arg)).WithSchema(paramSchema(arg))
			r.Operation.AddParameter(p)
		}
		if method == http.MethodGet || method == http.MethodDelete {
			for _, a := range args {
				if inPath[a.Name] {
					continue
				}
				p := openapi3.NewQueryParameter(a.Name).WithDescription(describe(a)).WithSchema(paramSchema(a))
				p.Required, p.Example = a.Required, a.Example
				if a.Type == TypeArray {
					p.Style, p.Explode = openapi3.SerializationForm, openapi3.Ptr(true)
				}
				r.Operation.AddParameter(p)
			}
			return
		}
		body := openapi3.NewObjectSchema()
		encoding := map[string]*openapi3.Encoding{}
		for _, a := range args {
			if inPath[a.Name] {
				continue
			}
			body.WithProperty(a.Name, paramSchema(a))
			if a.Required {
				body.Required = append(body.Required, a.Name)
			}
			if a.Type == TypeArray {
				encoding[a.Name] = &openapi3.Encoding{Style: openapi3.SerializationForm, Explode: openapi3.Ptr(true)}
			}
		}
		if len(body.Properties) == 0 {
			return
		}
		content := openapi3.NewContentWithSchema(body, []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data"})
		if len(encoding) > 0 {
			for _, form := range []string{"application/x-www-form-urlencoded", "multipart/form-data"} {
				content[form].Encoding = encoding
			}
		}
		r.Operation.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithContent(content)}
	}
}

func findArg(args []Arg, name string) Arg {
	for _, a := range args {
		if a.Name == name {
			return a
		}
	}
	return Arg{Name: name, Type: TypeString}
}

func describe(a Arg) string {
	if a.Description == "" {
		return "No description provided"
	}
	return documentedDescription(a)
}

// documentedDescription is what the document says of a parameter: its
// description, and that its maxLength counts bytes (the service bounds the
// bytes it stores and reads), which JSON Schema counts in characters.
func documentedDescription(a Arg) string {
	if a.MaxBytes > 0 && a.Description != "" {
		return a.Description + " maxLength counts bytes of UTF-8, not characters."
	}
	return a.Description
}

func paramSchema(a Arg) *openapi3.Schema {
	var s *openapi3.Schema
	switch a.Type {
	case TypeInteger:
		s = openapi3.NewIntegerSchema()
	case TypeNumber:
		s = openapi3.NewFloat64Schema()
	case TypeBoolean:
		s = openapi3.NewBoolSchema()
	case TypeObject:
		s = openapi3.NewObjectSchema()
	case TypeMixed:
		s = &openapi3.Schema{Description: "An ID, an object of fields, or a list of them; see the description."}
	case TypeArray:
		item := openapi3.NewStringSchema()
		if a.Items == TypeInteger {
			item = openapi3.NewIntegerSchema()
		}
		s = openapi3.NewArraySchema().WithItems(item)
	default:
		s = openapi3.NewStringSchema()
	}
	s.Description = documentedDescription(a)
	if a.Default != nil {
		s.Default = a.Default
	}
	s.Example = a.Example
	// An array's enum constrains each of its items, not the array.
	constrained := s
	if a.Type == TypeArray {
		constrained = s.Items.Value
	}
	enum := constrained
	if a.EnumPrefix != "" { // the listed values, or the prefix and a custom field's key
		enum = openapi3.NewStringSchema()
		prefixed := openapi3.NewStringSchema().WithPattern("^" + regexp.QuoteMeta(a.EnumPrefix) + strings.Trim(calendar.FieldKeyPattern.String(), "^$") + "$")
		constrained.AnyOf = openapi3.SchemaRefs{openapi3.NewSchemaRef("", enum), openapi3.NewSchemaRef("", prefixed)}
	}
	for _, e := range a.Enum {
		enum.Enum = append(enum.Enum, e)
	}
	documentBounds(s, a)
	return s
}

// documentBounds writes an Arg's bounds as the document's keywords (OpenAPI
// 3.1: JSON Schema 2020-12, where exclusiveMinimum is the bound itself). A
// length in bytes is maxLength, which counts characters: the same for
// ASCII, a bound a client may meet with fewer characters of other scripts.
func documentBounds(s *openapi3.Schema, a Arg) {
	if a.MaxBytes > 0 {
		s.MaxLength = openapi3.Ptr(uint64(a.MaxBytes))
	}
	if a.NotEmpty {
		s.MinLength = 1
	}
	switch {
	case a.Min != nil && a.ExclusiveMin:
		s.ExclusiveMin = openapi3.ExclusiveBound{Value: a.Min}
	case a.Min != nil:
		s.Min = a.Min
	}
	if a.Max != nil {
		s.Max = a.Max
	}
	if a.Clamp > 0 {
		s.Max = bound(a.Clamp)
	}
	if max := a.maxItems(); max > 0 && a.Type == TypeObject { // an object's members
		s.MaxProps = openapi3.Ptr(uint64(max))
	} else if max > 0 {
		s.MaxItems = openapi3.Ptr(uint64(max))
	}
}
