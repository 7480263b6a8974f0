package controllers

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"calendar/app"
)

// AuthLimits slow down, then refuse, a client that keeps sending wrong
// credentials, so passwords cannot be guessed at speed.
type AuthLimits struct {
	// Window is how long failures are remembered, and how long a blocked
	// client waits.
	Window time.Duration
	// SlowAfter failures in a window, each further failure is answered after
	// Step times the excess (at most MaxDelay); after BlockAfter, 429.
	SlowAfter, BlockAfter int
	Step, MaxDelay        time.Duration
}

// DefaultAuthLimits: 5 free failures a minute, then slower answers, and a
// 429 from the 20th.
var DefaultAuthLimits = AuthLimits{Window: time.Minute, SlowAfter: 5, BlockAfter: 20, Step: 100 * time.Millisecond, MaxDelay: 2 * time.Second}

// maxTrackedClients bounds the memory the limiter holds.
const maxTrackedClients = 100000

type failures struct {
	count int
	since time.Time
}

type authLimiter struct {
	limits  AuthLimits
	mu      sync.Mutex
	clients map[string]*failures
	now     func() time.Time
}

func newAuthLimiter(l AuthLimits) *authLimiter {
	return &authLimiter{limits: l, clients: map[string]*failures{}, now: time.Now}
}

// clientOf is the address a request came from.
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// blocked returns how long a client must wait, or 0.
func (l *authLimiter) blocked(client string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.current(client)
	if f == nil || f.count < l.limits.BlockAfter {
		return 0
	}
	return f.since.Add(l.limits.Window).Sub(l.now())
}

// failed records a wrong credential and returns how long to hold the answer.
func (l *authLimiter) failed(client string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.current(client)
	if f == nil {
		if len(l.clients) >= maxTrackedClients {
			l.forgetExpired()
		}
		f = &failures{since: l.now()}
		l.clients[client] = f
	}
	f.count++
	excess := f.count - l.limits.SlowAfter
	if excess <= 0 {
		return 0
	}
	return min(time.Duration(excess)*l.limits.Step, l.limits.MaxDelay)
}

// succeeded forgets a client's failures.
func (l *authLimiter) succeeded(client string) {
	l.mu.Lock()
	delete(l.clients, client)
	l.mu.Unlock()
}

// current is the client's record in the present window (caller holds mu).
func (l *authLimiter) current(client string) *failures {
	f := l.clients[client]
	if f != nil && l.now().Sub(f.since) >= l.limits.Window {
		delete(l.clients, client)
		return nil
	}
	return f
}

func (l *authLimiter) forgetExpired() {
	for client := range l.clients {
		l.current(client)
	}
}

// errTooManyAttempts is the answer to a blocked client.
func errTooManyAttempts() *app.Error {
	return app.NewError(http.StatusTooManyRequests, "too_many_attempts",
		"Too many wrong credentials from this address; try again later.")
}

func retryAfterSeconds(d time.Duration) string {
	return strconv.Itoa(int(d.Seconds()) + 1)
}
