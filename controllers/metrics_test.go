package controllers_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"calendar/controllers"
)

// scrape reads /metrics and parses it as Prometheus' text format.
func (s *service) scrape(opts ...option) map[string]*dto.MetricFamily {
	s.t.Helper()
	res := s.do("GET", "/metrics", opts...)
	res.expectStatus(s.t, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		s.t.Fatalf("Content-Type = %q", ct)
	}
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(res.Body))
	if err != nil {
		s.t.Fatalf("the exposition does not parse: %v\n%s", err, res.Body)
	}
	return families
}

// series returns the metrics of a family whose labels include want.
func series(families map[string]*dto.MetricFamily, name string, want map[string]string) []*dto.Metric {
	var out []*dto.Metric
	f := families[name]
	if f == nil {
		return nil
	}
next:
	for _, m := range f.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if labels[k] != v {
				continue next
			}
		}
		out = append(out, m)
	}
	return out
}

func gaugeValue(t *testing.T, families map[string]*dto.MetricFamily, name string) float64 {
	t.Helper()
	ms := series(families, name, nil)
	if len(ms) != 1 {
		t.Fatalf("%s: %d series", name, len(ms))
	}
	return ms[0].GetGauge().GetValue()
}

func TestMetricsCountRequestsPerRoutePatternAndStatus(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.do("POST", "/vendor/events/v1/venues", asAdmin(), jsonBody(map[string]string{"venue": "Hall"}))
	venue.expectStatus(t, http.StatusCreated)
	s.do("POST", "/vendor/events/v1/categories", asAdmin(), jsonBody(map[string]string{"name": "Jazz"})).expectStatus(t, http.StatusCreated)
	id := formatFloat(venue.object(t)["id"].(float64))
	byID := map[string]string{"method": "GET", "route": "/vendor/events/v1/venues/{id}", "code": "200"}
	unmatched := map[string]string{"method": "GET", "route": "unmatched", "code": "404"}

	before := s.scrape()
	if n := len(series(before, "calendar_http_requests_total", byID)); n != 0 {
		t.Fatalf("%d series for a route not requested yet", n)
	}
	s.do("GET", "/vendor/events/v1/venues/"+id).expectStatus(t, http.StatusOK)
	s.do("GET", "/vendor/events/v1/venues/"+id+"/").expectStatus(t, http.StatusOK)
	s.do("GET", "/de/vendor/events/v1/venues/"+id).expectStatus(t, http.StatusOK)
	s.do("GET", "/vendor/events/v1/no-such-thing/"+id).expectError(t, http.StatusNotFound, "rest_no_route")
	s.do("GET", "/favicon.ico").expectError(t, http.StatusNotFound, "rest_no_route")
	after := s.scrape()

	counted := series(after, "calendar_http_requests_total", byID)
	if len(counted) != 1 || counted[0].GetCounter().GetValue() != 3 {
		t.Fatalf("requests of %v: %v", byID, counted)
	}
	timed := series(after, "calendar_http_request_duration_seconds", byID)
	if len(timed) != 1 || timed[0].GetHistogram().GetSampleCount() != 3 || timed[0].GetHistogram().GetSampleSum() <= 0 {
		t.Fatalf("latency of %v: %v", byID, timed)
	}
	if m := series(after, "calendar_http_requests_total", unmatched); len(m) != 1 || m[0].GetCounter().GetValue() != 2 {
		t.Fatalf("unmatched requests: %v", m)
	}
	if m := series(after, "calendar_http_requests_total", map[string]string{"route": "/metrics", "code": "200"}); len(m) != 1 {
		t.Fatalf("the first scrape is not counted: %v", m)
	}
	for _, m := range after["calendar_http_requests_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			switch {
			case l.GetName() == "route" && (strings.HasSuffix(l.GetValue(), "/"+id) || strings.HasPrefix(l.GetValue(), "/de/")):
				t.Fatalf("a raw path is a label: %v", m)
			case l.GetName() == "code" && strings.HasPrefix(l.GetValue(), "5"):
				t.Fatalf("a server error in a clean run: %v", m)
			}
		}
	}

	if docs := gaugeValue(t, after, "calendar_index_documents"); docs != 2 { // the venue and the category
		t.Fatalf("calendar_index_documents = %v, want 2", docs)
	}
	last, applied := gaugeValue(t, after, "calendar_store_last_seq"), gaugeValue(t, after, "calendar_index_applied_seq")
	if last < 2 || gaugeValue(t, after, "calendar_index_sync_lag") != last-applied {
		t.Fatalf("last_seq %v, applied_seq %v, lag %v", last, applied, gaugeValue(t, after, "calendar_index_sync_lag"))
	}
	if gaugeValue(t, after, "calendar_index_rebuilding") != 0 {
		t.Fatal("rebuilding while no rebuild runs")
	}
	if after["go_goroutines"] == nil || after["process_cpu_seconds_total"] == nil {
		t.Fatal("no Go runtime or process metrics")
	}
}

func TestMetricsAskForTheTokenWhenOneIsSet(t *testing.T) {
	t.Parallel()
	const token = "metrics-token-0123456789"
	s := startServiceWith(t, func(c *controllers.Config) { c.MetricsToken = token })
	refused := []struct {
		name string
		opts []option
	}{
		{"no credentials", nil},
		{"a wrong token", []option{bearer(token + "x")}},
		{"the token over Basic", []option{basic("metrics", token)}},
		{"an application password", []option{asAdmin()}},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			res := s.do("GET", "/metrics", c.opts...)
			res.expectError(t, http.StatusUnauthorized, "metrics_unauthorized")
			if !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Fatalf("WWW-Authenticate = %q", res.Header.Get("WWW-Authenticate"))
			}
		})
	}
	if families := s.scrape(bearer(token)); families["calendar_index_documents"] == nil {
		t.Fatal("no index figures with the token")
	}
}

// Figures from outside the HTTP layer (the listener's connections) are
// served beside the others.
func TestMetricsServeTheCollectorsTheConfigurationGives(t *testing.T) {
	t.Parallel()
	shed := prometheus.NewCounter(prometheus.CounterOpts{Name: "calendar_test_shed_total", Help: "A figure of the listener's."})
	shed.Add(3)
	s := startServiceWith(t, func(c *controllers.Config) { c.Collectors = []prometheus.Collector{shed} })
	families := s.scrape()
	if m := series(families, "calendar_test_shed_total", nil); len(m) != 1 || m[0].GetCounter().GetValue() != 3 {
		t.Fatalf("the configured collector's figure: %v", m)
	}
	if families["calendar_index_documents"] == nil {
		t.Fatal("no index figures beside it")
	}
}
