package controllers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

type requestIDKey struct{}

// saneRequestID is what we accept from a client's X-Request-ID: safe in a log
// line and a header as it is.
var saneRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

func requestIDOf(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// logger is the service's logger, carrying the request's ID.
func (api *API) logger(r *http.Request) *slog.Logger {
	if id := requestIDOf(r.Context()); id != "" {
		return api.cfg.Logger.With("request_id", id)
	}
	return api.cfg.Logger
}

// begin gives the request its ID (the client's when sane), echoed in the
// answer, and its client's address (clientOf), and returns what runs once it
// is answered: the access log line and the metrics. It sees the request
// before the outer handler rewrites its path.
func (api *API) begin(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request, func()) {
	start := time.Now()
	id := r.Header.Get("X-Request-ID")
	if !saneRequestID.MatchString(id) {
		id = newRequestID()
	}
	w.Header().Set("X-Request-ID", id)
	r = r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id))
	r, client, forwarded := api.cfg.TrustedProxies.withClient(r)
	// The client, and when a trusted proxy named it, the proxy (an empty
	// Attr is not written).
	remote, proxy := slog.String("remote", r.RemoteAddr), slog.Attr{}
	if forwarded {
		remote, proxy = slog.String("remote", client), slog.String("proxy", r.RemoteAddr)
	}
	ow := &observedWriter{ResponseWriter: w}
	path, query := r.URL.Path, r.URL.RawQuery
	return ow, r, func() {
		status := ow.status
		if status == 0 {
			status = http.StatusOK
		}
		elapsed := time.Since(start)
		method := r.Method // as served: after an override (_method, X-HTTP-Method-Override)
		route := api.routeOf(method, path, query)
		api.metrics.observe(method, route, status, elapsed)
		level := slog.LevelInfo
		if isProbe(route) {
			level = slog.LevelDebug // scraped every few seconds; Debug keeps them out of the way
		}
		// The path without its query string, which could carry anything; never headers.
		api.cfg.Logger.LogAttrs(r.Context(), level, "request",
			slog.String("request_id", id), slog.String("method", method), slog.String("route", route),
			slog.String("path", truncate(path, 256)), slog.Int("status", status),
			slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000), slog.Int64("bytes", ow.bytes),
			remote, proxy)
	}
}

// unmatchedRoute labels requests no route matches, so labels stay bounded.
const unmatchedRoute = "unmatched"

// routeOf is the route pattern a path answers to (?rest_route=, its language
// segment, /wp-json and trailing slash read as the outer handler reads them),
// whatever the method.
func (api *API) routeOf(method, path, rawQuery string) string {
	if strings.HasPrefix(path, uploadsPrefix) {
		return uploadsPrefix
	}
	_, path, _ = address(path, rawQuery)
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	probe := &http.Request{Method: method, URL: &url.URL{Path: path}}
	if _, pattern := api.lookup.Handler(probe); pattern != "" {
		return pattern
	}
	probe.Method = http.MethodGet // routes outside the namespaces answer GET only
	if _, pattern := api.server.Mux.Handler(probe); pattern != "" {
		if i := strings.IndexByte(pattern, ' '); i >= 0 {
			pattern = pattern[i+1:] // "GET /healthz"
		}
		return pattern
	}
	return unmatchedRoute
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// observedWriter records the status and the size of the answer.
type observedWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *observedWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *observedWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *observedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
