package controllers

import (
	"net/http"
	"strings"

	"github.com/go-fuego/fuego"

	"calendar/app/calendar"
)

// NamespaceIndexDoc documents the namespace index for the OpenAPI document.
type NamespaceIndexDoc struct {
	Namespace string                    `json:"namespace"`
	Routes    map[string]map[string]any `json:"routes"`
	Links     map[string][]Link         `json:"_links"`
}

// Link is one entry of a _links list.
type Link struct {
	Href string `json:"href"`
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
		return api.namespaceIndex(asked, r.lang), nil
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

func (api *API) namespaceIndex(namespace, lang string) object {
	routes := object{}
	for _, rt := range api.routes {
		if rt.namespace == namespace {
			routes = append(routes, member{regexpPath(rt.path), api.describeRoute(rt, lang)})
		}
	}
	return object{
		{"namespace", namespace},
		{"routes", routes},
		{"_links", map[string][]Link{"up": {{Href: api.siteRoot(lang)}}}},
	}
}

func (api *API) siteRoot(lang string) string {
	if lang != "" {
		return api.cfg.SiteURL + "/" + lang + "/"
	}
	return api.cfg.SiteURL + "/"
}

// describeRoute is a route as the namespace index and OPTIONS show it.
func (api *API) describeRoute(rt *route, lang string) object {
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
		href := strings.TrimSuffix(api.siteRoot(lang), "/") + rt.path
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
	if len(a.Enum) > 0 {
		o = append(o, member{"enum", a.Enum})
	}
	if a.Type == TypeArray {
		items := a.Items
		if items == "" {
			items = TypeString
		}
		o = append(o, member{"items", map[string]string{"type": items}})
	}
	return append(o, member{"required", a.Required})
}

// serveOptions answers OPTIONS with the route's description, or [] for an
// unknown path, with status 200 as WordPress does.
func (api *API) serveOptions(w http.ResponseWriter, r *http.Request) {
	h, pattern := api.lookup.Handler(r)
	if rh, ok := h.(routeHandler); ok && pattern != "" {
		_ = encodeJSON(w, api.describeRoute(rh.rt, infoOf(r.Context()).lang))
		return
	}
	_ = encodeJSON(w, []any{})
}
