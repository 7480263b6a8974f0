package conns

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
	"testing"
)

// fakeConn is a connection from an address; only Close and RemoteAddr are used.
type fakeConn struct {
	net.Conn
	remote net.Addr
	once   sync.Once
	closed chan struct{}
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.remote }
func (c *fakeConn) Close() error         { c.once.Do(func() { close(c.closed) }); return nil }

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

func newTestListener(total, perAddr int) *Listener {
	return NewListener(newFakeListener(), Limits{Total: total, PerAddr: perAddr}, nil)
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

func TestAnAddressAtItsBoundIsRefusedWhileOthersAreHeld(t *testing.T) {
	l := newTestListener(10, 2)
	a1 := mustHold(t, l, from("10.0.0.1:1"))
	mustHold(t, l, from("10.0.0.1:2"))
	mustRefuse(t, l, from("10.0.0.1:3"))
	mustHold(t, l, from("10.0.0.2:1"))
	if err := a1.Close(); err != nil {
		t.Fatal(err)
	}
	mustHold(t, l, from("10.0.0.1:4"))
}

func TestAnIPv4MappedAddressCountsAsItsIPv4Address(t *testing.T) {
	l := newTestListener(10, 1)
	mustHold(t, l, from("10.0.0.1:1"))
	mustRefuse(t, l, from("[::ffff:10.0.0.1]:2"))
}

// A trusted proxy's address (Exempt) is not held to the per-address bound,
// and closes none of its idle connections to pass it; its connections still
// count in the total. Other addresses keep their bound.
func TestAnExemptAddressIsBoundByTheTotalOnly(t *testing.T) {
	proxy := netip.MustParseAddr("10.0.0.9")
	l := NewListener(newFakeListener(), Limits{Total: 5, PerAddr: 2, Exempt: func(a netip.Addr) bool { return a == proxy }}, nil)
	p1, p2 := from("10.0.0.9:1"), from("10.0.0.9:2")
	h1 := mustHold(t, l, p1)
	mustHold(t, l, p2)
	l.ConnState(h1, http.StateIdle)
	mustHold(t, l, from("10.0.0.9:3"))
	mustHold(t, l, from("[::ffff:10.0.0.9]:4")) // a mapped peer is its IPv4 address
	if p1.isClosed() {
		t.Fatal("an idle connection of the exempt address was closed to let it past the per-address bound")
	}
	mustHold(t, l, from("10.0.0.1:1"))
	mustHold(t, l, from("10.0.0.1:2")) // closes p1, the oldest idle: the total is 5
	if !p1.isClosed() {
		t.Fatal("the exempt address's connections do not count in the total")
	}
	mustRefuse(t, l, from("10.0.0.9:5"))
	if l.open != 5 || l.addrs[proxy].open != 3 {
		t.Fatalf("open %d, the proxy's %d; want 5 and 3", l.open, l.addrs[proxy].open)
	}
	l = NewListener(newFakeListener(), Limits{Total: 10, PerAddr: 2, Exempt: func(a netip.Addr) bool { return a == proxy }}, nil)
	mustHold(t, l, from("10.0.0.1:1"))
	mustHold(t, l, from("10.0.0.1:2"))
	mustRefuse(t, l, from("10.0.0.1:3"))
}

func TestAcceptReturnsOnlyHeldConnectionsAndClosesTheOthers(t *testing.T) {
	fake := newFakeListener()
	l := NewListener(fake, Limits{Total: 10, PerAddr: 1}, nil)
	a1, a2, b1 := from("10.0.0.1:1"), from("10.0.0.1:2"), from("10.0.0.2:1")
	fake.queue <- a1
	fake.queue <- a2
	fake.queue <- b1
	for _, want := range []*fakeConn{a1, b1} {
		c, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		if got := c.(*Conn).Conn; got != want {
			t.Fatalf("accepted %v, want %v", got.RemoteAddr(), want.remote)
		}
	}
	if !a2.isClosed() {
		t.Fatal("the connection over its address's bound was not closed")
	}
	l.Close()
	if _, err := l.Accept(); err == nil {
		t.Fatal("Accept after Close returned no error")
	}
}

func TestAtTheTotalTheOldestIdleConnectionIsClosedToMakeRoom(t *testing.T) {
	l := newTestListener(3, 10)
	c1, c2, c3 := from("10.0.0.1:1"), from("10.0.0.2:1"), from("10.0.0.3:1")
	h1, h2, h3 := mustHold(t, l, c1), mustHold(t, l, c2), mustHold(t, l, c3)
	l.ConnState(h2, http.StateIdle) // idle first: the oldest idle
	l.ConnState(h1, http.StateIdle)
	l.ConnState(h3, http.StateActive)

	mustHold(t, l, from("10.0.0.4:1"))
	if !c2.isClosed() || c1.isClosed() {
		t.Fatalf("closed: first idle %v, second idle %v; want only the first", c2.isClosed(), c1.isClosed())
	}
	mustHold(t, l, from("10.0.0.4:2"))
	if !c1.isClosed() {
		t.Fatal("the remaining idle connection was not closed to make room")
	}
	// Left: one active, two new; none idle.
	mustRefuse(t, l, from("10.0.0.5:1"))
	if c3.isClosed() {
		t.Fatal("an active connection was closed")
	}
}

func TestAConnectionActiveAgainIsNotClosedAsIdle(t *testing.T) {
	l := newTestListener(1, 10)
	c1 := from("10.0.0.1:1")
	h1 := mustHold(t, l, c1)
	l.ConnState(h1, http.StateIdle)
	l.ConnState(h1, http.StateActive)
	mustRefuse(t, l, from("10.0.0.2:1"))
	if c1.isClosed() {
		t.Fatal("a connection serving a request was closed")
	}
}

func TestAHijackedConnectionIsNotClosedAsIdle(t *testing.T) {
	l := newTestListener(1, 10)
	c1 := from("10.0.0.1:1")
	h1 := mustHold(t, l, c1)
	l.ConnState(h1, http.StateIdle)
	l.ConnState(h1, http.StateHijacked)
	mustRefuse(t, l, from("10.0.0.2:1"))
	if c1.isClosed() {
		t.Fatal("a hijacked connection was closed")
	}
}

func TestAnAddressAtItsBoundClosesItsOwnIdleConnectionNotAnothers(t *testing.T) {
	l := newTestListener(10, 2)
	b1, a1, a2 := from("10.0.0.2:1"), from("10.0.0.1:1"), from("10.0.0.1:2")
	hb1, ha1, ha2 := mustHold(t, l, b1), mustHold(t, l, a1), mustHold(t, l, a2)
	l.ConnState(hb1, http.StateIdle) // the oldest idle overall, but another address's
	l.ConnState(ha1, http.StateIdle)
	l.ConnState(ha2, http.StateActive)

	mustHold(t, l, from("10.0.0.1:3"))
	if !a1.isClosed() || b1.isClosed() {
		t.Fatalf("closed: the address's own idle %v, another address's %v; want only its own", a1.isClosed(), b1.isClosed())
	}
	// Its other connections are active or new: nothing left to make room with.
	mustRefuse(t, l, from("10.0.0.1:4"))
}

func TestAConnectionClosedToMakeRoomFreesItsPlaceOnce(t *testing.T) {
	l := newTestListener(2, 10)
	h1, h2 := mustHold(t, l, from("10.0.0.1:1")), mustHold(t, l, from("10.0.0.2:1"))
	l.ConnState(h1, http.StateIdle)
	l.ConnState(h2, http.StateActive)
	mustHold(t, l, from("10.0.0.3:1")) // closes h1
	// The server notices h1 is closed: it closes it again and says so.
	h1.Close()
	l.ConnState(h1, http.StateClosed)
	h1.Close()
	mustRefuse(t, l, from("10.0.0.4:1"))
	if l.open != 2 || len(l.addrs) != 2 || l.idle.Len() != 0 {
		t.Fatalf("open %d, addresses %d, idle %d; want 2, 2, 0", l.open, len(l.addrs), l.idle.Len())
	}
}

func TestAStateChangeAfterTheConnectionClosedIsIgnored(t *testing.T) {
	l := newTestListener(1, 10)
	h1 := mustHold(t, l, from("10.0.0.1:1"))
	h1.Close()
	l.ConnState(h1, http.StateIdle)
	if l.idle.Len() != 0 {
		t.Fatal("a closed connection was listed idle")
	}
	mustHold(t, l, from("10.0.0.2:1"))
}

func TestTheCountsReturnToZeroUnderConcurrentUse(t *testing.T) {
	l := newTestListener(50, 8)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				c := from(netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, byte(i % 5)}), uint16(g*1000+i)).String())
				held := l.admit(c)
				if held == nil {
					continue
				}
				l.ConnState(held, http.StateActive)
				l.ConnState(held, http.StateIdle)
				if i%3 != 0 { // the others are left idle, to be closed to make room
					held.Close()
				}
			}
		})
	}
	wg.Wait()
	l.mu.Lock()
	idle := make([]*Conn, 0, l.idle.Len())
	for e := l.idle.Front(); e != nil; e = e.Next() {
		idle = append(idle, e.Value.(*Conn))
	}
	l.mu.Unlock()
	for _, c := range idle {
		c.Close()
	}
	if l.open != 0 || len(l.addrs) != 0 || l.idle.Len() != 0 {
		t.Fatalf("after closing everything: open %d, addresses %d, idle %d", l.open, len(l.addrs), l.idle.Len())
	}
}

func TestDefaultTotalLeavesAQuarterOfTheFileLimit(t *testing.T) {
	for limit, want := range map[int]int{1024: 768, 4096: 3072, 20000: DefaultCeiling, 1 << 20: DefaultCeiling, 0: DefaultCeiling, 1: 1} {
		if got := DefaultTotal(limit); got != want {
			t.Errorf("DefaultTotal(%d) = %d, want %d", limit, got, want)
		}
	}
}
