// Package conns bounds the connections a server holds: in total, so that
// clients cannot take every file descriptor of the process (the store, the
// index and outgoing connections need theirs), and per client address, so
// that one client cannot take the whole total.
//
// Over a bound, an idle keep-alive connection is closed to make room, the
// oldest idle first; when none is idle, the new connection is accepted and
// closed at once rather than left in the kernel's accept queue, where dead
// clients would keep live ones waiting.
package conns

import (
	"container/list"
	"io"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// Limits are the bounds; both must be positive.
type Limits struct {
	Total   int // connections held at once
	PerAddr int // connections held at once from one client address
	// Exempt, when not nil, names the addresses PerAddr does not bound (a
	// trusted reverse proxy, whose address every client behind it shares);
	// their connections still count in Total.
	Exempt func(netip.Addr) bool
}

// Listener holds the connections its net.Listener accepts within Limits.
// Its ConnState must be the http.Server's, to know which ones are idle.
type Listener struct {
	net.Listener
	limits Limits

	mu    sync.Mutex
	open  int
	addrs map[netip.Addr]*addrConns
	idle  list.List // of *Conn, oldest idle first
	reporter
}

// addrConns are the connections of one client address. The address is the
// whole one, IPv6 included, as the service's other per-address bounds count
// it; a client owning an IPv6 /64 can spread over many addresses, so the
// per-address bound slows such a client down, and the total bound is what
// keeps the file descriptors.
type addrConns struct {
	open int
	idle list.List
}

// Conn is a connection the Listener holds; closing it frees its place.
type Conn struct {
	net.Conn
	l    *Listener
	addr netip.Addr
	from *addrConns
	// The fields below are guarded by l.mu. held is false once the
	// connection no longer counts: closed, or chosen to make room.
	held           bool
	idle, addrIdle *list.Element
}

// NewListener bounds the connections of inner. report, when not nil, is
// told what the bounds did: at once after a quiet period, then at most once
// per ReportEvery.
func NewListener(inner net.Listener, limits Limits, report func(Pressure)) *Listener {
	if limits.Total < 1 || limits.PerAddr < 1 {
		panic("conns: limits must be positive")
	}
	l := &Listener{Listener: inner, limits: limits, addrs: map[netip.Addr]*addrConns{}}
	l.reporter = reporter{report: report, every: ReportEvery, now: time.Now, after: afterFunc}
	return l
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

// admit holds c, after closing an idle connection if that makes room; it
// closes c and returns nil when nothing does.
func (l *Listener) admit(c net.Conn) *Conn {
	addr := peerAddr(c)
	l.mu.Lock()
	from := l.addrs[addr]
	if from == nil {
		from = &addrConns{}
	}
	// An address at its bound makes room from its own idle connections
	// only: it must not close other clients' to go past its bound.
	var room *list.List
	var refused *int
	switch {
	case from.open >= l.limits.PerAddr && !l.exempt(addr):
		room, refused = &from.idle, &l.pending.RefusedPerAddr
	case l.open >= l.limits.Total:
		room, refused = &l.idle, &l.pending.RefusedFull
	}
	var victim *Conn
	if room != nil {
		if room.Len() == 0 {
			*refused++
			l.pending.LastRefused = addr
			l.noteLocked()
			l.mu.Unlock()
			c.Close()
			return nil
		}
		// A request may be arriving on it right now; that client sees the
		// connection closed, as when an idle timeout ends it, and HTTP
		// clients retry on a new connection.
		victim = room.Front().Value.(*Conn)
		l.releaseLocked(victim)
		l.pending.IdleClosed++
		l.noteLocked()
	}
	held := &Conn{Conn: c, l: l, addr: addr, from: from, held: true}
	l.addrs[addr] = from
	from.open++
	l.open++
	l.mu.Unlock()
	if victim != nil {
		victim.Conn.Close()
	}
	return held
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
		if held.idle == nil {
			held.idle = l.idle.PushBack(held)
			held.addrIdle = held.from.idle.PushBack(held)
		}
	case http.StateActive, http.StateHijacked:
		l.unidleLocked(held)
	}
}

// Close stops accepting and reports what is pending.
func (l *Listener) Close() error {
	err := l.Listener.Close()
	l.flushPending()
	return err
}

func (l *Listener) releaseLocked(c *Conn) {
	if !c.held {
		return
	}
	c.held = false
	l.unidleLocked(c)
	l.open--
	if c.from.open--; c.from.open == 0 {
		delete(l.addrs, c.addr)
	}
}

func (l *Listener) unidleLocked(c *Conn) {
	if c.idle != nil {
		l.idle.Remove(c.idle)
		c.from.idle.Remove(c.addrIdle)
		c.idle, c.addrIdle = nil, nil
	}
}

// Close frees the connection's place, then closes it.
func (c *Conn) Close() error {
	c.l.mu.Lock()
	c.l.releaseLocked(c)
	c.l.mu.Unlock()
	return c.Conn.Close()
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
