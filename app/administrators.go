package app

import (
	"context"
	"errors"
	"time"

	"calendar/app/calendar"
)

// A site keeps at least one usable administrator: a user of the
// administrator role who can sign in, having an application password. Three
// changes can take one away: deleting an administrator, giving them another
// role, and revoking their last password.
//
// The rule spans every user, while each user is a record of its own written
// by a compare-and-swap on its revision alone: two administrators deleting
// (demoting, revoking the last password of) each other at once each count
// the other and both writes go through. The embedded store could count and
// write in one transaction; MongoDB only in a multi-document transaction,
// which needs a replica set (and FerretDB, in the tests, has none). The rule
// must hold alike on both, so those changes take turns instead, on one
// replica or several:
//
//  1. A write of a user that would make a usable administrator unusable or
//     gone (decided in the write loop, on the user as stored at each
//     attempt, so one promoted meanwhile is guarded at the next attempt)
//     first takes the lease of one guard record, calendar.Guard
//     "administrators", by a compare-and-swap on the guard's revision, as a
//     series' lease is taken (series_lease.go). A lease another holds is
//     waited for, up to maxLeaseWait, then 409.
//  2. Holding it, the write looks in the store for another usable
//     administrator; finding none, it is refused (403).
//  3. It renews the lease if a third of it has passed, writes the user (its
//     own compare-and-swap, applied again after a lost race, still under
//     the lease), and gives the lease back however it ended.
//
// Changes that cannot take a usable administrator away (a promotion, a new
// password, a reset, a write of anyone else) take no lease: they can only
// add usable administrators, so what the holder found stays true until its
// write. A holder that dies leaves its lease to expire (leaseTTL): the next
// change waits that long at most. What a lease cannot fence is a holder
// stalled for longer than a lease lasts between its renewal and its one
// write of the user; renewing right before that write leaves only that
// write's own duration.

// guardOfAdministrators names the guard that the changes which could take
// the site's last usable administrator away take first.
const guardOfAdministrators = "administrators"

// usersPage is how many users one read of the store brings when the users
// are looked through (for an administrator, at start and under the guard).
const usersPage = 1000

// usableAdministrator reports whether u (nil: deleted) is an administrator
// who can sign in.
func usableAdministrator(u *calendar.User) bool {
	return u != nil && u.Role == calendar.RoleAdministrator && len(u.ApplicationPasswords()) > 0
}

// keepAnAdministrator lets a write take a user from before to after (nil:
// deleted) only if the site keeps a usable administrator: a write that
// takes one away takes the guard (held until the write loop ends) and looks
// for another in the store under it.
func (s *Users) keepAnAdministrator(ctx context.Context, guard *guardHold, before, after *calendar.User) error {
	if !usableAdministrator(before) || usableAdministrator(after) {
		return nil
	}
	if err := guard.take(ctx); err != nil {
		return err
	}
	another := false
	err := s.eachUser(ctx, func(u *calendar.User) bool {
		another = u.ID != before.ID && usableAdministrator(u)
		return !another
	})
	switch {
	case err != nil:
		return err
	case !another:
		return errLastAdministrator()
	}
	return guard.keep(ctx)
}

// eachUser reads the users in ID order, a page at a time, while each says
// to go on.
func (s *Users) eachUser(ctx context.Context, goOn func(*calendar.User) bool) error {
	var after int64
	for {
		page, err := s.repo.Scan(ctx, after, usersPage)
		if err != nil || len(page) == 0 {
			return err
		}
		for _, u := range page {
			if !goOn(u) {
				return nil
			}
		}
		after = page[len(page)-1].ID
	}
}

// NoUsableAdministrator reports whether the store has users but none of
// them is an administrator who can sign in (a store edited or restored by
// hand, or written by a release before this rule), and then the login of an
// administrator who lost every password ("" when none): what the operator
// needs to bring one back from the command line. A store without users is
// not such a store: EnsureAdmin makes one.
func (s *Users) NoUsableAdministrator(ctx context.Context) (none bool, passwordless string, err error) {
	users, usable := 0, false
	err = s.eachUser(ctx, func(u *calendar.User) bool {
		users++
		if u.Role == calendar.RoleAdministrator && passwordless == "" {
			passwordless = u.Login
		}
		usable = usableAdministrator(u)
		return !usable
	})
	if err != nil || users == 0 || usable {
		return false, "", err
	}
	return true, passwordless, nil
}

func errLastAdministrator() *calendar.Error {
	return calendar.NewError(calendar.KindForbidden, lastAdministratorCode,
		"The site keeps at least one administrator who can sign in: make another user an administrator first.")
}

const lastAdministratorCode = "rest_last_administrator"

// refusedAs answers the refusal to leave the site without a usable
// administrator as the action's own error (WordPress' code for the action
// refused); any other error as it is.
func refusedAs(err error, code, message string) error {
	var e *calendar.Error
	if errors.As(err, &e) && e.Code == lastAdministratorCode {
		return calendar.NewError(calendar.KindForbidden, code, message)
	}
	return err
}

func errGuardBusy() *calendar.Error {
	return calendar.NewError(calendar.KindConflict, "rest_conflict",
		"Another change of the site's administrators is under way; try again.")
}

// guardHold is one write's hold of a guard's lease; it holds nothing until
// take.
type guardHold struct {
	guards  calendar.Repo[*calendar.Guard]
	name    string
	clock   func() time.Time // leaseClock: the wall clock
	token   string
	guard   *calendar.Guard // as last read or written; nil until taken
	renewed time.Time
}

func (s *Users) guardOf(name string) *guardHold {
	return &guardHold{guards: s.guards, name: name, clock: leaseClock}
}

// lease is this hold's lease from now on.
func (h *guardHold) lease() *calendar.Lease {
	return &calendar.Lease{Holder: h.token, Until: h.clock().Add(leaseTTL)}
}

// another reports whether another holds the lease now.
func (h *guardHold) another(l *calendar.Lease) bool {
	return l != nil && l.Holder != "" && l.Holder != h.token && h.clock().Before(l.Until)
}

// take takes the lease, once: the guard is found (made on first use), and
// a lease another holds is waited for, up to maxLeaseWait, then 409.
func (h *guardHold) take(ctx context.Context) error {
	if h.guard != nil {
		return nil
	}
	g, err := h.find(ctx)
	if err != nil {
		return err
	}
	h.token = newLeaseToken()
	deadline := h.clock().Add(maxLeaseWait)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		err := editGuard(ctx, h.guards, g, func(g *calendar.Guard) error {
			if h.another(g.Lease) {
				return errLeaseTaken
			}
			g.Lease = h.lease()
			return nil
		})
		if !errors.Is(err, errLeaseTaken) {
			if err == nil {
				h.guard, h.renewed = g, h.clock()
			}
			return err
		}
		if h.clock().After(deadline) {
			return errGuardBusy()
		}
		if err := pause(ctx, wait); err != nil {
			return err
		}
		if g, err = h.guards.Get(ctx, g.ID); err != nil {
			return err
		}
	}
}

// find loads the guard, or makes it on its first use.
func (h *guardHold) find(ctx context.Context) (*calendar.Guard, error) {
	g, err := h.guards.FindByKey(ctx, "name", h.name)
	if !errors.Is(err, calendar.ErrNotFound) {
		return g, err
	}
	g = &calendar.Guard{Name: h.name}
	switch err := h.guards.Insert(ctx, g); {
	case errors.Is(err, calendar.ErrConflict): // another made it first
		return h.guards.FindByKey(ctx, "name", h.name)
	case err != nil:
		return nil, err
	}
	return g, nil
}

// keep renews the lease once a third of it has passed, so that the write
// that follows holds it for two thirds of a lease at least. A lease another
// took meanwhile (this holder stalled past its end) ends the write: 409.
func (h *guardHold) keep(ctx context.Context) error {
	if h.clock().Sub(h.renewed) < leaseTTL/3 {
		return nil
	}
	err := editGuard(ctx, h.guards, h.guard, func(g *calendar.Guard) error {
		if g.Lease == nil || g.Lease.Holder != h.token {
			return errLeaseTaken
		}
		g.Lease = h.lease()
		return nil
	})
	if errors.Is(err, errLeaseTaken) {
		return errGuardBusy()
	}
	h.renewed = h.clock()
	return err
}

// release gives the lease back, if taken and still this hold's. It is
// written even when the request's context has ended, else the next change
// would wait for the lease to expire; a release that fails leaves it to.
func (h *guardHold) release(ctx context.Context) {
	if h.guard == nil {
		return
	}
	_ = editGuard(context.WithoutCancel(ctx), h.guards, h.guard, func(g *calendar.Guard) error {
		if g.Lease == nil || g.Lease.Holder != h.token {
			return errUnchanged
		}
		g.Lease = nil
		return nil
	})
	h.guard = nil
}
