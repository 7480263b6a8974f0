package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"calendar/app/calendar"
	"calendar/repository/bolt"
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
	logs = &syncWriter{b: &strings.Builder{}}
	addr, stopRun := serveInProcess(t, map[string]string{"CALENDAR_DATA_DIR": dir, "CALENDAR_ADMIN_PASSWORD": adminPassword}, logs)
	return addr, logs, func() {
		if err := stopRun(); err != nil {
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

// A store whose users include no administrator who can sign in (edited by
// hand) is told at start, with the command that brings one back; set-role
// makes one offline, and reset-password --keep-others gives them a password
// while the importer's keeps working.
func TestAStoreWithoutAnAdministratorIsToldAtStartAndGetsOneBackOffline(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const first = "the first admin password"
	addr, _, stop := serveOn(t, dir, first)
	req, _ := http.NewRequest("POST", "http://"+addr+"/vendor/admin/v1/users", strings.NewReader(`{"login":"ed","role":"editor"}`))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("admin", first)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var ed struct {
		Password string `json:"application_password"`
	}
	if err := json.NewDecoder(res.Body).Decode(&ed); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("creating ed: %d, %v", res.StatusCode, err)
	}
	res.Body.Close()
	stop()

	store, err := bolt.Open(dir) // the hand edit: no administrator left
	if err != nil {
		t.Fatal(err)
	}
	admin, err := store.Users().FindByKey(context.Background(), "login", "admin")
	if err == nil {
		admin.Role = calendar.RoleEditor
		err = store.Users().Update(context.Background(), admin)
	}
	store.Close(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, logs, stop := serveOn(t, dir, "")
	stop()
	const told = "no administrator can sign in, so nobody can manage users: stop the service and run: " +
		"calendar users set-role LOGIN administrator, then calendar users reset-password LOGIN --keep-others"
	if !strings.Contains(logs.String(), told) {
		t.Fatalf("the start does not tell the operator what to run:\n%s", logs.String())
	}

	for _, refused := range []struct{ args, says string }{
		{"users set-role ed", "calendar users set-role LOGIN ROLE"},
		{"users set-role ed overlord", "role is not one of"},
		{"users set-role nobody administrator", `no user has the login "nobody"`},
	} {
		if _, stderr, err := runIn(t, dir, refused.args); err == nil || !strings.Contains(stderr, refused.says) {
			t.Fatalf("%s: %v, %s; want it refused saying %q", refused.args, err, stderr, refused.says)
		}
	}
	if stdout, stderr, err := runIn(t, dir, "users set-role ed administrator"); err != nil || !strings.Contains(stdout, "ed is now administrator.") {
		t.Fatalf("set-role: %v\n%s%s", err, stdout, stderr)
	}
	if _, stderr, err := runIn(t, dir, "users set-role ed subscriber"); err == nil || !strings.Contains(stderr, "last administrator who can sign in keeps the role") {
		t.Fatalf("set-role took the last administrator away: %v, %s", err, stderr)
	}
	stdout, stderr, err := runIn(t, dir, "users reset-password ed --keep-others")
	if err != nil || !strings.Contains(stdout, "their other passwords are kept") {
		t.Fatalf("reset-password --keep-others: %v\n%s%s", err, stdout, stderr)
	}
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	reset := lines[len(lines)-1]

	addr, logs, stop = serveOn(t, dir, "")
	defer stop()
	if strings.Contains(logs.String(), "no administrator can sign in") {
		t.Fatalf("told again with an administrator back:\n%s", logs.String())
	}
	for _, password := range []string{reset, ed.Password} {
		if status := signsIn(t, addr, "ed", password); status != http.StatusOK {
			t.Fatalf("ed signs in with %q: %d, want 200", password, status)
		}
	}
}
