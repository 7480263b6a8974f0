package controllers_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The pinned generators' npm project (package.json, package-lock.json), the
// program written against their clients (check.ts), its compiler's settings
// and the script that runs both generators (generate.mjs); node_modules is
// installed by the test itself.
const clientsProject = "../docs/openapi-clients"

// Clients generated from the documents the service serves, by two
// mainstream generators, call every route: @hey-api/openapi-ts's SDK and
// openapi-typescript's types for openapi-fetch, generated from both
// namespaces' documents, type-check a program that reads one route of each
// resource and of the administration and writes a category, and the
// program, run against the service, gets what it asks for with each.
func TestClientsGeneratedFromTheDocsCallTheService(t *testing.T) {
	t.Parallel()
	long(t)
	modules := installedNPMProject(t, clientsProject)
	s := startService(t)
	s.do("POST", "/vendor/events/v1/events", asAdmin(), jsonBody(map[string]any{"title": "Jazz night",
		"start_date": "tomorrow 8pm", "end_date": "tomorrow 11pm", "venue": map[string]any{"venue": "Salle Pleyel"},
		"organizer": map[string]any{"organizer": "Le club"}, "categories": "Jazz", "tags": "live"})).expectStatus(t, http.StatusCreated)

	work := t.TempDir()
	if err := os.Symlink(modules, filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"check.ts", "tsconfig.json", "generate.mjs"} {
		raw, err := os.ReadFile(filepath.Join(clientsProject, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	servers := map[string]string{}
	for name, path := range map[string]string{"events": "/vendor/events/v1/doc", "admin": "/vendor/admin/v1/doc"} {
		res := s.do("GET", path)
		res.expectStatus(t, http.StatusOK)
		servers[name] = firstServer(res.object(t))
		if err := os.WriteFile(filepath.Join(work, name+".json"), res.Body, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	node := func(args ...string) {
		t.Helper()
		cmd := exec.Command("node", args...)
		cmd.Dir = work
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("node %v: %v\n%s", args, err, out)
		}
	}
	node("generate.mjs")
	node(filepath.Join("node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json")
	node(filepath.Join("out", "check.js"), servers["events"], servers["admin"], adminPassword)
}
