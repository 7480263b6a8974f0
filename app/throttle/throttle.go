// Package throttle slows down, then refuses, the guessing of secrets.
package throttle

import (
	"sync"
	"time"

	"calendar/app/lru"
)

// Limits set how the guessing of secrets is slowed down, then refused.
type Limits struct {
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
	// A shared subject, one anyone may guess (a post's password, tried with
	// Reserve), is also bounded across all clients together: SharedBurst
	// wrong guesses at once, then one more each SharedEvery (no such bound
	// when SharedEvery is zero). The last SharedReserve of them go only to
	// clients without a failure on it in the window, so that one guesser
	// cannot shut it to everyone else (SharedReserve is below SharedBurst).
	SharedBurst, SharedReserve int
	SharedEvery                time.Duration
}

// DefaultLimits: 5 free failures a minute on one account or post from
// one address, then slower answers, a refusal from the 20th; an address that
// failed 100 times, on anything, is refused everything; an account or a post
// that failed 100 times is refused to every address that failed on it. A
// post's password may be guessed wrong 10 times at once from all addresses
// together, then once every 6 s: 14,400 guesses a day, however many
// addresses guess, so six random lower-case letters and digits (36^6, about
// 2.2 billion) take two hundred years on average. A refusal lasts until the
// next guess is due: 6 s at most, 24 s for an address that failed on the
// post in the minute, the last 3 guesses being kept for the others.
var DefaultLimits = Limits{Window: time.Minute, SlowAfter: 5, BlockAfter: 20,
	Step: 100 * time.Millisecond, MaxDelay: 2 * time.Second, ClientBlockAfter: 100, SubjectBlockAfter: 100,
	SharedBurst: 10, SharedReserve: 3, SharedEvery: 6 * time.Second}

// maxThrottled bounds the counts kept, and apart from them the budgets of
// shared subjects: past it, the least recently failed are forgotten.
// maxBlocks bounds the refusals in force: past it, the one ending first
// goes. A block takes at least BlockAfter failures, so no flood of new
// failures lifts the blocks of others.
const (
	maxThrottled = 100000
	maxBlocks    = 100000
)

// Throttle counts wrong secrets (sign-in passwords, post passwords) by what
// they were tried on, the subject (an account, a post), and by who tried, the
// client (an address, counted by its AddressKey), together: a success
// resets only the count of its own subject and client, so no interleaving of
// other sign-ins lets guesses through, and an attacker's failures refuse the
// subject only to the clients that failed on it, so its owner, signing in
// from elsewhere, is not locked out. Refusals are kept apart from the counts: counts are many and cheap
// to make (one failure each), refusals few and dear. A shared subject has
// besides a budget of guesses from all clients (shared.go), so that many
// clients, each under its own bounds, do not guess it at their sum.
type Throttle struct {
	limits  Limits
	now     func() time.Time
	mu      sync.Mutex
	counts  *lru.Cache[string, *failures] // by subject+client, by client, by subject
	blocks  map[string]time.Time          // the same keys, refused until then
	budgets *lru.Cache[string, time.Time] // by shared subject: when it is full again
}

type failures struct {
	count int
	since time.Time
}

// New returns a throttle with the limits (DefaultLimits when zero).
func New(l Limits) *Throttle {
	if l == (Limits{}) {
		l = DefaultLimits
	}
	return &Throttle{limits: l, now: time.Now, counts: lru.New[string, *failures](maxThrottled), blocks: map[string]time.Time{},
		budgets: lru.New[string, time.Time](maxThrottled)}
}

func pairKey(subject, client string) string { return "p\x00" + subject + "\x00" + client }
func clientKey(client string) string        { return "c\x00" + client }
func subjectKey(subject string) string      { return "s\x00" + subject }

// Wait is how long the client must wait before trying a secret of the subject
// again; 0 when it may try now.
func (t *Throttle) Wait(subject, client string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.wait(subject, AddressKey(client))
}

// wait is Wait for a client already keyed (the caller holds mu).
func (t *Throttle) wait(subject, client string) time.Duration {
	pair := pairKey(subject, client)
	until := latest(t.blocked(pair), t.blocked(clientKey(client)))
	if t.current(pair) != nil || !until.IsZero() { // a subject is refused to those who failed on it
		until = latest(until, t.blocked(subjectKey(subject)))
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
	client = AddressKey(client)
	var pair *failures
	for _, k := range []struct {
		key   string
		after int
	}{{pairKey(subject, client), t.limits.BlockAfter}, {clientKey(client), t.limits.ClientBlockAfter}, {subjectKey(subject), t.limits.SubjectBlockAfter}} {
		f := t.current(k.key)
		if f == nil {
			f = &failures{since: t.now()}
		}
		f.count++
		t.counts.Put(k.key, f) // the most recently failed are kept
		if f.count >= k.after {
			t.block(k.key, f.since.Add(t.limits.Window))
		}
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
	defer t.mu.Unlock()
	client = AddressKey(client)
	t.counts.Remove(pairKey(subject, client))
	delete(t.blocks, pairKey(subject, client))
}

// current is the count of key in the present window (the caller holds mu).
func (t *Throttle) current(key string) *failures {
	f, ok := t.counts.Get(key)
	if ok && t.now().Sub(f.since) >= t.limits.Window {
		t.counts.Remove(key)
		return nil
	}
	return f
}

// blocked is until when key is refused, zero when it is not.
func (t *Throttle) blocked(key string) time.Time {
	until, ok := t.blocks[key]
	if ok && !until.After(t.now()) {
		delete(t.blocks, key)
		return time.Time{}
	}
	return until
}

// block refuses key until then; when the refusals are at their bound, the
// expired ones go, then the one ending first.
func (t *Throttle) block(key string, until time.Time) {
	if _, ok := t.blocks[key]; !ok && len(t.blocks) >= maxBlocks {
		first := ""
		for k, u := range t.blocks {
			if !u.After(t.now()) {
				delete(t.blocks, k)
			} else if first == "" || u.Before(t.blocks[first]) {
				first = k
			}
		}
		if len(t.blocks) >= maxBlocks {
			delete(t.blocks, first)
		}
	}
	t.blocks[key] = latest(t.blocks[key], until)
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
