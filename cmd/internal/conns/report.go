package conns

import (
	"net/netip"
	"time"
)

// ReportEvery is how often at most the bounds' work is reported: a flood
// of refused connections must not become a flood of log lines.
const ReportEvery = time.Minute

// Counts are what the bounds did: refused new connections, and held ones
// closed early (shed) to make room or for being slow under pressure.
type Counts struct {
	RefusedPerAddr    int // new connections closed at once: their address held Limits.PerAddr, none to close
	RefusedPerNetwork int // new connections closed at once: their network held Limits.PerNetwork, none to close
	RefusedFull       int // new connections closed at once: Limits.Total held, none to close
	IdleClosed        int // idle keep-alive connections closed to make room
	NewClosed         int // connections that had not sent a whole request, closed to make room
	SlowClosed        int // connections that had not sent a whole request within SlowHeaders under pressure
}

func (c Counts) since(earlier Counts) Counts {
	return Counts{
		RefusedPerAddr:    c.RefusedPerAddr - earlier.RefusedPerAddr,
		RefusedPerNetwork: c.RefusedPerNetwork - earlier.RefusedPerNetwork,
		RefusedFull:       c.RefusedFull - earlier.RefusedFull,
		IdleClosed:        c.IdleClosed - earlier.IdleClosed,
		NewClosed:         c.NewClosed - earlier.NewClosed,
		SlowClosed:        c.SlowClosed - earlier.SlowClosed,
	}
}

// Pressure is what the bounds did since the last report.
type Pressure struct {
	Counts
	Open        int        // connections held when reported
	LastRefused netip.Addr // the address of the last new connection refused, if any
}

// reporter is the Listener's: its fields are guarded by the Listener's mu.
type reporter struct {
	report     func(Pressure)
	every      time.Duration
	reported   Counts     // the counts as of the last report
	refused    netip.Addr // the last address refused since
	timer      stopper    // set while a report is due
	lastReport time.Time
}

type stopper interface{ Stop() bool }

func afterFunc(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) }

// noteLocked makes sure what the counts gained gets reported: at once
// after a quiet period, else when ReportEvery has passed since the last
// report.
func (l *Listener) noteLocked() {
	if l.report == nil || l.timer != nil {
		return
	}
	l.timer = l.after(max(0, l.lastReport.Add(l.every).Sub(l.now())), l.flush)
}

func (l *Listener) flush() {
	l.mu.Lock()
	p := Pressure{Counts: l.counts.since(l.reported), Open: l.all.open, LastRefused: l.refused}
	l.reported, l.refused, l.timer, l.lastReport = l.counts, netip.Addr{}, nil, l.now()
	l.mu.Unlock()
	if p.Counts != (Counts{}) {
		l.report(p)
	}
}

// flushPending reports now what a timer would have reported later.
func (l *Listener) flushPending() {
	l.mu.Lock()
	due := l.timer != nil && l.timer.Stop()
	l.mu.Unlock()
	if due {
		l.flush()
	}
}

// Open is how many connections are held, by phase.
type Open struct {
	New    int // no whole request read yet
	Active int // being served (or hijacked)
	Idle   int // between requests
}

// Stats is what the bounds did since the listener started, and the
// connections held now.
func (l *Listener) Stats() (Counts, Open) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fresh, idle := l.all.queues[phaseNew].Len(), l.all.queues[phaseIdle].Len()
	return l.counts, Open{New: fresh, Idle: idle, Active: l.all.open - fresh - idle}
}
