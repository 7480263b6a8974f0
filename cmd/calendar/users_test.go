package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
)

// runIn runs the real main with args on the data directory dir, in a
// process of its own, and gives its standard output apart from the rest.
func runIn(t *testing.T, dir, args string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := mainCommand(dir, args)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// signsIn asks /users/me as login with password.
func signsIn(t *testing.T, addr, login, password string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", "http://"+addr+"/vendor/admin/v1/users/me", nil)
	req.SetBasicAuth(login, password)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// serveOn runs the service on dir until the returned stop is called.
func serveOn(t *testing.T, dir, adminPassword string) (addr string, logs *syncWriter, stop func()) {
	t.Helper()
	addr, logs = freeAddr(t), &syncWriter{b: &strings.Builder{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, nil, env(map[string]string{"CALENDAR_ADDR": addr, "CALENDAR_DATA_DIR": dir,
			"CALENDAR_ADMIN_PASSWORD": adminPassword}), logs)
	}()
	waitReady(t, addr)
	return addr, logs, func() {
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("run returned %v", err)
		}
	}
}

func TestALostAdminPasswordIsResetOfflineAndTheOldOneStopsWorking(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const lost = "the password nobody wrote down"
	addr, _, stop := serveOn(t, dir, lost)
	if status := signsIn(t, addr, "admin", lost); status != http.StatusOK {
		t.Fatalf("the first password: %d", status)
	}
	if _, stderr, err := runIn(t, dir, "users reset-password admin"); err == nil || !strings.Contains(stderr, "stop the service first") {
		t.Fatalf("a reset while the service holds the embedded store: %v, %s", err, stderr)
	}
	stop()

	stdout, stderr, err := runIn(t, dir, "users reset-password admin")
	if err != nil {
		t.Fatalf("reset-password: %v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	password := lines[len(lines)-1]
	if len(strings.Fields(password)) != 6 {
		t.Fatalf("the last line of the standard output is %q, want the password alone (six groups of four)", password)
	}
	listed, _, err := runIn(t, dir, "users list")
	if err != nil || !strings.Contains(listed, "admin") || !strings.Contains(listed, "administrator") {
		t.Fatalf("users list: %v\n%s", err, listed)
	}
	if _, stderr, err := runIn(t, dir, "users reset-password nobody"); err == nil || !strings.Contains(stderr, `no user has the login "nobody"`) {
		t.Fatalf("a reset of an unknown login: %v, %s", err, stderr)
	}

	addr, logs, stop := serveOn(t, dir, lost) // the old password in the settings changes nothing, and says so
	defer stop()
	if status := signsIn(t, addr, "admin", lost); status != http.StatusUnauthorized {
		t.Fatalf("the old password after a reset: %d, want 401", status)
	}
	if status := signsIn(t, addr, "admin", password); status != http.StatusOK {
		t.Fatalf("the new password: %d, want 200", status)
	}
	if !strings.Contains(logs.String(), "CALENDAR_ADMIN_PASSWORD is ignored") {
		t.Fatalf("the ignored setting is not logged:\n%s", logs.String())
	}
}
