// Command fuzzall fuzzes every fuzz target of the module for a bounded time
// each, beyond its seed corpus (which the test suite already runs): CI's
// step after the suite (.ci/run). A crasher fails it and is saved under its
// package's testdata/fuzz. The targets are found in the source (every func
// FuzzXxx(*testing.F) of the module's test files), so a new one is fuzzed
// without being listed.
//
//	go run ./cmd/internal/fuzzall                 # 1s a target
//	CALENDAR_FUZZTIME=10m go run ./cmd/internal/fuzzall
package main

import (
	"bufio"
	"flag"
	"fmt"
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
	"time"
	"unicode"
	"unicode/utf8"
)

func main() {
	fuzztime := flag.Duration("fuzztime", envDuration("CALENDAR_FUZZTIME", time.Second), "how long each target is fuzzed (CALENDAR_FUZZTIME)")
	root := flag.String("root", ".", "the module's root")
	flag.Parse()
	targets, err := fuzzTargets(*root)
	if err != nil || len(targets) == 0 {
		fmt.Fprintf(os.Stderr, "the module's fuzz targets: %v, %v\n", targets, err)
		os.Exit(2)
	}
	failed := 0
	for _, target := range targets {
		cmd := exec.Command("go", "test", target.pkg, "-run", "^$", "-fuzz", "^"+target.name+"$",
			"-fuzztime", fuzztime.String(), "-parallel", "2")
		cmd.Dir = *root
		out, err := cmd.CombinedOutput()
		switch {
		case err != nil && toolchainDeadlineRace(string(out)):
			fmt.Printf("ok   %s %s: no failing input; the fuzzing engine stopped on its own deadline (go.dev/issue/75804, fixed in Go 1.27)\n", target.pkg, target.name)
		case err != nil:
			failed++
			fmt.Printf("FAIL %s %s: %v\n%s\n", target.pkg, target.name, err, out)
		default:
			fmt.Printf("ok   %s %s: %s\n", target.pkg, target.name, lastExecs(string(out)))
		}
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// lastExecs is the fuzzing engine's last count of executions.
func lastExecs(out string) string {
	last := ""
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "execs:") {
			last = strings.TrimSpace(line)
		}
	}
	return last
}

func envDuration(name string, fallback time.Duration) time.Duration {
	if v := os.Getenv(name); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			return d
		}
		fmt.Fprintf(os.Stderr, "%s: not a duration: %q\n", name, v)
		os.Exit(2)
	}
	return fallback
}

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

// toolchainDeadlineRace: Go 1.26's fuzzing coordinator can report the end of
// -fuzztime as the target's failure ("context deadline exceeded") when a
// worker is still busy at the deadline, most often on a loaded machine. A real
// failure writes its input under testdata/fuzz and says so.
func toolchainDeadlineRace(out string) bool {
	return strings.Contains(out, "\n    context deadline exceeded\n") && !strings.Contains(out, "Failing input written to")
}
