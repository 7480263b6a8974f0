package controllers

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"calendar/app"
)

// listAnswer is the wrapper of a post list: the items under key, the page
// links, the totals (also in the headers).
func listAnswer[V any](api *API, r *Request, key, path string, args []Arg, page *app.Page[V]) object {
	self, next, previous := pageLinks(api, r, path, args, page)
	r.listItems(key)
	out := object{{key, page.Items}, {"rest_url", self}}
	out = appendLinks(out, next, previous)
	return append(out, member{"total", page.Total}, member{"total_pages", page.TotalPages})
}

// termListAnswer is the wrapper of a term list, in the order WordPress builds it.
func termListAnswer(api *API, r *Request, key, path string, args []Arg, page *app.Page[app.TermView]) object {
	self, next, previous := pageLinks(api, r, path, args, page)
	r.listItems(key)
	out := object{{"rest_url", self}, {"total", page.Total}, {"total_pages", page.TotalPages}, {key, page.Items}}
	return appendLinks(out, next, previous)
}

func appendLinks(out object, next, previous string) object {
	if next != "" {
		out = append(out, member{"next_rest_url", next})
	}
	if previous != "" {
		out = append(out, member{"previous_rest_url", previous})
	}
	return out
}

// pageLinks sets the totals headers under both names clients use and the
// Link header, and returns the URLs of this page, the next one and the
// previous one ("" when none).
func pageLinks[V any](api *API, r *Request, path string, args []Arg, page *app.Page[V]) (self, next, previous string) {
	setTotals(r.Header(), page.Total, page.TotalPages)
	base := api.apiRoot(r.via, EventsNamespace) + strings.TrimPrefix(path, "/") + "/"
	self = pageURL(base, r.Values, args, page.Page, r.Values.Has("page"))
	if page.Page < page.TotalPages {
		next = pageURL(base, r.Values, args, page.Page+1, false)
	}
	if page.Page > 1 {
		previous = pageURL(base, r.Values, args, page.Page-1, false)
	}
	setPageLinks(r.Header(), next, previous)
	return self, next, previous
}

// setPageLinks writes the Link header of a list page as WordPress' posts
// controller does: rel="prev", then rel="next", each only when that page
// exists, as one header of comma-separated links (WP_REST_Response's
// link_header appends to the one value); no header on a single page.
func setPageLinks(h http.Header, next, previous string) {
	var links []string
	if previous != "" {
		links = append(links, "<"+previous+">; rel=\"prev\"")
	}
	if next != "" {
		links = append(links, "<"+next+">; rel=\"next\"")
	}
	if len(links) > 0 {
		h.Set("Link", strings.Join(links, ", "))
	}
}

// setTotals writes a list's totals under the plugin's names and WordPress',
// spelled as they spell them (Go would write X-Tec-Totalpages: clients that
// read headers case-sensitively look for these).
func setTotals(h http.Header, total, pages int) {
	h["X-TEC-Total"] = []string{strconv.Itoa(total)}
	h["X-TEC-TotalPages"] = []string{strconv.Itoa(pages)}
	h["X-WP-Total"] = []string{strconv.Itoa(total)}
	h["X-WP-TotalPages"] = []string{strconv.Itoa(pages)}
}

// headerAsWritten is a header's value under its name as written (setTotals)
// or in Go's canonical form.
func headerAsWritten(h http.Header, name string) string {
	if v := h[name]; len(v) > 0 {
		return v[0]
	}
	return h.Get(name)
}

// dropHeader removes a header under both spellings.
func dropHeader(h http.Header, name string) {
	delete(h, name)
	h.Del(name)
}

// pageURL is the list URL of page n carrying every filter the request sent, in
// the order the route declares them. A link to page 1 has no page parameter
// unless keepPage (the current page's own URL, when the request named it).
func pageURL(base string, v Values, args []Arg, n int, keepPage bool) string {
	q := url.Values{}
	var order []string
	for _, a := range args {
		if a.Name == "page" || !v.Has(a.Name) {
			continue
		}
		q.Set(a.Name, formatValue(v[a.Name]))
		order = append(order, a.Name)
	}
	var parts []string
	for _, name := range order {
		parts = append(parts, url.QueryEscape(name)+"="+url.QueryEscape(q.Get(name)))
	}
	if n > 1 || keepPage {
		parts = append(parts, "page="+strconv.Itoa(n))
	}
	if len(parts) == 0 {
		return base
	}
	return base + "?" + strings.Join(parts, "&")
}

// formatValue writes a checked parameter back as a query value; lists as CSV.
func formatValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []string:
		return strings.Join(x, ",")
	case []int64:
		s := make([]string, len(x))
		for i, n := range x {
			s[i] = strconv.FormatInt(n, 10)
		}
		return strings.Join(s, ",")
	}
	return ""
}

// withFacets appends the facets asked for, keyed by name in their order; an
// answer that asked for none stays as it was.
func withFacets(out object, facets []app.Facet) object {
	if facets == nil {
		return out
	}
	f := object{}
	for _, facet := range facets {
		f = append(f, member{facet.Name, facet.Values})
	}
	return append(out, member{"facets", f})
}

// withGrid appends the map's clusters when facets=geo_grid asked for them.
func withGrid(out object, grid *app.GeoGrid) object {
	if grid == nil {
		return out
	}
	return append(out, member{"geo_grid", grid})
}

// withDays appends the matches per day when facets=days asked for them.
func withDays(out object, days []app.DayCount) object {
	if days == nil {
		return out
	}
	return append(out, member{"days", days})
}
