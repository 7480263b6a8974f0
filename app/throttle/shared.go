package throttle

import "time"

// The budget of a shared subject: the guesses of all clients together, at
// most SharedBurst at once, refilled one each SharedEvery. It is kept as the
// time the budget is full again (a token bucket as one instant): a guess
// moves it one SharedEvery later, and is let through while that stays within
// SharedBurst guesses of now. So whatever the number of clients and however
// many guess at once, a subject gets at most SharedBurst wrong guesses plus
// one each SharedEvery, and a refusal lasts only until the next is due.
//
// A guess takes its place in the budget before the secret is checked
// (Reserve), under the throttle's lock, so guesses sent at once cannot all
// pass a check made before any of them failed; a right one gives it back
// (Release), so only wrong guesses spend it.

// Reserve is Wait for a shared subject: when it answers 0, it has also taken
// one guess of the subject's budget, which the caller, once it checked the
// secret, spends with Failed or gives back with Release. When the budget is
// spent, every client is refused, the right secret too (a refusal that let
// the right one through would tell which was right), for as long as the next
// guess is due: SharedEvery at most, for a client that has failed on the
// subject in the window (SharedReserve+1) times that.
func (t *Throttle) Reserve(subject, client string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	client = AddressKey(client)
	if wait := t.wait(subject, client); wait > 0 || t.limits.SharedEvery <= 0 {
		return wait
	}
	every, now := t.limits.SharedEvery, t.now()
	full, _ := t.budgets.Get(subject)
	full = latest(full, now).Add(every)
	allowed := t.limits.SharedBurst
	if t.current(pairKey(subject, client)) != nil { // it failed already: the reserve is for others
		allowed -= t.limits.SharedReserve
	}
	if over := full.Sub(now) - time.Duration(allowed)*every; over > 0 {
		return over
	}
	t.budgets.Put(subject, full)
	return 0
}

// Release gives back a guess Reserve took, the secret being right.
func (t *Throttle) Release(subject string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if full, ok := t.budgets.Get(subject); ok {
		t.budgets.Put(subject, full.Add(-t.limits.SharedEvery))
	}
}
