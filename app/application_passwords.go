package app

import (
	"context"
	"crypto/rand"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"calendar/app/calendar"
)

// Application passwords as WordPress has them: a user holds several, each
// named after the application that uses it, shown once when made, revoked
// one by one. A user manages their own; an administrator anyone's.

// ApplicationPasswordView is an application password as WordPress' REST API
// shows it: the password itself only in the answer that made it.
type ApplicationPasswordView struct {
	UUID     string  `json:"uuid"`
	AppID    string  `json:"app_id"`
	Name     string  `json:"name"`
	Created  string  `json:"created"`
	LastUsed *string `json:"last_used"`
	LastIP   *string `json:"last_ip"`
	Password string  `json:"password,omitempty"`
}

// DeletedApplicationPassword is the answer to a revocation.
type DeletedApplicationPassword struct {
	Deleted  bool                    `json:"deleted"`
	Previous ApplicationPasswordView `json:"previous"`
}

// ApplicationPasswordInput is a new application password's name, and the
// UUID the application gives itself (optional).
type ApplicationPasswordInput struct {
	Name, AppID string
}

// Bounds of a user's application passwords: the user record holds them all.
const (
	MaxApplicationPasswords    = 50
	maxApplicationPasswordName = 100 // characters
	// passwordUseInterval: a password's last use is written once a day at
	// most, as WordPress writes it, so signing in is not a write.
	passwordUseInterval = 24 * time.Hour
)

// wordpressTime is how WordPress shows the times of application passwords (UTC).
const wordpressTime = "2006-01-02T15:04:05"

func passwordView(p calendar.ApplicationPassword) ApplicationPasswordView {
	v := ApplicationPasswordView{UUID: p.UUID, AppID: p.AppID, Name: p.Name, Created: p.Created.UTC().Format(wordpressTime)}
	if !p.LastUsed.IsZero() {
		used := p.LastUsed.UTC().Format(wordpressTime)
		v.LastUsed = &used
	}
	if p.LastIP != "" {
		v.LastIP = &p.LastIP
	}
	return v
}

// passwordsOf loads the user whose passwords the caller asks about: their
// own, or anyone's for an administrator (refused with WordPress' code for
// the action before the user is looked for, so the answer tells nothing of
// other users).
func (s *Users) passwordsOf(ctx context.Context, caller Caller, id int64, code, message string) (*calendar.User, error) {
	if caller.User == nil || (caller.User.ID != id && !caller.Can(calendar.CapManageUsers)) {
		return nil, calendar.ForbiddenAs(caller.User, code, message)
	}
	return s.get(ctx, id)
}

// ApplicationPasswords lists a user's application passwords, without the passwords.
func (s *Users) ApplicationPasswords(ctx context.Context, caller Caller, id int64) ([]ApplicationPasswordView, error) {
	u, err := s.passwordsOf(ctx, caller, id, "rest_cannot_list_application_passwords",
		"Sorry, you are not allowed to list application passwords for this user.")
	if err != nil {
		return nil, err
	}
	out := []ApplicationPasswordView{}
	for _, p := range u.ApplicationPasswords() {
		out = append(out, passwordView(p))
	}
	return out, nil
}

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// CreateApplicationPassword makes a new application password for a user;
// the answer is the only time it is shown.
func (s *Users) CreateApplicationPassword(ctx context.Context, caller Caller, id int64, in ApplicationPasswordInput) (*ApplicationPasswordView, error) {
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "":
		return nil, calendar.NewError(calendar.KindInvalid, "application_password_empty_name",
			"An application name is required to create an application password.")
	case utf8.RuneCountInString(name) > maxApplicationPasswordName || strings.ContainsFunc(name, isControl):
		return nil, calendar.ErrInvalidParam("name", fmt.Sprintf("name must be at most %d characters, without control characters.", maxApplicationPasswordName))
	case in.AppID != "" && !uuidPattern.MatchString(in.AppID):
		return nil, calendar.ErrInvalidParam("app_id", "app_id is not a valid UUID.")
	}
	if _, err := s.passwordsOf(ctx, caller, id, "rest_cannot_create_application_passwords",
		"Sorry, you are not allowed to create application passwords for this user."); err != nil {
		return nil, err
	}
	password := NewApplicationPassword()
	made := calendar.ApplicationPassword{UUID: newUUID(), AppID: strings.ToLower(in.AppID), Name: name,
		Hash: hashPassword(password), Created: s.now().UTC().Truncate(time.Second)}
	_, err := s.editUser(ctx, id, Precondition{}, func(u *calendar.User) error {
		for _, p := range u.Passwords {
			if strings.EqualFold(p.Name, name) {
				return calendar.NewError(calendar.KindConflict, "application_password_duplicate_name", "Each application name should be unique.")
			}
		}
		if len(u.Passwords) >= MaxApplicationPasswords {
			return errPasswordLimit()
		}
		u.Passwords = append(u.Passwords, made)
		return nil
	})
	if err != nil {
		return nil, err
	}
	v := passwordView(made)
	v.Password = password
	return &v, nil
}

func errPasswordLimit() *calendar.Error {
	return calendar.NewError(calendar.KindInvalid, "application_password_limit",
		fmt.Sprintf("A user has at most %d application passwords: revoke one first.", MaxApplicationPasswords))
}

// RevokeApplicationPassword revokes one of a user's application passwords:
// the next request signed with it is refused. The last password of the
// site's last administrator who can sign in stays (administrators.go).
func (s *Users) RevokeApplicationPassword(ctx context.Context, caller Caller, id int64, uuid string) (*DeletedApplicationPassword, error) {
	if _, err := s.passwordsOf(ctx, caller, id, "rest_cannot_delete_application_password",
		"Sorry, you are not allowed to delete this application password."); err != nil {
		return nil, err
	}
	var revoked calendar.ApplicationPassword
	_, err := s.editUser(ctx, id, Precondition{}, func(u *calendar.User) error {
		for i, p := range u.Passwords {
			if strings.EqualFold(p.UUID, uuid) {
				revoked = p
				u.Passwords = append(u.Passwords[:i:i], u.Passwords[i+1:]...)
				return nil
			}
		}
		return calendar.NewError(calendar.KindNotFound, "rest_application_password_not_found", "Application password not found.")
	})
	if err != nil {
		return nil, refusedAs(err, "rest_cannot_delete_application_password",
			"This is the last password of the site's last administrator who can sign in: make another password, or another administrator, first.")
	}
	return &DeletedApplicationPassword{Deleted: true, Previous: passwordView(revoked)}, nil
}

// ResetPassword gives the user with that login a new application password
// and revokes the others, or with keepOthers keeps them (an importer's
// password revoked to recover an administrator's is a second outage):
// access recovered by whoever holds the store (the command line), not over
// the API.
func (s *Users) ResetPassword(ctx context.Context, login string, keepOthers bool) (string, error) {
	u, err := s.repo.FindByKey(ctx, "login", strings.ToLower(strings.TrimSpace(login)))
	if err != nil {
		return "", err
	}
	password := NewApplicationPassword()
	now := s.now().UTC().Truncate(time.Second)
	_, err = s.editUser(ctx, u.ID, Precondition{}, func(u *calendar.User) error {
		made := calendar.ApplicationPassword{UUID: newUUID(), Name: resetName(now, u.Passwords), Hash: hashPassword(password), Created: now}
		switch {
		case !keepOthers:
			u.Passwords = []calendar.ApplicationPassword{made}
		case len(u.Passwords) >= MaxApplicationPasswords:
			return errPasswordLimit()
		default:
			u.Passwords = append(u.Passwords, made)
		}
		return nil
	})
	return password, err
}

// resetName names a reset's password after its day, unique among the
// passwords kept (names are, as WordPress has them).
func resetName(day time.Time, kept []calendar.ApplicationPassword) string {
	base := "Reset " + day.Format(time.DateOnly)
	name := base
	for n := 2; slices.ContainsFunc(kept, func(p calendar.ApplicationPassword) bool { return strings.EqualFold(p.Name, name) }); n++ {
		name = fmt.Sprintf("%s (%d)", base, n)
	}
	return name
}

// recordUse writes when and from where a password last signed a request,
// once a day at most. The request is signed either way: bookkeeping that
// fails (a password revoked meanwhile, the store busy) is not its error.
func (s *Users) recordUse(ctx context.Context, u *calendar.User, uuid, client string) {
	now := s.now().UTC().Truncate(time.Second)
	due := func(u *calendar.User) int {
		for i, p := range u.Passwords {
			if p.UUID == uuid && now.Sub(p.LastUsed) >= passwordUseInterval {
				return i
			}
		}
		return -1
	}
	if len(u.Passwords) > 0 && due(u) < 0 {
		return
	}
	_, _ = s.editUser(ctx, u.ID, Precondition{}, func(u *calendar.User) error {
		i := due(u)
		if i < 0 {
			return errUnchanged
		}
		u.Passwords[i].LastUsed, u.Passwords[i].LastIP = now, client
		return nil
	})
}

// newUUID is a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
