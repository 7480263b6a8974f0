package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

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

// TestFuzzTargetsAreFoundInTheSource: every fuzz target of a module is
// found, in every package, and nothing that go test would not fuzz is.
func TestFuzzTargetsAreFoundInTheSource(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	files := map[string]string{
		"go.mod":                   "module example.org/m\n\ngo 1.26\n",
		"top_test.go":              "package m\nimport \"testing\"\nfunc FuzzTop(f *testing.F) {}\n",
		"a/b/deep_test.go":         "package b_test\nimport \"testing\"\nfunc FuzzDeep(f *testing.F) {}\nfunc FuzzAlso(*testing.F) {}\nfunc Fuzz(f *testing.F) {}\n",
		"a/not_targets_test.go":    "package a\nimport \"testing\"\nfunc Fuzzy(f *testing.F) {}\nfunc FuzzT(t *testing.T) {}\nfunc Fuzzé(f *testing.F) {}\nfunc FuzzTwo(f, g *testing.F) {}\ntype x struct{}\nfunc (x) FuzzM(f *testing.F) {}\n",
		"a/code.go":                "package a\nimport \"testing\"\nfunc FuzzInCode(f *testing.F) {}\n",
		"a/testdata/data_test.go":  "package data\nimport \"testing\"\nfunc FuzzData(f *testing.F) {}\n",
		".hidden/hidden_test.go":   "package hidden\nimport \"testing\"\nfunc FuzzHidden(f *testing.F) {}\n",
		"a/b/fuzz_helpers_test.go": "package b\n",
		"_ignored/ignored_test.go": "package ignored\nimport \"testing\"\nfunc FuzzIgnored(f *testing.F) {}\n",
	}
	for name, text := range files {
		file := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := fuzzTargets(root)
	want := []fuzzTarget{{"example.org/m", "FuzzTop"}, {"example.org/m/a/b", "Fuzz"}, {"example.org/m/a/b", "FuzzAlso"}, {"example.org/m/a/b", "FuzzDeep"}}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("fuzzTargets = %v, %v; want %v", got, err, want)
	}
}
