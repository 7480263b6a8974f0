package controllers

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-fuego/fuego"

	"calendar/app/calendar"
)

// NamespaceIndexDoc documents the namespace index for the OpenAPI document.
type NamespaceIndexDoc struct {
	Namespace string                    `json:"namespace"`
	Routes    map[string]map[string]any `json:"routes"`
	Links     map[string][]Link         `json:"_links"`
}

// Link is one entry of a _links list; an embeddable one is what _embed
// embeds. WordPress writes a link's attributes before its href.
type Link struct {
	Embeddable bool   `json:"embeddable,omitempty"`
	Href       string `json:"href"`
}

// mountRoot registers GET {namespace}: the WordPress namespace index.
func (api *API) mountRoot(namespace string) {
	args := []Arg{
		{Name: "namespace", Type: TypeString, Default: namespace, Description: "The namespace to describe."},
		{Name: "context", Type: TypeString, Default: "view", Description: "WordPress' context; only view."},
	}
	handle(api, namespace, []string{http.MethodGet}, "", args, func(r *Request) (object, error) {
		asked := namespace
		if v, ok := r.Values.String("namespace"); ok {
			asked = strings.Trim(v, "/")
		}
		if !api.hasNamespace(asked) {
			return nil, calendar.NewError(calendar.KindNotFound, "rest_invalid_namespace", "The specified namespace could not be found.")
		}
		return api.namespaceIndex(asked, r.via), nil
	},
		fuego.OptionSummary("Namespace index"),
		fuego.OptionDescription("Every route of the namespace with its methods and parameters."),
		fuego.OptionAddResponse(http.StatusOK, "The namespace index", fuego.Response{Type: NamespaceIndexDoc{}}))
}

func (api *API) hasNamespace(ns string) bool {
	for _, rt := range api.routes {
		if rt.namespace == ns {
			return true
		}
	}
	return false
}

func (api *API) namespaceIndex(namespace string, v via) object {
	routes := object{}
	for _, rt := range api.routes {
		if rt.namespace == namespace {
			routes = append(routes, member{regexpPath(rt.path), api.describeRoute(rt, v)})
		}
	}
	return object{
		{"namespace", namespace},
		{"routes", routes},
		{"_links", map[string][]Link{"up": {{Href: api.indexURL(v)}}}},
	}
}

// siteIndex is WordPress' REST root, {home}/wp-json/ (get_index): the site,
// its namespaces, and every route as the namespace indexes describe them,
// after the index's own. The name is the site's (CALENDAR_SITE_NAME); there
// is no tagline, and no page to authorize an application password from,
// which WordPress would name under authentication: that list is empty.
func (api *API) siteIndex(v via) object {
	zone := api.zone
	if zone == nil {
		zone = time.UTC
	}
	_, offset := time.Now().In(zone).Zone()
	timezone := zone.String()
	if timezone == "UTC" { // WordPress keeps UTC as an offset, without a zone name
		timezone = ""
	}
	namespaces := []string{}
	routes := object{{"/", object{
		{"namespace", ""},
		{"methods", []string{http.MethodGet}},
		{"endpoints", []object{{{"methods", []string{http.MethodGet}},
			{"args", object{{"context", object{{"default", "view"}, {"required", false}}}}}}}},
		{"_links", map[string][]Link{"self": {{Href: api.indexURL(v)}}}},
	}}}
	for _, rt := range api.routes {
		if !slices.Contains(namespaces, rt.namespace) {
			namespaces = append(namespaces, rt.namespace)
		}
		routes = append(routes, member{regexpPath(rt.path), api.describeRoute(rt, v)})
	}
	return object{
		{"name", api.siteName},
		{"description", ""},
		{"url", api.cfg.SiteURL},
		{"home", strings.TrimSuffix(api.siteRoot(v), "/")},
		{"gmt_offset", float64(offset) / 3600},
		{"timezone_string", timezone},
		{"namespaces", namespaces},
		{"authentication", []any{}},
		{"routes", routes},
		{"_links", map[string][]Link{"help": {{Href: "https://developer.wordpress.org/rest-api/"}}}},
	}
}

// describeRoute is a route as the namespace index and OPTIONS show it.
func (api *API) describeRoute(rt *route, v via) object {
	var endpoints []object
	for _, e := range rt.endpoints {
		var args any = []any{} // WordPress writes an empty args list as []
		if len(e.args) > 0 {
			described := object{}
			for _, a := range e.args {
				described = append(described, member{a.Name, describeArg(a)})
			}
			args = described
		}
		endpoints = append(endpoints, object{{"methods", e.methods}, {"args", args}})
	}
	out := object{{"namespace", rt.namespace}, {"methods", rt.methods()}, {"endpoints", endpoints}}
	if len(pathNames(rt.path)) == 0 {
		href := strings.TrimSuffix(api.restRoot(v), "/") + rt.path
		out = append(out, member{"_links", map[string][]Link{"self": {{Href: href}}}})
	}
	return out
}

func describeArg(a Arg) object {
	o := object{{"type", a.Type}}
	if a.Description != "" {
		o = append(o, member{"description", a.Description})
	}
	if a.Default != nil {
		o = append(o, member{"default", a.Default})
	}
	switch {
	case a.EnumPrefix != "":
		o = append(o, member{"pattern", a.enumPattern()})
	case len(a.Enum) > 0:
		o = append(o, member{"enum", a.Enum})
	}
	if a.Type == TypeArray {
		items := a.Items
		if items == "" {
			items = TypeString
		}
		o = append(o, member{"items", map[string]string{"type": items}})
	}
	return append(append(o, boundKeywords(a)...), member{"required", a.Required})
}

// boundKeywords are an Arg's bounds as WordPress' schema keywords, which its
// index shows as registered (draft 4: exclusiveMinimum a flag on minimum).
func boundKeywords(a Arg) object {
	var o object
	if a.Min != nil {
		o = append(o, member{"minimum", *a.Min})
		if a.ExclusiveMin {
			o = append(o, member{"exclusiveMinimum", true})
		}
	}
	switch {
	case a.Max != nil:
		o = append(o, member{"maximum", *a.Max})
	case a.Clamp > 0:
		o = append(o, member{"maximum", a.Clamp})
	}
	if a.NotEmpty {
		o = append(o, member{"minLength", 1})
	}
	if a.MaxBytes > 0 {
		o = append(o, member{"maxLength", a.MaxBytes})
	}
	if max := a.maxItems(); max > 0 && a.Type == TypeObject { // an object's members
		o = append(o, member{"maxProperties", max})
	} else if max > 0 {
		o = append(o, member{"maxItems", max})
	}
	return o
}

// serveOptions answers OPTIONS with the route's description, or [] for an
// unknown path, with status 200 as WordPress does.
func (api *API) serveOptions(w http.ResponseWriter, r *http.Request) {
	h, pattern := api.lookup.Handler(r)
	if rh, ok := h.(routeHandler); ok && pattern != "" {
		_ = encodeJSON(w, api.describeRoute(rh.rt, infoOf(r.Context()).via))
		return
	}
	_ = encodeJSON(w, []any{})
}
