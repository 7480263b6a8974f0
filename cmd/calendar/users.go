package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/app/throttle"
)

// usersUsage says what "calendar users" takes.
const usersUsage = "say list, reset-password LOGIN [--keep-others], or set-role LOGIN ROLE"

// keepOthersFlag, after reset-password LOGIN, keeps the user's other
// application passwords.
const keepOthersFlag = "keep-others"

// usersCommand is "calendar users list", "calendar users reset-password
// LOGIN [--keep-others]" and "calendar users set-role LOGIN ROLE": access
// recovered by whoever holds the store, with the service's settings (and the
// service stopped when the store is the embedded one, which takes one
// process at a time). What a script reads goes to stdout: reset-password's
// last line is the new password alone.
func usersCommand(ctx context.Context, args []string, getenv func(string) string, stdout, logOut io.Writer) error {
	if len(args) == 0 {
		return errors.New("users: " + usersUsage)
	}
	what, rest := args[0], args[1:]
	var login, role string
	keepOthers := false
	// operands takes the command's own n arguments, which come before the
	// settings' flags.
	operands := func(n int, form string) ([]string, error) {
		if len(rest) < n || slices.ContainsFunc(rest[:n], func(a string) bool { return a == "" || a[0] == '-' }) {
			return nil, fmt.Errorf("users %s: say whose: calendar users %s %s [flags]", what, what, form)
		}
		ops := rest[:n]
		rest = rest[n:]
		return ops, nil
	}
	isKeepOthers := func(a string) bool { return a == "-"+keepOthersFlag || a == "--"+keepOthersFlag }
	switch what {
	case "list":
	case "reset-password":
		ops, err := operands(1, "LOGIN [--"+keepOthersFlag+"]")
		if err != nil {
			return err
		}
		login, keepOthers = ops[0], slices.ContainsFunc(rest, isKeepOthers)
		rest = slices.DeleteFunc(slices.Clone(rest), isKeepOthers) // the caller's arguments left as they are
	case "set-role":
		ops, err := operands(2, "LOGIN ROLE")
		if err != nil {
			return err
		}
		login, role = ops[0], ops[1]
	default:
		return fmt.Errorf("users: unknown command %q: %s", what, usersUsage)
	}
	cfg, err := loadConfig(rest, getenv, logOut)
	if err != nil {
		return err
	}
	store, _, err := openStore(ctx, cfg)
	if err != nil {
		return fmt.Errorf("%w (stop the service first when it runs on this data directory)", err)
	}
	defer store.Close(context.Background())
	users := app.NewUsers(store, throttle.New(throttle.Limits{}))
	switch what {
	case "list":
		return listUsers(ctx, users, stdout)
	case "set-role":
		return setRole(ctx, users, login, calendar.Role(role), stdout)
	}
	password, err := users.ResetPassword(ctx, login, keepOthers)
	if err != nil {
		return usersError(what, login, err)
	}
	others := "every other password of theirs is revoked"
	if keepOthers {
		others = "their other passwords are kept"
	}
	fmt.Fprintf(stdout, "New application password of %s; %s:\n%s\n", login, others, password)
	return nil
}

func listUsers(ctx context.Context, users *app.Users, stdout io.Writer) error {
	everyone, err := users.Everyone(ctx)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tLOGIN\tROLE")
	for _, u := range everyone {
		fmt.Fprintf(w, "%d\t%s\t%s\n", u.ID, u.Login, u.Role)
	}
	return w.Flush()
}

// setRole is "calendar users set-role LOGIN ROLE": the way back to an
// administrator when none can sign in. The site's last administrator who
// can sign in keeps the role here too.
func setRole(ctx context.Context, users *app.Users, login string, role calendar.Role, stdout io.Writer) error {
	v, signsIn, err := users.SetRoleOf(ctx, login, role)
	if err != nil {
		return usersError("set-role", login, err)
	}
	fmt.Fprintf(stdout, "%s is now %s.\n", v.Login, v.Role)
	if !signsIn {
		fmt.Fprintf(stdout, "%s has no application password: calendar users reset-password %s gives one.\n", v.Login, shellWord(v.Login))
	}
	return nil
}

// usersError says what went wrong in the words of the command line.
func usersError(what, login string, err error) error {
	var e *calendar.Error
	switch {
	case errors.Is(err, calendar.ErrNotFound):
		return fmt.Errorf("users %s: no user has the login %q (calendar users list shows them)", what, login)
	case errors.As(err, &e):
		says := e.Message
		if params, ok := e.Data["params"].(map[string]string); ok { // the parameters' reasons say more
			says = strings.Join(slices.Sorted(maps.Values(params)), " ")
		}
		return fmt.Errorf("users %s: %s", what, says)
	}
	return err
}

// recoveryCommand is what an operator runs to bring back an administrator
// who can sign in: a new password for the administrator who lost theirs
// (passwordless), else a user made administrator and given a password.
func recoveryCommand(passwordless string) string {
	if passwordless != "" {
		return "calendar users reset-password " + shellWord(passwordless)
	}
	return "calendar users set-role LOGIN administrator, then calendar users reset-password LOGIN --" + keepOthersFlag +
		" (calendar users list shows the logins)"
}

// shellWord quotes a login for a shell when it holds a space (logins hold
// no quote).
func shellWord(login string) string {
	if strings.Contains(login, " ") {
		return "'" + login + "'"
	}
	return login
}
