package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// runMain runs main with args in a process of its own (see TestMain), to
// see its exit status.
func runMain(t *testing.T, args string) (string, error) {
	t.Helper()
	return runMainIn(t.TempDir(), args, nil)
}

// runMainIn is runMain on a data directory, reading stdin (nil: none).
func runMainIn(dataDir, args string, stdin io.Reader) (string, error) {
	cmd := mainCommand(dataDir, args)
	cmd.Stdin = stdin
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// mainCommand is the real main with args on a data directory, as a process
// of its own (TestMain).
func mainCommand(dataDir, args string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CALENDAR_TEST_MAIN_ARGS="+args, "CALENDAR_DATA_DIR="+dataDir)
	return cmd
}

func TestHelpListsTheCommandsAndExitsZero(t *testing.T) {
	t.Parallel()
	for _, args := range []string{"-h", "--help", "help", "reindex -h", "verify -h", "restore -h"} {
		t.Run(args, func(t *testing.T) {
			out, err := runMain(t, args)
			if err != nil {
				t.Fatalf("exit: %v\n%s", err, out)
			}
			for _, want := range []string{"Usage: calendar [command] [flags]", "reindex", "verify", "restore", "help", "-addr", "[CALENDAR_ADDR]", "-data-dir"} {
				if !strings.Contains(out, want) {
					t.Errorf("usage without %q:\n%s", want, out)
				}
			}
		})
	}
	if out, err := runMain(t, "-per-page 0"); err == nil || !strings.Contains(out, "-per-page (CALENDAR_PER_PAGE)") {
		t.Fatalf("a bad flag: exit %v, output %s", err, out)
	}
}

func TestAConfigurationErrorNamesTheFlagWhenOneWasGiven(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"-per-page", "51"}, nil, "-per-page (CALENDAR_PER_PAGE): "},
		{nil, map[string]string{"CALENDAR_PER_PAGE": "51"}, "CALENDAR_PER_PAGE: "},
		{[]string{"-timezone", "Mars/Olympus"}, map[string]string{"CALENDAR_TIMEZONE": "Europe/Paris"}, "-timezone (CALENDAR_TIMEZONE): "},
		{[]string{"-addr", "8080"}, nil, "-addr (CALENDAR_ADDR): "},
		{[]string{"-per-page", "20"}, map[string]string{"CALENDAR_SITE_URL": "ftp://x"}, "CALENDAR_SITE_URL: "},
	} {
		_, err := loadConfig(c.args, env(c.env), io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v %v: err = %v, want it to start with %q", c.args, c.env, err, c.want)
		}
	}
	if _, err := loadConfig([]string{"-h"}, env(nil), io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
}

// A first start on a port already taken must fail before it creates the
// admin: the password it would log is shown once only.
func TestABusyPortFailsBeforeTheAdminIsCreated(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dir := t.TempDir()
	var logs strings.Builder
	err = run(context.Background(), []string{"-addr", busy.Addr().String()}, env(map[string]string{"CALENDAR_DATA_DIR": dir}), &syncWriter{b: &logs})
	if err == nil || !strings.Contains(err.Error(), "CALENDAR_ADDR") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(logs.String(), "application_password") {
		t.Fatalf("the admin was created, its password logged, then the start failed:\n%s", logs.String())
	}
	// The next start, on a free port, creates the admin and shows its password.
	next := &syncWriter{b: &strings.Builder{}}
	_, stop := serveInProcess(t, map[string]string{"CALENDAR_DATA_DIR": dir}, next)
	if !strings.Contains(next.String(), "application_password") {
		t.Errorf("no password logged on the next start:\n%s", next.String())
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}
