package controllers_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The occurrences an import of each fixture feed makes (Google Calendar's,
// Outlook's with Windows zone names, Apple's, Nextcloud's and the plugin's;
// app/testdata/imports/README.md says where each format comes from) are
// those ical.js expands from the same file, in the feed's own VTIMEZONEs:
// RRULE, RDATE, EXDATE, an overridden instance moved, a cancelled one gone,
// all-day and floating times (the site's zone and the parser's are UTC).
func TestImportedOccurrencesAreThoseAnIndependentParserExpands(t *testing.T) {
	t.Parallel()
	long(t)
	modules := installedNPMProject(t, icalParsersProject)
	fixtures := []string{"google", "outlook", "apple", "nextcloud", "plugin"}
	feeds := map[string]*feedServer{}
	for _, name := range fixtures {
		feeds[name] = newFeedServer(t, icsFixture(t, name+".ics"))
	}
	s := importing(t, loopback)
	for _, name := range fixtures {
		created := s.do("POST", "/vendor/admin/v1/imports", asAdmin(), jsonBody(map[string]any{"kind": "ical", "url": feeds[name].URL,
			"status": "publish", "categories": []string{"from-" + name}}))
		created.expectStatus(t, http.StatusCreated)
		if run := runImport(t, s, int64(created.object(t)["id"].(float64))); strings.Contains(outcomes(run), "failed") || run["error"] != "" {
			t.Fatalf("%s: %s %v", name, outcomes(run), run["failed"])
		}
	}

	work := t.TempDir()
	if err := os.Symlink(modules, filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	args := []string{"parse.mjs", "--expand", "2028-12-31T00:00:00Z"}
	for _, name := range append(fixtures, "parse.mjs") {
		from := filepath.Join("../app/testdata/imports", name+".ics")
		if name == "parse.mjs" {
			from = filepath.Join(icalParsersProject, name)
		} else {
			args = append(args, name+".ics")
		}
		raw, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, filepath.Base(from)), raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("node", args...)
	cmd.Dir, cmd.Env = work, append(os.Environ(), "TZ=UTC")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	var parsed map[string]map[string][]parsedEvent
	if err := json.Unmarshal(out, &parsed); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, name := range fixtures {
		var want []string
		for _, e := range parsed["ical.js"][name+".ics"] {
			if e.Status != "CANCELLED" { // an instance the series no longer has
				want = append(want, e.Start)
			}
		}
		list := s.do("GET", "/vendor/events/v1/events?per_page=100&start_date=2027-01-01&end_date=2028-12-31&categories=from-"+name, asAdmin())
		list.expectStatus(t, http.StatusOK)
		var got []string
		for _, e := range list.object(t)["events"].([]any) {
			ev := e.(map[string]any)
			if d := ev["description"].(string); strings.Contains(d, "<script") || (ev["title"] == "Chess club" && !strings.Contains(d, "<b>Beginners</b>")) {
				t.Errorf("%s: %q is not sanitised as a write's description is", ev["title"], d)
			}
			if ev["event_status"] == "canceled" {
				continue
			}
			if ev["all_day"] == true {
				got = append(got, ev["start_date"].(string)[:10])
			} else {
				got = append(got, strings.Replace(ev["utc_start_date"].(string), " ", "T", 1)+"Z")
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: imported occurrences\n%v\nical.js expands\n%v", name, got, want)
		}
	}
}
