package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"calendar/index"
)

// The version is the one set at build time, else the one the toolchain
// recorded (a tag, or a pseudo-version), else devel; the commit is the
// recorded revision, dirty when the tree had changes.
func TestTheBuildIsReadFromWhatTheBinaryRecorded(t *testing.T) {
	t.Parallel()
	vcs := func(revision, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: revision}, {Key: "vcs.modified", Value: modified}}
	}
	for _, c := range []struct {
		name     string
		info     *debug.BuildInfo
		released [2]string
		want     build
	}{
		{"go run: nothing recorded", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, [2]string{},
			build{"devel", "unknown", "go1.26.8"}},
		{"a tagged checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}, Settings: vcs("0123456789abcdef0123", "false")}, [2]string{},
			build{"1.4.0", "0123456789ab", "go1.26.8"}},
		{"a release build over a changed tree", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261127111803-5c619ad04dd7+dirty"}, Settings: vcs("5c619ad04dd7aa", "true")}, [2]string{"1.5.0", ""},
			build{"1.5.0", "5c619ad04dd7-dirty", "go1.26.8"}},
		{"an image's build: no repository, both set", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, [2]string{"1.5.0", "5c619ad04dd7"},
			build{"1.5.0", "5c619ad04dd7", "go1.26.8"}},
		{"no build information", nil, [2]string{}, build{"devel", "unknown", ""}},
	} {
		if got := buildOf(c.info, c.released[0], c.released[1]); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// `calendar version` and `calendar -version` print the build and exit; a
// service says its version and commit in its first log line, in /metrics
// (calendar_build_info) and as its OpenAPI document's info.version.
func TestTheServiceSaysWhichBuildItIs(t *testing.T) {
	t.Parallel()
	want := thisBuild()
	for _, arg := range []string{"version", "-version"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CALENDAR_TEST_MAIN_ARGS="+arg)
		out, err := cmd.Output()
		if line := "calendar devel (commit unknown, " + runtime.Version() + ")\n"; err != nil || string(out) != line {
			t.Errorf("calendar %s: %v, %q, want %q", arg, err, out, line)
		}
	}

	logs := &syncWriter{b: &strings.Builder{}}
	addr, _ := serveInProcess(t, map[string]string{"CALENDAR_DATA_DIR": t.TempDir()}, logs)
	first, _, _ := strings.Cut(logs.String(), "\n")
	var start struct{ Msg, Version, Commit string }
	if json.Unmarshal([]byte(first), &start) != nil || start.Version != want.Version || start.Commit != want.Commit {
		t.Errorf("the first log line: %s, want version %s and commit %s", first, want.Version, want.Commit)
	}
	metrics := body(t, "http://"+addr+"/metrics")
	if line := `calendar_build_info{commit="unknown",goversion="` + runtime.Version() + `",version="devel"} 1`; !strings.Contains(metrics, line) {
		t.Errorf("no %s in /metrics:\n%s", line, metrics)
	}
	var doc struct{ Info struct{ Version string } }
	if status := get(t, "http://"+addr+"/vendor/events/v1/doc", &doc); status != http.StatusOK || doc.Info.Version != "devel" {
		t.Errorf("the document: %d, info.version %q", status, doc.Info.Version)
	}
}

// body is what a GET answers, which must be 200.
func body(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d, %v: %s", url, res.StatusCode, err, raw)
	}
	return string(raw)
}

// Every entry of the CHANGELOG says what an upgrade does to the index and
// to the store, and the newest states this build's mapping versions: a
// change of index.MappingVersion or index.ServesFrom without an entry that
// says it fails here.
func TestTheChangelogSaysWhatAnUpgradeDoesToTheIndexAndTheStore(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	entries := strings.Split(string(raw), "\n## ")[1:]
	if len(entries) == 0 {
		t.Fatal("the CHANGELOG has no entry")
	}
	for _, entry := range entries {
		title, _, _ := strings.Cut(entry, "\n")
		for _, says := range []string{"\n- Index: ", "\n- Store: "} {
			if !strings.Contains(entry, says) {
				t.Errorf("the entry %q does not say %q", title, strings.TrimSpace(says))
			}
		}
	}
	newest := fmt.Sprintf("- Index: mapping version %d, serving %d to %d.", index.MappingVersion, index.ServesFrom, index.MappingVersion)
	if !strings.Contains(entries[0], newest) {
		t.Errorf("the newest entry does not say %q:\n%s", newest, entries[0])
	}
}
