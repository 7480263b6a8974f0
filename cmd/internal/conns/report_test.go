package conns

import (
	"net/http"
	"net/netip"
	"testing"
	"time"
)

func newReportingListener(total, perAddr int) (*Listener, *fakeClock, *[]Pressure) {
	var reports []Pressure
	l, clock := newClockedListener(Limits{Total: total, PerAddr: perAddr, PerNetwork: total}, &reports)
	return l, clock, &reports
}

// holdServed holds a connection from addr that refuses the next ones of
// its address at a per-address bound of 1: it is being served.
func holdServed(t *testing.T, l *Listener, addr string) {
	t.Helper()
	l.ConnState(mustHold(t, l, from(addr)), http.StateActive)
}

func TestTheFirstRefusalIsReportedAtOnceAndLaterOnesTogetherAMinuteAfter(t *testing.T) {
	l, clock, reports := newReportingListener(10, 1)
	holdServed(t, l, "10.0.0.1:1")
	mustRefuse(t, l, from("10.0.0.1:2"))
	if len(clock.delays) != 1 || clock.delays[0] != 0 {
		t.Fatalf("report delays %v, want one, at once", clock.delays)
	}
	clock.advance(0)
	want := Pressure{Counts: Counts{RefusedPerAddr: 1}, Open: 1, LastRefused: netip.MustParseAddr("10.0.0.1")}
	if len(*reports) != 1 || (*reports)[0] != want {
		t.Fatalf("reports %+v, want %+v", *reports, want)
	}

	clock.advance(time.Second)
	mustRefuse(t, l, from("10.0.0.1:3"))
	mustRefuse(t, l, from("10.0.0.1:4"))
	if len(clock.delays) != 2 || clock.delays[1] != ReportEvery-time.Second {
		t.Fatalf("report delays %v, want a second one when a minute has passed since the first", clock.delays)
	}
	clock.advance(ReportEvery - 2*time.Second)
	if len(*reports) != 1 {
		t.Fatalf("reports %+v, want the second one to wait for its minute", *reports)
	}
	clock.advance(time.Second)
	if len(*reports) != 2 || (*reports)[1].RefusedPerAddr != 2 {
		t.Fatalf("reports %+v, want a second one with both refusals", *reports)
	}
}

func TestClosingConnectionsToMakeRoomIsReportedWithTheRefusals(t *testing.T) {
	l, clock, reports := newReportingListener(2, 10)
	h := mustHold(t, l, from("10.0.0.1:1"))
	l.ConnState(h, http.StateActive)
	l.ConnState(h, http.StateIdle)
	holdServed(t, l, "10.0.0.2:1")
	mustHold(t, l, from("10.0.0.3:1")) // closes the idle one
	holdServed(t, l, "10.0.0.4:1")     // closes the new one
	mustRefuse(t, l, from("[2001:db8::5]:1"))
	clock.advance(0)
	want := Pressure{Counts: Counts{RefusedFull: 1, IdleClosed: 1, NewClosed: 1}, Open: 2, LastRefused: netip.MustParseAddr("2001:db8::5")}
	if len(*reports) != 1 || (*reports)[0] != want {
		t.Fatalf("reports %+v, want %+v", *reports, want)
	}
}

func TestWhatIsPendingIsReportedOnClose(t *testing.T) {
	l, clock, reports := newReportingListener(10, 1)
	l.lastReport = clock.now // the next report waits for its minute
	holdServed(t, l, "10.0.0.1:1")
	mustRefuse(t, l, from("10.0.0.1:2"))
	l.Close()
	if len(*reports) != 1 || (*reports)[0].RefusedPerAddr != 1 || clock.pending() {
		t.Fatalf("reports %+v, timer left pending: %v", *reports, clock.pending())
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
