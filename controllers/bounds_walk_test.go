package controllers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"calendar/controllers"
)

// A parameter's contract is its declaration (controllers.Arg): the tests
// below walk every route's declared parameters and hold the service, the
// OpenAPI document, the namespace index and the Limits table (docs/limits.md) to it.

// boundCase is one rule of a declared parameter tried both ways: the value
// just past the bound (past, with pastWith beside it) must be refused with
// the rule's failure; the value at it (at, with atWith) must not be.
type boundCase struct {
	rule             string // the schema keyword, or the rule's name
	past, at         any
	pastWith, atWith map[string]any
	// detail is the refusal's details code (WordPress' schema failures);
	// phrase, a part of its reason when it has no details.
	detail, phrase string
	clamp          bool // past is read as the bound, not refused
}

// boundCases are the rules of a declared parameter.
func boundCases(a controllers.Arg) []boundCase {
	var cases []boundCase
	integer := a.Type == controllers.TypeInteger
	step := 0.5 // just past a number's bound
	if integer {
		step = 1
	}
	num := func(f float64) any {
		if integer {
			return int64(f)
		}
		return f
	}
	partner := map[string]any{}
	if a.Needs != "" {
		partner[a.Needs] = 0
	}
	add := func(c boundCase) {
		if c.pastWith == nil {
			c.pastWith = partner
		}
		if c.atWith == nil {
			c.atWith = partner
		}
		cases = append(cases, c)
	}
	if a.MaxBytes > 0 { // a word and spaces: a search of it costs little
		text := func(n int) string { return "a" + strings.Repeat(" ", n-1) }
		add(boundCase{rule: "maxLength", past: text(a.MaxBytes + 1), at: text(a.MaxBytes), detail: "rest_too_long"})
	}
	if a.NotEmpty {
		add(boundCase{rule: "minLength", past: "0", at: "a", phrase: "must be a non-empty string"})
	}
	switch {
	case a.Min != nil && a.ExclusiveMin:
		add(boundCase{rule: "exclusiveMinimum", past: num(*a.Min), at: num(*a.Min + step), detail: "rest_out_of_bounds"})
	case a.Min != nil:
		add(boundCase{rule: "minimum", past: num(*a.Min - step), at: num(*a.Min), detail: "rest_out_of_bounds"})
	}
	if a.Max != nil {
		add(boundCase{rule: "maximum", past: num(*a.Max + step), at: num(*a.Max), detail: "rest_out_of_bounds"})
	}
	if a.Clamp > 0 {
		add(boundCase{rule: "clamp", past: int64(a.Clamp + 1), at: int64(a.Clamp), clamp: true})
	}
	if n := a.ItemsBound(); n > 0 {
		item := any("a")
		switch {
		case len(a.Enum) > 0:
			item = a.Enum[0]
		case a.Items == controllers.TypeInteger || a.Type == controllers.TypeMixed:
			item = 1
		}
		list := func(n int) any { return slices.Repeat([]any{item}, n) }
		if a.Type == controllers.TypeObject { // an object's members
			list = func(n int) any {
				members := map[string]any{}
				for i := range n {
					members[fmt.Sprint("k", i)] = item
				}
				return members
			}
		}
		add(boundCase{rule: "maxItems", past: list(n + 1), at: list(n), detail: "rest_too_many_items"})
	}
	if a.Needs != "" {
		add(boundCase{rule: "needs " + a.Needs, past: 0, at: 0, pastWith: map[string]any{}, atWith: partner, phrase: "go together"})
	}
	if len(a.Excludes) > 0 {
		add(boundCase{rule: "excludes", past: "a", at: "a", pastWith: map[string]any{a.Excludes[0]: 0}, atWith: map[string]any{}, phrase: "exclude each other"})
	}
	return cases
}

// walkBase are values of the parameters routes require, so that a value at
// its bound goes as far as the use case.
var walkBase = map[string]any{"title": "Walk", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00",
	"venue": "Walk hall", "organizer": "Walk people", "name": "walk", "login": "walker", "role": "subscriber",
	"url": "https://hooks.example/walk", "words": []any{"walk", "stroll"}, "kind": "ical", "key": "walk", "label": "Walk", "type": "text"}

// TestEveryDeclaredBoundIsEnforcedAndDocumented walks every route's declared
// parameters: for each bound (a length, a range, a count of items, a clamp,
// an emptiness, a pair) the value just past it is refused with the declared
// failure (400 rest_invalid_param naming the parameter, WordPress' details
// code), the value at it is not refused for that reason (it goes on to the
// use case, as the administrator, where a write's own bound must agree), and
// the OpenAPI document and the namespace index carry the bound on that
// parameter. Then the Limits table (docs/limits.md) is held to the same numbers.
func TestEveryDeclaredBoundIsEnforcedAndDocumented(t *testing.T) {
	t.Parallel()
	s := startService(t)
	declared := controllers.New(controllers.Config{SiteURL: s.URL}, s.app).Declared()
	w := newBoundWalk(t, s)
	tried := 0
	for _, ep := range declared {
		for _, method := range oneEditable(ep.Methods) {
			for _, a := range ep.Args {
				if strings.Contains(ep.Path, "{"+a.Name+"}") {
					continue // the path's value wins over a body's of that name
				}
				for _, c := range boundCases(a) {
					w.try(ep, method, a, c)
					tried++
				}
			}
		}
	}
	if tried < 250 {
		t.Fatalf("only %d bounds tried: the walk found too little", tried)
	}
	t.Logf("%d bounds tried", tried)

	t.Run("an anonymous write past a bound is a 400 before the 401, as WordPress checks parameters first", func(t *testing.T) {
		long := strings.Repeat("a", 1001)
		for _, c := range []struct {
			method, path string
			body         map[string]any
			param        string
		}{
			{"POST", "/vendor/events/v1/events", map[string]any{"title": long, "start_date": "tomorrow", "end_date": "tomorrow 1am"}, "title"},
			{"PATCH", "/vendor/events/v1/events/" + w.ids["events"], map[string]any{"excerpt": strings.Repeat("a", 8193)}, "excerpt"},
			{"POST", "/vendor/events/v1/venues", map[string]any{"venue": long}, "venue"},
			{"POST", "/vendor/events/v1/categories", map[string]any{"name": strings.Repeat("a", 201)}, "name"},
		} {
			res := s.do(c.method, c.path, jsonBody(c.body))
			if params := res.expectError(t, http.StatusBadRequest, "rest_invalid_param")["data"].(map[string]any)["params"].(map[string]any); params[c.param] == nil {
				t.Errorf("%s %s: params %v, want %s", c.method, c.path, params, c.param)
			}
			c.body[c.param] = "A"
			s.do(c.method, c.path, jsonBody(c.body)).expectError(t, http.StatusUnauthorized, "rest_forbidden")
		}
	})

	t.Run("a search of spaces is no filter and 0 is empty, as the plugin's non-empty validator reads them", func(t *testing.T) {
		for _, list := range []string{"events", "events?orderby=relevance&", "venues", "organizers", "categories", "tags"} {
			path, query, _ := strings.Cut(list, "?")
			path = "/vendor/events/v1/" + path + "?" + query
			s.do("GET", path+"search=%20%20").expectStatus(t, http.StatusOK)
			s.do("GET", path+"search=0").expectError(t, http.StatusBadRequest, "rest_invalid_param")
		}
	})

	t.Run("the Limits table states the declared bounds", func(t *testing.T) {
		checkLimitsTable(t, declared)
	})
}

// boundWalk sends the walk's requests, with what it needs to fill paths
// and to read the document and the index.
type boundWalk struct {
	t       *testing.T
	s       *service
	ids     map[string]string // resource -> an item's ID
	slugs   map[string]string // resource -> its slug
	atTried map[string]bool
	doc     map[string]any
	index   map[string]map[string]any
}

func newBoundWalk(t *testing.T, s *service) *boundWalk {
	w := &boundWalk{t: t, s: s, ids: map[string]string{"media": "999999", "users": "1", "webhooks": "999999", "synonyms": "999999", "imports": "999999"}, slugs: map[string]string{}, atTried: map[string]bool{}}
	event := s.do("POST", "/vendor/events/v1/events", asAdmin(), jsonBody(map[string]any{"title": walkBase["title"],
		"start_date": walkBase["start_date"], "end_date": walkBase["end_date"],
		"recurrence": "RRULE:FREQ=WEEKLY;COUNT=2"})) // a series (past the horizon: nothing made), so its occurrences are listed
	event.expectStatus(t, http.StatusCreated)
	w.ids["events"] = idOf(event.object(t))
	for _, kind := range []string{"venue", "organizer"} {
		w.ids[kind+"s"] = idOf(s.create(kind, asAdmin(), kind, "Walk "+kind))
	}
	for _, taxonomy := range []string{"categories", "tags"} {
		res := s.do("POST", "/vendor/events/v1/"+taxonomy, asAdmin(), form("name", "Walk "+taxonomy))
		res.expectStatus(t, http.StatusCreated)
		w.ids[taxonomy] = idOf(res.object(t))
	}
	for _, kind := range []string{"events", "venues", "organizers"} {
		w.refreshSlug(kind)
	}
	w.doc = bothDocs(t, s)
	w.index = map[string]map[string]any{}
	for _, ns := range []string{"vendor/events/v1", "vendor/admin/v1"} {
		for route, desc := range routesOf(t, s, ns) {
			w.index[route] = desc
		}
	}
	return w
}

func (w *boundWalk) refreshSlug(kind string) {
	w.slugs[kind], _ = w.s.do("GET", "/vendor/events/v1/"+kind+"/"+w.ids[kind], asAdmin()).object(w.t)["slug"].(string)
}

// resource is the first segment of a route after its namespace.
func resource(path string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(path, "/vendor/events/v1"), "/vendor/admin/v1")
	first, _, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
	return first
}

// target fills a route's path parameters with the walk's items.
func (w *boundWalk) target(path string) string {
	kind := resource(path)
	path = strings.ReplaceAll(path, "{id}", w.ids[kind])
	path = strings.ReplaceAll(path, "{slug}", w.slugs[kind])
	path = strings.ReplaceAll(path, "{relation}", "occurrences")
	path = strings.ReplaceAll(path, "{facet}", "venue")
	path = strings.ReplaceAll(path, "{key}", "walk")
	return strings.ReplaceAll(path, "{uuid}", "no-such-uuid")
}

// try sends a parameter's value past its bound, then at it, and checks
// the document and the index for the bound.
func (w *boundWalk) try(ep controllers.DeclaredEndpoint, method string, a controllers.Arg, c boundCase) {
	t, path := w.t, ep.Path
	where := fmt.Sprintf("%s %s %s (%s)", method, path, a.Name, c.rule)
	past := w.send(ep, method, a, c.past, c.pastWith)
	reason, detail := failureOf(past, a.Name)
	switch {
	case c.clamp:
		if reason != "" || past.Status >= 400 {
			t.Errorf("%s: %v past the clamp answered %d %s", where, c.past, past.Status, past.Body)
		} else if rest := restURL(past); rest != "" && !strings.Contains(rest, a.Name+"="+fmt.Sprint(c.at)) {
			t.Errorf("%s: %v past the clamp is not read as %v: rest_url %s", where, c.past, c.at, rest)
		}
	case past.Status != http.StatusBadRequest || reason == "":
		t.Errorf("%s: the value past the bound answered %d %.300s, want 400 naming %s", where, past.Status, past.Body, a.Name)
	case c.detail != "" && detail != c.detail:
		t.Errorf("%s: details code %q, want %s (%s)", where, detail, c.detail, reason)
	case c.phrase != "" && !strings.Contains(reason, c.phrase):
		t.Errorf("%s: reason %q, want it to say %q", where, reason, c.phrase)
	}
	w.checkDocumented(path, method, a, c, where)
	// The value at the bound goes on to the use case: once for a parameter
	// the routes of one service read alike (a list and its feed, a create
	// and its updates by ID and by slug, categories and tags).
	family := strings.NewReplacer("events.ics", "events", "tags", "categories").Replace(resource(path))
	if key := fmt.Sprint(method == http.MethodGet, family, a.Name, c.rule); !w.atTried[key] {
		w.atTried[key] = true
		at := w.send(ep, method, a, c.at, c.atWith)
		if a.Name == "slug" && resource(path) == "events" { // the event's slug may have changed
			w.refreshSlug("events")
		}
		if reason, detail := failureOf(at, a.Name); reason != "" && (detail == c.detail && c.detail != "" || c.phrase != "" && strings.Contains(reason, c.phrase)) {
			t.Errorf("%s: the value at the bound was refused for it: %s", where, reason)
		}
		if at.Status >= 500 {
			t.Errorf("%s: the value at the bound answered %d %.300s", where, at.Status, at.Body)
		}
	}
}

// send is one request with name=value beside the values the endpoint
// requires (walkBase) and with.
func (w *boundWalk) send(ep controllers.DeclaredEndpoint, method string, a controllers.Arg, value any, with map[string]any) *response {
	values := map[string]any{}
	for _, other := range ep.Args {
		if base, ok := walkBase[other.Name]; ok && other.Required && !strings.Contains(ep.Path, "{"+other.Name+"}") {
			values[other.Name] = base
		}
	}
	for name, v := range with {
		values[name] = v
	}
	values[a.Name] = value
	target := w.target(ep.Path)
	if method == http.MethodGet || method == http.MethodDelete {
		q := url.Values{}
		for name, v := range values {
			if members, ok := v.(map[string]any); ok { // an object: name[member]=value
				for member, mv := range members {
					q.Set(name+"["+member+"]", queryValue(mv))
				}
				continue
			}
			q.Set(name, queryValue(v))
		}
		return w.s.do(method, target+"?"+q.Encode(), asAdmin())
	}
	return w.s.do(method, target, asAdmin(), jsonBody(values))
}

// queryValue writes a value as a query string sends it; a list as CSV.
func queryValue(v any) string {
	if list, ok := v.([]any); ok {
		parts := make([]string, len(list))
		for i, item := range list {
			parts[i] = fmt.Sprint(item)
		}
		return strings.Join(parts, ",")
	}
	return fmt.Sprint(v)
}

// failureOf is the reason and the details code a 400 rest_invalid_param
// gives the parameter ("" when it does not name it).
func failureOf(res *response, name string) (reason, detail string) {
	var body struct {
		Code string `json:"code"`
		Data struct {
			Params  map[string]any `json:"params"`
			Details any            `json:"details"`
		} `json:"data"`
	}
	if res.Status != http.StatusBadRequest || json.Unmarshal(res.Body, &body) != nil || body.Code != "rest_invalid_param" {
		return "", ""
	}
	reason, _ = body.Data.Params[name].(string)
	if details, ok := body.Data.Details.(map[string]any); ok {
		if d, ok := details[name].(map[string]any); ok {
			detail, _ = d["code"].(string)
		}
	}
	return reason, detail
}

func restURL(res *response) string {
	var body struct {
		RestURL string `json:"rest_url"`
	}
	_ = json.Unmarshal(res.Body, &body)
	return body.RestURL
}

// keyword is the value of the schema keyword a rule shows as (nil for a rule
// no keyword states: a pair).
func keyword(a controllers.Arg, rule string) (string, any) {
	switch rule {
	case "maxLength":
		return rule, float64(a.MaxBytes)
	case "minLength":
		return rule, float64(1)
	case "minimum", "exclusiveMinimum":
		return rule, *a.Min
	case "maximum":
		return rule, *a.Max
	case "clamp":
		return "maximum", float64(a.Clamp)
	case "maxItems":
		if a.Type == controllers.TypeObject {
			return "maxProperties", float64(a.ItemsBound())
		}
		return rule, float64(a.ItemsBound())
	}
	return "", nil
}

// checkDocumented: the OpenAPI document's schema of the parameter and the
// namespace index's description of it carry the rule's keyword.
func (w *boundWalk) checkDocumented(path, method string, a controllers.Arg, c boundCase, where string) {
	name, want := keyword(a, c.rule)
	if name == "" {
		return
	}
	if got := docSchema(w.doc, path, method, a.Name)[name]; got != want {
		w.t.Errorf("%s: the document's %s is %v, want %v", where, name, got, want)
	}
	arg := indexArg(w.index, path, method, a.Name)
	indexName := name
	if name == "exclusiveMinimum" { // WordPress' draft 4: a flag on minimum
		if arg["exclusiveMinimum"] != true {
			w.t.Errorf("%s: the index's exclusiveMinimum is %v", where, arg["exclusiveMinimum"])
		}
		indexName = "minimum"
	}
	if got := arg[indexName]; got != want {
		w.t.Errorf("%s: the index's %s is %v, want %v", where, indexName, got, want)
	}
}

// docSchema is the schema the OpenAPI documents (bothDocs) give a parameter
// of an operation: a query or path parameter's, or a request body property's.
func docSchema(doc map[string]any, path, method, name string) map[string]any {
	op, _ := asMap(asMap(doc["paths"])[path])[strings.ToLower(method)].(map[string]any)
	for _, p := range asList(op["parameters"]) {
		if pm := asMap(p); pm["name"] == name {
			return asMap(pm["schema"])
		}
	}
	content := asMap(asMap(op["requestBody"])["content"])
	media := asMap(content["application/json"])
	if media == nil {
		media = asMap(content["multipart/form-data"])
	}
	return asMap(asMap(asMap(media["schema"])["properties"])[name])
}

// indexArg is the namespace index's description of an endpoint's parameter.
func indexArg(index map[string]map[string]any, path, method, name string) map[string]any {
	route := regexp.MustCompile(`\{([a-z_]+)\}`).ReplaceAllStringFunc(path, func(m string) string {
		switch m {
		case "{id}":
			return `(?P<id>\d+)`
		case "{relation}":
			return `(?P<relation>occurrences)`
		case "{facet}":
			return `(?P<facet>venue|organizer|categories|tags)`
		default:
			return `(?P<` + m[1:len(m)-1] + `>[^/]+)`
		}
	})
	for _, ep := range asList(index[route]["endpoints"]) {
		if slices.Contains(toStrings(asMap(ep)["methods"]), method) {
			return asMap(asMap(asMap(ep)["args"])[name])
		}
	}
	return nil
}

// limitsRow is a row of the Limits table (docs/limits.md) about parameters, and
// which of the numbers its bound states belong to which declarations.
type limitsRow struct {
	what   string
	bounds []limitsBound
}

// limitsBound: the row's number at index is rule's bound on each of params.
type limitsBound struct {
	index  int
	rule   string
	params []string // "METHOD /path name"; "* name" is every declaration of name
}

var limitsRows = []limitsRow{
	{"event title, venue and organizer name", []limitsBound{{0, "maxLength", []string{"POST /events title", "POST /venues venue", "POST /organizers organizer"}}}},
	{"description", []limitsBound{{0, "maxLength", []string{"POST /events description", "POST /venues description", "POST /organizers description"}}}},
	{"excerpt, term description", []limitsBound{{0, "maxLength", []string{"POST /events excerpt", "POST /venues excerpt", "POST /categories description", "POST /tags description"}}}},
	{"venue and organizer fields (address, city, phone...)", []limitsBound{
		{0, "maxLength", []string{"POST /venues address", "POST /venues city", "POST /venues country", "POST /venues province", "POST /venues state",
			"POST /venues zip", "POST /venues phone", "POST /venues stateprovince", "POST /organizers phone"}},
		{1, "maxLength", []string{"POST /organizers email"}}}},
	{"`image`, `website`, `online_url`", []limitsBound{{0, "maxLength", []string{"POST /events image", "POST /events website", "POST /venues image", "POST /venues website", "POST /organizers website", "POST /events online_url"}}}},
	{"`q` of a facet search (`/events/facets/<facet>`) and of suggestions (`/suggest`)", []limitsBound{{0, "maxLength", []string{"GET /events/facets/{facet} q", "GET /suggest q"}}}},
	{"synonyms (`{base}/vendor/admin/v1/synonyms`)", []limitsBound{{0, "maxItems", []string{"* words"}}, {1, "maxLength", []string{"* root"}}}},
	{"import sources", []limitsBound{{3, "maxItems", []string{"POST /vendor/admin/v1/imports categories", "POST /vendor/admin/v1/imports tags"}},
		{4, "maxLength", []string{"POST /vendor/admin/v1/imports description"}}, {5, "maxLength", []string{"POST /vendor/admin/v1/imports file"}}}},
	{"custom fields", []limitsBound{{2, "maxLength", []string{"POST /vendor/admin/v1/fields key"}}, {3, "maxLength", []string{"POST /vendor/admin/v1/fields label"}},
		{4, "maxItems", []string{"POST /vendor/admin/v1/fields options"}}, {9, "maxItems", []string{"POST /events custom_fields", "POST /venues custom_fields", "POST /organizers custom_fields"}}}},
	{"`cf[...]` filters of a list", []limitsBound{{0, "maxItems", []string{"GET /events cf"}}}},
	{"`event_status_reason`", []limitsBound{{0, "maxLength", []string{"POST /events event_status_reason"}}}},
	{"webhooks", []limitsBound{{3, "maxLength", []string{"* url"}}, {4, "maxLength", []string{"* filter"}}, {6, "maxItems", []string{"* types"}}}},
	{"post password", []limitsBound{{0, "maxLength", []string{"POST /events password", "POST /venues password", "POST /organizers password"}}}},
	{"slug as sent, term name, `timezone`, `tz`", []limitsBound{{0, "maxLength", []string{"POST /events slug", "POST /categories name", "POST /tags slug", "POST /events timezone", "GET /events tz"}}}},
	{"a date", []limitsBound{{0, "maxLength", []string{"POST /events start_date", "POST /events date_utc", "POST /venues date", "GET /events ends_after", "GET /events modified_after"}}}},
	{"organizers of an event", []limitsBound{{0, "maxItems", []string{"POST /events organizer"}}, {1, "maxItems", []string{"POST /events categories", "POST /events tags"}}}},
	{"any list parameter", []limitsBound{{0, "maxItems", []string{"GET /events categories", "GET /events include", "GET /events facets", "GET /venues status", "GET /media author", "GET /categories exclude"}}}},
	{"`page` of a list", []limitsBound{{0, "maximum", []string{"* page"}}}},
	{"`per_page` of a list", []limitsBound{{0, "clamp", []string{"GET /events per_page", "GET /events.ics per_page", "GET /events/{id}/{relation} per_page", "GET /venues per_page", "GET /media per_page", "GET /tags per_page"}},
		{2, "minimum", []string{"GET /changes per_page"}}, {3, "maximum", []string{"GET /changes per_page"}}}},
	{"`search`", []limitsBound{{0, "maxLength", []string{"* search"}}}},
	{"`near` (a place's name), `geo_bounds`", []limitsBound{{0, "maxLength", []string{"* near", "* geo_bounds"}}}},
	{"a point (`geoloc_lat`, `geoloc_lng`; a venue's `geo_lat`, `geo_lng`) and its radius", []limitsBound{
		{0, "minimum", []string{"* geoloc_lat", "* geo_lat"}}, {1, "maximum", []string{"* geoloc_lat", "* geo_lat"}},
		{2, "minimum", []string{"* geoloc_lng", "* geo_lng"}}, {3, "maximum", []string{"* geoloc_lng", "* geo_lng"}},
		{4, "exclusiveMinimum", []string{"* geoloc_radius"}}, {5, "maximum", []string{"* geoloc_radius"}}}},
	{"a map's clusters (`facets=geo_grid`)", []limitsBound{{1, "minimum", []string{"GET /events geo_precision"}}, {2, "maximum", []string{"GET /events geo_precision"}}}},
	{"an image's title, caption, description, alternative text", []limitsBound{{0, "maxLength", []string{"POST /media title"}}, {1, "maxLength", []string{"POST /media caption"}},
		{2, "maxLength", []string{"POST /media description"}}, {3, "maxLength", []string{"POST /media alt_text"}}}},
}

var readmeNumber = regexp.MustCompile(`-?\d{1,3}(?:,\d{3})+|-?\d+`)

// checkLimitsTable reads the Limits reference's table (docs/limits.md) and
// holds each row about parameters to the declarations: every number it
// states for one is the declared bound. The rows stay prose (several bounds
// to a row, the why beside the number); a row this test does not know is
// not checked.
func checkLimitsTable(t *testing.T, declared []controllers.DeclaredEndpoint) {
	raw, err := os.ReadFile("../docs/limits.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		if cells := strings.Split(line, " | "); strings.HasPrefix(line, "| ") && len(cells) == 2 {
			rows[strings.TrimPrefix(cells[0], "| ")] = strings.TrimSuffix(cells[1], " |")
		}
	}
	for _, row := range limitsRows {
		bound, ok := rows[row.what]
		if !ok {
			t.Errorf("the Limits table has no row %q", row.what)
			continue
		}
		var numbers []float64
		for _, n := range readmeNumber.FindAllString(bound, -1) {
			f, _ := strconv.ParseFloat(strings.ReplaceAll(n, ",", ""), 64)
			numbers = append(numbers, f)
		}
		for _, b := range row.bounds {
			if b.index >= len(numbers) {
				t.Errorf("%q states %d numbers, want a %d-th: %s", row.what, len(numbers), b.index+1, bound)
				continue
			}
			for _, p := range b.params {
				args := declarationsOf(declared, p)
				if len(args) == 0 {
					t.Errorf("%q: no declaration %s", row.what, p)
				}
				for _, a := range args {
					if _, want := keyword(a, b.rule); want != numbers[b.index] {
						t.Errorf("%q says %v for %s (%s), declared %v", row.what, numbers[b.index], p, b.rule, want)
					}
				}
			}
		}
	}
}

// declarationsOf finds "METHOD /path name" (the path after the events
// namespace), or every declaration of the name for "* name".
func declarationsOf(declared []controllers.DeclaredEndpoint, ref string) []controllers.Arg {
	fields := strings.Fields(ref)
	if fields[0] != "*" && !strings.HasPrefix(fields[1], "/vendor/") { // the events namespace's, by default
		fields[1] = "/vendor/events/v1" + fields[1]
	}
	var out []controllers.Arg
	for _, ep := range declared {
		if fields[0] != "*" && (!slices.Contains(ep.Methods, fields[0]) || ep.Path != fields[1]) {
			continue
		}
		for _, a := range ep.Args {
			if a.Name == fields[len(fields)-1] {
				out = append(out, a)
			}
		}
	}
	return out
}
