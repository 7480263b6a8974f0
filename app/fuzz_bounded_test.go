package app_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// fuzzTarget is one fuzz target of the module: its package and its name.
type fuzzTarget struct{ pkg, name string }

// fuzzTargets finds every fuzz target of the module at root in its source
// (every func FuzzXxx(f *testing.F) of a _test.go file, testdata and hidden
// folders aside), by package then name, so that no list is kept by hand.
func fuzzTargets(root string) ([]fuzzTarget, error) {
	module, err := modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	var targets []fuzzTarget
	err = filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && file != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(file, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir, err := filepath.Rel(root, filepath.Dir(file))
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && isFuzzTarget(fn) {
				targets = append(targets, fuzzTarget{pkg: path.Join(module, filepath.ToSlash(dir)), name: fn.Name.Name})
			}
		}
		return nil
	})
	slices.SortFunc(targets, func(a, b fuzzTarget) int { return strings.Compare(a.pkg+" "+a.name, b.pkg+" "+b.name) })
	return targets, err
}

// isFuzzTarget: what go test runs with -fuzz, a function FuzzXxx (Xxx not
// starting with a lower-case letter) taking one *testing.F.
func isFuzzTarget(fn *ast.FuncDecl) bool {
	rest, ok := strings.CutPrefix(fn.Name.Name, "Fuzz")
	if first, _ := utf8.DecodeRuneInString(rest); !ok || fn.Recv != nil || unicode.IsLower(first) {
		return false
	}
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "testing" && sel.Sel.Name == "F"
}

// modulePath reads the module's path from its go.mod.
func modulePath(goMod string) (string, error) {
	f, err := os.Open(goMod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		if name, ok := strings.CutPrefix(strings.TrimSpace(lines.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(name), `"`), nil
		}
	}
	return "", lines.Err()
}

// TestEveryFuzzTargetRunsForABoundedTime lets the normal test run (and so CI)
// fuzz each target of the module (fuzzTargets) briefly, beyond its seed
// corpus: a new crasher fails the run and is saved under the package's
// testdata/fuzz. CALENDAR_FUZZTIME sets the time per target (1s by default);
// docs/reliability.md has the long runs.
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
	targets, err := fuzzTargets("..")
	if err != nil || len(targets) == 0 {
		t.Fatalf("the module's fuzz targets: %v, %v", targets, err)
	}
	for _, target := range targets {
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
