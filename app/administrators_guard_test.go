package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"calendar/app/calendar"
	"calendar/app/throttle"
	"calendar/repository/bolt"
)

// A hold of the guard renews its lease before the write it guards once a
// third of it has passed; a holder stalled past its lease, which another
// took meanwhile, writes nothing (409) and leaves the other's lease alone.
func TestAGuardHolderStalledPastItsLeaseWritesNothing(t *testing.T) {
	t.Parallel()
	store, err := bolt.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(context.Background())
	ctx, users := context.Background(), NewUsers(store, throttle.New(throttle.Limits{}))
	now := time.Now()
	hold := func() *guardHold {
		h := users.guardOf(guardOfAdministrators)
		h.clock = func() time.Time { return now }
		return h
	}
	lease := func() *calendar.Lease {
		g, err := store.Guards().FindByKey(ctx, "name", guardOfAdministrators)
		if err != nil {
			t.Fatal(err)
		}
		return g.Lease
	}

	stalled := hold()
	if err := stalled.take(ctx); err != nil {
		t.Fatal(err)
	}
	now = now.Add(leaseTTL / 2)
	if err := stalled.keep(ctx); err != nil {
		t.Fatal(err)
	}
	if l := lease(); l.Holder != stalled.token || l.Until.Sub(now.Add(leaseTTL)).Abs() > time.Millisecond { // stored to the millisecond
		t.Fatalf("after half a lease, the lease is %+v, want it renewed until %v", l, now.Add(leaseTTL))
	}

	now = now.Add(2 * leaseTTL)
	other := hold()
	if err := other.take(ctx); err != nil {
		t.Fatalf("a lease expired is not taken over: %v", err)
	}
	var e *calendar.Error
	if err := stalled.keep(ctx); !errors.As(err, &e) || e.Code != "rest_conflict" {
		t.Fatalf("the stalled holder's renewal: %v, want rest_conflict", err)
	}
	stalled.release(ctx)
	if l := lease(); l == nil || l.Holder != other.token {
		t.Fatalf("the stalled holder gave back a lease not its own: %+v", l)
	}
	other.release(ctx)
	if l := lease(); l != nil {
		t.Fatalf("the lease given back is still %+v", l)
	}
}
