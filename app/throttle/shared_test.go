package throttle

import (
	"fmt"
	"testing"
	"time"
)

// sharedLimits leave the per-address bounds out of the way (no address
// below fails often enough to reach them) to show the budget of a subject.
var sharedLimits = Limits{Window: time.Minute, SlowAfter: 10, BlockAfter: 50, Step: time.Millisecond, MaxDelay: time.Millisecond,
	ClientBlockAfter: 1000, SubjectBlockAfter: 1 << 30, SharedBurst: 4, SharedReserve: 1, SharedEvery: 10 * time.Second}

type clock struct{ now time.Time }

func (c *clock) add(d time.Duration) { c.now = c.now.Add(d) }

func newClocked(l Limits) (*Throttle, *clock) {
	th, c := New(l), &clock{now: time.Unix(0, 0)}
	th.now = func() time.Time { return c.now }
	return th, c
}

// guess is one wrong guess at subject from client: whether it was checked.
func guess(th *Throttle, subject, client string) bool {
	if th.Reserve(subject, client) > 0 {
		return false
	}
	th.Failed(subject, client)
	return true
}

// An attacker with an address for every guess, guessing once a second for
// an hour: the post takes SharedBurst, then one each SharedEvery, and when
// every guess is spent the right password waits no longer than the next.
func TestASharedSubjectIsGuessedAtItsOwnRateFromAnyNumberOfClients(t *testing.T) {
	th, clock := newClocked(sharedLimits)
	checked := 0
	for i := range 3600 {
		if guess(th, "post:7", fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255)) {
			checked++
		}
		if i == 2000 {
			wait := th.Reserve("post:7", "203.0.113.1")
			if wait <= 0 || wait > sharedLimits.SharedEvery {
				t.Fatalf("the right password from a new address waits %v; want a refusal until the next guess is due, within %v", wait, sharedLimits.SharedEvery)
			}
		}
		clock.add(time.Second)
	}
	// From the first guess to the last, 3,599 s: 359 times 10 s.
	if want := sharedLimits.SharedBurst + 359; checked != want {
		t.Fatalf("%d guesses checked in an hour, want %d (the burst and one each 10 s)", checked, want)
	}
	clock.add(sharedLimits.SharedEvery)
	if th.Reserve("post:7", "203.0.113.1") != 0 {
		t.Fatal("the right password is still refused once the next guess is due")
	}
	th.Release("post:7")
	if th.Reserve("post:8", "203.0.113.1") != 0 {
		t.Fatal("the guesses at one post refuse another")
	}
}

// Guesses sent at once all ask before any has failed: each takes its place
// when it asks, so they spend the budget once.
func TestGuessesSentAtOnceSpendTheBudgetOnce(t *testing.T) {
	th, _ := newClocked(sharedLimits)
	var admitted []string
	for i := range 50 {
		client := fmt.Sprint("10.0.0.", i)
		if th.Reserve("post:7", client) == 0 {
			admitted = append(admitted, client)
		}
	}
	for _, client := range admitted {
		th.Failed("post:7", client)
	}
	if len(admitted) != sharedLimits.SharedBurst {
		t.Fatalf("%d of 50 guesses sent at once were checked, want %d", len(admitted), sharedLimits.SharedBurst)
	}
}

func TestTheRightPasswordSpendsNothing(t *testing.T) {
	th, _ := newClocked(sharedLimits)
	for i := range 100 {
		if th.Reserve("post:7", fmt.Sprint("10.0.0.", i)) > 0 {
			t.Fatalf("visitor %d, with the right password, refused", i)
		}
		th.Release("post:7")
	}
	for i := range sharedLimits.SharedBurst {
		if !guess(th, "post:7", fmt.Sprint("10.0.1.", i)) {
			t.Fatalf("wrong guess %d refused: the right ones spent the budget", i+1)
		}
	}
}

// One guesser may spend the budget down to its reserve, not past it, even
// from a new address of its /64 each time: a visitor's first try is still
// checked, and the guesser's refusal ends when enough of the budget has
// come back.
func TestOneGuesserCannotSpendTheReserve(t *testing.T) {
	th, clock := newClocked(sharedLimits)
	own := sharedLimits.SharedBurst - sharedLimits.SharedReserve
	for i := range own {
		if !guess(th, "post:7", fmt.Sprintf("2001:db8:66::%x", i)) {
			t.Fatalf("the guesser's guess %d refused, want %d checked", i+1, own)
		}
	}
	wait := th.Reserve("post:7", "2001:db8:66::ffff")
	if wait <= 0 || wait > time.Duration(sharedLimits.SharedReserve+1)*sharedLimits.SharedEvery {
		t.Fatalf("the guesser waits %v past its %d guesses", wait, own)
	}
	if th.Reserve("post:7", "203.0.113.1") != 0 {
		t.Fatal("a visitor's first try is refused")
	}
	th.Release("post:7")
	clock.add(wait)
	if !guess(th, "post:7", "2001:db8:66::1") {
		t.Fatal("the guesser is refused once its wait is over")
	}
}

// TestTheDefaultSharedLimitsAreTheDocumentedOnes pins the numbers the
// Limits table (docs/limits.md) states for a post's password.
func TestTheDefaultSharedLimitsAreTheDocumentedOnes(t *testing.T) {
	th, clock := newClocked(Limits{})
	for i := range 10 {
		if !guess(th, "post:7", fmt.Sprint("10.0.0.", i)) {
			t.Fatalf("guess %d from a new address refused", i+1)
		}
	}
	if w := th.Reserve("post:7", "10.0.1.1"); w != 6*time.Second {
		t.Fatalf("the 11th waits %v, want 6s", w)
	}
	clock.add(6 * time.Second)
	if !guess(th, "post:7", "10.0.1.1") {
		t.Fatal("the 11th is refused 6 s later")
	}

	th, _ = newClocked(Limits{})
	for i := range 7 {
		if !guess(th, "post:7", "198.51.100.66") {
			t.Fatalf("guess %d from one address refused", i+1)
		}
	}
	if w := th.Reserve("post:7", "198.51.100.66"); w != 6*time.Second {
		t.Fatalf("the 8th from one address waits %v, want 6s", w)
	}
	for i := range 3 {
		if !guess(th, "post:7", fmt.Sprint("10.0.0.", i)) {
			t.Fatalf("the reserve's %d guess refused", i+1)
		}
	}
	if w := th.Reserve("post:7", "198.51.100.66"); w != 24*time.Second {
		t.Fatalf("once the reserve is spent the guesser waits %v, want 24s", w)
	}
}

func TestTheBudgetsKeptAreBounded(t *testing.T) {
	th, _ := newClocked(sharedLimits)
	for i := range maxThrottled + 10 {
		th.Reserve(fmt.Sprint("post:", i), "10.0.0.1")
	}
	if n := th.budgets.Len(); n > maxThrottled {
		t.Fatalf("%d budgets kept, bound is %d", n, maxThrottled)
	}
}
