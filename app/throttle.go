package app

import (
	"context"
	"strconv"
	"sync"
	"time"
)

// ThrottleLimits set how the guessing of secrets is slowed down, then refused.
type ThrottleLimits struct {
	// Window is how long failures are remembered.
	Window time.Duration
	// A client that failed SlowAfter times on one subject in a window is
	// answered Step more slowly for each further failure (at most MaxDelay),
	// and from BlockAfter failures on is refused that subject.
	SlowAfter, BlockAfter int
	Step, MaxDelay        time.Duration
	// A client that failed ClientBlockAfter times on any subjects is refused
	// every one; a subject that failed SubjectBlockAfter times from any
	// clients is refused to those of them that failed on it.
	ClientBlockAfter, SubjectBlockAfter int
}

// DefaultThrottleLimits: 5 free failures a minute on one account or post from
// one address, then slower answers, a refusal from the 20th; an address that
// failed 100 times, on anything, is refused everything; an account or a post
// that failed 100 times is refused to every address that failed on it.
var DefaultThrottleLimits = ThrottleLimits{Window: time.Minute, SlowAfter: 5, BlockAfter: 20,
	Step: 100 * time.Millisecond, MaxDelay: 2 * time.Second, ClientBlockAfter: 100, SubjectBlockAfter: 100}

// maxThrottled bounds the counts kept: past it, expired ones are forgotten,
// and if none had expired, all are.
const maxThrottled = 100000

// Throttle counts wrong secrets (sign-in passwords, post passwords) by what
// they were tried on, the subject (an account, a post), and by who tried, the
// client (an address), together: a success resets only the count of its own
// subject and client, so no interleaving of other sign-ins lets guesses
// through, and an attacker's failures refuse the subject only to the clients
// that failed on it, so its owner, signing in from elsewhere, is not locked
// out.
type Throttle struct {
	limits ThrottleLimits
	now    func() time.Time
	mu     sync.Mutex
	counts map[string]*failures // by subject+client, by client, by subject
}

type failures struct {
	count int
	since time.Time
}

// NewThrottle returns a throttle with the limits (DefaultThrottleLimits when zero).
func NewThrottle(l ThrottleLimits) *Throttle {
	if l == (ThrottleLimits{}) {
		l = DefaultThrottleLimits
	}
	return &Throttle{limits: l, now: time.Now, counts: map[string]*failures{}}
}

func pairKey(subject, client string) string { return "p\x00" + subject + "\x00" + client }
func clientKey(client string) string        { return "c\x00" + client }
func subjectKey(subject string) string      { return "s\x00" + subject }

// Wait is how long the client must wait before trying a secret of the subject
// again; 0 when it may try now.
func (t *Throttle) Wait(subject, client string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	pair := t.current(pairKey(subject, client))
	var until time.Time
	refuse := func(f *failures, after int) {
		if f != nil && f.count >= after && f.since.Add(t.limits.Window).After(until) {
			until = f.since.Add(t.limits.Window)
		}
	}
	refuse(pair, t.limits.BlockAfter)
	refuse(t.current(clientKey(client)), t.limits.ClientBlockAfter)
	if pair != nil {
		refuse(t.current(subjectKey(subject)), t.limits.SubjectBlockAfter)
	}
	if until.IsZero() {
		return 0
	}
	return until.Sub(t.now())
}

// Failed records a wrong secret and returns how long to hold its answer.
func (t *Throttle) Failed(subject, client string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	var pair *failures
	for _, key := range []string{pairKey(subject, client), clientKey(client), subjectKey(subject)} {
		f := t.current(key)
		if f == nil {
			if len(t.counts) >= maxThrottled {
				t.forgetExpired()
			}
			f = &failures{since: t.now()}
			t.counts[key] = f
		}
		f.count++
		if pair == nil {
			pair = f
		}
	}
	excess := pair.count - t.limits.SlowAfter
	if excess <= 0 {
		return 0
	}
	return min(time.Duration(excess)*t.limits.Step, t.limits.MaxDelay)
}

// Succeeded forgets the failures of the client on that subject only.
func (t *Throttle) Succeeded(subject, client string) {
	t.mu.Lock()
	delete(t.counts, pairKey(subject, client))
	t.mu.Unlock()
}

// current is the count of key in the present window (the caller holds mu).
func (t *Throttle) current(key string) *failures {
	f := t.counts[key]
	if f != nil && t.now().Sub(f.since) >= t.limits.Window {
		delete(t.counts, key)
		return nil
	}
	return f
}

func (t *Throttle) forgetExpired() {
	for key := range t.counts {
		t.current(key)
	}
	if len(t.counts) >= maxThrottled {
		clear(t.counts)
	}
}

// ErrTooManyAttempts is the answer to a client refused by the throttle.
func ErrTooManyAttempts(wait time.Duration) *Error {
	e := NewError(KindThrottled, "too_many_attempts", "Too many wrong passwords from this address; try again later.")
	e.RetryAfter = wait
	return e
}

// hold waits d, or until ctx ends: a wrong secret's answer comes slower.
func hold(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

func postSubject(id int64) string { return "post:" + strconv.FormatInt(id, 10) }
