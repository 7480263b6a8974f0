package app

import (
	"context"
	"strconv"
	"time"

	"calendar/app/calendar"
)

// What a wrong secret (a sign-in's password, a post's password) is answered:
// slower, then refused, as the throttle (app/throttle) counts them.

// ErrTooManyAttempts is the answer to a client refused by the throttle: its
// address, or a post guessed too often from all addresses.
func ErrTooManyAttempts(wait time.Duration) *calendar.Error {
	e := calendar.NewError(calendar.KindThrottled, "too_many_attempts", "Too many wrong passwords; try again later.")
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
