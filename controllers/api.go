// Package controllers exposes the app over HTTP with fuego: request decoding,
// authentication, the error writer, list headers, the namespace index and the
// OpenAPI document. It calls app services and nothing else.
package controllers

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-fuego/fuego"

	"calendar/app"
)

// The namespaces the service answers, under {base_url}/ and {base_url}/{lang}/.
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
	// AuthLimits throttle wrong credentials (DefaultAuthLimits when zero).
	AuthLimits AuthLimits
}

// API is the HTTP face of the service.
type API struct {
	cfg    Config
	app    *app.App
	server *fuego.Server
	routes []*route
	// lookup maps a path to its route regardless of method, for OPTIONS.
	lookup *http.ServeMux
	doc    *openAPIDoc
	limit  *authLimiter
}

// New builds the HTTP API over the app.
func New(cfg Config, a *app.App) *API {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.AuthLimits == (AuthLimits{}) {
		cfg.AuthLimits = DefaultAuthLimits
	}
	api := &API{cfg: cfg, app: a, lookup: http.NewServeMux(), limit: newAuthLimiter(cfg.AuthLimits)}
	api.server = fuego.NewServer(
		fuego.WithoutStartupMessages(),
		fuego.WithLoggingMiddleware(fuego.LoggingConfig{DisableRequest: true, DisableResponse: true}),
		fuego.WithoutAutoGroupTags(),
		fuego.WithEngineOptions(
			fuego.WithOpenAPIConfig(fuego.OpenAPIConfig{
				DisableLocalSave: true, DisableSwaggerUI: true, DisableMessages: true, DisableDefaultServer: true,
				Info: &openapi3.Info{
					Title:       "Calendar REST API",
					Version:     "1.0.0",
					Description: "Events, venues, organizers, event categories and event tags of a site's calendar.",
				},
			}),
			fuego.WithMiddlewareConfig(fuego.MiddlewareConfig{DisableMiddlewareSection: true, DisableControllerSection: true}),
			fuego.WithResponseContentType("application/json"),
			fuego.DisableErrorHandler(),
		),
		fuego.WithSerializer(sendJSON),
		fuego.WithErrorSerializer(api.sendError),
		fuego.WithRouteOptions(errorResponses()...),
	)
	api.mountHealth()
	api.mountRoot(EventsNamespace)
	api.mountDoc()
	api.mountEvents()
	mountLinked(api, "venues", a.Venues, VenueList{})
	mountLinked(api, "organizers", a.Organizers, OrganizerList{})
	mountTerms(api, "categories", a.Categories, CategoryList{})
	mountTerms(api, "tags", a.Tags, TagList{})
	api.mountChanges()
	api.mountRoot(AdminNamespace)
	api.mountUsers()
	api.doc = newOpenAPIDoc(api.server.Engine.OutputOpenAPISpec())
	return api
}

type ctxKey struct{}

// requestInfo is what the outer handler learns about a request before routing.
type requestInfo struct {
	lang  string // language segment the request came in with, "" when none
	actor *app.User
}

func infoOf(ctx context.Context) requestInfo {
	info, _ := ctx.Value(ctxKey{}).(requestInfo)
	return info
}

// languagePrefix matches a leading language segment such as /fr, /de or /pt-br
// in front of a namespace.
var languagePrefix = regexp.MustCompile(`^/([a-zA-Z]{2,3}(?:[-_][a-zA-Z0-9]{2,8})*)(/vendor/.*)$`)

// ServeHTTP runs the WordPress order of checks around the router: credentials,
// then the route, then (in each handler) parameters, permission and the work.
func (api *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer api.recoverPanic(w, r)
	api.setCommonHeaders(w, r)
	if r.ContentLength > MaxBodyBytes {
		api.writeError(w, r, app.ErrBodyTooLarge(MaxBodyBytes))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)

	var info requestInfo
	if m := languagePrefix.FindStringSubmatch(r.URL.Path); m != nil {
		info.lang = strings.ToLower(m[1])
		r.URL.Path = m[2]
		r.URL.RawPath = strings.TrimPrefix(r.URL.RawPath, "/"+m[1])
	}
	if len(r.URL.Path) > 1 {
		r.URL.Path = strings.TrimSuffix(r.URL.Path, "/")
		r.URL.RawPath = strings.TrimSuffix(r.URL.RawPath, "/")
	}
	if !isProbe(r.URL.Path) && r.Header.Get("Authorization") != "" {
		client := clientOf(r)
		if wait := api.limit.blocked(client); wait > 0 {
			w.Header().Set("Retry-After", retryAfterSeconds(wait))
			api.writeError(w, r, errTooManyAttempts())
			return
		}
		actor, err := api.authenticate(r)
		if err != nil {
			if e := app.AsError(err); e.Status == http.StatusUnauthorized {
				time.Sleep(api.limit.failed(client)) // slows guessing down
			}
			api.writeError(w, r, err)
			return
		}
		if actor != nil {
			api.limit.succeeded(client)
		}
		info.actor = actor
	}
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, info))
	if r.Method == http.MethodOptions {
		api.serveOptions(w, r)
		return
	}
	if _, pattern := api.server.Mux.Handler(r); pattern == "" {
		api.writeError(w, r, app.ErrNoRoute())
		return
	}
	api.server.Mux.ServeHTTP(frameworkHeadersStripped{w}, r)
}

// frameworkHeadersStripped drops the headers fuego adds for its own diagnostics
// (X-Powered-By, Server-Timing and its Trailer declaration) before they leave.
type frameworkHeadersStripped struct{ http.ResponseWriter }

func (w frameworkHeadersStripped) WriteHeader(code int) {
	h := w.Header()
	h.Del("X-Powered-By")
	h.Del("Server-Timing")
	h.Del("Trailer")
	w.ResponseWriter.WriteHeader(code)
}

func (w frameworkHeadersStripped) Write(b []byte) (int, error) {
	if w.Header().Get("X-Powered-By") != "" {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (api *API) setCommonHeaders(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Access-Control-Expose-Headers", "X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, X-Calendar-Last-Seq, Link")
	h.Set("Access-Control-Allow-Headers", "Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type")
	if origin := r.Header.Get("Origin"); origin != "" {
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Methods", "OPTIONS, GET, POST, PUT, PATCH, DELETE")
		h.Set("Access-Control-Allow-Credentials", "true")
		h.Add("Vary", "Origin")
	}
	if r.Header.Get("Authorization") != "" {
		h.Set("Cache-Control", "no-cache, must-revalidate, max-age=0, no-store, private")
	}
}

// authenticate resolves the Authorization header: Basic login:password or
// Bearer password. Other schemes are ignored, as WordPress ignores them.
func (api *API) authenticate(r *http.Request) (*app.User, error) {
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
			return nil, app.ErrIncorrectPassword()
		}
		login, password, ok := strings.Cut(string(raw), ":")
		if !ok {
			return nil, app.ErrIncorrectPassword()
		}
		return api.app.Users.Authenticate(r.Context(), login, password)
	case "bearer":
		return api.app.Users.AuthenticateToken(r.Context(), credential)
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
	api.cfg.Logger.Error("panic serving request", "method", r.Method, "path", r.URL.Path,
		"panic", p, "stack", string(debug.Stack()))
	api.writeError(w, r, app.NewError(http.StatusInternalServerError, "internal_error",
		"The server could not complete the request."))
}

// writeError answers with the WordPress error shape; 5xx causes are logged.
func (api *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := app.AsError(err)
	switch {
	case e.Status == http.StatusServiceUnavailable: // an expected state, such as an index rebuild
		api.cfg.Logger.Warn("request refused", "method", r.Method, "path", r.URL.Path, "code", e.Code, "error", e.Error())
	case e.Status >= 500:
		api.cfg.Logger.Error("request failed", "method", r.Method, "path", r.URL.Path, "code", e.Code, "error", e.Error())
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(e.Status)
	_ = encodeJSON(w, e)
}

// sendError is fuego's error serializer: every error leaves in our shape.
func (api *API) sendError(w http.ResponseWriter, r *http.Request, err error) {
	var withStatus fuego.ErrorWithStatus
	if _, ours := err.(*app.Error); !ours && errors.As(err, &withStatus) && withStatus.StatusCode() < 500 {
		err = app.NewError(withStatus.StatusCode(), "rest_invalid_request", err.Error())
	}
	api.writeError(w, r, err)
}

// sendJSON is fuego's serializer: UTF-8 JSON without escaping "/" or non-ASCII.
func sendJSON(w http.ResponseWriter, _ *http.Request, ans any) error {
	return encodeJSON(w, ans)
}

func encodeJSON(w http.ResponseWriter, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
