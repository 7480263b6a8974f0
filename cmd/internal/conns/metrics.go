package conns

import "github.com/prometheus/client_golang/prometheus"

// Collector is the listener's figures for Prometheus, read at each scrape.
func (l *Listener) Collector() prometheus.Collector { return collector{l} }

type collector struct{ l *Listener }

var (
	refusedDesc = prometheus.NewDesc("calendar_connections_refused_total",
		"New client connections closed as they came, by the bound that was full with nothing to close: per_address, per_network (an IPv6 /64), capacity (the total).",
		[]string{"reason"}, nil)
	shedDesc = prometheus.NewDesc("calendar_connections_shed_total",
		"Client connections closed early under pressure: idle (a keep-alive between requests) and new (no whole request sent yet) to make room, slow (no whole request sent within 3 s while the slots were nearly full).",
		[]string{"reason"}, nil)
	openDesc = prometheus.NewDesc("calendar_connections_open",
		"Client connections held, by state: new (no whole request read yet), active (being served), idle (between requests).",
		[]string{"state"}, nil)
)

func (collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- refusedDesc
	ch <- shedDesc
	ch <- openDesc
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	counts, open := c.l.Stats()
	metric := func(d *prometheus.Desc, kind prometheus.ValueType, v int, label string) {
		ch <- prometheus.MustNewConstMetric(d, kind, float64(v), label)
	}
	metric(refusedDesc, prometheus.CounterValue, counts.RefusedPerAddr, "per_address")
	metric(refusedDesc, prometheus.CounterValue, counts.RefusedPerNetwork, "per_network")
	metric(refusedDesc, prometheus.CounterValue, counts.RefusedFull, "capacity")
	metric(shedDesc, prometheus.CounterValue, counts.IdleClosed, "idle")
	metric(shedDesc, prometheus.CounterValue, counts.NewClosed, "new")
	metric(shedDesc, prometheus.CounterValue, counts.SlowClosed, "slow")
	metric(openDesc, prometheus.GaugeValue, open.New, "new")
	metric(openDesc, prometheus.GaugeValue, open.Active, "active")
	metric(openDesc, prometheus.GaugeValue, open.Idle, "idle")
}
