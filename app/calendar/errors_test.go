package calendar_test

import (
	"errors"
	"fmt"
	"testing"

	"calendar/app/calendar"
)

// What a storage outcome that reaches a client is answered as: a lost race
// or a record deleted meanwhile is a conflict to retry, a store out of
// reach a 503 that says when to come back, anything else a 500 that hides
// its cause.
func TestStorageOutcomesAreAnsweredAsTheClientCanActOnThem(t *testing.T) {
	for _, c := range []struct {
		err        error
		kind       calendar.Kind
		code       string
		retryAfter bool
	}{
		{calendar.ErrStale, calendar.KindConflict, "rest_conflict", false},
		{fmt.Errorf("update: %w", calendar.ErrConflict), calendar.KindConflict, "rest_conflict", false},
		{fmt.Errorf("reread: %w", calendar.ErrNotFound), calendar.KindConflict, "rest_conflict", false},
		{fmt.Errorf("find: %w", calendar.ErrUnavailable), calendar.KindUnavailable, "store_unavailable", true},
		{errors.New("disk on fire"), calendar.KindInternal, "internal_error", false},
	} {
		e := calendar.AsError(c.err)
		if e.Kind != c.kind || e.Code != c.code || (e.RetryAfter > 0) != c.retryAfter {
			t.Errorf("%v: answered %v %s (Retry-After %v), want %v %s", c.err, e.Kind, e.Code, e.RetryAfter, c.kind, c.code)
		}
		if e.Kind == calendar.KindInternal && e.Message != "The server could not complete the request." {
			t.Errorf("%v: a 500 tells its cause: %q", c.err, e.Message)
		}
	}
}
