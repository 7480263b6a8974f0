package controllers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// The tests of this file each reproduce one finding of an adversarial review
// (a contributor account, hostile content, a client that cuts its body short)
// and pin what the service does instead.

func TestAProtectedVenueOrOrganizerIsMaskedInsideEvents(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	venue := r.create("venue", asAdmin(), "venue", "Vault", "password", "sesame", "address", "7 Hidden lane", "city", "Lyon",
		"description", "The secret room")
	organizer := r.create("organizer", asAdmin(), "organizer", "Ghost", "password", "sesame", "email", "ghost@example.org")
	fields := at("Public show", "2027-06-01 20:00", "2027-06-01 22:00")
	fields["venue"], fields["organizer"] = venue["id"], []any{organizer["id"]}
	e := r.event(fields)
	for _, c := range []struct {
		name   string
		opts   []option
		masked bool
	}{
		{"anonymous", nil, true}, {"a contributor", []option{r.creds[calendar.RoleContributor]}, true},
		{"with the password", []option{}, false}, {"an editor", []option{r.creds[calendar.RoleEditor]}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			query := ""
			if c.name == "with the password" {
				query = "?password=sesame"
			}
			single := r.do("GET", eventsPath+"/"+idOf(e)+query, c.opts...)
			single.expectStatus(t, http.StatusOK)
			got := single.object(t)
			v := got["venue"].(map[string]any)
			o := got["organizer"].([]any)[0].(map[string]any)
			leaked := v["address"] != nil || v["description"] != nil || (o["email"] != nil && o["email"] != "") ||
				strings.Contains(fmt.Sprint(got["json_ld"]), "Hidden lane") || strings.Contains(fmt.Sprint(got["json_ld"]), "ghost@")
			if leaked != !c.masked || v["venue"] != "Vault" || o["organizer"] != "Ghost" {
				t.Fatalf("masked %v, want %v: venue %v, organizer %v, json_ld %v", !leaked, c.masked, v, o, got["json_ld"])
			}
			feed := string(r.do("GET", "/vendor/events/v1/events.ics?start_date=2027-06-01&end_date=2027-06-02"+strings.Replace(query, "?", "&", 1), c.opts...).Body)
			if strings.Contains(feed, "Hidden lane") != !c.masked || strings.Contains(feed, "ghost@example.org") != !c.masked {
				t.Fatalf("the feed's LOCATION and ORGANIZER, masked %v:\n%s", c.masked, feed)
			}
		})
	}
	t.Run("a contributor creating one of the same name", func(t *testing.T) {
		again := r.create("venue", r.creds[calendar.RoleContributor], "venue", "Vault", "password", "sesame")
		if again["id"] != venue["id"] || again["address"] != nil || again["description"] != nil {
			t.Fatalf("the existing venue came back unmasked (or not at all): %v", again)
		}
	})
}

func TestAPostTheCallerMayNotReadCannotBeLinked(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	private := r.create("venue", asAdmin(), "venue", "Private hall", "status", "private", "address", "9 Private road")
	draft := r.create("organizer", r.creds[calendar.RoleEditor], "organizer", "Draft org", "status", "draft", "email", "d@example.org")
	for name, fields := range map[string]map[string]any{
		"a private venue":             {"venue": private["id"]},
		"a private venue, as {id}":    {"venue": map[string]any{"id": private["id"]}},
		"another's draft organizer":   {"organizer": []any{draft["id"]}},
		"filtering by a hidden venue": nil,
	} {
		t.Run(name, func(t *testing.T) {
			if fields == nil {
				r.do("GET", eventsPath+"?venue="+idOf(private), r.creds[calendar.RoleContributor]).expectError(t, http.StatusBadRequest, "rest_invalid_param")
				return
			}
			f := at("Mine", "2027-06-01 20:00", "2027-06-01 22:00")
			for k, v := range fields {
				f[k] = v
			}
			res := r.do("POST", eventsPath, r.creds[calendar.RoleContributor], jsonBody(f))
			if res.Status != http.StatusBadRequest || strings.Contains(string(res.Body), "Private road") {
				t.Fatalf("linked what it may not read: %d %s", res.Status, res.Body)
			}
			missing := map[string]any{}
			for k, v := range fields {
				missing[k] = v
				if _, ok := v.(map[string]any); ok {
					missing[k] = map[string]any{"id": 99999}
				} else if _, ok := v.([]any); ok {
					missing[k] = []any{99999}
				} else {
					missing[k] = 99999
				}
			}
			f = at("Mine", "2027-06-01 20:00", "2027-06-01 22:00")
			for k, v := range missing {
				f[k] = v
			}
			if other := r.do("POST", eventsPath, r.creds[calendar.RoleContributor], jsonBody(f)); other.object(t)["code"] != res.object(t)["code"] {
				t.Fatalf("a hidden post is told from a missing one: %s against %s", res.Body, other.Body)
			}
		})
	}
	r.do("GET", eventsPath+"?venue="+idOf(private), r.creds[calendar.RoleEditor]).expectStatus(t, http.StatusOK)
}

func TestAnonymousWritesAreRefusedBeforeAnythingIsRead(t *testing.T) {
	t.Parallel()
	s := startService(t)
	e := s.event(at("Target", "2027-06-01 20:00", "2027-06-01 22:00"))
	v := s.create("venue", asAdmin(), "venue", "Target")
	for _, c := range []struct{ method, path string }{
		{"POST", eventsPath}, {"PUT", eventsPath + "/" + idOf(e)}, {"POST", "/vendor/events/v1/venues"},
		{"PATCH", "/vendor/events/v1/venues/" + idOf(v)}, {"POST", "/vendor/events/v1/organizers"},
	} {
		fields := at("x", "2027-06-01 20:00", "2027-06-01 22:00")
		fields["author"], fields["venue"], fields["organizer"] = 1, map[string]any{"venue": "Name"}, map[string]any{"organizer": "Name"}
		if !strings.HasPrefix(c.path, eventsPath) { // the name of the venue or organizer written
			fields["venue"], fields["organizer"] = "Name", "Name"
		}
		s.do(c.method, c.path, jsonBody(fields)).expectError(t, http.StatusUnauthorized, "rest_forbidden")
	}
	if logs := s.logs.String(); strings.Contains(logs, "panic") {
		t.Fatalf("the service panicked:\n%s", logs)
	}
}

func TestContributorsCannotPublishScheduleOrMakePrivate(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	own := r.event(at("Own draft", "2027-06-01 20:00", "2027-06-01 22:00"), r.creds[calendar.RoleContributor])
	for _, c := range []struct {
		role   calendar.Role
		fields map[string]any
		status int
		code   string
	}{
		{calendar.RoleContributor, map[string]any{"status": "private"}, 403, "rest_cannot_publish"},
		{calendar.RoleContributor, map[string]any{"status": "future"}, 403, "rest_cannot_publish"},
		{calendar.RoleContributor, map[string]any{"sticky": true}, 403, "rest_cannot_assign_sticky"},
		{calendar.RoleContributor, map[string]any{"status": "publish"}, 201, "pending"},
		{calendar.RoleContributor, map[string]any{"status": "pending", "sticky": false}, 201, "pending"},
		{calendar.RoleAuthor, map[string]any{"status": "private", "sticky": true}, 201, "private"},
		{calendar.RoleEditor, map[string]any{"status": "future"}, 201, "future"},
	} {
		t.Run(fmt.Sprintf("%s %v", c.role, c.fields), func(t *testing.T) {
			f := at("Try", "2027-06-01 20:00", "2027-06-01 22:00")
			for k, v := range c.fields {
				f[k] = v
			}
			res := r.do("POST", eventsPath, r.creds[c.role], jsonBody(f))
			if c.status != 201 {
				res.expectError(t, c.status, c.code)
				r.do("PATCH", eventsPath+"/"+idOf(own), r.creds[c.role], jsonBody(c.fields)).expectError(t, c.status, c.code)
				for _, kind := range []string{"venue", "organizer"} {
					if _, ok := c.fields["status"]; ok {
						r.do("POST", "/vendor/events/v1/"+kind+"s", r.creds[c.role], form(kind, "Try "+kind, "status", c.fields["status"].(string))).
							expectError(t, c.status, c.code)
					}
				}
				return
			}
			res.expectStatus(t, http.StatusCreated)
			if got := res.object(t)["status"]; got != c.code {
				t.Fatalf("status %v, want %s", got, c.code)
			}
		})
	}
	if got := r.do("GET", eventsPath+"/"+idOf(own), r.creds[calendar.RoleContributor]).object(t); got["status"] != "draft" || got["sticky"] != false {
		t.Fatalf("a refused update changed the event: %v %v", got["status"], got["sticky"])
	}
}

func TestTextFieldsAreBounded(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for name, fields := range map[string]map[string]any{
		"title":       {"title": strings.Repeat("x", calendar.MaxTitleBytes+1)},
		"description": {"description": strings.Repeat("x", calendar.MaxDescriptionBytes+1)},
		"excerpt":     {"excerpt": strings.Repeat("x", calendar.MaxExcerptBytes+1)},
		"password":    {"password": strings.Repeat("x", calendar.MaxPasswordBytes+1)},
		"image":       {"image": "https://img.example/" + strings.Repeat("x", calendar.MaxURLBytes)},
		"cost":        {"cost": []any{strings.Repeat("1", 600), strings.Repeat("2", 600)}},
		"organizer":   {"organizer": make([]any, calendar.MaxOrganizers+1)},
		"tags":        {"tags": strings.Repeat("t,", calendar.MaxEventTerms+1)},
	} {
		t.Run(name, func(t *testing.T) {
			f := at("Bounded", "2027-06-01 20:00", "2027-06-01 22:00")
			for k, v := range fields {
				f[k] = v
			}
			res := s.do("POST", eventsPath, asAdmin(), jsonBody(f))
			res.expectError(t, http.StatusBadRequest, "rest_invalid_param")
			if _, named := res.object(t)["data"].(map[string]any)["params"].(map[string]any)[name]; !named {
				t.Fatalf("the error does not name %s: %s", name, res.Body)
			}
		})
	}
	t.Run("a venue's fields", func(t *testing.T) {
		s.do("POST", "/vendor/events/v1/venues", asAdmin(), form("venue", "V", "address", strings.Repeat("x", calendar.MaxFieldBytes+1))).
			expectError(t, http.StatusBadRequest, "rest_invalid_param")
		s.do("POST", "/vendor/events/v1/categories", asAdmin(), form("name", "C", "description", strings.Repeat("x", calendar.MaxExcerptBytes+1))).
			expectError(t, http.StatusBadRequest, "rest_invalid_param")
	})
	t.Run("at the bounds", func(t *testing.T) {
		f := at(strings.Repeat("é", calendar.MaxTitleBytes/2), "2027-06-01 20:00", "2027-06-01 22:00")
		f["description"] = strings.Repeat("y", calendar.MaxDescriptionBytes)
		s.do("POST", eventsPath, asAdmin(), jsonBody(f)).expectStatus(t, http.StatusCreated)
	})
}

func TestOneWriteCreatesABoundedNumberOfLinkedPosts(t *testing.T) {
	t.Parallel()
	s := startService(t)
	organizers := make([]any, calendar.MaxCreatedPerWrite+1)
	for i := range organizers {
		organizers[i] = map[string]any{"organizer": fmt.Sprintf("New %d", i)}
	}
	f := at("Many", "2027-06-01 20:00", "2027-06-01 22:00")
	f["organizer"] = organizers
	s.do("POST", eventsPath, asAdmin(), jsonBody(f)).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	f["organizer"], f["categories"] = organizers[:10], "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p"
	s.do("POST", eventsPath, asAdmin(), jsonBody(f)).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	if total := s.do("GET", "/vendor/events/v1/organizers", asAdmin()).object(t)["total"]; total != float64(0) {
		t.Fatalf("a refused write created %v organizers", total)
	}
	f["categories"] = "a,b,c"
	s.do("POST", eventsPath, asAdmin(), jsonBody(f)).expectStatus(t, http.StatusCreated)
}

func TestSearchDoesNotLookIntoProtectedFields(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	fields := at("Members night", "2027-06-01 20:00", "2027-06-01 22:00")
	fields["password"], fields["description"] = "sesame", "the codeword is zanzibar"
	r.event(fields)
	r.create("venue", asAdmin(), "venue", "Locked hall", "password", "sesame", "address", "12 Zanzibar street")
	for _, opts := range [][]option{nil, {r.creds[calendar.RoleContributor]}} {
		if got := titles(t, r.do("GET", eventsPath+"?start_date=2027-06-01&end_date=2027-06-02&search=zanzibar", opts...)); got != "" {
			t.Errorf("a search for a protected word finds %q", got)
		}
		if got := r.do("GET", "/vendor/events/v1/venues?search=zanzibar", opts...).object(t)["total"]; got != float64(0) {
			t.Errorf("a venue search for a protected word finds %v", got)
		}
	}
	if got := titles(t, r.do("GET", eventsPath+"?start_date=2027-06-01&end_date=2027-06-02&search=members")); got != "Members night" {
		t.Errorf("the title stays searchable: %q", got)
	}
}

func TestHostileSearchesAreBounded(t *testing.T) {
	t.Parallel()
	s := startService(t)
	f := at("Word", "2027-06-01 20:00", "2027-06-01 22:00")
	f["description"] = "supercalifragilistic" + strings.Repeat("x", 60000)
	s.event(f)
	var letters []string // a hundred one-letter words: 199 bytes
	for i := 0; i < 100; i++ {
		letters = append(letters, string(rune('a'+i%26)))
	}
	hundred := url.QueryEscape(strings.Join(letters, " "))
	for _, q := range []string{"search=" + hundred, "search=supercalifragilistic", "orderby=relevance&search=" + hundred} {
		res := s.do("GET", eventsPath+"?start_date=2027-06-01&end_date=2027-06-02&"+q)
		res.expectStatus(t, http.StatusOK)
	}
	if got := titles(t, s.do("GET", eventsPath+"?start_date=2027-06-01&end_date=2027-06-02&search=supercalifragilisticxxx")); got != "Word" {
		t.Fatalf("a giant word is not found by its beginning: %q", got)
	}
}

func TestAnIndexSearchOverItsBudgetIsAnErrorAnswer(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, func(set *app.Settings) { set.SearchBudget = time.Nanosecond; set.ResultCacheSize = -1 }, noConfig)
	if res := s.do("GET", eventsPath+"?search=anything"); res.expectError(t, http.StatusServiceUnavailable, "search_timeout") != nil &&
		(res.Header.Get("Retry-After") == "" || res.Header.Get("Cache-Control") != "no-store") {
		t.Fatalf("a search past its budget: Retry-After %q, Cache-Control %q", res.Header.Get("Retry-After"), res.Header.Get("Cache-Control"))
	}
	s.do("GET", "/vendor/events/v1/venues").expectError(t, http.StatusServiceUnavailable, "search_timeout")
}

func TestTheFeedIsBoundedInBytes(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, func(set *app.Settings) { set.FeedMaxBytes = 20000 }, noConfig)
	for i := 0; i < 6; i++ {
		f := at(fmt.Sprint("Long ", i), fmt.Sprintf("2027-06-%02d 20:00", i+1), fmt.Sprintf("2027-06-%02d 22:00", i+1))
		f["description"] = strings.Repeat("words and words ", 500)
		s.event(f)
	}
	res := s.do("GET", "/vendor/events/v1/events.ics?start_date=2027-06-01&end_date=2027-06-30")
	cal := parseFeed(t, res)
	if len(res.Body) > 20000 || len(cal.Events()) == 0 || len(cal.Events()) == 6 || res.Header.Get("X-WP-Total") != "6" {
		t.Fatalf("%d bytes, %d events, X-WP-Total %s", len(res.Body), len(cal.Events()), res.Header.Get("X-WP-Total"))
	}
}

func TestConcurrentCreatesOfOneTitleAllSucceed(t *testing.T) {
	t.Parallel()
	s := startService(t)
	const n = 24
	for _, c := range []struct {
		path string
		body func(i int) option
	}{
		{eventsPath, func(int) option { return jsonBody(at("Same", "2027-06-01 20:00", "2027-06-01 22:00")) }},
		{"/vendor/events/v1/venues", func(i int) option { return form("venue", "Same", "description", fmt.Sprint("Differs ", i)) }},
		{"/vendor/events/v1/categories", func(i int) option { return form("name", fmt.Sprint("Same ", i), "slug", "same") }},
	} {
		t.Run(c.path, func(t *testing.T) {
			var wg sync.WaitGroup
			statuses := make([]int, n)
			slugs := make([]string, n)
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					req, _ := http.NewRequest("POST", s.URL+c.path, nil)
					asAdmin()(req)
					c.body(i)(req)
					res, err := http.DefaultClient.Do(req)
					if err != nil {
						return
					}
					defer res.Body.Close()
					statuses[i] = res.StatusCode
					var m struct{ Slug string }
					_ = json.NewDecoder(res.Body).Decode(&m)
					slugs[i] = m.Slug
				}()
			}
			wg.Wait()
			seen := map[string]bool{}
			for i := range statuses {
				if statuses[i] != http.StatusCreated || seen[slugs[i]] {
					t.Fatalf("create %d: %d, slug %q (statuses %v)", i, statuses[i], slugs[i], statuses)
				}
				seen[slugs[i]] = true
			}
		})
	}
}

func TestDatesOutsideYears1To9999AndImpossibleOffsetsAreRefused(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for _, d := range []string{"9999-12-31 +1 day", "9999-12-31 23:00 -02:00", "0000-06-01", "253402300800", "-62135596801",
		"2027-06-01T10:00:00+99:99", "2027-06-01 10:00 +15:00", "2027-06-01T10:00:00-14:30"} {
		t.Run(d, func(t *testing.T) {
			s.do("POST", eventsPath, asAdmin(), jsonBody(at("Out", d, "2027-06-01 22:00"))).expectError(t, http.StatusBadRequest, "rest_invalid_param")
			s.do("GET", eventsPath+"?start_date="+url.QueryEscape(d)).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
	created := s.event(at("Edge", "2027-06-01T10:00:00+14:00", "9999-12-31 23:59:59"))
	if created["utc_start_date"] != "2027-05-31 20:00:00" || created["end_date"] != "9999-12-31 23:59:59" {
		t.Fatalf("the bounds themselves: %v %v", created["utc_start_date"], created["end_date"])
	}
}

func TestThePathNamesTheItemWhateverTheQueryOrBodySay(t *testing.T) {
	t.Parallel()
	s := startService(t)
	a, _ := s.createUser("victim-a", calendar.RoleSubscriber)
	b, _ := s.createUser("victim-b", calendar.RoleSubscriber)
	res := s.do("DELETE", fmt.Sprintf("/vendor/admin/v1/users/%s?id=%s", formatFloat(a), formatFloat(b)), asAdmin())
	res.expectStatus(t, http.StatusOK)
	if got := res.object(t)["previous"].(map[string]any)["id"]; got != a {
		t.Fatalf("deleted user %v, the path named %v", got, a)
	}
	e := s.event(at("By path", "2027-06-01 20:00", "2027-06-01 22:00"))
	other := s.event(at("Other", "2027-06-01 20:00", "2027-06-01 22:00"))
	s.do("PATCH", eventsPath+"/"+idOf(e), asAdmin(), jsonBody(map[string]any{"id": other["id"], "title": "Renamed"})).expectStatus(t, http.StatusOK)
	if s.do("GET", eventsPath+"/"+idOf(other)).object(t)["title"] != "Other" {
		t.Fatal("the body's id named the item")
	}
}
