// Package controllers exposes the app over HTTP with fuego: request decoding,
// authentication, the error writer, list headers, the namespace index and the
// OpenAPI document. It calls app services and nothing else.
package controllers

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-fuego/fuego"
	"github.com/prometheus/client_golang/prometheus"

	"calendar/app"
	"calendar/app/calendar"
)

// The namespaces the service answers, under {base_url}/ and {base_url}/{lang}/,
// each also under wp-json/ (controllers/wpjson.go).
const (
	EventsNamespace = "vendor/events/v1"
	AdminNamespace  = "vendor/admin/v1"
)

// Config is what the HTTP layer needs from the service configuration.
type Config struct {
	// SiteURL is the home URL, without a trailing slash; every URL the service
	// writes starts with it.
	SiteURL string
	Logger  *slog.Logger
	// MetricsToken, when set, is the Bearer credential /metrics asks for.
	MetricsToken string
	// CacheMaxAge is how long shared caches may keep an anonymous read
	// (DefaultCacheMaxAge when zero; negative: they must revalidate each time).
	CacheMaxAge time.Duration
	// CORSOrigins, when not empty, are the only origins (scheme://host[:port])
	// browsers may call the API from with credentials; empty, every origin
	// may, as WordPress allows.
	CORSOrigins []string
	// TrustedProxies are the peers whose X-Forwarded-For (or Forwarded)
	// header names the client (controllers/client.go); empty, every request's
	// client is its connection's peer and those headers are ignored.
	TrustedProxies TrustedProxies
	// Collectors are more figures for /metrics, from outside the HTTP
	// layer: the listener's connections, the build's.
	Collectors []prometheus.Collector
	// Version is the service's release, the OpenAPI document's info.version
	// ("devel" when empty).
	Version string
}

// API is the HTTP face of the service.
type API struct {
	cfg Config
	// accounts resolves credentials; uploads gates the media library's
	// uploads and files serves its files (both nil when no library is
	// mounted); sources gates the bodies of import sources, which may carry
	// a csv file (nil when imports are not mounted); ready tells /readyz.
	accounts accounts
	uploads  uploadGate
	files    uploadedFiles
	sources  bodyGate
	ready    func(context.Context) error
	server   *fuego.Server
	routes   []*route
	// lookup maps a path to its route regardless of method, for OPTIONS.
	lookup *http.ServeMux
	// doc is the OpenAPI document of the routes, written at its first
	// request: writing and validating it costs more than the rest of New
	// together, and most processes (every test's service) never serve it.
	doc func() *openAPIDoc
	// publicFields are the custom fields every reader sees, which the
	// events' document describes one by one (custom_fields_doc.go).
	publicFields func(ctx context.Context) ([]app.FieldView, error)
	metrics      *metrics
	// zone is the site's time zone, siteName its name, for the site index
	// (UTC when nil).
	zone     *time.Location
	siteName string
	// siteEvents answers the plugin's export URLs on the site's paths
	// (site_feeds.go); nil when no events are mounted.
	siteEvents siteFeeds
}

// siteFeeds is what the site's export URLs ask of the events (app.Events).
type siteFeeds interface {
	SiteFeed(ctx context.Context, caller app.Caller, r app.SiteFeedRequest) (*app.Feed, error)
	EventFeed(ctx context.Context, caller app.Caller, ref app.PostRef, password string) (*app.Feed, error)
}

// accounts is what every request asks of the users (app.Users): who its
// credentials name.
type accounts interface {
	Authenticate(ctx context.Context, client, login, password string) (*calendar.User, error)
	AuthenticateToken(ctx context.Context, client, password string) (*calendar.User, error)
}

// uploadGate is what a request to the media library asks before its body is
// read (app.Media): how large it may be, and room to receive it.
type uploadGate interface {
	MaxUpload() int64
	bodyGate
}

// bodyGate lets a request's body be read, or refuses it, once its caller is
// known: whether the caller may send it, and room to receive it.
type bodyGate interface {
	Receive(ctx context.Context, caller app.Caller) (release func(), err error)
}

// New builds the HTTP API over the app: every namespace and resource.
func New(cfg Config, a *app.App) *API {
	api := newAPI(cfg, a.Users, newIndexCollector(a), newWebhookCollector(a.Webhooks), newImportCollector(a.Imports))
	api.uploads, api.ready, api.zone, api.siteName = a.Media, a.Ready, a.TimeZone(), a.SiteName()
	api.mountHealth()
	api.mountMetrics()
	api.mountRoot(EventsNamespace)
	api.mountDoc(EventsNamespace)
	api.mountSwaggerUI()
	mountEvents(api, a.Events, a.Venues.MetaFields(), a.Organizers.MetaFields())
	mountLinked(api, "venues", a.Venues, VenueList{})
	mountLinked(api, "organizers", a.Organizers, OrganizerList{})
	mountTerms(api, "categories", a.Categories, CategoryList{})
	mountTerms(api, "tags", a.Tags, TagList{})
	mountMedia(api, a.Media)
	mountChanges(api, a)
	api.mountRoot(AdminNamespace)
	api.mountDoc(AdminNamespace)
	mountUsers(api, a.Users)
	mountBackup(api, a)
	mountReindex(api, a)
	mountWebhooks(api, a.Webhooks)
	mountSynonyms(api, a.Synonyms)
	mountImports(api, a.Imports)
	mountFields(api, a.Fields)
	api.documented()
	return api
}

// newAPI is the HTTP shell without a route: the server, the error shape,
// credentials, the access log and metrics. New mounts every resource on it;
// a test may mount one resource on its service alone.
func newAPI(cfg Config, users accounts, collectors ...prometheus.Collector) *API {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.CacheMaxAge == 0 {
		cfg.CacheMaxAge = DefaultCacheMaxAge
	}
	api := &API{cfg: cfg, accounts: users, lookup: http.NewServeMux(), metrics: newMetrics(slices.Concat(collectors, cfg.Collectors)...)}
	api.server = fuego.NewServer(
		fuego.WithoutStartupMessages(),
		fuego.WithLoggingMiddleware(fuego.LoggingConfig{DisableRequest: true, DisableResponse: true}),
		fuego.WithoutAutoGroupTags(),
		fuego.WithEngineOptions(
			fuego.WithOpenAPIConfig(fuego.OpenAPIConfig{
				DisableLocalSave: true, DisableSwaggerUI: true, DisableMessages: true, DisableDefaultServer: true,
				Info: &openapi3.Info{
					Title:       "Calendar REST API",
					Version:     cmp.Or(cfg.Version, "devel"),
					Description: "Events, venues, organizers, event categories and event tags of a site's calendar.",
				},
			}),
			fuego.WithOpenAPIGeneratorSchemaCustomizer(nullWhereWritten),
			fuego.WithMiddlewareConfig(fuego.MiddlewareConfig{DisableMiddlewareSection: true, DisableControllerSection: true}),
			fuego.WithResponseContentType("application/json"),
			fuego.DisableErrorHandler(),
		),
		fuego.WithSerializer(sendJSON),
		fuego.WithErrorSerializer(api.sendError),
	)
	return api
}

// documented makes the OpenAPI document of the routes mounted so far, the
// first time it is asked for, or takes the one an API with the same routes
// made before it in this process (documents).
func (api *API) documented() {
	api.doc = sync.OnceValue(func() *openAPIDoc {
		key := routesFingerprint(api.server.Engine.OpenAPI.Description())
		if doc, ok := documents.Load(key); ok {
			return doc.(*openAPIDoc)
		}
		doc, _ := documents.LoadOrStore(key, newOpenAPIDoc(api.server.Engine.OutputOpenAPISpec()))
		return doc.(*openAPIDoc)
	})
}

type ctxKey struct{}

// requestInfo is what the outer handler learns about a request before routing.
type requestInfo struct {
	via    via // how the request addressed the API: language segment, /wp-json/
	actor  *calendar.User
	answer *answer
}

func infoOf(ctx context.Context) requestInfo {
	info, _ := ctx.Value(ctxKey{}).(requestInfo)
	return info
}

// ServeHTTP serves a request and then applies to the whole answer what needs
// all of it: _fields, _envelope, _jsonp, conditional requests, HEAD.
func (api *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w, r, answered := api.begin(w, r) // request ID, access log, metrics
	defer answered()
	if api.files != nil && strings.HasPrefix(r.URL.Path, uploadsPrefix) { // files, not the API
		api.serveUpload(w, r)
		return
	}
	v := readdress(r)               // the route asked for, past ?rest_route=, a language, /wp-json
	overridden := overrideMethod(r) // by the query or a header: nothing of the body is read before the caller is known
	limit := api.bodyLimit(r)
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	a := newAnswer(w, r)
	api.serve(a, r, limit, v, overridden)
	a.send(api.cfg.CacheMaxAge)
}

// serve runs the WordPress order of checks around the router: credentials,
// then the route, then (in each handler) parameters, permission and the work.
// Nothing of the body is read before the credentials: an upload's only from
// a caller who may upload, a route of the admin namespace's only from a
// signed-in caller, and the plugin's routes' (at most MaxBodyBytes) then, as
// WordPress checks their parameters before the permission.
func (api *API) serve(w *answer, r *http.Request, bodyLimit int64, v via, overridden bool) {
	defer api.recoverPanic(w, r)
	api.setCommonHeaders(w, r)
	probe := isProbe(strings.TrimSuffix(r.URL.Path, "/"))
	if !probe {
		w.apiLink = api.apiLink(v)
	}
	if w.jsonp.invalid { // before anything else, as WordPress checks it
		w.jsonp = jsonp{}
		api.writeError(w, r, errCallbackInvalid())
		return
	}
	if r.ContentLength > bodyLimit {
		api.writeError(w, r, errBodyTooLarge(bodyLimit))
		return
	}
	info := requestInfo{answer: w, via: v}
	if len(r.URL.Path) > 1 {
		r.URL.Path = strings.TrimSuffix(r.URL.Path, "/")
		r.URL.RawPath = strings.TrimSuffix(r.URL.RawPath, "/")
	}
	if probe && (v.wpJSON || v.restRoute) { // the probes are not routes of the REST API
		api.writeError(w, r, errNoRoute())
		return
	}
	if !probe && r.Header.Get("Authorization") != "" {
		actor, err := api.authenticate(r)
		if err != nil {
			api.writeError(w, r, err)
			return
		}
		info.actor = actor
	}
	if info.actor == nil && hasBody(r) && strings.HasPrefix(r.URL.Path, "/"+AdminNamespace+"/") {
		api.writeError(w, r, calendar.ErrNotLoggedIn()) // every route there is for signed-in callers
		return
	}
	if w.embed != nil {
		w.fetch = api.embedFetcher(r.Context(), info.actor)
	}
	if api.isUpload(r) { // an upload's body is read once the caller may send it, and there is room
		release, err := api.uploads.Receive(r.Context(), app.Caller{User: info.actor})
		if err != nil {
			api.writeError(w, r, err)
			return
		}
		defer release()
	} else {
		if api.isSourceBody(r) { // a source's body (a csv file, perhaps) is read once the caller may import
			release, err := api.sources.Receive(r.Context(), app.Caller{User: info.actor})
			if err != nil {
				api.writeError(w, r, err)
				return
			}
			defer release()
		}
		if !overridden {
			overrideMethodFromBody(r)
		}
	}
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, info))
	if r.Method == http.MethodOptions {
		api.serveOptions(w, r)
		return
	}
	if r.URL.Path == "/" && r.Method == http.MethodGet { // the home page too: it has no page of its own here

		_ = encodeJSON(w, api.siteIndex(v))
		return
	}
	if api.sitePageFeed(w, r, v) {
		return
	}
	if _, pattern := api.server.Mux.Handler(r); pattern == "" {
		api.writeError(w, r, errNoRoute())
		return
	}
	api.server.Mux.ServeHTTP(w, r)
}

func (api *API) setCommonHeaders(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Robots-Tag", "noindex")
	api.setCORSHeaders(h, r)
	if r.Header.Get("Authorization") != "" {
		h.Set("Cache-Control", "no-cache, must-revalidate, max-age=0, no-store, private")
	}
}

// hasBody reports whether a request sends a body (of a known length above
// zero, or chunked).
func hasBody(r *http.Request) bool {
	return r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody
}

// authenticate resolves the Authorization header: Basic login:password or
// Bearer password. Other schemes are ignored, as WordPress ignores them.
func (api *API) authenticate(r *http.Request) (*calendar.User, error) {
	header := r.Header.Get("Authorization")
	if header == "" {
		return nil, nil
	}
	scheme, credential, _ := strings.Cut(strings.TrimSpace(header), " ")
	credential = strings.TrimSpace(credential)
	switch strings.ToLower(scheme) {
	case "basic":
		raw, err := base64.StdEncoding.DecodeString(credential)
		if err != nil {
			return nil, calendar.ErrIncorrectPassword()
		}
		login, password, ok := strings.Cut(string(raw), ":")
		if !ok {
			return nil, calendar.ErrIncorrectPassword()
		}
		return api.accounts.Authenticate(r.Context(), clientOf(r), login, password) // the throttle counts by address
	case "bearer":
		return api.accounts.AuthenticateToken(r.Context(), clientOf(r), credential)
	}
	return nil, nil
}

func (api *API) recoverPanic(w http.ResponseWriter, r *http.Request) {
	p := recover()
	if p == nil {
		return
	}
	if p == http.ErrAbortHandler {
		panic(p)
	}
	if a, ok := w.(*answer); ok {
		a.reset() // the error replaces whatever the handler had begun
	}
	api.logger(r).Error("panic serving request", "method", r.Method, "path", r.URL.Path,
		"panic", p, "stack", string(debug.Stack()))
	api.writeError(w, r, calendar.NewError(calendar.KindInternal, "internal_error", "The server could not complete the request."))
}

// writeError answers with the WordPress error shape; 5xx causes are logged.
func (api *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := calendar.AsError(err)
	status := statusOf(e)
	switch {
	case status == http.StatusServiceUnavailable: // an expected state, such as an index rebuild
		api.logger(r).Warn("request refused", "method", r.Method, "path", r.URL.Path, "code", e.Code, "error", e.Error())
	case status >= 500:
		api.logger(r).Error("request failed", "method", r.Method, "path", r.URL.Path, "code", e.Code, "error", e.Error())
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	if status == http.StatusServiceUnavailable { // "not now" is never kept: not by a CDN, not by a browser
		w.Header().Set("Cache-Control", "no-store")
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds())+1))
	}
	w.WriteHeader(status)
	raw, _ := errorJSON(e)
	_, _ = w.Write(append(raw, '\n'))
}

// sendError is fuego's error serializer: every error leaves in our shape.
func (api *API) sendError(w http.ResponseWriter, r *http.Request, err error) {
	api.writeError(w, r, errFromFramework(err))
}

// sendJSON is fuego's serializer: UTF-8 JSON without escaping "/" or non-ASCII,
// or a rawBody as it is (a streamBody was sent by handle already).
func sendJSON(w http.ResponseWriter, _ *http.Request, ans any) error {
	if _, ok := ans.(streamBody); ok { // handle sent it
		return nil
	}
	if raw, ok := ans.(rawBody); ok {
		w.Header().Set("Content-Type", raw.contentType)
		_, err := w.Write(raw.body)
		return err
	}
	return encodeJSON(w, ans)
}

// rawBody is an answer that is not JSON: the serializer writes it unchanged
// under its own content type (set there, so a handler returning one must not
// change the status).
type rawBody struct {
	contentType string
	body        []byte
}

func encodeJSON(w io.Writer, v any) error {
	// An ordered object (every list wrapper) is already compact JSON: written
	// as it is, it skips the encoder's second pass over its bytes.
	if o, ok := v.(object); ok {
		raw, err := o.MarshalJSON()
		if err != nil {
			return err
		}
		_, err = w.Write(append(raw, '\n'))
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
