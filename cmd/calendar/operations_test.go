package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestTheOperationsGuideCommandsRunInOrder runs every sh block of
// docs/operations.md in order, in one shell, as a machine with systemd would
// run them: `calendar` is this service (the real main, in a process of its
// own), `systemctl start|stop calendar` starts and stops it in the
// background, and the guide's address and data directory are the test's.
func TestTheOperationsGuideCommandsRunInOrder(t *testing.T) {
	t.Parallel()
	long(t)
	commands := shellCommands(t, "../../docs/operations.md", "# Operations guide", 15)
	root, addr := t.TempDir(), freeAddr(t)
	bin := filepath.Join(root, "bin")
	dataDir := filepath.Join(root, "var/lib/calendar")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary is the service (TestMain: CALENDAR_TEST_MAIN_ARGS);
	// systemctl keeps its process ID and log beside the data directory.
	shims := map[string]string{
		"calendar": fmt.Sprintf("#!/bin/sh\nCALENDAR_TEST_MAIN_ARGS=\"$*\" exec %q -test.run='^$'\n", self),
		"systemctl": fmt.Sprintf(`#!/bin/sh
pid=%[1]q/service.pid
case "$1 $2" in
"start calendar")
	calendar >>%[1]q/service.log 2>&1 &
	echo $! >"$pid"
	until curl -sf http://%[2]s/readyz >/dev/null; do
		kill -0 "$(cat "$pid")" || { echo "calendar stopped; its log:" >&2; cat %[1]q/service.log >&2; exit 1; }
		sleep 0.1
	done ;;
"stop calendar")
	kill -TERM "$(cat "$pid")"
	while kill -0 "$(cat "$pid")" 2>/dev/null; do sleep 0.1; done ;;
*) echo "systemctl: only start|stop calendar here" >&2; exit 2 ;;
esac
`, root, addr),
	}
	for name, script := range shims {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { // a guide that stopped half-way leaves its service running
		if raw, err := os.ReadFile(filepath.Join(root, "service.pid")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(raw))); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})

	script := "set -e\nsystemctl start calendar\n" +
		markedScript(commands, strings.NewReplacer("127.0.0.1:8080", addr, "/var/lib/calendar", dataDir)) +
		"systemctl stop calendar\n"
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "CALENDAR_ADDR="+addr, "CALENDAR_DATA_DIR="+dataDir,
		"CALENDAR_ADMIN_PASSWORD=keep this one in a password manager", "CALENDAR_TRUSTED_PROXIES=127.0.0.1",
		"CALENDAR_METRICS_TOKEN=a-long-random-token-for-prometheus", "CALENDAR_LOG_FORMAT=json")
	out, err := cmd.CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(root, "service.log"))
		t.Fatalf("the guide stopped: %v\n%s\nthe service's log:\n%s", err, out, log)
	}
	outputs := outputsOf(out)
	// What each command's comment promises, by a part of the command.
	checkPromises(t, "command of the guide", commands, outputs, []promise{
		{"curl -s $SITE/readyz", `"status":"ready"`},
		{"/metrics", "calendar_index_sync_lag "},
		{"tar -tzf", "manifest.json\ncalendar.db"},
		{"calendar verify", "as they are"},
		{`"$API/events/$EVENT"`, `"title":"Spring gala"`},
		{"calendar users list", "administrator"},
		{"$ADMIN/users/me ", `"login":"admin"`},
		{"users/me/application-passwords", `"name":"Reset `},
		{"calendar version", "calendar devel (commit "},
		{"-X POST $ADMIN/reindex", `"state":"building"`},
		{"finished_at", `"state":"done"`},
		{"ready all along", `"status":"ready"`},
	})
}
