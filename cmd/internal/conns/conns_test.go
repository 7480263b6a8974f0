package conns

import (
	"fmt"
	"net/http"
	"net/netip"
	"sync"
	"testing"
)

// An address at its bound makes room from its own connections only: its
// oldest new one goes; when all of its are being served, the new one is
// refused. Other addresses are held meanwhile.
func TestAnAddressAtItsBoundMakesRoomFromItsOwnConnectionsOnly(t *testing.T) {
	l := newTestListener(10, 2)
	a1, a2, a3, b1 := from("10.0.0.1:1"), from("10.0.0.1:2"), from("10.0.0.1:3"), from("10.0.0.2:1")
	mustHold(t, l, b1)
	mustHold(t, l, a1)
	h2 := mustHold(t, l, a2)
	h3 := mustHold(t, l, a3)
	mustBeClosed(t, []*fakeConn{a1, a2, a3, b1}, a1)
	l.ConnState(h2, http.StateActive)
	l.ConnState(h3, http.StateActive)
	mustRefuse(t, l, from("10.0.0.1:4"))
	mustHold(t, l, from("10.0.0.2:2"))
	if err := h2.Close(); err != nil {
		t.Fatal(err)
	}
	mustHold(t, l, from("10.0.0.1:5"))
	if counts, _ := l.Stats(); counts.NewClosed != 1 || counts.RefusedPerAddr != 1 {
		t.Fatalf("counts %+v, want one new connection closed and one refused per address", counts)
	}
}

func TestAnIPv4MappedAddressCountsAsItsIPv4Address(t *testing.T) {
	l := newTestListener(10, 1)
	l.ConnState(mustHold(t, l, from("10.0.0.1:1")), http.StateActive)
	mustRefuse(t, l, from("[::ffff:10.0.0.1]:2"))
}

// The addresses of one IPv6 /64 share a bound (a client given a /64 has
// all its addresses), one of them its own as well; another /64, and
// IPv4 addresses, are networks of their own.
func TestTheAddressesOfAnIPv6Slash64ShareTheNetworkBound(t *testing.T) {
	l, _ := newClockedListener(Limits{Total: 100, PerAddr: 2, PerNetwork: 3}, nil)
	serve := func(addr string) { l.ConnState(mustHold(t, l, from(addr)), http.StateActive) }
	serve("[2001:db8:1:1::1]:1")
	serve("[2001:db8:1:1::2]:1")
	serve("[2001:db8:1:1:ffff::3]:1")
	mustRefuse(t, l, from("[2001:db8:1:1::4]:1"))
	mustRefuse(t, l, from("[2001:db8:1:1::1]:2"))
	serve("[2001:db8:1:2::1]:1") // the next /64
	serve("[2001:db8:1:2::1]:2")
	mustRefuse(t, l, from("[2001:db8:1:2::1]:3")) // its address's bound
	for i := range 4 {
		serve(fmt.Sprintf("10.0.0.%d:1", i+1))
	}
	counts, _ := l.Stats()
	if counts.RefusedPerNetwork != 2 || counts.RefusedPerAddr != 1 {
		t.Fatalf("counts %+v, want 2 refused per network, 1 per address", counts)
	}
	if len(l.nets) != 6 { // two /64s, four IPv4 addresses
		t.Fatalf("%d networks held", len(l.nets))
	}
}

// A network at its bound makes room from its own connections, not from
// another network's.
func TestANetworkAtItsBoundClosesItsOwnNewConnection(t *testing.T) {
	l, _ := newClockedListener(Limits{Total: 100, PerAddr: 10, PerNetwork: 2}, nil)
	other, n1, n2 := from("[2001:db8:9::1]:1"), from("[2001:db8::1]:1"), from("[2001:db8::2]:1")
	mustHold(t, l, other)
	mustHold(t, l, n1)
	mustHold(t, l, n2)
	mustHold(t, l, from("[2001:db8::3]:1"))
	mustBeClosed(t, []*fakeConn{other, n1, n2}, n1)
}

// A trusted proxy's address (Exempt) is bound by neither its address nor
// its network, and closes none of its own connections to pass them; they
// still count in the total. Other addresses keep their bounds.
func TestAnExemptAddressIsBoundByTheTotalOnly(t *testing.T) {
	proxy := netip.MustParseAddr("2001:db8::9")
	exempt := func(a netip.Addr) bool { return a == proxy }
	l, _ := newClockedListener(Limits{Total: 5, PerAddr: 2, PerNetwork: 2, Exempt: exempt}, nil)
	p1, p2 := from("[2001:db8::9]:1"), from("[2001:db8::9]:2")
	h1, h2 := mustHold(t, l, p1), mustHold(t, l, p2)
	l.ConnState(h1, http.StateActive)
	l.ConnState(h1, http.StateIdle)
	l.ConnState(h2, http.StateActive)
	l.ConnState(mustHold(t, l, from("[2001:db8::9]:3")), http.StateActive)
	if p1.isClosed() || p2.isClosed() {
		t.Fatal("a connection of the exempt address was closed to let it past its bounds")
	}
	mustHold(t, l, from("[2001:db8::1]:1")) // their network does not count the proxy's
	mustHold(t, l, from("[2001:db8::2]:1"))
	mustHold(t, l, from("10.0.0.1:1")) // closes p1, the only idle one: the total is 5
	if !p1.isClosed() {
		t.Fatal("the exempt address's connections do not count in the total")
	}
	if l.all.open != 5 || l.addrs[proxy].open != 2 || l.nets[network(proxy)].open != 2 {
		t.Fatalf("open %d, the proxy's %d, its network's %d; want 5, 2 and 2", l.all.open, l.addrs[proxy].open, l.nets[network(proxy)].open)
	}
	l, _ = newClockedListener(Limits{Total: 10, PerAddr: 2, PerNetwork: 10, Exempt: exempt}, nil)
	l.ConnState(mustHold(t, l, from("10.0.0.1:1")), http.StateActive)
	l.ConnState(mustHold(t, l, from("10.0.0.1:2")), http.StateActive)
	mustRefuse(t, l, from("10.0.0.1:3"))
}

func TestAcceptReturnsOnlyHeldConnectionsAndClosesTheOthers(t *testing.T) {
	fake := newFakeListener()
	l := NewListener(fake, Limits{Total: 10, PerAddr: 1, PerNetwork: 10}, nil)
	a1, a2, b1 := from("10.0.0.1:1"), from("10.0.0.1:2"), from("10.0.0.2:1")
	fake.queue <- a1
	c, err := l.Accept()
	if err != nil || c.(*Conn).Conn != a1 {
		t.Fatalf("accepted %v, %v; want %v", c, err, a1.remote)
	}
	l.ConnState(c, http.StateActive)
	fake.queue <- a2
	fake.queue <- b1
	if c, err = l.Accept(); err != nil || c.(*Conn).Conn != b1 {
		t.Fatalf("accepted %v, %v; want %v", c, err, b1.remote)
	}
	if !a2.isClosed() {
		t.Fatal("the connection over its address's bound was not closed")
	}
	l.Close()
	if _, err := l.Accept(); err == nil {
		t.Fatal("Accept after Close returned no error")
	}
}

// At the total, room is made cheapest first: a new connection that has had
// SlowHeaders to send its request, then the oldest idle one, then the
// oldest new one; never one being served.
func TestAtTheTotalTheCheapestConnectionIsClosedToMakeRoom(t *testing.T) {
	l, clock := newClockedListener(Limits{Total: 6, PerAddr: 10, PerNetwork: 10}, nil)
	slow, idle1, idle2, active, young := from("10.0.0.1:1"), from("10.0.0.2:1"), from("10.0.0.3:1"), from("10.0.0.4:1"), from("10.0.0.5:1")
	all := []*fakeConn{slow, idle1, idle2, active, young}
	mustHold(t, l, slow)
	clock.advance(SlowHeaders / 2)
	h1, h2, h3 := mustHold(t, l, idle1), mustHold(t, l, idle2), mustHold(t, l, active)
	l.ConnState(h2, http.StateActive)
	l.ConnState(h2, http.StateIdle) // idle first: the oldest idle
	l.ConnState(h1, http.StateActive)
	l.ConnState(h1, http.StateIdle)
	l.ConnState(h3, http.StateActive)
	mustHold(t, l, young)
	clock.now = clock.now.Add(SlowHeaders / 2) // slow has had SlowHeaders, young has not; the sweep's timer is late
	h6 := mustHold(t, l, from("10.0.0.6:1"))
	l.ConnState(h6, http.StateActive) // the total is held

	var latecomers []*Conn
	for i, closed := range [][]*fakeConn{{slow}, {slow, idle2}, {slow, idle2, idle1}, {slow, idle2, idle1, young}} {
		latecomers = append(latecomers, mustHold(t, l, from(fmt.Sprintf("10.0.0.7:%d", i+1))))
		mustBeClosed(t, all, closed...)
	}
	counts, open := l.Stats()
	if counts.NewClosed != 2 || counts.IdleClosed != 2 || open != (Open{New: 4, Active: 2}) {
		t.Fatalf("counts %+v, open %+v", counts, open)
	}
	for _, c := range latecomers {
		l.ConnState(c, http.StateActive)
	}
	mustRefuse(t, l, from("10.0.0.8:1"))
	mustBeClosed(t, all, slow, idle2, idle1, young)
	if counts, _ := l.Stats(); counts.RefusedFull != 1 {
		t.Fatalf("counts %+v, want one refused at capacity", counts)
	}
}

// New connections hold at most three quarters of the slots: past them a
// new connection takes the place of the oldest new one, even with slots
// free, and a served client's idle connection is not closed for it.
func TestNewConnectionsLeaveAQuarterOfTheSlotsToThoseThatSentARequest(t *testing.T) {
	l := newTestListener(8, 10) // 6 new at most
	visitor := from("10.0.0.1:1")
	h := mustHold(t, l, visitor)
	l.ConnState(h, http.StateActive)
	l.ConnState(h, http.StateIdle)
	var silent []*fakeConn
	for i := range 6 {
		silent = append(silent, from(fmt.Sprintf("10.0.%d.2:1", i)))
		mustHold(t, l, silent[i])
	}
	mustBeClosed(t, append(silent, visitor))
	for i := range 6 { // each takes the oldest one's place
		mustHold(t, l, from(fmt.Sprintf("10.0.%d.3:1", i)))
		mustBeClosed(t, append(silent, visitor), silent[:i+1]...)
	}
	if l.all.open != 7 {
		t.Fatalf("%d connections held, want 7: one slot stays free", l.all.open)
	}
	// One that sent a request leaves the share: the next new one fits.
	l.ConnState(mustHold(t, l, from("10.0.0.4:1")), http.StateActive)
	mustHold(t, l, from("10.0.0.4:2"))
	if counts, open := l.Stats(); counts.NewClosed != 7 || counts.IdleClosed != 0 || open != (Open{New: 6, Active: 1, Idle: 1}) {
		t.Fatalf("counts %+v, open %+v", counts, open)
	}
}

// While the slots are nearly full (three quarters held), a new connection
// that has not sent a whole request within SlowHeaders is closed, long
// before the server's header timeout; the others are left alone.
func TestUnderPressureNewConnectionsHaveSlowHeadersToSendTheirRequest(t *testing.T) {
	var reports []Pressure
	l, clock := newClockedListener(Limits{Total: 8, PerAddr: 10, PerNetwork: 10}, &reports)
	served, idle, slow1, slow2 := from("10.0.0.1:1"), from("10.0.0.2:1"), from("10.0.0.3:1"), from("10.0.0.3:2")
	l.ConnState(mustHold(t, l, served), http.StateActive)
	h := mustHold(t, l, idle)
	l.ConnState(h, http.StateActive)
	l.ConnState(h, http.StateIdle)
	mustHold(t, l, slow1)
	mustHold(t, l, slow2)
	clock.advance(SlowHeaders / 2)
	young := []*fakeConn{from("10.0.0.4:1"), from("10.0.0.4:2")}
	for _, c := range young {
		mustHold(t, l, c) // 6 held: the slots are nearly full
	}
	all := append([]*fakeConn{served, idle, slow1, slow2}, young...)
	clock.advance(SlowHeaders / 2)
	mustBeClosed(t, all, slow1, slow2)
	clock.advance(SlowHeaders / 2) // 4 held: no longer pressed
	mustBeClosed(t, all, slow1, slow2)
	if counts, _ := l.Stats(); counts.SlowClosed != 2 {
		t.Fatalf("counts %+v, want two slow connections closed", counts)
	}
	if len(reports) != 1 || reports[0].SlowClosed != 2 || reports[0].Open != 4 {
		t.Fatalf("reports %+v", reports)
	}
	// Pressed again, the young ones have had their time: they go at once.
	mustHold(t, l, from("10.0.0.5:1"))
	mustHold(t, l, from("10.0.0.5:2"))
	clock.advance(0)
	mustBeClosed(t, all, slow1, slow2, young[0], young[1])
}

// Without pressure, a connection has the server's header timeout, however
// slow; so has it when the pressure ends before its SlowHeaders do.
func TestWithoutPressureASlowNewConnectionIsLeftToTheServer(t *testing.T) {
	l, clock := newClockedListener(Limits{Total: 8, PerAddr: 10, PerNetwork: 10}, nil)
	var fakes []*fakeConn
	var held []*Conn
	for i := range 6 {
		fakes = append(fakes, from(fmt.Sprintf("10.0.0.%d:1", i+1)))
		held = append(held, mustHold(t, l, fakes[i])) // the sixth presses
	}
	held[5].Close()
	clock.advance(10 * SlowHeaders)
	mustBeClosed(t, fakes, fakes[5])
	if clock.pending() {
		t.Fatal("a sweep is due without pressure")
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

// The server calls a keep-alive connection active once the headers of its
// next request are in; from their first byte, it is not closed to make room.
func TestAnIdleConnectionWhoseNextRequestIsArrivingIsNotClosedToMakeRoom(t *testing.T) {
	l := newTestListener(1, 10)
	c1 := from("10.0.0.1:1")
	h1 := mustHold(t, l, c1)
	l.ConnState(h1, http.StateActive)
	l.ConnState(h1, http.StateIdle)
	c1.arriving = "POST /vendor/events/v1/media HTTP/1.1\r\n"
	if n, err := h1.Read(make([]byte, 4)); n != 4 || err != nil {
		t.Fatalf("read %d, %v", n, err)
	}
	mustRefuse(t, l, from("10.0.0.2:1"))
	if c1.isClosed() {
		t.Fatal("a connection with a request arriving was closed")
	}
	l.ConnState(h1, http.StateActive) // as the server says once the headers are in
	l.ConnState(h1, http.StateIdle)
	mustHold(t, l, from("10.0.0.2:2"))
	if !c1.isClosed() {
		t.Fatal("an idle connection was not closed to make room")
	}
}

func TestAHijackedConnectionIsNotClosedToMakeRoom(t *testing.T) {
	l := newTestListener(1, 10)
	c1 := from("10.0.0.1:1")
	l.ConnState(mustHold(t, l, c1), http.StateHijacked)
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
	mustBeClosed(t, []*fakeConn{b1, a1, a2}, a1)
}

func TestAConnectionClosedToMakeRoomFreesItsPlaceOnce(t *testing.T) {
	l := newTestListener(2, 10)
	h1, h2 := mustHold(t, l, from("10.0.0.1:1")), mustHold(t, l, from("10.0.0.2:1"))
	l.ConnState(h1, http.StateIdle)
	l.ConnState(h2, http.StateActive)
	l.ConnState(mustHold(t, l, from("10.0.0.3:1")), http.StateActive) // closes h1
	// The server notices h1 is closed: it closes it again and says so.
	h1.Close()
	l.ConnState(h1, http.StateClosed)
	h1.Close()
	mustRefuse(t, l, from("10.0.0.4:1"))
	if l.all.open != 2 || len(l.addrs) != 2 || len(l.nets) != 2 || l.all.queues[phaseIdle].Len() != 0 {
		t.Fatalf("open %d, addresses %d, networks %d, idle %d; want 2, 2, 2, 0", l.all.open, len(l.addrs), len(l.nets), l.all.queues[phaseIdle].Len())
	}
}

func TestAStateChangeAfterTheConnectionClosedIsIgnored(t *testing.T) {
	l := newTestListener(1, 10)
	h1 := mustHold(t, l, from("10.0.0.1:1"))
	h1.Close()
	l.ConnState(h1, http.StateIdle)
	if l.all.queues[phaseIdle].Len() != 0 {
		t.Fatal("a closed connection was listed idle")
	}
	mustHold(t, l, from("10.0.0.2:1"))
}

func TestTheCountsReturnToZeroUnderConcurrentUse(t *testing.T) {
	l, _ := newClockedListener(Limits{Total: 50, PerAddr: 8, PerNetwork: 12}, nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				addr := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, byte(i % 5)}), uint16(g*1000+i))
				if i%2 == 1 {
					addr = netip.MustParseAddrPort(fmt.Sprintf("[2001:db8::%x]:%d", i%7, g*1000+i))
				}
				held := l.admit(from(addr.String()))
				if held == nil {
					continue
				}
				if i%4 == 0 { // left new, to be closed to make room
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
	var left []*Conn
	for _, q := range l.all.queues {
		for e := q.Front(); e != nil; e = e.Next() {
			left = append(left, e.Value.(*Conn))
		}
	}
	l.mu.Unlock()
	for _, c := range left {
		c.Close()
	}
	if l.all.open != 0 || len(l.addrs) != 0 || len(l.nets) != 0 || l.all.queues[phaseNew].Len()+l.all.queues[phaseIdle].Len() != 0 {
		t.Fatalf("after closing everything: open %d, addresses %d, networks %d, queued %d",
			l.all.open, len(l.addrs), len(l.nets), l.all.queues[phaseNew].Len()+l.all.queues[phaseIdle].Len())
	}
}

func TestDefaultTotalLeavesAQuarterOfTheFileLimit(t *testing.T) {
	for limit, want := range map[int]int{1024: 768, 4096: 3072, 20000: DefaultCeiling, 1 << 20: DefaultCeiling, 0: DefaultCeiling, 1: 1} {
		if got := DefaultTotal(limit); got != want {
			t.Errorf("DefaultTotal(%d) = %d, want %d", limit, got, want)
		}
	}
}
