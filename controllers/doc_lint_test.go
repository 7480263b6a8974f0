package controllers_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The pinned linter's npm project: package.json, package-lock.json and the
// rules (redocly.yaml); its node_modules is installed by the test itself.
const linterProject = "../docs/openapi-lint"

// lintsClean: the pinned linter, under the recommended rules, finds no error
// in the document; its warnings are logged.
func lintsClean(t *testing.T, served []byte) {
	cli := installedLinter(t)
	// Indented, so the linter's locations are lines of the document.
	var indented bytes.Buffer
	if err := json.Indent(&indented, served, "", "  "); err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(doc, indented.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", cli, "lint", "--config", filepath.Join(linterProject, "redocly.yaml"), "--format", "json", doc)
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var report struct {
		Totals   struct{ Errors, Warnings int }
		Problems []struct {
			RuleID   string `json:"ruleId"`
			Severity string
			Message  string
			Location []struct{ Pointer string }
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("the linter gave no report (%v, %v):\n%s\n%s", runErr, err, stdout.Bytes(), stderr.Bytes())
	}
	for _, p := range report.Problems {
		where := ""
		if len(p.Location) > 0 {
			where = p.Location[0].Pointer
		}
		if p.Severity == "error" {
			t.Errorf("%s at %s: %s", p.RuleID, where, p.Message)
		} else {
			t.Logf("%s %s at %s: %s", p.Severity, p.RuleID, where, p.Message)
		}
	}
	if report.Totals.Errors != 0 || runErr != nil {
		t.Fatalf("the linter reports %d errors (%v)", report.Totals.Errors, runErr)
	}
}

// installedLinter is the path of the pinned linter's command.
func installedLinter(t *testing.T) string {
	t.Helper()
	return filepath.Join(installedNPMProject(t, linterProject), "@redocly", "cli", "bin", "cli.js")
}

// installedNPMProject is the node_modules of the npm project in dir (its
// package.json and package-lock.json), installed with npm ci when missing or
// when a package of its devDependencies is of another version than the lock
// pins. It installs into a directory of its own, then renames it into
// place, so two test processes installing at once each end with a whole
// install.
func installedNPMProject(t *testing.T, dir string) string {
	t.Helper()
	need(t, "node")
	project, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	modules := filepath.Join(project, "node_modules")
	pinned := pinnedVersions(t, project)
	if installedAsPinned(modules, pinned) {
		return modules
	}
	need(t, "npm")
	staging, err := os.MkdirTemp(project, ".install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(staging)
	for _, name := range []string{"package.json", "package-lock.json"} {
		raw, err := os.ReadFile(filepath.Join(project, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(staging, name), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	npm := exec.Command("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	npm.Dir = staging
	if out, err := npm.CombinedOutput(); err != nil {
		t.Fatalf("npm ci of the pinned packages of %s: %v\n%s", project, err, out)
	}
	if installedAsPinned(modules, pinned) {
		return modules // another test process installed it meanwhile
	}
	// What is there (other versions, an interrupted install) is set aside in
	// the staging directory and removed with it.
	if err := os.Rename(modules, filepath.Join(staging, "replaced")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(staging, "node_modules"), modules); err != nil && !installedAsPinned(modules, pinned) {
		t.Fatalf("installing the pinned packages of %s: %v", project, err)
	}
	return modules
}

// need fails the test when a tool of the npm projects is not on PATH.
func need(t *testing.T, tool string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Fatalf("the OpenAPI documents' lint and generated clients need Node.js and npm (%v); the README's \"On a fresh machine\" says which versions", err)
	}
}

// pinnedVersions are the versions package-lock.json pins for the project's
// devDependencies, by package.
func pinnedVersions(t *testing.T, project string) map[string]string {
	t.Helper()
	var manifest struct{ DevDependencies map[string]string }
	var lock struct {
		Packages map[string]struct{ Version string }
	}
	for name, into := range map[string]any{"package.json": &manifest, "package-lock.json": &lock} {
		raw, err := os.ReadFile(filepath.Join(project, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, into); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	pinned := map[string]string{}
	for name := range manifest.DevDependencies {
		v := lock.Packages["node_modules/"+name].Version
		if v == "" {
			t.Fatalf("%s/package-lock.json pins no %s", project, name)
		}
		pinned[name] = v
	}
	if len(pinned) == 0 {
		t.Fatalf("%s/package.json has no devDependencies", project)
	}
	return pinned
}

// installedAsPinned: every pinned package is in node_modules at its version.
func installedAsPinned(modules string, pinned map[string]string) bool {
	for name, version := range pinned {
		raw, err := os.ReadFile(filepath.Join(modules, name, "package.json"))
		if err != nil {
			return false
		}
		var pkg struct{ Version string }
		if json.Unmarshal(raw, &pkg) != nil || strings.TrimSpace(pkg.Version) != version {
			return false
		}
	}
	return true
}
