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
	{"calendar/app/strtotime", "FuzzParse"},
	{"calendar/controllers", "FuzzCheckArgs"},
	{"calendar/app/wordpress", "FuzzSanitizeTitle"},
	{"calendar/app/wordpress", "FuzzDoBlocks"},
	{"calendar/controllers", "FuzzWritesByEveryRole"},
	{"calendar/controllers", "FuzzDecodeValues"},
}

// TestEveryFuzzTargetRunsForABoundedTime lets the normal test run (and so CI)
// fuzz each target briefly, beyond its seed corpus: a new crasher fails the
// run and is saved under the package's testdata/fuzz. CALENDAR_FUZZTIME sets
// the time per target (1s by default); docs/reliability.md has the long runs.
func TestEveryFuzzTargetRunsForABoundedTime(t *testing.T) {
	if testing.Short() {
		t.Skip("fuzzing; not in -short")
	}
	t.Parallel() // it waits on other processes: the package's other tests run meanwhile
	fuzztime := time.Second
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
			if err != nil && toolchainDeadlineRace(string(out)) {
				t.Logf("no failing input; the fuzzing engine stopped on its own deadline (go.dev/issue/75804, fixed in Go 1.27):\n%s", out)
				return
			}
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

// toolchainDeadlineRace: Go 1.26's fuzzing coordinator can report the end of
// -fuzztime as the target's failure ("context deadline exceeded") when a
// worker is still busy at the deadline, most often on a loaded machine. A real
// failure writes its input under testdata/fuzz and says so.
func toolchainDeadlineRace(out string) bool {
	return strings.Contains(out, "\n    context deadline exceeded\n") && !strings.Contains(out, "Failing input written to")
}

func TestOnlyTheFuzzingEnginesOwnDeadlineIsExcused(t *testing.T) {
	cases := []struct {
		name, out string
		excused   bool
	}{
		{"the engine's deadline", "fuzz: elapsed: 6s, execs: 5416 (0/sec), new interesting: 2 (total: 93)\n--- FAIL: FuzzDecodeValues (6.05s)\n    context deadline exceeded\nFAIL\nexit status 1\n", true},
		{"a failing input", "--- FAIL: FuzzParseDate (0.31s)\n    --- FAIL: FuzzParseDate (0.00s)\n        fuzz_test.go:20: context deadline exceeded\n    \n    Failing input written to testdata/fuzz/FuzzParseDate/5c1a\n    To re-run:\n    go test -run=FuzzParseDate/5c1a\nFAIL\n", false},
		{"a build error", "# calendar/app\n./x.go:1:1: syntax error\nFAIL\tcalendar/app [build failed]\n", false},
	}
	for _, c := range cases {
		if got := toolchainDeadlineRace(c.out); got != c.excused {
			t.Errorf("%s: excused %v, want %v", c.name, got, c.excused)
		}
	}
}
