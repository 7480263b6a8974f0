package app_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// signs reports whether password signs in as login, with Basic and Bearer alike.
func (w *world) signs(login, password string) bool {
	w.t.Helper()
	basic, errBasic := w.app.Users.Authenticate(w.ctx, "", login, password)
	bearer, errBearer := w.app.Users.AuthenticateToken(w.ctx, "", password)
	if (errBasic == nil) != (errBearer == nil) {
		w.t.Fatalf("Basic and Bearer disagree on %s's password: %v, %v", login, errBasic, errBearer)
	}
	return errBasic == nil && basic.Login == login && bearer.Login == login
}

// A user stored before users had several passwords keeps theirs as the first.
func TestAUserOfBeforeKeepsTheirOnePasswordAsTheFirstApplicationPassword(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sum := sha256.Sum256([]byte("oldpasswordoldpassword24"))
	old := &calendar.User{Login: "veteran", Role: calendar.RoleEditor, Created: time.Date(2024, 5, 1, 8, 0, 0, 0, time.UTC),
		PasswordHash: hex.EncodeToString(sum[:])}
	w.must(w.store.Users().Insert(w.ctx, old))
	veteran := app.Caller{User: old}

	if !w.signs("veteran", "oldp assw ordo ldpa sswo rd24") {
		t.Fatal("the password of before does not sign in")
	}
	listed, err := w.app.Users.ApplicationPasswords(w.ctx, veteran, old.ID)
	w.must(err)
	if len(listed) != 1 || listed[0].Name != calendar.FirstPasswordName || listed[0].Created != "2024-05-01T08:00:00" || listed[0].LastUsed == nil {
		t.Fatalf("listed: %+v", listed)
	}
	made, err := w.app.Users.CreateApplicationPassword(w.ctx, veteran, old.ID, app.ApplicationPasswordInput{Name: "Second"})
	w.must(err)
	again, err := w.app.Users.ApplicationPasswords(w.ctx, veteran, old.ID)
	w.must(err)
	if len(again) != 2 || again[0].UUID != listed[0].UUID {
		t.Fatalf("after a second one: %+v, want the first kept under its UUID %s", again, listed[0].UUID)
	}
	if !w.signs("veteran", "oldpasswordoldpassword24") || !w.signs("veteran", made.Password) {
		t.Fatal("both passwords should sign in")
	}
	_, err = w.app.Users.RevokeApplicationPassword(w.ctx, veteran, old.ID, listed[0].UUID)
	w.must(err)
	if w.signs("veteran", "oldpasswordoldpassword24") || !w.signs("veteran", made.Password) {
		t.Fatal("the first password, revoked, signs in; or the second does not")
	}
}

// Passwords made at once for one user are all kept: each is a
// compare-and-swap of the user, applied again after a lost race.
func TestApplicationPasswordsMadeAtOnceAreAllKept(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	editor := w.callers[calendar.RoleEditor]
	const n = 16
	passwords := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := w.app.Users.CreateApplicationPassword(w.ctx, editor, editor.User.ID, app.ApplicationPasswordInput{Name: fmt.Sprint("device ", i)})
			if err != nil {
				t.Error(err)
				return
			}
			passwords[i] = p.Password
		}()
	}
	wg.Wait()
	listed, err := w.app.Users.ApplicationPasswords(w.ctx, editor, editor.User.ID)
	w.must(err)
	if len(listed) != n+1 {
		t.Fatalf("%d passwords listed, want %d and the first", len(listed), n)
	}
	for i, p := range passwords {
		if !w.signs(editor.User.Login, p) {
			t.Fatalf("the password of device %d does not sign in", i)
		}
	}
}

func TestAUserHoldsAtMostFiftyApplicationPasswordsWithNamesThatMeanSomething(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	author := w.callers[calendar.RoleAuthor]
	create := func(in app.ApplicationPasswordInput) error {
		_, err := w.app.Users.CreateApplicationPassword(w.ctx, author, author.User.ID, in)
		return err
	}
	invalid(t, create(app.ApplicationPasswordInput{Name: strings.Repeat("é", 101)}))
	invalid(t, create(app.ApplicationPasswordInput{Name: "tab\there"}))
	invalid(t, create(app.ApplicationPasswordInput{Name: "ok", AppID: "not-a-uuid"}))
	w.must(create(app.ApplicationPasswordInput{Name: strings.Repeat("é", 100), AppID: "6A1F3E1C-9B2D-4C3E-8F00-1234567890AB"}))
	for i := 2; i < app.MaxApplicationPasswords; i++ { // the first one and this one: 50
		w.must(create(app.ApplicationPasswordInput{Name: fmt.Sprint("app ", i)}))
	}
	invalid(t, create(app.ApplicationPasswordInput{Name: "one too many"}), "application_password_limit")
}

func TestResetPasswordRevokesEveryOtherPassword(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	editor := w.callers[calendar.RoleEditor]
	extra, err := w.app.Users.CreateApplicationPassword(w.ctx, editor, editor.User.ID, app.ApplicationPasswordInput{Name: "Laptop"})
	w.must(err)
	reset, err := w.app.Users.ResetPassword(w.ctx, "U-EDITOR ", false)
	w.must(err)
	if w.signs(editor.User.Login, extra.Password) || !w.signs(editor.User.Login, reset) {
		t.Fatal("after a reset, an old password signs in or the new one does not")
	}
	if listed, _ := w.app.Users.ApplicationPasswords(w.ctx, editor, editor.User.ID); len(listed) != 1 || !strings.HasPrefix(listed[0].Name, "Reset ") {
		t.Fatalf("after a reset: %+v", listed)
	}
	if _, err := w.app.Users.ResetPassword(w.ctx, "nobody", false); !errors.Is(err, calendar.ErrNotFound) {
		t.Fatalf("reset of an unknown login: %v", err)
	}
}

// A reset that keeps the others adds a password beside them (an importer's
// key keeps working), named apart from an earlier reset's, within the bound.
func TestResetPasswordKeepingTheOthersAddsOneBesideThem(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	editor := w.callers[calendar.RoleEditor]
	importer, err := w.app.Users.CreateApplicationPassword(w.ctx, editor, editor.User.ID, app.ApplicationPasswordInput{Name: "Importer"})
	w.must(err)
	first, err := w.app.Users.ResetPassword(w.ctx, "u-editor", true)
	w.must(err)
	second, err := w.app.Users.ResetPassword(w.ctx, "u-editor", true)
	w.must(err)
	for _, p := range []string{importer.Password, first, second} {
		if !w.signs(editor.User.Login, p) {
			t.Fatalf("after resets that keep the others, %q does not sign in", p)
		}
	}
	listed, err := w.app.Users.ApplicationPasswords(w.ctx, editor, editor.User.ID)
	w.must(err)
	if len(listed) != 4 || !strings.HasPrefix(listed[2].Name, "Reset ") || listed[3].Name != listed[2].Name+" (2)" {
		t.Fatalf("after two resets that keep the others: %+v, want the first, the importer's, Reset <day> and Reset <day> (2)", listed)
	}
	for i := len(listed); i < app.MaxApplicationPasswords; i++ {
		_, err := w.app.Users.CreateApplicationPassword(w.ctx, editor, editor.User.ID, app.ApplicationPasswordInput{Name: fmt.Sprint("app ", i)})
		w.must(err)
	}
	_, err = w.app.Users.ResetPassword(w.ctx, "u-editor", true)
	invalid(t, err, "application_password_limit")
	last, err := w.app.Users.ResetPassword(w.ctx, "u-editor", false) // revoking the others is always possible
	w.must(err)
	if w.signs(editor.User.Login, importer.Password) || !w.signs(editor.User.Login, last) {
		t.Fatal("a reset that revokes the others kept one, or its own does not sign in")
	}
}
