package app_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
	"calendar/repository/bolt"
	"calendar/repository/ferretdbtest"
	"calendar/repository/mongo"
)

// The site keeps an administrator who can sign in (administrators.go):
// whatever deletes, demotes or revokes, and however many do it at once, on
// either store.

// stores start a store of each kind, on which fresh opens a new, empty
// one: the rule spans records, and each store keeps its records its own way.
var stores = []storeKind{
	{"embedded", func(t *testing.T) func() calendar.Store {
		return func() calendar.Store {
			s, err := bolt.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close(context.Background()) })
			return s
		}
	}},
	{"mongodb", func(t *testing.T) func() calendar.Store {
		uri, databases := ferretdbtest.Start(t), 0
		return func() calendar.Store {
			databases++
			s, err := mongo.Open(context.Background(), uri, fmt.Sprint("calendar", databases))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close(context.Background()) })
			return s
		}
	}},
}

type storeKind struct {
	name  string
	start func(t *testing.T) (fresh func() calendar.Store)
}

// embeddedStore is a new embedded store.
func embeddedStore(t *testing.T) calendar.Store { return stores[0].start(t)() }

// site is the user service over a store, with its first administrator.
type site struct {
	t     *testing.T
	ctx   context.Context
	store calendar.Store
	users *app.Users
	admin app.Caller
}

func siteOn(t *testing.T, store calendar.Store) *site {
	t.Helper()
	idx, err := index.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	s := &site{t: t, ctx: context.Background(), store: store, users: app.New(store, idx, app.Settings{SiteURL: "http://x"}).Users}
	s.must(s.users.EnsureAdmin(s.ctx, "a long enough password"))
	s.admin = s.caller(1)
	return s
}

func (s *site) must(_ any, err error) {
	s.t.Helper()
	if err != nil {
		s.t.Fatal(err)
	}
}

// caller is the user as stored, as a request of theirs would carry them.
func (s *site) caller(id int64) app.Caller {
	s.t.Helper()
	u, err := s.store.Users().Get(s.ctx, id)
	if err != nil {
		s.t.Fatal(err)
	}
	return app.Caller{User: u}
}

// administrator makes a new administrator who can sign in.
func (s *site) administrator(login string) app.Caller {
	s.t.Helper()
	made, err := s.users.Create(s.ctx, s.admin, app.UserInput{Login: login, Role: calendar.RoleAdministrator})
	if err != nil {
		s.t.Fatal(err)
	}
	return s.caller(made.ID)
}

// onlyPassword is the UUID of the user's one application password.
func (s *site) onlyPassword(id int64) string {
	s.t.Helper()
	listed, err := s.users.ApplicationPasswords(s.ctx, s.admin, id)
	if err != nil || len(listed) != 1 {
		s.t.Fatalf("the passwords of user %d: %+v, %v; want one", id, listed, err)
	}
	return listed[0].UUID
}

// usableAdministrators counts, in the store, the administrators who can sign in.
func (s *site) usableAdministrators() int {
	s.t.Helper()
	everyone, err := s.store.Users().Scan(s.ctx, 0, 1000)
	if err != nil {
		s.t.Fatal(err)
	}
	n := 0
	for _, u := range everyone {
		if u.Role == calendar.RoleAdministrator && len(u.ApplicationPasswords()) > 0 {
			n++
		}
	}
	return n
}

// forbidden checks that err is the refusal of the action, 403 with its code.
func forbidden(t *testing.T, err error, code string) {
	t.Helper()
	var e *calendar.Error
	if !errors.As(err, &e) || e.Kind != calendar.KindForbidden || e.Code != code {
		t.Fatalf("err = %v, want a refusal %s", err, code)
	}
}

// takingAway are the three ways an administrator takes another away.
var takingAway = []struct {
	name string
	take func(s *site, by, other app.Caller) error
	// code refuses the one that would leave no administrator.
	code string
}{
	{"delete", func(s *site, by, other app.Caller) error {
		_, err := s.users.Delete(s.ctx, by, other.User.ID)
		return err
	}, "rest_user_cannot_delete"},
	{"demote", func(s *site, by, other app.Caller) error {
		_, err := s.users.SetRole(s.ctx, by, other.User.ID, calendar.RoleEditor)
		return err
	}, "rest_user_invalid_role"},
	{"revoke the only password of", func(s *site, by, other app.Caller) error {
		_, err := s.users.RevokeApplicationPassword(s.ctx, by, other.User.ID, other.User.ApplicationPasswords()[0].UUID)
		return err
	}, "rest_cannot_delete_application_password"},
}

// Two administrators, the only two who can sign in, each take the other
// away at the same instant, round after round: exactly one goes through,
// the other is refused, and one administrator is always left. Before the
// guard, both deletes and both revocations went through (none left), and
// two demotions could both be refused.
func TestTwoAdministratorsTakingEachOtherAwayAtOnceLeaveOne(t *testing.T) {
	t.Parallel()
	const rounds = 5
	for _, store := range stores {
		t.Run(store.name, func(t *testing.T) {
			t.Parallel()
			fresh := store.start(t)
			for _, change := range takingAway {
				t.Run(change.name, func(t *testing.T) {
					s := siteOn(t, fresh())
					first := s.admin
					for round := range rounds {
						second := s.administrator(fmt.Sprint("second-", round))
						pairs := [2][2]app.Caller{{first, second}, {second, first}}
						var errs [2]error
						var wg sync.WaitGroup
						start := make(chan struct{})
						for i, pair := range pairs {
							wg.Add(1)
							go func() {
								defer wg.Done()
								<-start
								errs[i] = change.take(s, pair[0], pair[1])
							}()
						}
						close(start)
						wg.Wait()
						if n := s.usableAdministrators(); n != 1 {
							t.Fatalf("round %d: %d administrators can sign in, want 1 (errors: %v)", round, n, errs)
						}
						winner, loser := 0, 1
						if errs[0] != nil {
							winner, loser = 1, 0
						}
						if errs[winner] != nil {
							t.Fatalf("round %d: both refused: %v", round, errs)
						}
						forbidden(t, errs[loser], change.code)
						first = s.caller(pairs[winner][0].User.ID) // the next round starts from the one left
						s.admin = first
					}
				})
			}
		})
	}
}

// Only an administrator who can sign in counts: one whose passwords were
// all revoked does not keep the site.
func TestTheLastAdministratorWhoCanSignInStays(t *testing.T) {
	t.Parallel()
	s := siteOn(t, embeddedStore(t))
	locked := s.administrator("locked-out")
	s.must(s.users.RevokeApplicationPassword(s.ctx, s.admin, locked.User.ID, s.onlyPassword(locked.User.ID)))
	if s.usableAdministrators() != 1 {
		t.Fatal("the setup: one administrator who signs in, another who cannot")
	}
	mine := s.onlyPassword(s.admin.User.ID)

	_, err := s.users.RevokeApplicationPassword(s.ctx, s.admin, s.admin.User.ID, mine)
	forbidden(t, err, "rest_cannot_delete_application_password")
	_, err = s.users.SetRole(s.ctx, s.admin, s.admin.User.ID, calendar.RoleEditor)
	forbidden(t, err, "rest_user_invalid_role")
	_, err = s.users.Delete(s.ctx, locked, s.admin.User.ID) // a request of theirs from before
	forbidden(t, err, "rest_user_cannot_delete")
	if s.usableAdministrators() != 1 {
		t.Fatal("a refused change took the administrator away")
	}

	// What takes no administrator who signs in away goes through.
	s.must(s.users.SetRole(s.ctx, s.admin, locked.User.ID, calendar.RoleEditor))
	s.must(s.users.Delete(s.ctx, s.admin, locked.User.ID))
	second, err := s.users.CreateApplicationPassword(s.ctx, s.admin, s.admin.User.ID, app.ApplicationPasswordInput{Name: "Second"})
	s.must(second, err)
	s.must(s.users.RevokeApplicationPassword(s.ctx, s.admin, s.admin.User.ID, mine))
	_, err = s.users.RevokeApplicationPassword(s.ctx, s.admin, s.admin.User.ID, second.UUID)
	forbidden(t, err, "rest_cannot_delete_application_password")
}

// The guard is a lease: a change that would take an administrator away
// waits while another holds it, and goes through once it is given back; a
// lease left by a holder that died (expired) holds nothing.
func TestAChangeOfAdministratorsWaitsForTheGuardAndNotForADeadHolder(t *testing.T) {
	t.Parallel()
	s := siteOn(t, embeddedStore(t))
	guards := s.store.Guards()
	guard := &calendar.Guard{Name: "administrators", Lease: &calendar.Lease{Holder: "a replica that died", Until: time.Now().Add(-time.Second)}}
	s.must(nil, guards.Insert(s.ctx, guard))
	first := s.administrator("first")
	s.must(s.users.Delete(s.ctx, s.admin, first.User.ID))

	guard, err := guards.Get(s.ctx, guard.ID)
	s.must(nil, err)
	if guard.Lease != nil {
		t.Fatalf("the delete left the guard held: %+v", guard.Lease)
	}
	guard.Lease = &calendar.Lease{Holder: "another request", Until: time.Now().Add(time.Hour)}
	s.must(nil, guards.Update(s.ctx, guard))
	second := s.administrator("second")

	// While another holds it, a demotion waits: one whose request ends
	// meanwhile writes nothing.
	ctx, cancel := context.WithCancel(s.ctx)
	cancel()
	if _, err := s.users.SetRole(ctx, s.admin, second.User.ID, calendar.RoleEditor); !errors.Is(err, context.Canceled) {
		t.Fatalf("a demotion whose request ended while the guard was held: %v, want context.Canceled", err)
	}
	if u, _ := s.store.Users().Get(s.ctx, second.User.ID); u.Role != calendar.RoleAdministrator {
		t.Fatalf("the demotion whose request ended wrote %s", u.Role)
	}
	// Once the guard is given back, a delete that waited goes through.
	deleted := make(chan error, 1)
	go func() {
		_, err := s.users.Delete(s.ctx, s.admin, second.User.ID)
		deleted <- err
	}()
	guard.Lease = nil
	s.must(nil, guards.Update(s.ctx, guard))
	s.must(nil, <-deleted)
	if _, err := s.store.Users().Get(s.ctx, second.User.ID); !errors.Is(err, calendar.ErrNotFound) {
		t.Fatalf("after the guard was given back: %v, want deleted", err)
	}
}

// The start tells a store whose users include no administrator who can sign
// in, and which administrator only lost their passwords.
func TestAStoreWithUsersButNoAdministratorWhoSignsInIsTold(t *testing.T) {
	t.Parallel()
	s := siteOn(t, embeddedStore(t))
	told := func() (bool, string) {
		none, passwordless, err := s.users.NoUsableAdministrator(s.ctx)
		s.must(nil, err)
		return none, passwordless
	}
	if none, _ := told(); none {
		t.Fatal("the first administrator signs in")
	}
	s.must(s.users.Create(s.ctx, s.admin, app.UserInput{Login: "ed", Role: calendar.RoleEditor}))
	admin, _ := s.store.Users().Get(s.ctx, s.admin.User.ID)
	admin.Passwords, admin.PasswordHash = nil, "" // as a hand edit of the store would leave it
	s.must(nil, s.store.Users().Update(s.ctx, admin))
	if none, passwordless := told(); !none || passwordless != "admin" {
		t.Fatalf("an administrator without passwords: %v, %q; want none, admin", none, passwordless)
	}
	admin.Role = calendar.RoleEditor
	s.must(nil, s.store.Users().Update(s.ctx, admin))
	if none, passwordless := told(); !none || passwordless != "" {
		t.Fatalf("no administrator: %v, %q; want none, no login", none, passwordless)
	}

	// The way back, for whoever holds the store: a role, then a password.
	v, signsIn, err := s.users.SetRoleOf(s.ctx, "ED", calendar.RoleAdministrator)
	if err != nil || v.Role != calendar.RoleAdministrator || !signsIn {
		t.Fatalf("set-role: %+v, %v, %v", v, signsIn, err)
	}
	if none, _ := told(); none {
		t.Fatal("an editor made administrator does not count")
	}
	_, _, err = s.users.SetRoleOf(s.ctx, "ed", calendar.RoleSubscriber)
	forbidden(t, err, "rest_user_invalid_role")
	if _, _, err := s.users.SetRoleOf(s.ctx, "nobody", calendar.RoleAdministrator); !errors.Is(err, calendar.ErrNotFound) {
		t.Fatalf("set-role of an unknown login: %v", err)
	}
	_, signsIn, err = s.users.SetRoleOf(s.ctx, "admin", calendar.RoleAdministrator)
	if err != nil || signsIn {
		t.Fatalf("an administrator without passwords: %v, %v; want signsIn false", signsIn, err)
	}
}
