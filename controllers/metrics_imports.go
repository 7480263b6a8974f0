package controllers

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"calendar/app"
)

// importCollector shows the runs of import sources this process made: items
// by outcome, runs by result, and each source's last success.
type importCollector struct {
	imports                  *app.Imports
	items, runs, lastSuccess *prometheus.Desc
}

func newImportCollector(imports *app.Imports) *importCollector {
	return &importCollector{
		imports: imports,
		items: prometheus.NewDesc("calendar_import_items_total",
			"Items of an import source this process's runs handled, by outcome (created, updated, unchanged, skipped, removed, failed).", []string{"source", "outcome"}, nil),
		runs: prometheus.NewDesc("calendar_import_runs_total",
			"Runs of an import source this process made, by result (ok, failed).", []string{"source", "result"}, nil),
		lastSuccess: prometheus.NewDesc("calendar_import_last_success_timestamp_seconds",
			"When the source's last successful run in this process ended (Unix time).", []string{"source"}, nil),
	}
}

func (c *importCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.items
	ch <- c.runs
	ch <- c.lastSuccess
}

func (c *importCollector) Collect(ch chan<- prometheus.Metric) {
	for _, m := range c.imports.Metrics() {
		id := strconv.FormatInt(m.Source, 10)
		for outcome, n := range m.Items {
			ch <- prometheus.MustNewConstMetric(c.items, prometheus.CounterValue, float64(n), id, outcome)
		}
		for result, n := range m.Runs {
			ch <- prometheus.MustNewConstMetric(c.runs, prometheus.CounterValue, float64(n), id, result)
		}
		if !m.LastSuccess.IsZero() {
			ch <- prometheus.MustNewConstMetric(c.lastSuccess, prometheus.GaugeValue, float64(m.LastSuccess.Unix()), id)
		}
	}
}
