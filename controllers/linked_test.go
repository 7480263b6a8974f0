package controllers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
)

// roles is a service with one user of each role; creds[role] signs in as it.
type roles struct {
	*service
	creds map[calendar.Role]option
	ids   map[calendar.Role]float64
}

func startWithRoles(t *testing.T) *roles {
	return startWithRolesSettings(t, func(*app.Settings) {})
}

// startWithRolesSettings is startWithRoles with changed app settings.
func startWithRolesSettings(t *testing.T, settings func(*app.Settings)) *roles {
	s := startServiceSettings(t, settings, func(*controllers.Config) {})
	r := &roles{service: s, creds: map[calendar.Role]option{}, ids: map[calendar.Role]float64{}}
	for _, role := range calendar.Roles {
		if role == calendar.RoleAdministrator {
			r.creds[role], r.ids[role] = asAdmin(), 1
			continue
		}
		id, pw := s.createUser("u-"+string(role), role)
		r.creds[role], r.ids[role] = bearer(pw), id
	}
	for _, creds := range r.creds { // a password's first use of the day is written: done before tests count writes
		s.do("GET", "/vendor/admin/v1/users/me", creds).expectStatus(t, http.StatusOK)
	}
	return r
}

func form(pairs ...string) option {
	v := url.Values{}
	for i := 0; i+1 < len(pairs); i += 2 {
		v.Add(pairs[i], pairs[i+1])
	}
	return body("application/x-www-form-urlencoded; charset=UTF-8", v.Encode())
}

// create makes a venue or organizer and returns its object.
func (s *service) create(kind string, cred option, pairs ...string) map[string]any {
	s.t.Helper()
	res := s.do("POST", "/vendor/events/v1/"+kind+"s", cred, form(pairs...))
	res.expectStatus(s.t, http.StatusCreated)
	return res.object(s.t)
}

func idOf(m map[string]any) string { return formatFloat(m["id"].(float64)) }

// keyOrder returns the top-level keys of a JSON object in order.
func keyOrder(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestTheVenueAndOrganizerObjectsKeyByKey(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall", "description", "Big hall", "excerpt", "Short",
		"image", "https://img.example/hall.jpg", "address", "1 Main St", "city", "Lyon", "country", "France",
		"province", "Rhône", "state", "ARA", "zip", "69001", "phone", "+33 1", "website", "https://hall.example",
		"stateprovince", "Rhône", "geo_lat", "45.76", "geo_lng", "4.84")
	single := s.do("GET", "/vendor/events/v1/venues/"+idOf(venue))
	single.expectStatus(t, http.StatusOK)
	want := "id author status date date_utc modified modified_utc url venue description excerpt slug image " +
		"address city country province state zip phone website stateprovince geo_lat geo_lng geo_source json_ld " +
		"show_map show_map_link global_id global_id_lineage"
	if got := strings.Join(keyOrder(t, single.Body), " "); got != want {
		t.Fatalf("venue keys:\n got %s\nwant %s", got, want)
	}
	m := single.object(t)
	if m["author"] != "1" || m["description"] != "<p>Big hall</p>" || m["show_map"] != true ||
		m["image"].(map[string]any)["extension"] != "jpg" || !strings.HasSuffix(m["global_id"].(string), "?id="+idOf(venue)) {
		t.Fatalf("venue values: %s", single.Body)
	}
	if strings.Contains(string(single.Body), `\u`) || strings.Contains(string(single.Body), `\/`) {
		t.Fatalf("JSON escapes non-ASCII or slashes: %s", single.Body)
	}
	if _, hasLD := venue["json_ld"]; hasLD {
		t.Fatal("json_ld outside a single read")
	}

	// An organizer leaves its empty fields out, as a venue does: the
	// plugin's Post_Repository::get_organizer_data runs array_filter over
	// the whole organizer (OrganizerUpdateCest: emptied email, phone and
	// website are not in the answer).
	organizer := s.create("organizer", asAdmin(), "organizer", "Ann", "description", "Host", "excerpt", "Short",
		"image", "https://img.example/ann.jpg", "phone", "+33 1", "website", "https://ann.example", "email", "ann@example.org")
	got := strings.Join(keyOrder(t, s.do("GET", "/vendor/events/v1/organizers/"+idOf(organizer)).Body), " ")
	if want := "id author status date date_utc modified modified_utc url organizer description excerpt slug image phone website email json_ld global_id global_id_lineage"; got != want {
		t.Fatalf("organizer keys:\n got %s\nwant %s", got, want)
	}
	bareOrganizer := s.create("organizer", asAdmin(), "organizer", "Bob")
	got = strings.Join(keyOrder(t, s.do("GET", "/vendor/events/v1/organizers/"+idOf(bareOrganizer)).Body), " ")
	if want := "id author status date date_utc modified modified_utc url organizer slug json_ld global_id global_id_lineage"; got != want {
		t.Fatalf("bare organizer keys:\n got %s\nwant %s", got, want)
	}
	bare := s.create("venue", asAdmin(), "venue", "Bare")
	if got := strings.Join(keyOrder(t, mustJSON(bare)), " "); strings.Contains(got, "address") || !strings.Contains(got, "show_map show_map_link") {
		t.Fatalf("empty keys kept or show_map missing: %s", got)
	}
}

func mustJSON(v any) []byte {
	raw, _ := json.Marshal(v)
	return raw
}

func TestWriteFieldsAreValidated(t *testing.T) {
	t.Parallel()
	s := startService(t)
	cases := []struct {
		kind  string
		pairs []string
		ok    bool
	}{
		{"venue", []string{"venue", "A"}, true},
		{"venue", []string{"venue", ""}, false},
		{"venue", []string{"venue", "   "}, false},
		{"venue", []string{"venue", "W", "website", "https://w.example"}, true},
		{"venue", []string{"venue", "W2", "website", "venue.com"}, false},
		{"venue", []string{"venue", "I", "image", "https://i.example/a.png"}, true},
		{"venue", []string{"venue", "I2", "image", "123"}, false},
		{"venue", []string{"venue", "I3", "image", "ftp://i.example/a.png"}, false},
		{"venue", []string{"venue", "Au", "author", "1"}, true},
		{"venue", []string{"venue", "Au2", "author", "999"}, false},
		{"venue", []string{"venue", "Au3", "author", "foo"}, false},
		{"venue", []string{"venue", "D", "date", "2024-05-01 10:00:00"}, true},
		{"venue", []string{"venue", "D2", "date", "foo"}, false},
		{"venue", []string{"venue", "D3", "date_utc", "1700000000"}, true},
		{"venue", []string{"venue", "S", "status", "draft"}, true},
		{"venue", []string{"venue", "S2", "status", "kinda_thinking_about_it"}, false},
		{"venue", []string{"venue", "M", "show_map", "false"}, true},
		{"venue", []string{"venue", "M2", "show_map", "sometimes"}, false},
		{"venue", []string{"venue", "G", "geo_lat", "-90", "geo_lng", "180"}, true},
		{"venue", []string{"venue", "G2", "geo_lat", "10"}, false},
		{"venue", []string{"venue", "G3", "geo_lat", "91", "geo_lng", "0"}, false},
		{"venue", []string{"venue", "G4", "geo_lat", "0", "geo_lng", "-181"}, false},
		{"venue", []string{"venue", "G5", "geo_lat", "north", "geo_lng", "0"}, false},
		{"organizer", []string{"organizer", "E", "email", "e@example.org"}, true},
		{"organizer", []string{"organizer", "E2", "email", "not-an-email"}, false},
		{"organizer", []string{"organizer", "E3", "email", "Ann <ann@example.org>"}, false},
		{"organizer", []string{"organizer", ""}, false},
	}
	for _, c := range cases {
		t.Run(c.kind+" "+strings.Join(c.pairs, "="), func(t *testing.T) {
			res := s.do("POST", "/vendor/events/v1/"+c.kind+"s", asAdmin(), form(c.pairs...))
			if c.ok {
				res.expectStatus(t, http.StatusCreated)
			} else {
				res.expectError(t, http.StatusBadRequest, "rest_invalid_param")
			}
		})
	}
	t.Run("JSON types are checked: a number is not a string", func(t *testing.T) {
		s.do("POST", "/vendor/events/v1/venues", asAdmin(), jsonBody(map[string]any{"venue": 5})).
			expectError(t, http.StatusBadRequest, "rest_invalid_param")
	})
	t.Run("the name is required, before the permission check", func(t *testing.T) {
		s.do("POST", "/vendor/events/v1/venues").expectError(t, http.StatusBadRequest, "rest_missing_callback_param")
	})
}

func TestPermissionsPerRole(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	adminVenue := r.create("venue", asAdmin(), "venue", "Admin's")
	base := "/vendor/events/v1/venues/"
	t.Run("create", func(t *testing.T) {
		for role, want := range map[calendar.Role]string{
			calendar.RoleContributor: "pending", calendar.RoleAuthor: "publish", calendar.RoleEditor: "publish", calendar.RoleAdministrator: "publish",
		} {
			got := r.create("venue", r.creds[role], "venue", "By "+string(role), "status", "publish")["status"]
			if got != want {
				t.Errorf("%s asking publish got %v, want %s", role, got, want)
			}
		}
		r.do("POST", base, form("venue", "x")).expectError(t, 401, "rest_forbidden")
		r.do("POST", base, r.creds[calendar.RoleSubscriber], form("venue", "x")).expectError(t, 403, "rest_forbidden")
	})
	type step struct {
		role   calendar.Role
		method string
		path   string
		status int
	}
	bySlug := base + "by-slug/" + adminVenue["slug"].(string)
	byID := base + idOf(adminVenue)
	var steps []step
	for _, path := range []string{byID, bySlug} {
		for _, method := range []string{"POST", "PUT", "PATCH"} {
			steps = append(steps,
				step{"", method, path, 401},
				step{calendar.RoleSubscriber, method, path, 403},
				step{calendar.RoleContributor, method, path, 403},
				step{calendar.RoleAuthor, method, path, 403},
				step{calendar.RoleEditor, method, path, 200},
				step{calendar.RoleAdministrator, method, path, 200})
		}
		steps = append(steps,
			step{"", "DELETE", path, 401},
			step{calendar.RoleSubscriber, "DELETE", path, 403},
			step{calendar.RoleContributor, "DELETE", path, 403},
			step{calendar.RoleAuthor, "DELETE", path, 403})
	}
	for _, st := range steps {
		t.Run(fmt.Sprintf("%s %s %s on another's venue", st.role, st.method, st.path), func(t *testing.T) {
			opts := []option{form("city", "Lyon")}
			if st.role != "" {
				opts = append(opts, r.creds[st.role])
			}
			res := r.do(st.method, st.path, opts...)
			if st.status == 200 {
				res.expectStatus(t, 200)
			} else {
				res.expectError(t, st.status, "rest_forbidden")
			}
		})
	}
	t.Run("editors and administrators delete another's venue, by ID and by slug", func(t *testing.T) {
		for role, cred := range map[calendar.Role]option{calendar.RoleEditor: r.creds[calendar.RoleEditor], calendar.RoleAdministrator: asAdmin()} {
			other := r.create("venue", r.creds[calendar.RoleAuthor], "venue", "Author's for "+string(role))
			r.do("DELETE", base+idOf(other), cred).expectStatus(t, 200)
			another := r.create("venue", r.creds[calendar.RoleAuthor], "venue", "Another for "+string(role))
			r.do("DELETE", base+"by-slug/"+another["slug"].(string), cred).expectStatus(t, 200)
		}
	})
	t.Run("contributors edit and delete their own unpublished posts only", func(t *testing.T) {
		own := r.create("venue", r.creds[calendar.RoleContributor], "venue", "Mine")
		path := base + idOf(own)
		r.do("POST", path, r.creds[calendar.RoleContributor], form("city", "Nice")).expectStatus(t, 200)
		r.do("POST", path, asAdmin(), form("status", "publish")).expectStatus(t, 200)
		r.do("POST", path, r.creds[calendar.RoleContributor], form("city", "Metz")).expectError(t, 403, "rest_forbidden")
		r.do("DELETE", path, r.creds[calendar.RoleContributor]).expectError(t, 403, "rest_forbidden")
		draft := r.create("venue", r.creds[calendar.RoleContributor], "venue", "Draft of mine")
		r.do("DELETE", base+idOf(draft), r.creds[calendar.RoleContributor]).expectStatus(t, 200)
	})
	t.Run("authors edit and delete their own published posts", func(t *testing.T) {
		own := r.create("venue", r.creds[calendar.RoleAuthor], "venue", "Author's")
		r.do("PATCH", base+idOf(own), r.creds[calendar.RoleAuthor], form("city", "Nice")).expectStatus(t, 200)
		r.do("DELETE", base+idOf(own), r.creds[calendar.RoleAuthor]).expectStatus(t, 200)
	})
	t.Run("only editors may name another author", func(t *testing.T) {
		r.do("POST", base, r.creds[calendar.RoleAuthor], form("venue", "Stolen", "author", "1")).expectError(t, 403, "rest_forbidden")
		if got := r.create("venue", r.creds[calendar.RoleEditor], "venue", "Given", "author", formatFloat(r.ids[calendar.RoleAuthor])); got["author"] != formatFloat(r.ids[calendar.RoleAuthor]) {
			t.Fatalf("author = %v", got["author"])
		}
	})
}

func TestVisibilityOfUnpublishedPosts(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	draft := r.create("venue", r.creds[calendar.RoleContributor], "venue", "Secret draft")
	path := "/vendor/events/v1/venues/" + idOf(draft)
	for role, status := range map[calendar.Role]int{
		"": 403, calendar.RoleSubscriber: 403, calendar.RoleAuthor: 403, calendar.RoleContributor: 200, calendar.RoleEditor: 200, calendar.RoleAdministrator: 200,
	} {
		t.Run(fmt.Sprintf("%q reads a contributor's draft", role), func(t *testing.T) {
			var opts []option
			if role != "" {
				opts = append(opts, r.creds[role])
			}
			res := r.do("GET", path, opts...)
			if status == 200 {
				res.expectStatus(t, 200)
			} else {
				res.expectError(t, status, "venue-not-accessible")
			}
		})
	}
	r.create("venue", asAdmin(), "venue", "Open")
	for role, want := range map[calendar.Role]float64{"": 1, calendar.RoleSubscriber: 1, calendar.RoleContributor: 2, calendar.RoleAuthor: 1, calendar.RoleEditor: 2, calendar.RoleAdministrator: 2} {
		var opts []option
		if role != "" {
			opts = append(opts, r.creds[role])
		}
		if got := r.do("GET", "/vendor/events/v1/venues", opts...).object(t)["total"]; got != want {
			t.Errorf("%q lists %v venues, want %v", role, got, want)
		}
	}
}

func TestTheStatusFilter(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	r.create("venue", asAdmin(), "venue", "P")
	r.create("venue", asAdmin(), "venue", "D", "status", "draft")
	cases := []struct {
		role   calendar.Role
		query  string
		total  float64
		status int
	}{
		{calendar.RoleEditor, "status=publish,%20draft", 2, 200},
		{calendar.RoleEditor, "status[]=publish&status[]=draft", 2, 200},
		{calendar.RoleEditor, "status=draft", 1, 200},
		{calendar.RoleEditor, "status=foo", 0, 400},
		{calendar.RoleEditor, "status=foo,%20bar,%20publish", 0, 400},
		{calendar.RoleEditor, "status=any", 0, 400},
		{"", "status=publish", 1, 200},
		{"", "status=publish,draft", 0, 400},
		{calendar.RoleSubscriber, "status=draft", 0, 400},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%q %s", c.role, c.query), func(t *testing.T) {
			var opts []option
			if c.role != "" {
				opts = append(opts, r.creds[c.role])
			}
			res := r.do("GET", "/vendor/events/v1/venues?"+c.query, opts...)
			if c.status != 200 {
				res.expectError(t, c.status, "rest_invalid_param")
				return
			}
			if got := res.object(t)["total"]; got != c.total {
				t.Fatalf("total = %v, want %v", got, c.total)
			}
		})
	}
}

func TestPaginationWrappersHeadersAndLinks(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for i := 0; i < 7; i++ {
		s.create("venue", asAdmin(), "venue", fmt.Sprintf("Venue %d", i), "city", "Lyon")
	}
	list := func(query string) (*response, map[string]any) {
		res := s.do("GET", "/vendor/events/v1/venues?"+query)
		res.expectStatus(t, http.StatusOK)
		return res, res.object(t)
	}
	res, first := list("per_page=3&search=lyon")
	if len(first["venues"].([]any)) != 3 || first["total"] != float64(7) || first["total_pages"] != float64(3) {
		t.Fatalf("page 1: %s", res.Body)
	}
	for _, h := range []string{"X-TEC-Total", "X-WP-Total"} {
		if res.Header.Get(h) != "7" {
			t.Fatalf("%s = %q", h, res.Header.Get(h))
		}
	}
	for _, h := range []string{"X-TEC-TotalPages", "X-WP-TotalPages"} {
		if res.Header.Get(h) != "3" {
			t.Fatalf("%s = %q", h, res.Header.Get(h))
		}
	}
	if _, has := first["previous_rest_url"]; has {
		t.Fatal("page 1 has a previous link")
	}
	next := first["next_rest_url"].(string)
	u, _ := url.Parse(next)
	if u.Path != "/vendor/events/v1/venues/" || u.Query().Get("page") != "2" || u.Query().Get("per_page") != "3" || u.Query().Get("search") != "lyon" {
		t.Fatalf("next link %s does not carry every filter", next)
	}
	seen := map[any]bool{}
	for link := next; link != ""; {
		page := s.do("GET", strings.TrimPrefix(link, s.URL))
		page.expectStatus(t, http.StatusOK)
		m := page.object(t)
		for _, v := range m["venues"].([]any) {
			seen[v.(map[string]any)["id"]] = true
		}
		link, _ = m["next_rest_url"].(string)
		if prev, _ := m["previous_rest_url"].(string); m["next_rest_url"] == nil && !strings.Contains(prev, "&page=2") {
			t.Fatalf("last page's previous link = %s", prev)
		}
	}
	_, second := list("per_page=3&search=lyon&page=2")
	if prev, _ := url.Parse(second["previous_rest_url"].(string)); prev.Query().Has("page") {
		t.Fatalf("page 2's previous link should have no page: %s", prev)
	}
	if len(seen) != 4 {
		t.Fatalf("following next links from page 1 gave %d more venues, want 4", len(seen))
	}
	s.do("GET", "/vendor/events/v1/venues?per_page=3&page=4").expectError(t, http.StatusNotFound, "venue-archive-page-not-found")
	for _, bad := range []string{"page=0", "page=-1", "page=foo", "per_page=0", "per_page=foo%20bar", "search=", "search=" + strings.Repeat("a", 201)} {
		s.do("GET", "/vendor/events/v1/venues?"+bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	}
	_, none := list("search=nowhere")
	if none["total"] != float64(0) || none["total_pages"] != float64(0) || len(none["venues"].([]any)) != 0 {
		t.Fatalf("a search matching nothing: %v", none)
	}
	_, empty := list("")
	if empty["total"] != float64(7) || len(empty["venues"].([]any)) != 7 {
		t.Fatalf("default page size: %v venues", len(empty["venues"].([]any)))
	}
	for i := 7; i < 51; i++ {
		s.create("venue", asAdmin(), "venue", fmt.Sprintf("Venue %d", i))
	}
	if _, capped := list("per_page=100"); len(capped["venues"].([]any)) != 50 {
		t.Fatalf("per_page=100 gave %d venues, want the cap of 50", len(capped["venues"].([]any)))
	}
}

func TestSearchMatchesFragmentsInAnyOrderWithinOneField(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.create("venue", asAdmin(), "venue", "Venue foo", "address", "100, Avenue du Temple", "province", "Ile de France")
	s.create("venue", asAdmin(), "venue", "Other place", "city", "Temple")
	s.create("organizer", asAdmin(), "organizer", "Three", "email", "three@three.com", "website", "http://one.com")
	s.create("organizer", asAdmin(), "organizer", "Five", "email", "five@common.com")
	s.create("organizer", asAdmin(), "organizer", "Four", "phone", "1111-22")
	for query, want := range map[string]float64{
		"venues?search=venue%20foo":         1,
		"venues?search=temple%20avenue":     1,
		"venues?search=france,%20ile%20de":  1,
		"venues?search=TEMPLE":              2,
		"venues?search=avenue%20other":      0,
		"organizers?search=three@three.com": 1,
		"organizers?search=three@four.com":  0,
		"organizers?search=@common.com":     1,
		"organizers?search=http://one.com":  1,
		"organizers?search=1111":            1,
		"organizers?search=three%20one.com": 0,
	} {
		t.Run(query, func(t *testing.T) {
			if got := s.do("GET", "/vendor/events/v1/"+query).object(t)["total"]; got != want {
				t.Fatalf("total = %v, want %v", got, want)
			}
		})
	}
}

func TestTrashThenDeletePermanently(t *testing.T) {
	t.Parallel()
	s := startService(t)
	v := s.create("venue", asAdmin(), "venue", "Doomed")
	path := "/vendor/events/v1/venues/" + idOf(v)
	trashed := s.do("DELETE", path, asAdmin())
	trashed.expectStatus(t, http.StatusOK)
	if trashed.object(t)["status"] != "trash" {
		t.Fatalf("after DELETE: %s", trashed.Body)
	}
	s.do("DELETE", path, asAdmin()).expectError(t, http.StatusGone, "venue-is-in-trash")
	s.do("GET", path).expectError(t, http.StatusForbidden, "venue-not-accessible")
	if got := s.do("GET", path, asAdmin()).object(t)["status"]; got != "trash" {
		t.Fatalf("an editor reads the trashed venue with status %v", got)
	}
	if got := s.do("GET", "/vendor/events/v1/venues").object(t)["total"]; got != float64(0) {
		t.Fatalf("a trashed venue is listed: total %v", got)
	}
	gone := s.do("DELETE", path+"?force=true", asAdmin())
	gone.expectStatus(t, http.StatusOK)
	m := gone.object(t)
	if m["deleted"] != true || m["previous"].(map[string]any)["venue"] != "Doomed" {
		t.Fatalf("force delete answer: %s", gone.Body)
	}
	s.do("GET", path, asAdmin()).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	if got := s.do("GET", "/vendor/events/v1/venues?status=trash", asAdmin()).object(t)["total"]; got != float64(0) {
		t.Fatalf("a deleted venue is still in the index: total %v", got)
	}
	s.do("DELETE", "/vendor/events/v1/venues/999").expectError(t, http.StatusBadRequest, "rest_invalid_param") // the ID before the permission
	s.do("DELETE", "/vendor/events/v1/venues/999", asAdmin()).expectError(t, http.StatusBadRequest, "rest_invalid_param")
}

func TestAPasswordHidesAllButTheName(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	v := r.create("venue", asAdmin(), "venue", "Hidden", "password", "sesame", "address", "1 Road", "description", "Secret")
	path := "/vendor/events/v1/venues/" + idOf(v)
	masked := r.do("GET", path).object(t)
	if masked["venue"] != "Hidden" || masked["address"] != nil || masked["description"] != nil || masked["show_map"] != nil {
		t.Fatalf("masked venue: %v", masked)
	}
	for name, opts := range map[string][]option{
		"with the password": nil,
		"as an editor":      {r.creds[calendar.RoleEditor]},
	} {
		t.Run(name, func(t *testing.T) {
			p := path
			if opts == nil {
				p += "?password=sesame"
			}
			if full := r.do("GET", p, opts...).object(t); full["address"] != "1 Road" {
				t.Fatalf("not unmasked: %v", full)
			}
		})
	}
	if listed := r.do("GET", "/vendor/events/v1/venues").object(t)["venues"].([]any)[0].(map[string]any); listed["address"] != nil {
		t.Fatalf("masked fields in an anonymous list: %v", listed)
	}
}

func TestAnIDOfAnotherKindIs400(t *testing.T) {
	t.Parallel()
	s := startService(t)
	o := s.create("organizer", asAdmin(), "organizer", "Org")
	v := s.create("venue", asAdmin(), "venue", "Ven")
	s.do("GET", "/vendor/events/v1/venues/"+idOf(o)).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	s.do("GET", "/vendor/events/v1/organizers/"+idOf(v)).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	s.do("GET", "/vendor/events/v1/venues/by-slug/"+o["slug"].(string)).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	s.do("GET", "/vendor/events/v1/venues/foo").expectError(t, http.StatusNotFound, "rest_no_route")
}
