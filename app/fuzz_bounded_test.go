package app_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// fuzzTargets are every fuzz target of the module, by package.
var fuzzTargets = []struct{ pkg, name string }{
	{"calendar/app", "FuzzParseDate"},
	{"calendar/app", "FuzzCheckArgs"},
	{"calendar/app", "FuzzSanitizeTitle"},
	{"calendar/controllers", "FuzzDecodeValues"},
}

// TestEveryFuzzTargetRunsForABoundedTime lets the normal test run (and so CI)
// fuzz each target briefly, beyond its seed corpus: a new crasher fails the
// run and is saved under the package's testdata/fuzz. CALENDAR_FUZZTIME sets
// the time per target (5s by default); docs/reliability.md has the long runs.
func TestEveryFuzzTargetRunsForABoundedTime(t *testing.T) {
	if testing.Short() {
		t.Skip("fuzzing; not in -short")
	}
	fuzztime := 5 * time.Second
	if v := os.Getenv("CALENDAR_FUZZTIME"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("CALENDAR_FUZZTIME: %v", err)
		}
		fuzztime = d
	}
	for _, target := range fuzzTargets {
		t.Run(target.name, func(t *testing.T) {
			cmd := exec.Command("go", "test", target.pkg, "-run", "^$", "-fuzz", "^"+target.name+"$",
				"-fuzztime", fuzztime.String(), "-parallel", "2")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			last := ""
			for _, line := range strings.Split(string(out), "\n") {
				if strings.Contains(line, "execs:") {
					last = line
				}
			}
			t.Log(last) // the total executions
		})
	}
}
