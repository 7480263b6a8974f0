package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"regexp"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/throttle"
)

// UserView is a user as the API shows it: never with a password.
type UserView struct {
	ID    int64         `json:"id"`
	Login string        `json:"login"`
	Role  calendar.Role `json:"role"`
}

// CreatedUser is the answer to a user creation: the only time the password is shown.
type CreatedUser struct {
	UserView
	ApplicationPassword string `json:"application_password"`
}

// DeletedUser is the answer to a user deletion.
type DeletedUser struct {
	Deleted  bool     `json:"deleted"`
	Previous UserView `json:"previous"`
}

func viewOf(u *calendar.User) UserView { return UserView{ID: u.ID, Login: u.Login, Role: u.Role} }

// Users manages users and authenticates requests.
type Users struct {
	repo calendar.Repo[*calendar.User]
	// guards keep the site's last usable administrator (administrators.go).
	guards   calendar.Repo[*calendar.Guard]
	now      func() time.Time
	throttle *throttle.Throttle
}

// NewUsers returns the user service over a store's users; wrong passwords
// count against the throttle.
func NewUsers(store calendar.Store, throttle *throttle.Throttle) *Users {
	return &Users{repo: store.Users(), guards: store.Guards(), now: time.Now, throttle: throttle}
}

// AdminLogin is the login of the user created on first start.
const AdminLogin = "admin"

// MinAdminPasswordLength is the shortest accepted bootstrap password.
const MinAdminPasswordLength = 12

// EnsureAdmin creates user "admin" (administrator) when the store has no user.
// It returns the password when it generated one, so the caller can show it once.
func (s *Users) EnsureAdmin(ctx context.Context, password string) (generated string, err error) {
	n, err := s.repo.Count(ctx)
	if err != nil || n > 0 {
		return "", err
	}
	if password == "" {
		password = NewApplicationPassword()
		generated = password
	}
	admin := s.newUser(AdminLogin, calendar.RoleAdministrator, password)
	if err := s.repo.Insert(ctx, admin); err != nil {
		if errors.Is(err, calendar.ErrConflict) { // another replica created it first
			return "", nil
		}
		return "", err
	}
	return generated, nil
}

// newUser is a user with password as their first application password.
func (s *Users) newUser(login string, role calendar.Role, password string) *calendar.User {
	now := s.now().UTC()
	return &calendar.User{Login: login, Role: role, Created: now,
		Passwords: []calendar.ApplicationPassword{{UUID: newUUID(), Name: calendar.FirstPasswordName, Hash: hashPassword(password), Created: now}}}
}

// Authenticate resolves a Basic credential: a login and one of its
// application passwords. A wrong login or password is a 401, answered more
// slowly, then refused (429), as the throttle says for that login from that
// client (the address of the request).
func (s *Users) Authenticate(ctx context.Context, client, login, password string) (*calendar.User, error) {
	return s.signIn(ctx, client, "login:"+strings.ToLower(login), func() (*calendar.User, string, error) {
		u, err := s.repo.FindByKey(ctx, "login", strings.ToLower(login))
		if err != nil {
			return nil, "", err
		}
		hash, found := []byte(hashPassword(password)), ""
		for _, p := range u.ApplicationPasswords() { // each compared in full, so the time tells nothing
			if subtle.ConstantTimeCompare([]byte(p.Hash), hash) == 1 {
				found = p.UUID
			}
		}
		if found == "" {
			return nil, "", calendar.ErrNotFound
		}
		return u, found, nil
	})
}

// AuthenticateToken resolves a Bearer credential: an application password
// alone, so guesses are counted per client only.
func (s *Users) AuthenticateToken(ctx context.Context, client, password string) (*calendar.User, error) {
	return s.signIn(ctx, client, "bearer", func() (*calendar.User, string, error) {
		if normalizePassword(password) == "" {
			return nil, "", calendar.ErrNotFound
		}
		hash := hashPassword(password)
		u, err := s.repo.FindByKey(ctx, "password", hash)
		if err != nil {
			return nil, "", err
		}
		for _, p := range u.ApplicationPasswords() {
			if p.Hash == hash {
				return u, p.UUID, nil
			}
		}
		return nil, "", calendar.ErrNotFound
	})
}

// signIn runs a credential check under the throttle: find answers the user
// and which of their passwords signed, or ErrNotFound for a wrong
// credential. The password's use is recorded.
func (s *Users) signIn(ctx context.Context, client, subject string, find func() (*calendar.User, string, error)) (*calendar.User, error) {
	if wait := s.throttle.Wait(subject, client); wait > 0 {
		return nil, ErrTooManyAttempts(wait)
	}
	u, uuid, err := find()
	switch {
	case errors.Is(err, calendar.ErrNotFound):
		hold(ctx, s.throttle.Failed(subject, client))
		return nil, calendar.ErrIncorrectPassword()
	case err != nil:
		return nil, err
	}
	s.throttle.Succeeded(subject, client)
	s.recordUse(ctx, u, uuid, client)
	return u, nil
}

var loginPattern = regexp.MustCompile(`^[A-Za-z0-9 _.@-]{1,60}$`)

// Create adds a user with a new application password, shown only in this answer.
func (s *Users) Create(ctx context.Context, caller Caller, in UserInput) (*CreatedUser, error) {
	login := strings.TrimSpace(in.Login)
	if !loginPattern.MatchString(login) {
		return nil, calendar.ErrInvalidParam("login", "login must be 1 to 60 letters, digits, spaces or _ . @ -")
	}
	if !in.Role.Valid() {
		return nil, errInvalidRole()
	}
	if !caller.Can(calendar.CapManageUsers) {
		return nil, calendar.ErrForbidden(caller.User)
	}
	password := NewApplicationPassword()
	u := s.newUser(login, in.Role, password)
	if err := s.repo.Insert(ctx, u); err != nil {
		if errors.Is(err, calendar.ErrConflict) {
			return nil, calendar.NewError(calendar.KindInvalid, "existing_user_login", "Sorry, that username already exists!")
		}
		return nil, err
	}
	return &CreatedUser{UserView: viewOf(u), ApplicationPassword: password}, nil
}

// maxUsersListed bounds one listing; a site with more users pages through Scan.
const maxUsersListed = 10000

// List returns every user in ID order, without passwords.
func (s *Users) List(ctx context.Context, caller Caller) ([]UserView, error) {
	if !caller.Can(calendar.CapManageUsers) {
		return nil, calendar.ErrForbidden(caller.User)
	}
	return s.Everyone(ctx)
}

// Everyone lists every user in ID order, without passwords, for whoever
// holds the store itself (the command line).
func (s *Users) Everyone(ctx context.Context) ([]UserView, error) {
	users, err := s.repo.Scan(ctx, 0, maxUsersListed)
	if err != nil {
		return nil, err
	}
	out := make([]UserView, 0, len(users))
	for _, u := range users {
		out = append(out, viewOf(u))
	}
	return out, nil
}

// Delete removes a user. Administrators cannot delete themselves, and the
// site's last administrator who can sign in stays (administrators.go).
func (s *Users) Delete(ctx context.Context, caller Caller, id int64) (*DeletedUser, error) {
	actor := caller.User
	if !actor.Can(calendar.CapManageUsers) {
		return nil, calendar.ErrForbidden(actor)
	}
	if id == actor.ID {
		return nil, calendar.NewError(calendar.KindInvalid, "rest_user_cannot_delete_self", "You cannot delete your own user.")
	}
	u, err := s.discardUser(ctx, id, caller.Expect)
	if err != nil {
		return nil, refusedAs(err, "rest_user_cannot_delete",
			"The site's last administrator who can sign in stays: make another user an administrator first.")
	}
	return &DeletedUser{Deleted: true, Previous: viewOf(u)}, nil
}

// Me is the caller as the API shows a user.
func (s *Users) Me(_ context.Context, caller Caller) (*UserView, error) {
	if caller.User == nil {
		return nil, calendar.ErrNotLoggedIn()
	}
	v := viewOf(caller.User)
	return &v, nil
}

// SetRole gives a user another role; it holds from the user's next request,
// as every request reads its user again. Administrators only, and the
// site's last administrator who can sign in keeps the role
// (administrators.go).
func (s *Users) SetRole(ctx context.Context, caller Caller, id int64, role calendar.Role) (*UserView, error) {
	if !role.Valid() {
		return nil, errInvalidRole()
	}
	if !caller.Can(calendar.CapManageUsers) {
		return nil, calendar.ForbiddenAs(caller.User, "rest_cannot_edit_roles", "Sorry, you are not allowed to edit roles of this user.")
	}
	u, err := s.setRole(ctx, id, caller.Expect, role)
	if err != nil {
		return nil, err
	}
	v := viewOf(u)
	return &v, nil
}

// SetRoleOf gives the user with that login another role, for whoever holds
// the store (the command line): the way back to an administrator when none
// can sign in. signsIn tells whether the user holds an application password.
func (s *Users) SetRoleOf(ctx context.Context, login string, role calendar.Role) (v UserView, signsIn bool, err error) {
	if !role.Valid() {
		return v, false, errInvalidRole()
	}
	u, err := s.repo.FindByKey(ctx, "login", strings.ToLower(strings.TrimSpace(login)))
	if err != nil {
		return v, false, err
	}
	if u, err = s.setRole(ctx, u.ID, Precondition{}, role); err != nil {
		return v, false, err
	}
	return viewOf(u), len(u.ApplicationPasswords()) > 0, nil
}

func (s *Users) setRole(ctx context.Context, id int64, expect Precondition, role calendar.Role) (*calendar.User, error) {
	u, err := s.editUser(ctx, id, expect, func(u *calendar.User) error { u.Role = role; return nil })
	return u, refusedAs(err, "rest_user_invalid_role",
		"The site's last administrator who can sign in keeps the role: make another user an administrator first.")
}

func errInvalidRole() error {
	return calendar.ErrInvalidParam("role", "role is not one of "+strings.Join(calendar.RoleNames(), ", ")+".")
}

const passwordAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// NewApplicationPassword returns 24 random characters in groups of four, as
// WordPress shows application passwords; the spaces are optional when signing in.
func NewApplicationPassword() string {
	var b strings.Builder
	one := make([]byte, 1)
	for n := 0; n < 24; {
		if _, err := rand.Read(one); err != nil {
			panic(err) // crypto/rand never fails on supported platforms
		}
		if int(one[0]) >= 256/len(passwordAlphabet)*len(passwordAlphabet) {
			continue // rejection keeps every character equally likely
		}
		if n > 0 && n%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(passwordAlphabet[int(one[0])%len(passwordAlphabet)])
		n++
	}
	return b.String()
}

func normalizePassword(p string) string {
	return strings.Join(strings.Fields(p), "")
}

func hashPassword(p string) string {
	sum := sha256.Sum256([]byte(normalizePassword(p)))
	return hex.EncodeToString(sum[:])
}
