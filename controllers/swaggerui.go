package controllers

import (
	"embed"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-fuego/fuego"
)

// The UI's files are served from the binary: no CDN, nothing fetched at run time.
//
//go:embed swaggerui/index.html swaggerui/init.js swaggerui/swagger-ui-bundle.js swaggerui/swagger-ui.css swaggerui/favicon-32x32.png
var swaggerUIFiles embed.FS

// swaggerUIAssets are the files served under {api}/doc/ui/, with their types
// (explicit: the system's MIME table varies and we send nosniff).
var swaggerUIAssets = map[string]string{
	"init.js":              "text/javascript; charset=UTF-8",
	"swagger-ui-bundle.js": "text/javascript; charset=UTF-8",
	"swagger-ui.css":       "text/css; charset=UTF-8",
	"favicon-32x32.png":    "image/png",
}

// mountSwaggerUI registers {api}/doc/ui, a browser UI for {api}/doc, and its
// files. They stay out of the OpenAPI document and the namespace index.
func (api *API) mountSwaggerUI() {
	base := "/" + EventsNamespace + "/doc/ui"
	csp := swaggerUIPolicy(api.cfg.SiteURL)
	fuego.GetStd(api.server, base, func(w http.ResponseWriter, r *http.Request) {
		// The page's relative links need {api}/doc/ui without a trailing slash,
		// which the outer handler already stripped from r.URL.
		if strings.HasSuffix(strings.SplitN(r.RequestURI, "?", 2)[0], "/") {
			// Set by hand: http.Redirect would resolve it against the rewritten path.
			w.Header().Set("Location", "../ui")
			w.WriteHeader(http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Security-Policy", csp)
		serveSwaggerUIFile(w, "index.html", "text/html; charset=UTF-8", "no-cache")
	}, fuego.OptionHide())
	fuego.GetStd(api.server, base+"/{file}", func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("file")
		contentType, ok := swaggerUIAssets[name]
		if !ok {
			api.writeError(w, r, errNoRoute())
			return
		}
		serveSwaggerUIFile(w, name, contentType, "public, max-age=86400")
	}, fuego.OptionHide())
}

func serveSwaggerUIFile(w http.ResponseWriter, name, contentType, cacheControl string) {
	raw, err := swaggerUIFiles.ReadFile("swaggerui/" + name)
	if err != nil {
		panic("an embedded Swagger UI file is missing: " + name) // a build mistake
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", cacheControl)
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(raw)
}

// swaggerUIPolicy allows the page its own files and calls to this service
// (the document's server URLs are the site URL, whose origin may differ from
// the one the page was loaded from). The UI sets inline styles and uses data:
// images in its CSS.
func swaggerUIPolicy(siteURL string) string {
	connect := "'self'"
	if u, err := url.Parse(siteURL); err == nil && u.Scheme != "" && u.Host != "" {
		connect += " " + u.Scheme + "://" + u.Host
	}
	return "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
		"font-src 'self' data:; connect-src " + connect + "; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
