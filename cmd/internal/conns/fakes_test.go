package conns

import (
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"
)

// fakeConn is a connection from an address; only Close, RemoteAddr and
// Read, which reads arriving, are used.
type fakeConn struct {
	net.Conn
	remote   net.Addr
	arriving string
	once     sync.Once
	closed   chan struct{}
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.remote }

func (c *fakeConn) Read(p []byte) (int, error) {
	n := copy(p, c.arriving)
	c.arriving = c.arriving[n:]
	return n, nil
}
func (c *fakeConn) Close() error { c.once.Do(func() { close(c.closed) }); return nil }

func (c *fakeConn) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

func from(addr string) *fakeConn {
	return &fakeConn{remote: net.TCPAddrFromAddrPort(netip.MustParseAddrPort(addr)), closed: make(chan struct{})}
}

// fakeListener hands out the connections sent on its channel.
type fakeListener struct {
	queue  chan net.Conn
	closed chan struct{}
}

func newFakeListener() *fakeListener {
	return &fakeListener{queue: make(chan net.Conn, 16), closed: make(chan struct{})}
}

func (f *fakeListener) Accept() (net.Conn, error) {
	select {
	case c := <-f.queue:
		return c, nil
	case <-f.closed:
		return nil, net.ErrClosed
	}
}
func (f *fakeListener) Close() error   { close(f.closed); return nil }
func (f *fakeListener) Addr() net.Addr { return &net.TCPAddr{} }

// fakeClock is the listener's time: it moves and runs the timers due only
// when the test says so. The listener reads it under its lock.
type fakeClock struct {
	now    time.Time
	delays []time.Duration
	timers []*fakeTimer
}

type fakeTimer struct {
	at   time.Time
	f    func()
	done bool
}

func (t *fakeTimer) Stop() bool {
	was := !t.done
	t.done = true
	return was
}

func (c *fakeClock) after(d time.Duration, f func()) stopper {
	c.delays = append(c.delays, d)
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

// advance moves the clock on by d, then runs the timers due, earliest first.
func (c *fakeClock) advance(d time.Duration) {
	c.now = c.now.Add(d)
	for {
		var due *fakeTimer
		for _, t := range c.timers {
			if !t.done && !t.at.After(c.now) && (due == nil || t.at.Before(due.at)) {
				due = t
			}
		}
		if due == nil {
			return
		}
		due.done = true
		due.f()
	}
}

// pending says whether a timer is set.
func (c *fakeClock) pending() bool {
	for _, t := range c.timers {
		if !t.done {
			return true
		}
	}
	return false
}

// newClockedListener is a listener of limits on a fake clock; report, when
// not nil, collects what it reports.
func newClockedListener(limits Limits, reports *[]Pressure) (*Listener, *fakeClock) {
	var report func(Pressure)
	if reports != nil {
		report = func(p Pressure) { *reports = append(*reports, p) }
	}
	l := NewListener(newFakeListener(), limits, report)
	clock := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l.now, l.after = func() time.Time { return clock.now }, clock.after
	return l, clock
}

// newTestListener bounds the total and each address; a network is bound
// by the total only.
func newTestListener(total, perAddr int) *Listener {
	l, _ := newClockedListener(Limits{Total: total, PerAddr: perAddr, PerNetwork: total}, nil)
	return l
}

// mustHold admits c and fails the test if it was refused.
func mustHold(t *testing.T, l *Listener, c *fakeConn) *Conn {
	t.Helper()
	held := l.admit(c)
	if held == nil || c.isClosed() {
		t.Fatalf("%v refused", c.remote)
	}
	return held
}

func mustRefuse(t *testing.T, l *Listener, c *fakeConn) {
	t.Helper()
	if held := l.admit(c); held != nil || !c.isClosed() {
		t.Fatalf("%v held (%v), want it refused and closed", c.remote, held != nil)
	}
}

// mustBeClosed fails the test unless exactly the connections of want,
// among all, are closed.
func mustBeClosed(t *testing.T, all []*fakeConn, want ...*fakeConn) {
	t.Helper()
	for _, c := range all {
		wanted := false
		for _, w := range want {
			wanted = wanted || w == c
		}
		if c.isClosed() != wanted {
			t.Errorf("%v closed: %v, want %v", c.remote, c.isClosed(), wanted)
		}
	}
}
