package app

import (
	"sync"
	"time"

	"calendar/app/calendar"
	"calendar/app/lru"
)

// How many occurrences one account's series writes may have the service
// make. Each series is bounded (MaxOccurrencesAhead a pass), but an author
// can write series after series: four connections of one made 30,000
// events a minute. An account spends from an allowance that refills over
// the hour; a series write made while it is spent is a 429 with
// Retry-After, refused before anything is stored. Administrators, who may
// do anything to the site anyway, spend nothing. The allowance is per
// replica.

// DefaultSeriesQuota is the occurrences an account's writes make an hour
// (Settings.SeriesQuota).
const DefaultSeriesQuota = 5000

// seriesQuota is every account's allowance; at most maxQuotaAccounts are
// kept, the least recently used forgotten first (a forgotten one starts
// full again, which only an account idle past the others can be).
type seriesQuota struct {
	perHour  float64
	now      func() time.Time
	mu       sync.Mutex
	accounts *lru.Cache[int64, *allowance]
}

type allowance struct {
	left    float64
	updated time.Time
}

const maxQuotaAccounts = 10000

func newSeriesQuota(perHour int, now func() time.Time) *seriesQuota {
	return &seriesQuota{perHour: float64(perHour), now: now, accounts: lru.New[int64, *allowance](maxQuotaAccounts)}
}

// exempt: no allowance for administrators, or when quotas are off.
func (q *seriesQuota) exempt(actor *calendar.User) bool {
	return q.perHour <= 0 || actor == nil || actor.Role == calendar.RoleAdministrator
}

// current refills the account's allowance to now (the caller holds mu).
func (q *seriesQuota) current(actor *calendar.User) *allowance {
	a, ok := q.accounts.Get(actor.ID)
	now := q.now()
	if !ok {
		a = &allowance{left: q.perHour, updated: now}
		q.accounts.Put(actor.ID, a)
	}
	a.left = min(q.perHour, a.left+now.Sub(a.updated).Hours()*q.perHour)
	a.updated = now
	return a
}

// allow answers a 429 when the account has nothing left to spend.
func (q *seriesQuota) allow(actor *calendar.User) error {
	if q.exempt(actor) {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	a := q.current(actor)
	if a.left >= 1 {
		return nil
	}
	wait := time.Duration((1 - a.left) / q.perHour * float64(time.Hour))
	e := calendar.NewError(calendar.KindThrottled, "rest_too_many_occurrences",
		"Your series have made as many occurrences as an account may in an hour; try again later.")
	e.RetryAfter = wait
	return e
}

// spend takes what a write made from the account's allowance, which may go
// below nothing: the next writes then wait longer.
func (q *seriesQuota) spend(actor *calendar.User, made int) {
	if q.exempt(actor) || made == 0 {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.current(actor).left -= float64(made)
}
