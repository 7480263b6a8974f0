package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The README's examples, then the API guide's and the front-end guide's,
// which go on from them, run as a newcomer runs them: in order, in one
// shell, with curl, against a service started on a fresh data directory as
// the README's first steps start it. Every request must succeed and every
// example show what its comment says.
func TestTheREADMEExamplesRunInOrderOnAFreshStart(t *testing.T) {
	t.Parallel()
	commands := readmeCommands(t)
	logs := &syncWriter{b: &strings.Builder{}}
	settings := readmeStartSettings(t)
	settings["CALENDAR_DATA_DIR"], settings["CALENDAR_LOG_FORMAT"] = t.TempDir(), "json"
	addr, _ := serveInProcess(t, settings, logs)

	cmd := exec.Command("bash", "-c", markedScript(commands, strings.NewReplacer("127.0.0.1:8080", addr)))
	cmd.Dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(cmd.Dir, "poster.jpg"), gradientJPEG(t, 1200, 800), 0o600); err != nil { // "any image as poster.jpg"
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the examples stopped: %v\n%s", err, out)
	}
	outputs := outputsOf(out)

	for _, line := range strings.Split(logs.String(), "\n") {
		var entry struct {
			Msg, Method, Path string
			Status            int
		}
		if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == "request" && entry.Status >= 400 {
			t.Errorf("%s %s answered %d", entry.Method, entry.Path, entry.Status)
		}
	}
	// What each example's comment promises, by a part of its command.
	// What the answers shown beside the commands say.
	checkSampleAnswers(t, slices.Concat(sampleAnswers(t, "../../README.md", "## First steps"),
		sampleAnswers(t, "../../docs/api.md", "# API guide"), sampleAnswers(t, "../../docs/frontend.md", "# Front-end guide")),
		commands, outputs, strings.NewReplacer("127.0.0.1:8080", addr))
	checkPromises(t, "README or guide example", commands, outputs, []promise{
		{"curl -s $API                                   #", `"namespace":"vendor/events/v1"`},
		{`"$API/events?per_page=1"               #`, `"title":"Jazz night"`},
		{`"$API/events?per_page=1"               #`, `"total":1,"total_pages":1`},
		{"end_date=next+week&categories=jazz", `"title":"Jazz night"`},
		{"search=jazz%20knight&orderby=relevance", `"title":"Jazz night"`},
		{"search=jazz%20knight&orderby=relevance", `"slug":"music","name":"Music","count":1}`},
		{"near=Paris&geoloc_radius=10", `"distance":`},
		{"geo_bounds=48,1,49,3", `"geo_grid":{"precision":4,"cells":[{"geohash":"u09t","count":1`},
		{"$ADMIN/doc |", `/vendor/admin/v1/"}]`},
		{"$ADMIN/users            #", `"login":"admin"`},
		{"login=maria", `"application_password"`},
		{"$ADMIN/users/me         #", `"role":"administrator"`},
		{"-d role=author", `"role":"author"`},
		{"name='Event importer'", `"password":"`},
		{`Bearer $KEY" $ADMIN/users/me`, `"login":"admin"`},
		{"users/1/application-passwords                 #", `"last_ip":"127.0.0.1"`},
		{`-X DELETE "$ADMIN/users/$MARIA"`, `"deleted":true`},
		{`"title": "Jazz night"`, `"venue":"Salle Pleyel"`},
		{"events?start_date=today&end_date=next+month&categories=jazz", `"title":"Jazz night"`},
		{"venues?search=paris", `"venue":"Philharmonie de Paris"`},
		{"venues?search=paris", `"venue":"Salle Pleyel"`},
		{"name=Bebop", `"parent":`},
		{"hide_empty=false", `"name":"Bebop"`},
		{"If-None-Match", " 304 "},
		{"_fields=id,title,venue.venue", `"venue":{"venue":"Salle Pleyel"}`},
		{"_envelope", `"status":400`},
		{"?_embed=up", `"_embedded":{"up":[{"id":`},
		{"?_embed=up", `"name":"Jazz","slug":"jazz"`},
		{"_method=DELETE", `"status":"trash"`},
		{"per_page=1\" | grep -i '^link:'", `page=2>; rel="next"`},
		{"categories=jazz&categories=music", `"title":"Café concert"`},
		{"categories=jazz&categories=music", `"title":"Jazz night"`},
		{`-H "If-Match: $TAG" -d cost=25`, `"cost":"25€"`},
		{"search=cafe%20concrt", `"title":"Café concert"`},
		{"events.ics?categories=jazz", "SUMMARY:Jazz night"},
		{"modified_after=yesterday", `"title":"Jazz night"`},
		{"changes?since=0", `"created"`},
		{"embed=object", `"object":{"id":`},
		{"-d event_status=postponed", `"event_status":"postponed"`},
		{"events?event_status=postponed", `"title":"Jazz night"`},
		{"$EVENT.ics", "SUMMARY:Jazz night"},
		{"hooks.example.org/calendar", `"secret":"whsec_`},
		{"$ADMIN/webhooks         #", `"url":"https://hooks.example.org/calendar"`},
		{"geoloc_lat=48.8566", `"title":"Jazz night"`},
		{`filename="poster.jpg"`, `"media_type":"image"`},
		{`"image": '$POSTER'`, `"thumbnail":{"width":150,"height":150,"mime-type":"image/jpeg"`},
		{"-F file=@poster.jpg", `"alt_text":"The festival poster"`},
		{"-F file=@events.csv", `"has_file":true`},
		{"media?search=poster", `"slug":"poster-2"`},
		{"post_parent=$CLASS", `"title":"Yoga class"`},
		{"events.ics?search=yoga", "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10"},
		{"hide_subsequent_recurrences=true&search=yoga", `"total":1,`},
		{"$CLASS/occurrences", `"en":"Every week on Tuesday at 19:00, 10 times"`},
		{"categories=jazz&facets=categories,venue", `"slug":"music","name":"Music","count":2}`},
		{"categories=jazz&facets=categories,venue", `"slug":"salle-pleyel","name":"Salle Pleyel","count":1}`},
		{"near=Paris,%20France", `"title":"Jazz night"`},
		{"geo_bounds=48.8,2.2,48.9,2.5", `"title":"Jazz night"`},
		{"facets=geo_grid&geo_precision=4", `"geo_grid":{"precision":4,"cells":[{"geohash":"u09t"`},
		{"search=体育场", `"title":"北京爵士音乐节"`},
		{"search=les bals", `"title":"Grand bal des pompiers"`},
		{"-d search=jazz -d highlight=true", `"highlight":{"title":"<mark>Jazz</mark> night"`},
		{`"$API/events?search=jazz%20knight"`, `"title":"Jazz night"`},
		{`"words": ["gig", "concert"]`, `"words":["gig","concert"]`},
		{`"$API/events?search=gig"`, `"title":"Café concert"`},
		{"facets/venue?q=sal", `"name":"Salle Pleyel","count":`},
		{"facets=days&start_date=today", `"days":[{"date":"`},
		{"suggest?q=jaz", `{"type":"event","text":"Jazz night","highlight":"<mark>Jazz</mark> night"`},
		{"suggest?q=jaz", `{"type":"category","text":"Jazz"`},
		{"-d key=age_min", `"key":"age_min"`},
		{"custom_fields[age_min]=18", `"custom_fields":{"age_min":{"label":"Minimum age","value":18}}`},
		{"cf%5Bage_min%5D%5Bgte%5D=16", `"title":"Jazz night"`},
		{"cf%5Bage_min%5D%5Bgte%5D=16", `"facets":{"cf.age_min":[{"name":"18","count":1}]}`},
	})
}

// readmeCommands are the shell commands of the README's sh blocks, from its
// first steps on, then those of the API guide and of the front-end guide,
// which go on from them; blocks that build, test or need Docker are left
// out.
func readmeCommands(t *testing.T) []string {
	t.Helper()
	return slices.Concat(shellCommands(t, "../../README.md", "## First steps", 8),
		shellCommands(t, "../../docs/api.md", "# API guide", 25),
		shellCommands(t, "../../docs/frontend.md", "# Front-end guide", 8))
}

// readmeStartSettings are the settings the README's first steps start the
// service with (its data directory aside): the examples assume them.
func readmeStartSettings(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	start := regexp.MustCompile("(?s)```sh\n(CALENDAR_DATA_DIR=\\$\\(mktemp -d\\).*?go run ./cmd/calendar)\n```").FindSubmatch(raw)
	if start == nil {
		t.Fatal("the README's first steps start the service on no fresh data directory")
	}
	settings := map[string]string{}
	for _, m := range regexp.MustCompile(`(CALENDAR_[A-Z_]+)=('[^']*'|\S+)`).FindAllStringSubmatch(string(start[1]), -1) {
		settings[m[1]] = strings.Trim(m[2], "'")
	}
	delete(settings, "CALENDAR_DATA_DIR")
	if settings["CALENDAR_ADMIN_PASSWORD"] == "" || settings["CALENDAR_LANGUAGES"] == "" {
		t.Fatalf("the README's start sets no password or no languages: %s", start[1])
	}
	return settings
}

// The README is read in ten minutes: at most about 200 lines, its sections
// in order, the two commands in one block, and every file and section it
// links to there (and the guides' links too).
func TestTheREADMEReadsInTenMinutes(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	if lines := strings.Count(readme, "\n"); lines > 200 {
		t.Errorf("the README has %d lines, more than 200: move what is for one audience to its guide", lines)
	}
	at := 0
	for _, heading := range []string{"\n## On a fresh machine\n", "\n## First steps\n", "\n## What people come for\n",
		"\n### This week's events\n", "\n### Search", "\n### Near me", "\n## Where to go next\n"} {
		i := strings.Index(readme[at:], heading)
		if i < 0 {
			t.Fatalf("the README has no %q after its byte %d", strings.TrimSpace(heading), at)
		}
		at += i + len(heading)
	}
	intro, _, _ := strings.Cut(readme, "\n## ")
	if !strings.Contains(intro, " is for ") {
		t.Error("the README does not say, before its first section, who the service is for")
	}
	firstSteps := section(readme, "\n## First steps\n")
	if !strings.Contains(firstSteps, "```json\n") {
		t.Error("the README's first steps show no sample answer (a json block)")
	}
	next := section(readme, "\n## Where to go next\n")
	for _, guide := range []string{"docs/api.md", "docs/frontend.md", "docs/limits.md", "docs/operations.md"} {
		if !regexp.MustCompile(`(?m)^\|.*\]\(` + regexp.QuoteMeta(guide) + `\)`).MatchString(next) {
			t.Errorf("the README's table of where to go next has no row linking %s", guide)
		}
	}
	if !regexp.MustCompile("```sh\ngo run \\./cmd/calendar +#[^\n]*\ngo test -race [^\n]*\\./\\.\\.\\.[^\n]*\n```").MatchString(readme) {
		t.Error("the README does not give the two commands, running the service and the whole suite, in one block")
	}
	for _, doc := range []string{"README.md", "CHANGELOG.md", "docs/api.md", "docs/frontend.md", "docs/limits.md", "docs/operations.md", "docs/contract.md"} {
		linksLead(t, "../..", doc)
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)#\s]*)(#[^)\s]*)?\)`)

// linksLead checks that every relative link of a document (under root)
// names a file there, and a section of it that exists.
func linksLead(t *testing.T, root, doc string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mdLink.FindAllStringSubmatch(string(raw), -1) {
		target, anchor := m[1], strings.TrimPrefix(m[2], "#")
		if strings.Contains(target, "://") {
			continue
		}
		path := filepath.Join(root, filepath.Dir(doc), target)
		if target == "" {
			path = filepath.Join(root, doc)
		}
		linked, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s links to %s, which is not there: %v", doc, m[0], err)
			continue
		}
		if anchor != "" && !slices.Contains(sectionAnchors(string(linked)), anchor) {
			t.Errorf("%s links to %s, which has no section %q", doc, m[0], anchor)
		}
	}
}

// sectionAnchors are the anchors GitHub gives a document's headings:
// lower-cased, punctuation but hyphens dropped, spaces as hyphens.
func sectionAnchors(doc string) []string {
	var anchors []string
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var anchor strings.Builder
		for _, r := range title {
			switch {
			case r == ' ':
				anchor.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				anchor.WriteRune(r)
			}
		}
		anchors = append(anchors, anchor.String())
	}
	return anchors
}

// markedScript runs commands in one shell, each after a marker line
// (@@<index>) that outputsOf splits the output on, with the addresses and
// paths of the document replaced by the test's.
func markedScript(commands []string, local *strings.Replacer) string {
	var script strings.Builder
	for i, c := range commands {
		script.WriteString("echo '@@" + strconv.Itoa(i) + "'\n" + local.Replace(c) + "\n")
	}
	return script.String()
}

// outputsOf is each command's output in a markedScript's output, by index.
func outputsOf(out []byte) map[int]string {
	outputs := map[int]string{}
	for _, part := range strings.Split(string(out), "@@")[1:] {
		n, rest, _ := strings.Cut(part, "\n")
		i, _ := strconv.Atoi(n)
		outputs[i] = rest
	}
	return outputs
}

// promise is what a document's command says it shows: a part of the
// command, and a part of its output.
type promise struct{ command, shows string }

// checkPromises checks that each command having a promise's part shows it,
// and that some command has it (what names the commands in messages).
func checkPromises(t *testing.T, what string, commands []string, outputs map[int]string, promises []promise) {
	t.Helper()
	for _, want := range promises {
		found := false
		for i, c := range commands {
			if strings.Contains(c, want.command) {
				found = true
				if !strings.Contains(outputs[i], want.shows) {
					t.Errorf("%s\nshows no %q:\n%s", c, want.shows, outputs[i])
				}
			}
		}
		if !found {
			t.Errorf("no %s has %q", what, want.command)
		}
	}
}

// shellCommands are the commands of a document's sh blocks after the
// heading from, continued lines joined, comment lines left out; at least
// atLeast, or the document lost its examples. Blocks that build, test or
// need Docker are left out.
func shellCommands(t *testing.T, path, from string, atLeast int) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, text, ok := strings.Cut(string(raw), from)
	if !ok {
		t.Fatalf("%s has no %q", path, from)
	}
	var commands []string
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(text, -1) {
		if strings.Contains(block[1], "go run") || strings.Contains(block[1], "docker") {
			continue
		}
		commands = append(commands, blockCommands(t, path, block[1])...)
	}
	if len(commands) < atLeast {
		t.Fatalf("only %d commands found in %s", len(commands), path)
	}
	return commands
}

// blockCommands are the commands of one sh block (of the document at
// path), continued lines joined, comment lines left out.
func blockCommands(t *testing.T, path, block string) []string {
	t.Helper()
	var commands []string
	var command string
	for _, line := range strings.Split(block, "\n") {
		command += line + "\n"
		if strings.HasSuffix(line, "\\") || strings.Count(command, "'")%2 == 1 {
			continue // continued, or inside a quoted string
		}
		if strings.TrimSpace(command) != "" && !strings.HasPrefix(strings.TrimSpace(command), "#") {
			commands = append(commands, strings.TrimSuffix(command, "\n"))
		}
		command = ""
	}
	if strings.TrimSpace(command) != "" {
		t.Fatalf("%s: a command runs past the end of its block (a quote left open?):\n%s", path, command)
	}
	return commands
}

// sampleAnswer is an answer a document shows in a json block: a part of
// what the command before it (the last of the sh block before it) answers.
type sampleAnswer struct{ command, json string }

// sampleAnswers are a document's json blocks after the heading from, each
// with the command it answers.
func sampleAnswers(t *testing.T, path, from string) []sampleAnswer {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, text, _ := strings.Cut(string(raw), from)
	var samples []sampleAnswer
	var last string
	for _, block := range regexp.MustCompile("(?s)```(sh|json)\n(.*?)```").FindAllStringSubmatch(text, -1) {
		if block[1] == "sh" {
			if commands := blockCommands(t, path, block[2]); len(commands) > 0 {
				last = commands[len(commands)-1]
			}
			continue
		}
		if last == "" {
			t.Fatalf("%s: a json block answers no command before it:\n%s", path, block[2])
		}
		samples = append(samples, sampleAnswer{last, block[2]})
	}
	return samples
}

var (
	samplePair = regexp.MustCompile(`"([^"]+)":\s*("(?:[^"\\]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?|true|false|null)`)
	sampleDate = regexp.MustCompile(`[0-9]{4}-[0-9]{2}-[0-9]{2}`)
)

// checkSampleAnswers checks that the output of the command each sample
// answers has every member of the sample with a plain value ("key": value,
// as the service writes it, without spaces; a date any day, as the examples
// make their events tomorrow), the document's address replaced by the
// test's.
func checkSampleAnswers(t *testing.T, samples []sampleAnswer, commands []string, outputs map[int]string, local *strings.Replacer) {
	t.Helper()
	for _, sample := range samples {
		i := slices.Index(commands, sample.command)
		if i < 0 {
			t.Errorf("the sample answer of a command that is not run:\n%s", sample.command)
			continue
		}
		pairs := samplePair.FindAllStringSubmatch(sample.json, -1)
		if len(pairs) == 0 {
			t.Errorf("a sample answer of %s shows no member with a value:\n%s", sample.command, sample.json)
		}
		for _, pair := range pairs {
			member := local.Replace(`"` + pair[1] + `":` + pair[2])
			pattern := sampleDate.ReplaceAllString(regexp.QuoteMeta(member), `[0-9]{4}-[0-9]{2}-[0-9]{2}`)
			if !regexp.MustCompile(pattern).MatchString(outputs[i]) {
				t.Errorf("%s\nanswers no %s, which its sample shows:\n%s", sample.command, member, outputs[i])
			}
		}
	}
}

// section is the text of a document from the heading on, to the next
// heading of its level or above outside code blocks ("" when it has none).
func section(doc, heading string) string {
	_, rest, ok := strings.Cut(doc, heading)
	if !ok {
		return ""
	}
	level := strings.Index(strings.TrimLeft(heading, "\n"), " ")
	var text strings.Builder
	inCode := false
	for _, line := range strings.SplitAfter(rest, "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		hashes := len(line) - len(strings.TrimLeft(line, "#"))
		if !inCode && hashes > 0 && hashes <= level && strings.HasPrefix(line[hashes:], " ") {
			break
		}
		text.WriteString(line)
	}
	return text.String()
}
