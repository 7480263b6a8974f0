package controllers

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"calendar/app"
	"calendar/app/calendar"
)

// metricsPath is {base_url}/metrics, outside the namespaces like the probes.
const metricsPath = "/metrics"

// metrics are the Prometheus series of one API. Each API has its own registry:
// several run in one test process.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// newMetrics registers the request metrics, the process' and the collectors
// given (the index's, Config.Collectors).
func newMetrics(extra ...prometheus.Collector) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "calendar_http_requests_total",
			Help: "HTTP requests answered, by method, route pattern and status code.",
		}, []string{"method", "route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "calendar_http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by method, route pattern and status code.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route", "code"}),
	}
	m.registry.MustRegister(m.requests, m.duration,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.registry.MustRegister(extra...)
	return m
}

// knownMethods bounds the method label; anything else is "other".
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
}

func (m *metrics) observe(method, route string, status int, elapsed time.Duration) {
	if !knownMethods[method] {
		method = "other"
	}
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(method, route, code).Inc()
	m.duration.WithLabelValues(method, route, code).Observe(elapsed.Seconds())
}

// mountMetrics registers {base_url}/metrics in the Prometheus text format.
// With Config.MetricsToken set, it asks for "Authorization: Bearer <token>".
func (api *API) mountMetrics() {
	serve := promhttp.HandlerFor(api.metrics.registry, promhttp.HandlerOpts{
		ErrorHandling: promhttp.ContinueOnError, // a failing figure must not hide the others
		ErrorLog:      slog.NewLogLogger(api.cfg.Logger.Handler(), slog.LevelWarn),
	})
	fuego.GetStd(api.server, metricsPath, func(w http.ResponseWriter, r *http.Request) {
		if !api.metricsAllowed(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			api.writeError(w, r, calendar.NewError(calendar.KindUnauthorized, "metrics_unauthorized",
				"The metrics need the metrics token as a Bearer credential."))
			return
		}
		serve.ServeHTTP(w, r)
	}, fuego.OptionHide())
}

func (api *API) metricsAllowed(r *http.Request) bool {
	want := api.cfg.MetricsToken
	if want == "" {
		return true
	}
	scheme, got, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	return strings.EqualFold(scheme, "bearer") &&
		subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(want)) == 1
}

// indexCollector reads the index's figures once per scrape.
type indexCollector struct {
	app                                       *app.App
	documents, lag, applied, last, rebuilding *prometheus.Desc
}

func newIndexCollector(a *app.App) *indexCollector {
	return &indexCollector{
		app:        a,
		documents:  prometheus.NewDesc("calendar_index_documents", "Entries (posts and terms) in the search index.", nil, nil),
		lag:        prometheus.NewDesc("calendar_index_sync_lag", "The store's last change sequence number minus the index's checkpoint; own writes count until the next catch-up pass.", nil, nil),
		applied:    prometheus.NewDesc("calendar_index_applied_seq", "The store's change sequence number the index has applied up to.", nil, nil),
		last:       prometheus.NewDesc("calendar_store_last_seq", "The store's highest change sequence number.", nil, nil),
		rebuilding: prometheus.NewDesc("calendar_index_rebuilding", "1 while the index is being rebuilt from the store.", nil, nil),
	}
}

func (c *indexCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.documents
	ch <- c.lag
	ch <- c.applied
	ch <- c.last
	ch <- c.rebuilding
}

func (c *indexCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := c.app.IndexStats(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.documents, err)
		return
	}
	gauge := func(d *prometheus.Desc, v int64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(v))
	}
	gauge(c.documents, st.Documents)
	gauge(c.lag, st.Lag())
	gauge(c.applied, st.AppliedSeq)
	gauge(c.last, st.LastSeq)
	rebuilding := int64(0)
	if st.Rebuilding {
		rebuilding = 1
	}
	gauge(c.rebuilding, rebuilding)
}
