package conns

import (
	"net/http"
	"net/netip"
	"testing"
	"time"
)

// fakeClock runs the reporter's timers when the test says so.
type fakeClock struct {
	now     time.Time
	delays  []time.Duration
	pending func()
}

type fakeTimer struct{ c *fakeClock }

func (t fakeTimer) Stop() bool {
	was := t.c.pending != nil
	t.c.pending = nil
	return was
}

func (c *fakeClock) after(d time.Duration, f func()) stopper {
	c.delays, c.pending = append(c.delays, d), f
	return fakeTimer{c}
}

func (c *fakeClock) fire(t *testing.T) {
	t.Helper()
	f := c.pending
	if f == nil {
		t.Fatal("no report is due")
	}
	c.pending = nil
	f()
}

func newReportingListener(total, perAddr int) (*Listener, *fakeClock, *[]Pressure) {
	var reports []Pressure
	l := NewListener(newFakeListener(), Limits{Total: total, PerAddr: perAddr}, func(p Pressure) { reports = append(reports, p) })
	clock := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l.now = func() time.Time { return clock.now }
	l.after = clock.after
	return l, clock, &reports
}

func TestTheFirstRefusalIsReportedAtOnceAndLaterOnesTogetherAMinuteAfter(t *testing.T) {
	l, clock, reports := newReportingListener(10, 1)
	mustHold(t, l, from("10.0.0.1:1"))
	mustRefuse(t, l, from("10.0.0.1:2"))
	if len(clock.delays) != 1 || clock.delays[0] != 0 {
		t.Fatalf("report delays %v, want one, at once", clock.delays)
	}
	clock.fire(t)
	if len(*reports) != 1 || (*reports)[0] != (Pressure{RefusedPerAddr: 1, Open: 1, LastRefused: netip.MustParseAddr("10.0.0.1")}) {
		t.Fatalf("reports %+v", *reports)
	}

	clock.now = clock.now.Add(time.Second)
	mustRefuse(t, l, from("10.0.0.1:3"))
	mustRefuse(t, l, from("10.0.0.1:4"))
	if len(clock.delays) != 2 || clock.delays[1] != ReportEvery-time.Second {
		t.Fatalf("report delays %v, want a second one when a minute has passed since the first", clock.delays)
	}
	clock.now = clock.now.Add(ReportEvery)
	clock.fire(t)
	if len(*reports) != 2 || (*reports)[1].RefusedPerAddr != 2 {
		t.Fatalf("reports %+v, want a second one with both refusals", *reports)
	}
}

func TestClosingIdleConnectionsToMakeRoomIsReportedWithTheRefusals(t *testing.T) {
	l, clock, reports := newReportingListener(1, 10)
	h := mustHold(t, l, from("10.0.0.1:1"))
	l.ConnState(h, http.StateIdle)
	mustHold(t, l, from("10.0.0.2:1"))
	mustRefuse(t, l, from("10.0.0.3:1"))
	clock.fire(t)
	want := Pressure{RefusedFull: 1, IdleClosed: 1, Open: 1, LastRefused: netip.MustParseAddr("10.0.0.3")}
	if len(*reports) != 1 || (*reports)[0] != want {
		t.Fatalf("reports %+v, want %+v", *reports, want)
	}
}

func TestWhatIsPendingIsReportedOnClose(t *testing.T) {
	l, clock, reports := newReportingListener(10, 1)
	l.lastReport = clock.now // the next report waits for its minute
	mustHold(t, l, from("10.0.0.1:1"))
	mustRefuse(t, l, from("10.0.0.1:2"))
	l.Close()
	if len(*reports) != 1 || (*reports)[0].RefusedPerAddr != 1 || clock.pending != nil {
		t.Fatalf("reports %+v, timer left pending: %v", *reports, clock.pending != nil)
	}
}

func TestNothingIsReportedWhenNothingWasRefused(t *testing.T) {
	l, clock, reports := newReportingListener(10, 10)
	mustHold(t, l, from("10.0.0.1:1"))
	l.Close()
	if len(*reports) != 0 || len(clock.delays) != 0 {
		t.Fatalf("reports %+v, timers %v", *reports, clock.delays)
	}
}
