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
	repo     calendar.Repo[*calendar.User]
	now      func() time.Time
	throttle *throttle.Throttle
}

// NewUsers returns the user service over a store's users; wrong passwords
// count against the throttle.
func NewUsers(repo calendar.Repo[*calendar.User], throttle *throttle.Throttle) *Users {
	return &Users{repo: repo, now: time.Now, throttle: throttle}
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
	admin := &calendar.User{Login: AdminLogin, Role: calendar.RoleAdministrator, Created: s.now().UTC(), PasswordHash: hashPassword(password)}
	if err := s.repo.Insert(ctx, admin); err != nil {
		if errors.Is(err, calendar.ErrConflict) { // another replica created it first
			return "", nil
		}
		return "", err
	}
	return generated, nil
}

// Authenticate resolves a Basic credential. A wrong login or password is a
// 401, answered more slowly, then refused (429), as the throttle says for
// that login from that client (the address of the request).
func (s *Users) Authenticate(ctx context.Context, client, login, password string) (*calendar.User, error) {
	return s.signIn(ctx, client, "login:"+strings.ToLower(login), func() (*calendar.User, error) {
		u, err := s.repo.FindByKey(ctx, "login", strings.ToLower(login))
		if err != nil || subtle.ConstantTimeCompare([]byte(u.PasswordHash), []byte(hashPassword(password))) == 1 {
			return u, err
		}
		return nil, calendar.ErrNotFound
	})
}

// AuthenticateToken resolves a Bearer credential: the application password
// alone, so guesses are counted per client only.
func (s *Users) AuthenticateToken(ctx context.Context, client, password string) (*calendar.User, error) {
	return s.signIn(ctx, client, "bearer", func() (*calendar.User, error) {
		if normalizePassword(password) == "" {
			return nil, calendar.ErrNotFound
		}
		return s.repo.FindByKey(ctx, "password", hashPassword(password))
	})
}

// signIn runs a credential check under the throttle: find answers the user,
// or ErrNotFound for a wrong credential.
func (s *Users) signIn(ctx context.Context, client, subject string, find func() (*calendar.User, error)) (*calendar.User, error) {
	if wait := s.throttle.Wait(subject, client); wait > 0 {
		return nil, ErrTooManyAttempts(wait)
	}
	u, err := find()
	switch {
	case errors.Is(err, calendar.ErrNotFound):
		hold(ctx, s.throttle.Failed(subject, client))
		return nil, calendar.ErrIncorrectPassword()
	case err != nil:
		return nil, err
	}
	s.throttle.Succeeded(subject, client)
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
		return nil, calendar.ErrInvalidParam("role", "role is not one of "+strings.Join(calendar.RoleNames(), ", ")+".")
	}
	if !caller.Can(calendar.CapManageUsers) {
		return nil, calendar.ErrForbidden(caller.User)
	}
	password := NewApplicationPassword()
	u := &calendar.User{Login: login, Role: in.Role, Created: s.now().UTC(), PasswordHash: hashPassword(password)}
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

// Delete removes a user. Administrators cannot delete themselves, so a site always
// keeps someone who can manage it.
func (s *Users) Delete(ctx context.Context, caller Caller, id int64) (*DeletedUser, error) {
	actor := caller.User
	if !actor.Can(calendar.CapManageUsers) {
		return nil, calendar.ErrForbidden(actor)
	}
	u, err := s.repo.Get(ctx, id)
	if errors.Is(err, calendar.ErrNotFound) {
		return nil, itemErrors.userMissing()
	}
	if err != nil {
		return nil, err
	}
	if u.ID == actor.ID {
		return nil, calendar.NewError(calendar.KindInvalid, "rest_user_cannot_delete_self", "You cannot delete your own user.")
	}
	if err := caller.Expect.holds(u.Seq, time.Time{}); err != nil {
		return nil, err
	}
	// Users change only by their insert, so the revision read is the one.
	if err := s.repo.Delete(ctx, id, u.Seq); err != nil && !errors.Is(err, calendar.ErrNotFound) {
		return nil, err
	}
	return &DeletedUser{Deleted: true, Previous: viewOf(u)}, nil
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
