package conns

import (
	"net/netip"
	"time"
)

// ReportEvery is how often at most the bounds' work is reported: a flood
// of refused connections must not become a flood of log lines.
const ReportEvery = time.Minute

// Pressure is what the bounds did since the last report.
type Pressure struct {
	RefusedPerAddr int        // new connections closed at once: their address held Limits.PerAddr, none idle
	RefusedFull    int        // new connections closed at once: Limits.Total held, none idle
	IdleClosed     int        // idle keep-alive connections closed to make room
	Open           int        // connections held when reported
	LastRefused    netip.Addr // the address of the last new connection refused, if any
}

func (p Pressure) any() bool { return p.RefusedPerAddr+p.RefusedFull+p.IdleClosed > 0 }

// reporter is the Listener's: its fields are guarded by the Listener's mu.
type reporter struct {
	report     func(Pressure)
	every      time.Duration
	now        func() time.Time
	after      func(time.Duration, func()) stopper
	pending    Pressure
	timer      stopper // set while a report is due
	lastReport time.Time
}

type stopper interface{ Stop() bool }

func afterFunc(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) }

// noteLocked makes sure what is pending gets reported: at once after a
// quiet period, else when ReportEvery has passed since the last report.
func (l *Listener) noteLocked() {
	if l.report == nil || l.timer != nil {
		return
	}
	l.timer = l.after(max(0, l.lastReport.Add(l.every).Sub(l.now())), l.flush)
}

func (l *Listener) flush() {
	l.mu.Lock()
	p := l.pending
	p.Open = l.open
	l.pending, l.timer, l.lastReport = Pressure{}, nil, l.now()
	l.mu.Unlock()
	if p.any() {
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
