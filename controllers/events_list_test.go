package controllers_test

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"calendar/app"
)

// titles lists the titles of an event list answer, in order.
func titles(t *testing.T, res *response) string {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	var out []string
	for _, e := range res.object(t)["events"].([]any) {
		out = append(out, e.(map[string]any)["title"].(string))
	}
	return strings.Join(out, ",")
}

func TestEventListDateSemantics(t *testing.T) {
	s := startService(t)
	multi := s.event(at("multi", "2017-12-29 10:00:00", "2018-01-02 10:00:00"))
	s.event(at("afternoon", "2018-01-01 16:00:00", "2018-01-01 16:30:00"))
	s.event(at("evening", "2018-01-01 20:00:00", "2018-01-01 21:00:00"))
	late := s.event(at("later", "2018-01-05 10:00:00", "2018-01-05 11:00:00"))
	now := time.Now().UTC()
	s.event(at("tomorrow", now.AddDate(0, 0, 1).Format(app.DateFormat), now.AddDate(0, 0, 1).Add(time.Hour).Format(app.DateFormat)))
	s.event(at("far", now.AddDate(3, 0, 0).Format(app.DateFormat), now.AddDate(3, 0, 0).Add(time.Hour).Format(app.DateFormat)))
	cases := map[string]string{
		"start_date=2017-12-30&end_date=2018-01-10":                                      "afternoon,evening,later",
		"ends_after=2017-12-30&starts_before=2018-01-10":                                 "multi,afternoon,evening,later",
		"start_date=2018-01-01 15:00:00&end_date=2018-01-01 18:00:00&strict_dates=true":  "afternoon",
		"start_date=2018-01-01 15:00:00&end_date=2018-01-01 18:00:00":                    "afternoon,evening",
		"start_date=2018-01-01 15:00:00&end_date=2018-01-01 18:00:00&strict_dates=false": "afternoon,evening",
		"starts_after=2018-01-01&starts_before=2018-01-10":                               "later",
		"ends_after=2018-01-02&ends_before=2018-01-10":                                   "later",
		"ends_before=2018-01-02&ends_after=2017-01-01":                                   "multi,afternoon,evening",
		"start_date=1514764800&end_date=1515196800":                                      "afternoon,evening,later",
		"include=" + idOf(late) + "," + idOf(multi):                                      "multi,later",
		"include=" + idOf(late) + "&start_date=2030-01-01":                               "later",
		"": "tomorrow",
		"start_date=" + url.QueryEscape(now.AddDate(2, 6, 0).Format("2006-01-02")):                                                                             "",
		"start_date=" + url.QueryEscape(now.AddDate(2, 6, 0).Format("2006-01-02")) + "&end_date=" + url.QueryEscape(now.AddDate(4, 0, 0).Format("2006-01-02")): "far",
	}
	for query, want := range cases {
		t.Run(query, func(t *testing.T) {
			q := strings.ReplaceAll(query, " ", "%20")
			if got := titles(t, s.do("GET", eventsPath+"?"+q)); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
	for _, bad := range []string{"start_date=before%20my%20birthday", "ends_after=foo", "strict_dates=", "search=", "page=0",
		"per_page=-1", "include=foo-bar,23", "ticketed=true", "featured=maybe", "venue=foo", "venue=99999", "organizer=0",
		"categories=nope", "tags=", "post_parent=23", "post_parent=foo-bar"} {
		t.Run("rejects "+bad, func(t *testing.T) {
			s.do("GET", eventsPath+"?"+bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
	t.Run("ticketed=false is no filter", func(t *testing.T) {
		if got := titles(t, s.do("GET", eventsPath+"?ticketed=false")); got != "tomorrow" {
			t.Fatalf("got %q", got)
		}
	})
}

func TestEventListFilters(t *testing.T) {
	r := startWithRoles(t)
	hall := r.create("venue", asAdmin(), "venue", "Hall")
	club := r.create("venue", asAdmin(), "venue", "Club")
	ann := r.create("organizer", asAdmin(), "organizer", "Ann")
	bob := r.create("organizer", asAdmin(), "organizer", "Bob")
	day := func(title string, d int, extra map[string]any) {
		f := at(title, time.Date(2030, 3, d, 10, 0, 0, 0, time.UTC).Format(app.DateFormat), time.Date(2030, 3, d, 11, 0, 0, 0, time.UTC).Format(app.DateFormat))
		for k, v := range extra {
			f[k] = v
		}
		r.event(f)
	}
	day("jazz night", 1, map[string]any{"venue": hall["id"], "organizer": []any{ann["id"]}, "categories": "Music,Jazz", "tags": "late", "featured": true, "description": "Bring foo friends"})
	day("rock night", 2, map[string]any{"venue": club["id"], "organizer": []any{bob["id"], ann["id"]}, "categories": "Music", "excerpt": "bar"})
	day("film", 3, map[string]any{"categories": "Cinema", "tags": "late"})
	day("hidden", 4, map[string]any{"hide_from_listings": true})
	day("draft", 5, map[string]any{"status": "draft"})
	day("secret", 6, map[string]any{"password": "sesame", "description": "classified", "venue": hall["id"]})
	window := "start_date=2030-03-01&end_date=2030-03-31&"
	cases := map[string]string{
		"":                                       "jazz night,rock night,film,secret",
		"venue=" + idOf(hall):                    "jazz night,secret",
		"venue=" + idOf(hall) + "," + idOf(club): "jazz night,rock night,secret",
		"organizer=" + idOf(ann):                 "jazz night,rock night",
		"organizer[]=" + idOf(bob):               "rock night",
		"categories=music":                       "jazz night,rock night",
		"categories=jazz,cinema":                 "jazz night,film",
		"tags=late":                              "jazz night,film",
		"categories=music&tags=late":             "jazz night",
		"featured=true":                          "jazz night",
		"featured=false":                         "rock night,film,secret",
		"search=night":                           "jazz night,rock night",
		"search=NIGHT%20jazz":                    "jazz night",
		"search=foo":                             "jazz night",
		"search=bar%20rock":                      "rock night",
		"search=nothing":                         "",
		"status=publish":                         "jazz night,rock night,film,secret",
	}
	for query, want := range cases {
		t.Run(query, func(t *testing.T) {
			if got := titles(t, r.do("GET", eventsPath+"?"+window+query)); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
	t.Run("editors see drafts; status is checked per role", func(t *testing.T) {
		if got := titles(t, r.do("GET", eventsPath+"?"+window, r.creds[app.RoleEditor])); got != "jazz night,rock night,film,draft,secret" {
			t.Fatalf("editor sees %q", got)
		}
		if got := titles(t, r.do("GET", eventsPath+"?"+window+"status=draft", r.creds[app.RoleContributor])); got != "" {
			t.Fatalf("a contributor lists the administrator's draft: %q", got)
		}
		day("own draft", 7, map[string]any{"author": r.ids[app.RoleContributor], "status": "draft"})
		if got := titles(t, r.do("GET", eventsPath+"?"+window+"status=draft", r.creds[app.RoleContributor])); got != "own draft" {
			t.Fatalf("contributor status=draft sees %q", got)
		}
		r.do("GET", eventsPath+"?"+window+"status=publish,draft").expectError(t, 400, "rest_invalid_param")
		r.do("GET", eventsPath+"?"+window+"status=any", asAdmin()).expectError(t, 400, "rest_invalid_param")
	})
	t.Run("protected events are listed masked unless the password is sent", func(t *testing.T) {
		find := func(res *response) map[string]any {
			for _, e := range res.object(t)["events"].([]any) {
				if e.(map[string]any)["title"] == "secret" {
					return e.(map[string]any)
				}
			}
			t.Fatal("secret not listed")
			return nil
		}
		masked := find(r.do("GET", eventsPath+"?"+window))
		if masked["description"] != "" || masked["featured"] != nil || len(masked["venue"].([]any)) != 0 {
			t.Fatalf("masked event: %v", masked)
		}
		if open := find(r.do("GET", eventsPath+"?"+window+"password=sesame")); open["description"] != "<p>classified</p>" {
			t.Fatalf("with the password: %v", open["description"])
		}
	})
	t.Run("category counts follow published events", func(t *testing.T) {
		res := r.do("GET", "/vendor/events/v1/categories?orderby=count&order=desc")
		var got []string
		for _, c := range res.object(t)["categories"].([]any) {
			m := c.(map[string]any)
			got = append(got, m["name"].(string)+"="+formatFloat(m["count"].(float64)))
		}
		sort.Strings(got)
		if strings.Join(got, " ") != "Cinema=1 Jazz=1 Music=2" {
			t.Fatalf("counts: %v", got)
		}
	})
}

func TestEventListPagination(t *testing.T) {
	s := startService(t)
	for d := 1; d <= 7; d++ {
		s.event(at("e"+string(rune('0'+d)), time.Date(2030, 4, d, 9, 0, 0, 0, time.UTC).Format(app.DateFormat), time.Date(2030, 4, d, 10, 0, 0, 0, time.UTC).Format(app.DateFormat)))
	}
	base := eventsPath + "?start_date=2030-04-01&end_date=2030-04-30&per_page=3"
	res := s.do("GET", base)
	if got := titles(t, res); got != "e1,e2,e3" || res.Header.Get("X-TEC-Total") != "7" || res.Header.Get("X-WP-TotalPages") != "3" {
		t.Fatalf("page 1: %q, headers %v", got, res.Header)
	}
	m := res.object(t)
	next, _ := url.Parse(m["next_rest_url"].(string))
	if next.Query().Get("start_date") != "2030-04-01" || next.Query().Get("page") != "2" {
		t.Fatalf("next link %v lost a filter", next)
	}
	if got := titles(t, s.do("GET", next.RequestURI())); got != "e4,e5,e6" {
		t.Fatalf("page 2 via the link: %q", got)
	}
	if got := strings.Join(keyOrder(t, res.Body), " "); got != "events rest_url next_rest_url total total_pages" {
		t.Fatalf("wrapper keys: %s", got)
	}
	s.do("GET", base+"&page=4").expectError(t, http.StatusNotFound, "event-archive-page-not-found")
	empty := s.do("GET", eventsPath+"?start_date=2040-01-01&end_date=2040-01-02")
	if m := empty.object(t); m["total"] != float64(0) || m["total_pages"] != float64(0) || len(m["events"].([]any)) != 0 {
		t.Fatalf("empty page 1: %s", empty.Body)
	}
}
