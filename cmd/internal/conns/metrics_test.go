package conns

import (
	"maps"
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// The collector serves what the bounds did, by reason, and the connections
// held, by state; it passes the registry's consistency checks.
func TestTheCollectorCountsRefusedAndShedConnectionsByReason(t *testing.T) {
	l, clock := newClockedListener(Limits{Total: 8, PerAddr: 2, PerNetwork: 3}, nil)
	registry := prometheus.NewPedanticRegistry()
	registry.MustRegister(l.Collector())

	holdServed(t, l, "10.0.0.1:1")
	holdServed(t, l, "10.0.0.1:2")
	mustRefuse(t, l, from("10.0.0.1:3")) // its address's bound
	holdServed(t, l, "[2001:db8::1]:1")
	holdServed(t, l, "[2001:db8::2]:1")
	holdServed(t, l, "[2001:db8::3]:1")
	mustRefuse(t, l, from("[2001:db8::4]:1")) // its /64's bound
	idle := mustHold(t, l, from("10.0.0.2:1"))
	l.ConnState(idle, http.StateActive)
	l.ConnState(idle, http.StateIdle)
	mustHold(t, l, from("10.0.0.3:1"))
	mustHold(t, l, from("10.0.0.4:1")) // the total is held
	mustHold(t, l, from("10.0.0.5:1")) // closes the idle one
	mustHold(t, l, from("10.0.0.6:1")) // closes the oldest new one
	clock.advance(SlowHeaders)         // closes the three new ones left
	for _, addr := range []string{"10.0.0.7:1", "10.0.0.8:1", "10.0.0.9:1"} {
		holdServed(t, l, addr)
	}
	mustRefuse(t, l, from("10.0.0.10:1")) // the total, all served

	families, err := registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			key := f.GetName() + "{" + m.GetLabel()[0].GetValue() + "}"
			if c := m.GetCounter(); c != nil {
				got[key] = c.GetValue()
			} else {
				got[key] = m.GetGauge().GetValue()
			}
		}
	}
	want := map[string]float64{
		"calendar_connections_refused_total{per_address}": 1,
		"calendar_connections_refused_total{per_network}": 1,
		"calendar_connections_refused_total{capacity}":    1,
		"calendar_connections_shed_total{idle}":           1,
		"calendar_connections_shed_total{new}":            1,
		"calendar_connections_shed_total{slow}":           3,
		"calendar_connections_open{new}":                  0,
		"calendar_connections_open{active}":               8,
		"calendar_connections_open{idle}":                 0,
	}
	if !maps.Equal(got, want) {
		t.Fatalf("metrics\n%v\nwant\n%v", got, want)
	}
}
