// Package conns bounds the connections a server holds: in total, so that
// clients cannot take every file descriptor of the process (the store, the
// index and outgoing connections need theirs); per client address and per
// network (an IPv6 /64), so that one client cannot take the whole total;
// and it keeps the connections that have not sent a request, which cost an
// attacker nothing to hold, from taking the places of those that have.
//
// A connection is new until the server has read a whole request from it
// (http.StateActive), then active while it is served and idle between
// requests (active again from the first byte of its next request). Over a
// bound, room is made by closing a connection of the group at its bound
// (the address, the network, or all), cheapest first: a new one that has
// had SlowHeaders to send its request, else the oldest idle one, else the
// oldest new one; never an active one. When none can be closed, the new
// connection is accepted and closed at once rather than left in the
// kernel's accept queue, where dead clients would keep live ones waiting.
//
// New connections hold at most three quarters of the total; past their
// share a new connection takes the place of the oldest new one. Silent
// connections, however many, so never keep a visitor out (it takes a
// silent one's place), and leave a quarter of the slots to requests being
// served and to served clients' keep-alive connections. While three
// quarters of the total are held, a new connection has SlowHeaders, not the
// server's header timeout, to send its request, and is closed past it.
package conns

import (
	"calendar/app/throttle"

	"container/list"
	"io"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Limits are the bounds; each must be positive.
type Limits struct {
	Total   int // connections held at once
	PerAddr int // connections held at once from one client address
	// PerNetwork is the connections held at once from one network, an
	// IPv6 /64 or an IPv4 address alone: a client given a /64 can connect
	// from any of its addresses.
	PerNetwork int
	// Exempt, when not nil, names the addresses PerAddr and PerNetwork do
	// not bound (a trusted reverse proxy, whose address every client behind
	// it shares); their connections still count in Total.
	Exempt func(netip.Addr) bool
}

// Listener holds the connections its net.Listener accepts within Limits.
// Its ConnState must be the http.Server's, to know what each one is doing.
type Listener struct {
	net.Listener
	limits Limits
	now    func() time.Time
	after  func(time.Duration, func()) stopper

	mu     sync.Mutex
	all    group
	addrs  map[netip.Addr]*group
	nets   map[netip.Prefix]*group
	counts Counts
	sweep  stopper // set while a sweep of slow new connections is due
	closed bool
	reporter
}

// group is the connections of all clients, of one address or of one
// network.
type group struct {
	open   int
	queues [2]list.List // of *Conn by phase, new and idle, oldest first
}

// phase is what a connection is doing; the cheapest to close come first.
type phase int

const (
	phaseNew    phase = iota // no whole request read yet
	phaseIdle                // between requests
	phaseActive              // being served, or hijacked: never closed to make room
)

// Conn is a connection the Listener holds; closing it frees its place.
type Conn struct {
	net.Conn
	l        *Listener
	addr     netip.Addr
	accepted time.Time
	// The fields below are guarded by l.mu. held is false once the
	// connection no longer counts: closed, or chosen to make room.
	held  bool
	phase phase
	// groups are the listener's, its address's and its network's (nil for
	// an exempt address); places are its elements in their queues of its
	// phase while it is new or idle.
	groups [3]*group
	places [3]*list.Element
	// idle is phase == phaseIdle, for Read to see without the lock.
	idle atomic.Bool
}

// NewListener bounds the connections of inner. report, when not nil, is
// told what the bounds did: at once after a quiet period, then at most once
// per ReportEvery.
func NewListener(inner net.Listener, limits Limits, report func(Pressure)) *Listener {
	if limits.Total < 1 || limits.PerAddr < 1 || limits.PerNetwork < 1 {
		panic("conns: limits must be positive")
	}
	return &Listener{Listener: inner, limits: limits, now: time.Now, after: afterFunc,
		addrs: map[netip.Addr]*group{}, nets: map[netip.Prefix]*group{},
		reporter: reporter{report: report, every: ReportEvery}}
}

// Accept returns the next connection within the limits; the ones over them
// are closed here and never reach the caller.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if held := l.admit(c); held != nil {
			return held, nil
		}
	}
}

// admit holds c, after closing another connection if that makes room; it
// closes c and returns nil when nothing does.
func (l *Listener) admit(c net.Conn) *Conn {
	addr := peerAddr(c)
	held := &Conn{Conn: c, l: l, addr: addr, held: true}
	l.mu.Lock()
	held.accepted = l.now()
	exempt := l.exempt(addr)
	held.groups = l.groupsLocked(addr, exempt)
	victim, refused := l.roomLocked(held, exempt)
	if refused != nil {
		*refused++
		l.refused = addr
		l.noteLocked()
		l.mu.Unlock()
		c.Close()
		return nil
	}
	if victim != nil {
		// A request may be arriving on it right now; that client sees the
		// connection closed, as when a timeout ends it, and HTTP clients
		// retry on a new connection.
		if victim.phase == phaseIdle {
			l.counts.IdleClosed++
		} else {
			l.counts.NewClosed++
		}
		l.releaseLocked(victim)
		l.noteLocked()
	}
	l.addrs[addr] = held.groups[1]
	if held.groups[2] != nil {
		l.nets[network(addr)] = held.groups[2]
	}
	for _, g := range held.groups {
		if g != nil {
			g.open++
		}
	}
	held.queueLocked()
	l.sweepLaterLocked()
	l.mu.Unlock()
	if victim != nil {
		victim.Conn.Close()
	}
	return held
}

// groupsLocked are the groups a connection from addr counts in: all
// connections, its address's and, unless exempt, its network's. Those it
// would be the first of are not stored yet.
func (l *Listener) groupsLocked(addr netip.Addr, exempt bool) [3]*group {
	groups := [3]*group{&l.all, l.addrs[addr], nil}
	if groups[1] == nil {
		groups[1] = &group{}
	}
	if !exempt {
		if groups[2] = l.nets[network(addr)]; groups[2] == nil {
			groups[2] = &group{}
		}
	}
	return groups
}

func (l *Listener) exempt(addr netip.Addr) bool {
	return l.limits.Exempt != nil && l.limits.Exempt(addr)
}

// ConnState is meant for http.Server.ConnState.
func (l *Listener) ConnState(c net.Conn, state http.ConnState) {
	held, ok := c.(*Conn)
	if !ok || held.l != l {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !held.held {
		return
	}
	switch state {
	case http.StateIdle:
		l.moveLocked(held, phaseIdle)
	case http.StateActive, http.StateHijacked:
		l.moveLocked(held, phaseActive)
	}
}

// Close stops accepting and reports what is pending.
func (l *Listener) Close() error {
	err := l.Listener.Close()
	l.mu.Lock()
	l.closed = true
	if l.sweep != nil {
		l.sweep.Stop()
		l.sweep = nil
	}
	l.mu.Unlock()
	l.flushPending()
	return err
}

// moveLocked moves c to phase p: to the back of its groups' queues of p,
// the youngest there.
func (l *Listener) moveLocked(c *Conn, p phase) {
	if c.phase == p {
		return
	}
	l.dequeueLocked(c)
	c.phase = p
	c.idle.Store(p == phaseIdle)
	c.queueLocked()
}

// queueLocked puts a new or idle c at the back of its groups' queues.
func (c *Conn) queueLocked() {
	if c.phase == phaseActive {
		return
	}
	for i, g := range c.groups {
		if g != nil {
			c.places[i] = g.queues[c.phase].PushBack(c)
		}
	}
}

func (l *Listener) dequeueLocked(c *Conn) {
	for i, g := range c.groups {
		if c.places[i] != nil {
			g.queues[c.phase].Remove(c.places[i])
			c.places[i] = nil
		}
	}
}

func (l *Listener) releaseLocked(c *Conn) {
	if !c.held {
		return
	}
	c.held = false
	l.dequeueLocked(c)
	for _, g := range c.groups {
		if g != nil {
			g.open--
		}
	}
	if c.groups[1].open == 0 {
		delete(l.addrs, c.addr)
	}
	if c.groups[2] != nil && c.groups[2].open == 0 {
		delete(l.nets, network(c.addr))
	}
}

// Close frees the connection's place, then closes it.
func (c *Conn) Close() error {
	c.l.mu.Lock()
	c.l.releaseLocked(c)
	c.l.mu.Unlock()
	return c.Conn.Close()
}

// Read notes a request arriving on an idle connection: from its first byte
// the connection is no longer closed to make room, as it is once the server
// has its headers (http.StateActive). A client sending its next request, an
// upload, on a keep-alive connection does not see it closed midway.
func (c *Conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && c.idle.Load() {
		c.l.mu.Lock()
		if c.held && c.phase == phaseIdle {
			c.l.moveLocked(c, phaseActive)
		}
		c.l.mu.Unlock()
	}
	return n, err
}

// ReadFrom keeps the server's sendfile path: http.Server looks for it on
// the connection it was given.
func (c *Conn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}

// CloseWrite lets the server end a response with a half close, as it does
// on a TCP connection, before it closes a connection whose request body it
// did not read.
func (c *Conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// network is the group of addresses Limits.PerNetwork bounds together, as
// every bound on addresses counts them (an IPv6 address's /64, an IPv4
// address alone): throttle.AddressGroup.
var network = throttle.AddressGroup

func peerAddr(c net.Conn) netip.Addr {
	switch a := c.RemoteAddr().(type) {
	case *net.TCPAddr:
		return a.AddrPort().Addr().Unmap()
	case nil:
		return netip.Addr{}
	}
	ap, _ := netip.ParseAddrPort(c.RemoteAddr().String())
	return ap.Addr().Unmap()
}
