package controllers

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// restPrefix is the segment WordPress serves its REST API under:
// {home}/wp-json/{namespace}/... Most clients keep it in their base URL.
const restPrefix = "/wp-json"

// via is how a request addressed the API: the language segment it came with
// ("" when none), and whether it came through /wp-json/ (restRoot then keeps
// it in every API URL of the answer; site URLs never have it) or through
// ?rest_route= (WordPress' form without pretty permalinks).
type via struct {
	lang      string
	wpJSON    bool
	restRoute bool
	// ics: the event was addressed as its iCalendar file, {api}/events/<id>.ics.
	ics bool
}

// eventFile is an event's iCalendar file, routed as the event with via.ics.
var eventFile = regexp.MustCompile(`^/` + regexp.QuoteMeta(EventsNamespace) + `/events/[0-9]+\.ics/?$`)

// languageSegment is a language tag such as fr, de or pt-br; never wp-json
// (languageOf says so).
var languageSegment = regexp.MustCompile(`^/([a-zA-Z]{2,3}(?:[-_][a-zA-Z0-9]{2,8})*)(/.*)?$`)

// languageOf splits a leading language segment off a path that goes on to
// the API (a namespace or /wp-json). wp-json itself is not a language, in
// any case, nor wp_json.
func languageOf(path string) (lang, rest string, ok bool) {
	m := languageSegment.FindStringSubmatch(path)
	if m == nil || strings.EqualFold(strings.ReplaceAll(m[1], "_", "-"), restPrefix[1:]) {
		return "", path, false
	}
	if !strings.HasPrefix(m[2], "/vendor/") && !hasRestPrefix(m[2]) {
		return "", path, false
	}
	return m[1], m[2], true
}

// hasRestPrefix: the path is /wp-json or under it.
func hasRestPrefix(path string) bool {
	return path == restPrefix || strings.HasPrefix(path, restPrefix+"/")
}

// address reads how a request addressed the API and the route it asks for:
// ?rest_route= on the home page names the route itself (its other
// parameters kept, rest_route dropped); else an optional language segment,
// then an optional /wp-json, come before the route. A route is never
// empty: the REST root is "/".
func address(path, rawQuery string) (v via, route, query string) {
	if path == "/" || path == "/index.php" {
		if values, err := url.ParseQuery(rawQuery); err == nil && values.Has("rest_route") {
			route = "/" + strings.TrimLeft(values.Get("rest_route"), "/")
			return via{restRoute: true}, route, withoutParam(rawQuery, "rest_route")
		}
	}
	route = path
	if lang, rest, ok := languageOf(route); ok {
		v.lang, route = strings.ToLower(lang), rest
	}
	if hasRestPrefix(route) {
		v.wpJSON, route = true, strings.TrimPrefix(route, restPrefix)
		if route == "" {
			route = "/"
		}
	}
	return v, route, rawQuery
}

// readdress points a request at the route it asks for and returns how it
// addressed the API.
func readdress(r *http.Request) via {
	v, route, query := address(r.URL.Path, r.URL.RawQuery)
	if v.restRoute {
		r.URL.RawPath, r.URL.RawQuery = "", query
	} else if r.URL.RawPath != "" { // the prefixes are plain ASCII, written alike in both
		_, r.URL.RawPath, _ = address(r.URL.RawPath, "")
	}
	if eventFile.MatchString(route) {
		route, v.ics = strings.TrimSuffix(strings.TrimSuffix(route, "/"), ".ics"), true
		r.URL.RawPath = strings.TrimSuffix(strings.TrimSuffix(r.URL.RawPath, "/"), ".ics")
	}
	r.URL.Path = route
	return v
}

// withoutParam drops every name=value pair of one parameter from a raw
// query, keeping the others as they were written.
func withoutParam(rawQuery, name string) string {
	var kept []string
	for _, pair := range strings.Split(rawQuery, "&") {
		key, _, _ := strings.Cut(pair, "=")
		if k, err := url.QueryUnescape(key); err == nil && k == name {
			continue
		}
		if pair != "" {
			kept = append(kept, pair)
		}
	}
	return strings.Join(kept, "&")
}

// siteRoot is the home URL of the request's language, with a trailing
// slash: what permalinks start with. Never /wp-json/.
func (api *API) siteRoot(v via) string {
	if v.lang != "" {
		return api.cfg.SiteURL + "/" + v.lang + "/"
	}
	return api.cfg.SiteURL + "/"
}

// restRoot is where the namespaces are, as the request addressed them: the
// site root, and wp-json/ after it when the request came through it.
func (api *API) restRoot(v via) string {
	if v.wpJSON {
		return api.indexURL(v)
	}
	return api.siteRoot(v)
}

// indexURL is the site index, {home}/wp-json/ (the namespace index's
// _links.up, the Link header's api.w.org root).
func (api *API) indexURL(v via) string {
	return api.siteRoot(v) + strings.TrimPrefix(restPrefix, "/") + "/"
}

// apiRoot is the URL of a namespace as the request addressed it, with a
// trailing slash.
func (api *API) apiRoot(v via, namespace string) string {
	return api.restRoot(v) + strings.Trim(namespace, "/") + "/"
}

// apiLink is the Link header WordPress puts on every REST answer: where its
// REST root (the site index) is.
func (api *API) apiLink(v via) string {
	return "<" + api.indexURL(v) + `>; rel="https://api.w.org/"`
}
