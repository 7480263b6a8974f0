package conns

import "time"

// SlowHeaders is how long a new connection may take to send its first
// request while the slots are nearly full: a visitor's request comes in
// the packet after its connection's, one lost packet and its resend
// included, and an attacker's silent connections must go well before the
// server's header timeout.
const SlowHeaders = 3 * time.Second

// newShare is how many new connections may be held at once: three
// quarters of the total, the rest kept for connections that sent a request.
func (l Limits) newShare() int { return l.Total - l.Total/4 }

// roomLocked is the connection to close to make room for c (nil: c fits),
// or the count c's refusal adds to when nothing can be closed.
func (l *Listener) roomLocked(c *Conn, exempt bool) (victim *Conn, refused *int) {
	// An address or a network at its bound makes room from its own
	// connections only: it must not close other clients' to go past it.
	var bound *group
	refused = &l.counts.RefusedFull
	switch {
	case !exempt && c.groups[1].open >= l.limits.PerAddr:
		bound, refused = c.groups[1], &l.counts.RefusedPerAddr
	case !exempt && c.groups[2].open >= l.limits.PerNetwork:
		bound, refused = c.groups[2], &l.counts.RefusedPerNetwork
	case l.all.open >= l.limits.Total:
		bound = &l.all
	}
	switch {
	case l.all.queues[phaseNew].Len() >= l.limits.newShare():
		// New connections hold their whole share: c takes a new one's place.
		if bound == nil {
			bound = &l.all
		}
		victim = oldest(bound, phaseNew)
	case bound != nil:
		victim = l.cheapestLocked(bound)
	default:
		return nil, nil
	}
	if victim == nil {
		return nil, refused
	}
	return victim, nil
}

// cheapestLocked is the connection of g to close first: a new one that has
// had SlowHeaders to send its request, else the oldest idle one (its
// client has been served and reconnects), else the oldest new one.
func (l *Listener) cheapestLocked(g *group) *Conn {
	fresh := oldest(g, phaseNew)
	if fresh != nil && l.now().Sub(fresh.accepted) >= SlowHeaders {
		return fresh
	}
	if idle := oldest(g, phaseIdle); idle != nil {
		return idle
	}
	return fresh
}

func oldest(g *group, p phase) *Conn {
	if e := g.queues[p].Front(); e != nil {
		return e.Value.(*Conn)
	}
	return nil
}

// underPressureLocked says whether the slots are nearly full: as many held
// as new connections may hold.
func (l *Listener) underPressureLocked() bool {
	return l.all.open >= l.limits.newShare()
}

// sweepLaterLocked makes sure that, under pressure, new connections are
// closed once they have had SlowHeaders: it sets a timer for the oldest.
func (l *Listener) sweepLaterLocked() {
	if l.sweep != nil || l.closed || !l.underPressureLocked() {
		return
	}
	if first := oldest(&l.all, phaseNew); first != nil {
		l.sweep = l.after(max(0, first.accepted.Add(SlowHeaders).Sub(l.now())), l.sweepSlow)
	}
}

// sweepSlow closes the new connections that have had SlowHeaders, if the
// slots are still nearly full.
func (l *Listener) sweepSlow() {
	l.mu.Lock()
	l.sweep = nil
	var slow []*Conn
	if l.underPressureLocked() {
		due := l.now().Add(-SlowHeaders)
		for c := oldest(&l.all, phaseNew); c != nil && !c.accepted.After(due); c = oldest(&l.all, phaseNew) {
			l.releaseLocked(c)
			slow = append(slow, c)
		}
	}
	if len(slow) > 0 {
		l.counts.SlowClosed += len(slow)
		l.noteLocked()
	}
	l.sweepLaterLocked()
	l.mu.Unlock()
	for _, c := range slow {
		c.Conn.Close()
	}
}
