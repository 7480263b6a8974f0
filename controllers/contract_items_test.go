package controllers_test

import (
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// itemAsked is one request of the contract's table: a method, a path and
// the caller (nil: anonymous).
type itemAsked struct {
	method, path string
	as           option
}

// docs/contract.md's table of items that cannot be given is what the
// service answers: for each resource, a missing ID, an ID of another
// resource and an item the caller may not read, asked over HTTP as a
// front-end asks, answer the status each cell begins with, and one of the
// codes it names before its first aside. Every row and claim of the table
// is asked, and nothing the table does not say.
func TestTheContractsTableOfItemsThatCannotBeGivenIsWhatTheServiceAnswers(t *testing.T) {
	t.Parallel()
	s := startService(t)
	draft := s.do("POST", "/vendor/events/v1/events", asAdmin(), jsonBody(map[string]any{"title": "Spring launch", "status": "draft",
		"start_date": "2031-03-01 10:00", "end_date": "2031-03-01 11:00", "recurrence": "RRULE:FREQ=WEEKLY;COUNT=2",
		"categories": "Unannounced", "tags": "secret"}))
	draft.expectStatus(t, http.StatusCreated)
	event := draft.object(t)
	id := map[string]string{
		"draft":          idOf(event),
		"draft category": idOf(asMap(asList(event["categories"])[0])),
		"draft tag":      idOf(asMap(asList(event["tags"])[0])),
	}
	for name, create := range map[string][]string{
		"category": {"categories", "name", "Jazz"}, "tag": {"tags", "name", "live"},
		"venue":     {"venues", "venue", "Back room", "status", "private"},
		"organizer": {"organizers", "organizer", "Night owls", "status", "private"},
	} {
		res := s.do("POST", "/vendor/events/v1/"+create[0], asAdmin(), form(create[1:]...))
		res.expectStatus(t, http.StatusCreated)
		id[name] = idOf(res.object(t))
	}
	s.do("POST", "/vendor/admin/v1/fields", asAdmin(), jsonBody(map[string]any{"key": "budget", "label": "Budget", "type": "number"})).
		expectStatus(t, http.StatusCreated)

	const api, admin, nowhere = "/vendor/events/v1/", "/vendor/admin/v1/", "999999"
	get := func(path string) itemAsked { return itemAsked{"GET", path, nil} }
	asked := map[string][3][]itemAsked{ // by row: a missing ID, another resource's, one the caller may not read
		"events": {{get(api + "events/" + nowhere)}, {get(api + "events/" + id["venue"])}, {get(api + "events/" + id["draft"])}},
		"a series' occurrences (`/events/<id>/occurrences`)": {{get(api + "events/" + nowhere + "/occurrences")},
			{get(api + "events/" + id["venue"] + "/occurrences")}, {get(api + "events/" + id["draft"] + "/occurrences")}},
		"venues, organizers": {{get(api + "venues/" + nowhere), get(api + "organizers/" + nowhere)},
			{get(api + "venues/" + id["draft"]), get(api + "organizers/" + id["venue"])},
			{get(api + "venues/" + id["venue"]), get(api + "organizers/" + id["organizer"])}},
		"categories, tags": {{get(api + "categories/" + nowhere), get(api + "tags/" + nowhere)},
			{get(api + "categories/" + id["tag"]), get(api + "tags/" + id["category"])},
			{get(api + "categories/" + id["draft category"]), get(api + "tags/" + id["draft tag"])}},
		"media":                     {{get(api + "media/" + nowhere)}, {get(api + "media/" + id["draft"])}, nil},
		"users (administration)":    {{{"POST", admin + "users/" + nowhere + "?role=author", asAdmin()}}, nil, {{"DELETE", admin + "users/1", nil}}},
		"webhooks (administration)": {{{"GET", admin + "webhooks/" + nowhere, asAdmin()}}, nil, {get(admin + "webhooks/" + nowhere)}},
		"synonyms, imports (administration)": {{{"GET", admin + "synonyms/" + nowhere, asAdmin()}, {"GET", admin + "imports/" + nowhere, asAdmin()}},
			nil, {get(admin + "synonyms/" + nowhere), get(admin + "imports/" + nowhere)}},
		"custom fields (administration, by key)": {{get(admin + "fields/nokey")}, nil, {get(admin + "fields/budget")}},
	}

	rows := contractItemRows(t)
	for resource := range asked {
		if _, ok := rows[resource]; !ok {
			t.Errorf("docs/contract.md's table has no row %q", resource)
		}
	}
	columns := []string{"a missing ID", "an ID of another resource", "an item the caller may not read"}
	for resource, cells := range rows {
		requests, ok := asked[resource]
		if !ok {
			t.Errorf("the row %q of docs/contract.md is asked nothing here", resource)
			continue
		}
		for c, cell := range cells {
			status, codes, claims := cellClaim(cell)
			if claims != (len(requests[c]) > 0) {
				t.Errorf("%s, %s: the table says %q, and %d requests ask it", resource, columns[c], cell, len(requests[c]))
				continue
			}
			for _, r := range requests[c] {
				var opts []option
				if r.as != nil {
					opts = append(opts, r.as)
				}
				res := s.do(r.method, r.path, opts...)
				code, _ := res.object(t)["code"].(string)
				if res.Status != status || (len(codes) > 0 && !slices.Contains(codes, code)) {
					t.Errorf("%s, %s: %s %s answered %d %s; the table says %q", resource, columns[c], r.method, r.path, res.Status, code, cell)
				}
			}
		}
	}
}

// contractItemRows are the rows of docs/contract.md's table of items that
// cannot be given: by their resource, the cells of a missing ID, another
// resource's ID and an item the caller may not read.
func contractItemRows(t *testing.T) map[string][3]string {
	t.Helper()
	raw, err := os.ReadFile("../docs/contract.md")
	if err != nil {
		t.Fatal(err)
	}
	_, text, ok := strings.Cut(string(raw), "\n## Items that cannot be given\n")
	if !ok {
		t.Fatal("docs/contract.md has no section \"Items that cannot be given\"")
	}
	text, _, _ = strings.Cut(text, "\n## ")
	rows := map[string][3]string{}
	for _, line := range strings.Split(text, "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if !strings.HasPrefix(line, "| ") || len(cells) != 5 || strings.TrimSpace(cells[0]) == "Resource" {
			continue
		}
		rows[strings.TrimSpace(cells[0])] = [3]string{strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2]), strings.TrimSpace(cells[3])}
	}
	if len(rows) == 0 {
		t.Fatal("docs/contract.md's table of items that cannot be given has no rows")
	}
	return rows
}

var (
	claimStatus = regexp.MustCompile(`^([0-9]{3})\b([^;(]*)`)
	claimCode   = regexp.MustCompile("`([^`]+)`")
)

// cellClaim is what a cell of the table says the service answers: the
// status it begins with, and the codes it names before its first aside
// (none: any code); none when it begins with no status (an aside alone).
func cellClaim(cell string) (status int, codes []string, claims bool) {
	m := claimStatus.FindStringSubmatch(cell)
	if m == nil {
		return 0, nil, false
	}
	status, _ = strconv.Atoi(m[1])
	for _, c := range claimCode.FindAllStringSubmatch(m[2], -1) {
		codes = append(codes, c[1])
	}
	return status, codes, true
}
