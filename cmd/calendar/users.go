package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/app/throttle"
)

// usersCommand is "calendar users list" and "calendar users reset-password
// LOGIN": access recovered by whoever holds the store, with the service's
// settings (and the service stopped when the store is the embedded one,
// which takes one process at a time). What a script reads goes to stdout:
// reset-password's last line is the new password alone.
func usersCommand(ctx context.Context, args []string, getenv func(string) string, stdout, logOut io.Writer) error {
	if len(args) == 0 {
		return errors.New("users: say list, or reset-password LOGIN")
	}
	what, rest := args[0], args[1:]
	var login string
	switch what {
	case "list":
	case "reset-password":
		if len(rest) == 0 || rest[0] == "" || rest[0][0] == '-' {
			return errors.New("users reset-password: say whose: calendar users reset-password LOGIN [flags]")
		}
		login, rest = rest[0], rest[1:]
	default:
		return fmt.Errorf("users: unknown command %q: say list, or reset-password LOGIN", what)
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
	if what == "list" {
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
	password, err := users.ResetPassword(ctx, login, false)
	if errors.Is(err, calendar.ErrNotFound) {
		return fmt.Errorf("users reset-password: no user has the login %q (calendar users list shows them)", login)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "New application password of %s; every other password of theirs is revoked:\n%s\n", login, password)
	return nil
}
