package controllers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The pinned npm parsers' project (package.json, package-lock.json) and the
// two readers (parse.mjs for ical.js and node-ical, parse.py for Debian's
// python3-icalendar); node_modules is installed by the test itself.
const icalParsersProject = "../docs/ical-parsers"

// debianPython is Debian's interpreter, which python3-icalendar installs
// into (a python3 of another origin earlier on PATH does not see it).
const debianPython = "/usr/bin/python3"

// debianICalendarPackages are Debian's python3-icalendar and what it needs
// beyond python3 itself.
var debianICalendarPackages = []string{"python3-icalendar", "python3-dateutil", "python3-six", "python3-tz"}

// debianICalendar makes Debian's python3-icalendar importable by Debian's
// python3 and returns the PYTHONPATH that does it ("" when it is installed).
// On a machine without it, the packages are fetched from the machine's Debian
// archive (apt-get download needs no root) and unpacked into the user's
// cache once, as npm ci fetches the npm parsers: a fresh clone's test
// command needs no step of its own.
func debianICalendar(t *testing.T) string {
	t.Helper()
	if exec.Command(debianPython, "-c", "import icalendar").Run() == nil {
		return ""
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(cache, "calendar-tests", "python3-icalendar")
	sitePackages := filepath.Join(root, "usr", "lib", "python3", "dist-packages")
	imports := func() error {
		cmd := exec.Command(debianPython, "-c", "import icalendar")
		cmd.Env = append(os.Environ(), "PYTHONPATH="+sitePackages)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	}
	if imports() == nil {
		return sitePackages
	}
	need(t, "apt-get")
	need(t, "dpkg-deb")
	if err := os.MkdirAll(filepath.Dir(root), 0o755); err != nil {
		t.Fatal(err)
	}
	staging, err := os.MkdirTemp(filepath.Dir(root), ".unpack-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(staging)
	download := exec.Command("apt-get", append([]string{"download"}, debianICalendarPackages...)...)
	download.Dir = staging
	if out, err := download.CombinedOutput(); err != nil {
		t.Fatalf("fetching %v from Debian's archive (or install them: apt-get install python3-icalendar): %v\n%s", debianICalendarPackages, err, out)
	}
	debs, _ := filepath.Glob(filepath.Join(staging, "*.deb"))
	for _, deb := range debs {
		if out, err := exec.Command("dpkg-deb", "-x", deb, filepath.Join(staging, "root")).CombinedOutput(); err != nil {
			t.Fatalf("unpacking %s: %v\n%s", deb, err, out)
		}
	}
	_ = os.RemoveAll(root) // an unpacking that was interrupted
	if err := os.Rename(filepath.Join(staging, "root"), root); err != nil && imports() != nil {
		t.Fatal(err) // unless another test process unpacked it meanwhile
	}
	if err := imports(); err != nil {
		t.Fatalf("python3-icalendar unpacked into %s does not import: %v", root, err)
	}
	return sitePackages
}

// parsedEvent is a VEVENT as every parser reports it.
type parsedEvent struct {
	UID        string `json:"uid"`
	Start      string `json:"start"`
	Status     string `json:"status"`
	Conference string `json:"conference"`
	Rule       bool   `json:"rule"`
}

// The expanded feed, an event's .ics and the plugin's month export, read by
// three independent parsers (ical.js, node-ical, python3-icalendar), hold
// the list's occurrences (the month's, those of its grid): a
// weekly series across Europe's change of clocks, each occurrence a VEVENT
// of its own without rules, at the instants the list gives, a canceled
// event CANCELLED and an online one with its CONFERENCE.
func TestTheExpandedFeedAndAnEventsFileReadAlikeInThreeParsers(t *testing.T) {
	t.Parallel()
	long(t)
	modules := installedNPMProject(t, icalParsersProject)
	pythonPath := debianICalendar(t)
	s := startService(t)
	year := time.Now().Year() + 1
	change := lastSundayOf(year, time.October) // Paris leaves summer time
	day := func(d time.Time) string { return d.Format("2006-01-02") }
	create := func(fields map[string]any) int64 {
		res := s.do("POST", "/vendor/events/v1/events", asAdmin(), jsonBody(fields))
		res.expectStatus(t, http.StatusCreated)
		return int64(res.object(t)["id"].(float64))
	}
	create(map[string]any{"title": "Class", "timezone": "Europe/Paris", "recurrence": []string{"RRULE:FREQ=WEEKLY;COUNT=3"},
		"start_date": day(change.AddDate(0, 0, -7)) + " 19:00", "end_date": day(change.AddDate(0, 0, -7)) + " 20:30"})
	online := create(map[string]any{"title": "Talk", "timezone": "America/New_York", "event_status": "canceled",
		"attendance_mode": "online", "online_url": "https://meet.example/talk",
		"start_date": day(change.AddDate(0, 0, 2)) + " 12:00", "end_date": day(change.AddDate(0, 0, 2)) + " 13:00"})
	window := "start_date=" + day(change.AddDate(0, 0, -8)) + "&end_date=" + day(change.AddDate(0, 0, 8))

	list := s.do("GET", "/vendor/events/v1/events?per_page=50&"+window)
	list.expectStatus(t, http.StatusOK)
	// The month view's grid of that October ends on the Sunday of the week of
	// the 31st: the plugin's month export holds what starts by then.
	gridEnd := time.Date(year, time.October, 31, 0, 0, 0, 0, time.UTC)
	for gridEnd.Weekday() != time.Sunday {
		gridEnd = gridEnd.AddDate(0, 0, 1)
	}
	var want, talk, month []parsedEvent
	for _, e := range list.object(t)["events"].([]any) {
		ev := e.(map[string]any)
		id := int64(ev["id"].(float64))
		p := parsedEvent{UID: fmt.Sprintf("%d@127.0.0.1", id), Start: strings.Replace(ev["utc_start_date"].(string), " ", "T", 1) + "Z", Status: "CONFIRMED"}
		if id == online {
			p.Status, p.Conference = "CANCELLED", "https://meet.example/talk"
			talk = append(talk, p)
		}
		if ev["start_date"].(string)[:10] <= day(gridEnd) {
			month = append(month, p)
		}
		want = append(want, p)
	}
	if len(want) != 4 {
		t.Fatalf("the list has %d events, want the series' 3 and the talk: %s", len(want), list.Body)
	}

	work := t.TempDir()
	if err := os.Symlink(modules, filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"expanded.ics": "/vendor/events/v1/events.ics?expand=true&" + window, "talk.ics": fmt.Sprintf("/vendor/events/v1/events/%d.ics", online),
		"month.ics": fmt.Sprintf("/events/?ical=1&tribe_display=month&eventDate=%d-10", year)}
	for name, path := range files {
		res := s.do("GET", path)
		res.expectStatus(t, http.StatusOK)
		if err := os.WriteFile(filepath.Join(work, name), res.Body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"parse.mjs", "parse.py"} {
		raw, err := os.ReadFile(filepath.Join(icalParsersProject, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	parsed := map[string]map[string][]parsedEvent{} // parser -> file -> events
	for _, cmd := range []*exec.Cmd{exec.Command("node", "parse.mjs", "expanded.ics", "talk.ics", "month.ics"),
		exec.Command(debianPython, "parse.py", "expanded.ics", "talk.ics", "month.ics")} {
		cmd.Dir = work
		if cmd.Args[0] == debianPython && pythonPath != "" {
			cmd.Env = append(os.Environ(), "PYTHONPATH="+pythonPath)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
		}
		if err := json.Unmarshal(out, &parsed); err != nil { // each adds its parsers
			t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
		}
	}
	if len(parsed) != 3 {
		t.Fatalf("parsers %v, want three", parsed)
	}
	for parser, byFile := range parsed {
		if got := byFile["expanded.ics"]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s reads the expanded feed as\n%+v\nwant the list's\n%+v", parser, got, want)
		}
		if got := byFile["month.ics"]; !reflect.DeepEqual(got, month) {
			t.Errorf("%s reads the plugin's month export as\n%+v\nwant\n%+v", parser, got, month)
		}
		if got := byFile["talk.ics"]; !reflect.DeepEqual(got, talk) {
			t.Errorf("%s reads the talk's .ics as %+v, want %+v", parser, got, talk)
		}
	}
}

// lastSundayOf is the last Sunday of a month: when Europe changes its clocks.
func lastSundayOf(year int, month time.Month) time.Time {
	d := time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC)
	return d.AddDate(0, 0, -int(d.Weekday()))
}
