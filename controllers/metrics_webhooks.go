package controllers

import (
	"context"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"calendar/app"
)

// webhookCollector shows the deliveries of webhooks: this process's by
// outcome, and how far behind the change feed each subscription is.
type webhookCollector struct {
	hooks                   *app.Webhooks
	deliveries, lag, behind *prometheus.Desc
}

func newWebhookCollector(hooks *app.Webhooks) *webhookCollector {
	return &webhookCollector{
		hooks: hooks,
		deliveries: prometheus.NewDesc("calendar_webhook_deliveries_total",
			"Webhook deliveries this process tried, by outcome (delivered, failed, refused by the egress policy; disabled: subscriptions the last failure disabled).", []string{"outcome"}, nil),
		lag: prometheus.NewDesc("calendar_webhook_lag_changes",
			"The store's last change sequence number minus the subscription's cursor.", []string{"webhook", "status"}, nil),
		behind: prometheus.NewDesc("calendar_webhook_lag_seconds",
			"How long ago the oldest change of a post the subscription has not delivered was made (0: none).", []string{"webhook", "status"}, nil),
	}
}

func (c *webhookCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.deliveries
	ch <- c.lag
	ch <- c.behind
}

func (c *webhookCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := c.hooks.Stats(ctx)
	for outcome, n := range st.Deliveries {
		ch <- prometheus.MustNewConstMetric(c.deliveries, prometheus.CounterValue, float64(n), outcome)
	}
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.lag, err)
		return
	}
	for _, l := range st.Behind {
		id := strconv.FormatInt(l.ID, 10)
		ch <- prometheus.MustNewConstMetric(c.lag, prometheus.GaugeValue, float64(l.Changes), id, l.Status)
		ch <- prometheus.MustNewConstMetric(c.behind, prometheus.GaugeValue, l.Seconds, id, l.Status)
	}
}
