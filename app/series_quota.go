package app

import (
	"context"
	"errors"
	"time"

	"calendar/app/calendar"
)

// How many occurrences one account's series writes may have the service
// make. Each series is bounded (MaxOccurrencesAhead a pass), but an author
// can write series after series: four connections of one made 30,000
// events a minute. An account spends from an allowance that refills over
// the hour; a series write made while it is spent is a 429 with
// Retry-After, refused before anything is stored. Administrators, who may
// do anything to the site anyway, spend nothing. The allowance is kept in
// the account's record (calendar.User.SeriesAllowance), so every replica
// spends from the same one: a read before a series write, and one
// compare-and-swap of the user after a write that made occurrences.

// DefaultSeriesQuota is the occurrences an account's writes make an hour
// (Settings.SeriesQuota).
const DefaultSeriesQuota = 5000

// seriesQuota is every account's allowance, kept with the account.
type seriesQuota struct {
	perHour float64
	now     func() time.Time
	users   *Users
}

func newSeriesQuota(perHour int, now func() time.Time, users *Users) *seriesQuota {
	return &seriesQuota{perHour: float64(perHour), now: now, users: users}
}

// exempt: no allowance for administrators, or when quotas are off.
func (q *seriesQuota) exempt(actor *calendar.User) bool {
	return q.perHour <= 0 || actor == nil || actor.Role == calendar.RoleAdministrator
}

// left is what an allowance holds now: what it held, refilled at the
// hour's rate since, up to the hour's; a full hour's when none was spent.
func (q *seriesQuota) left(a *calendar.Allowance, now time.Time) float64 {
	if a == nil {
		return q.perHour
	}
	return min(q.perHour, a.Left+max(now.Sub(a.At).Hours(), 0)*q.perHour)
}

// allow answers a 429 when the account, as stored, has nothing left to
// spend.
func (q *seriesQuota) allow(ctx context.Context, actor *calendar.User) error {
	if q.exempt(actor) {
		return nil
	}
	u, err := q.users.repo.Get(ctx, actor.ID)
	if errors.Is(err, calendar.ErrNotFound) {
		return nil // the write fails as any other of a user deleted meanwhile
	}
	if err != nil {
		return err
	}
	left := q.left(u.SeriesAllowance, q.now())
	if left >= 1 {
		return nil
	}
	e := calendar.NewError(calendar.KindThrottled, "rest_too_many_occurrences",
		"Your series have made as many occurrences as an account may in an hour; try again later.")
	e.RetryAfter = time.Duration((1 - left) / q.perHour * float64(time.Hour))
	return e
}

// spend takes what a write made from the account's allowance, which may go
// below nothing: the next writes then wait longer. Two replicas spending at
// once both count: the user's write is a compare-and-swap (editUser).
func (q *seriesQuota) spend(ctx context.Context, actor *calendar.User, made int) error {
	if q.exempt(actor) || made == 0 {
		return nil
	}
	_, err := q.users.editUser(ctx, actor.ID, Precondition{}, func(u *calendar.User) error {
		now := q.now()
		u.SeriesAllowance = &calendar.Allowance{Left: q.left(u.SeriesAllowance, now) - float64(made), At: now}
		return nil
	})
	var e *calendar.Error
	if errors.As(err, &e) && e.Kind == calendar.KindNotFound {
		return nil // a user deleted meanwhile spends nothing
	}
	return err
}
