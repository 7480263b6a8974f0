package controllers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"
)

// ids lists the id of each item under key.
func ids(t *testing.T, res *response, key string) []int64 {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	items, _ := res.object(t)[key].([]any)
	out := []int64{}
	for _, it := range items {
		out = append(out, int64(it.(map[string]any)["id"].(float64)))
	}
	return out
}

func TestModifiedAfterKeepsLaterChangesOldestFirstOnEveryPostList(t *testing.T) {
	s := startService(t)
	create := map[string]func(name string) map[string]any{
		"events": func(name string) map[string]any {
			// a past event: modified_after drops the default date window
			return map[string]any{"title": name, "start_date": "2020-01-01 10:00", "end_date": "2020-01-01 11:00"}
		},
		"venues":     func(name string) map[string]any { return map[string]any{"venue": name} },
		"organizers": func(name string) map[string]any { return map[string]any{"organizer": name} },
	}
	type pair struct {
		a, b      int64
		bModified string
	}
	made := map[string]pair{}
	for plural, body := range create {
		var p pair
		for i, dst := range []*int64{&p.a, &p.b} {
			res := s.do("POST", "/vendor/events/v1/"+plural, asAdmin(), jsonBody(body(fmt.Sprintf("%s %d", plural, i))))
			res.expectStatus(t, http.StatusCreated)
			m := res.object(t)
			*dst = int64(m["id"].(float64))
			if i == 1 {
				p.bModified = m["modified_utc"].(string)
			}
		}
		made[plural] = p
	}
	time.Sleep(1100 * time.Millisecond) // modification times have whole seconds
	for plural, p := range made {
		field := map[string]string{"events": "title", "venues": "venue", "organizers": "organizer"}[plural]
		s.do("POST", "/vendor/events/v1/"+plural+"/"+strconv.FormatInt(p.a, 10), asAdmin(),
			jsonBody(map[string]any{field: "changed"})).expectStatus(t, http.StatusOK)
	}
	paris := time.FixedZone("+02:00", 2*3600)
	for plural, p := range made {
		bModified := p.bModified
		b, _ := time.Parse("2006-01-02 15:04:05", bModified)
		for _, c := range []struct {
			name, value string
			want        []int64
		}{
			{"UTC wall time of the later creation", bModified, []int64{p.a}},
			{"the same instant with an offset", b.In(paris).Format(time.RFC3339), []int64{p.a}},
			{"the same instant as a Unix timestamp", strconv.FormatInt(b.Unix(), 10), []int64{p.a}},
			{"a second before: both, by modification then ID", strconv.FormatInt(b.Unix()-1, 10), []int64{p.b, p.a}},
			{"after the update: none", strconv.FormatInt(b.Unix()+60, 10), []int64{}},
		} {
			t.Run(plural+"/"+c.name, func(t *testing.T) {
				got := ids(t, s.do("GET", "/vendor/events/v1/"+plural+"?modified_after="+url.QueryEscape(c.value), asAdmin()), plural)
				if fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Fatalf("modified_after=%s: %v, want %v", c.value, got, c.want)
				}
			})
		}
		t.Run(plural+"/a bad date is a 400", func(t *testing.T) {
			s.do("GET", "/vendor/events/v1/"+plural+"?modified_after=not-a-date").expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
	t.Run("the filter goes into the next page link", func(t *testing.T) {
		b, _ := time.Parse("2006-01-02 15:04:05", made["venues"].bModified)
		v := strconv.FormatInt(b.Unix()-1, 10)
		m := s.do("GET", "/vendor/events/v1/venues?per_page=1&modified_after="+v, asAdmin()).object(t)
		next, _ := m["next_rest_url"].(string)
		u, err := url.Parse(next)
		if err != nil || u.Query().Get("modified_after") != v || u.Query().Get("page") != "2" {
			t.Fatalf("next_rest_url = %q", next)
		}
	})
}

// feed reads one page of the change feed.
func feed(t *testing.T, s *service, since int64, opts ...option) (entries []map[string]any, last int64, more bool) {
	t.Helper()
	res := s.do("GET", "/vendor/events/v1/changes?per_page=1000&since="+strconv.FormatInt(since, 10), opts...)
	res.expectStatus(t, http.StatusOK)
	m := res.object(t)
	for _, e := range m["changes"].([]any) {
		entries = append(entries, e.(map[string]any))
	}
	return entries, int64(m["last_seq"].(float64)), m["more"].(bool)
}

// actions writes a page of the feed as "type/id action" lines.
func actions(entries []map[string]any) []string {
	var out []string
	for _, e := range entries {
		out = append(out, fmt.Sprintf("%s/%v %s", e["type"], e["id"], e["action"]))
	}
	return out
}

func TestTheChangeFeedSaysWhatHappenedToEachItemForEachCaller(t *testing.T) {
	s := startService(t)
	post := func(path string, body map[string]any) int64 {
		t.Helper()
		res := s.do("POST", "/vendor/events/v1/"+path, asAdmin(), jsonBody(body))
		if res.Status != http.StatusOK && res.Status != http.StatusCreated {
			t.Fatalf("POST %s: %d %s", path, res.Status, res.Body)
		}
		return int64(res.object(t)["id"].(float64))
	}
	_, start, _ := feed(t, s, 0, asAdmin())
	cat := post("categories", map[string]any{"name": "Jazz"})
	tag := post("tags", map[string]any{"name": "Free"})
	venue := post("venues", map[string]any{"venue": "Hall"})
	org := post("organizers", map[string]any{"organizer": "Org", "status": "draft"})
	event := post("events", map[string]any{"title": "Gig", "start_date": "2030-01-01 20:00", "end_date": "2030-01-01 22:00",
		"venue": venue, "organizer": []int64{org}, "categories": []int64{cat}, "tags": []int64{tag}})
	s.createUser("someone", "author") // users are never listed

	entries, mid, more := feed(t, s, start, asAdmin())
	want := fmt.Sprint([]string{
		fmt.Sprintf("category/%d created", cat), fmt.Sprintf("tag/%d created", tag), fmt.Sprintf("venue/%d created", venue),
		fmt.Sprintf("organizer/%d created", org), fmt.Sprintf("event/%d created", event)})
	if got := fmt.Sprint(actions(entries)); got != want || more {
		t.Fatalf("after creates: %v (more %v)\nwant %s", got, more, want)
	}
	res := s.do("GET", "/vendor/events/v1/changes?since="+strconv.FormatInt(mid, 10))
	if res.Header.Get("X-Calendar-Last-Seq") == "" {
		t.Fatalf("no X-Calendar-Last-Seq header")
	}
	if last, _ := strconv.ParseInt(res.Header.Get("X-Calendar-Last-Seq"), 10, 64); last < mid {
		t.Fatalf("X-Calendar-Last-Seq %d below the feed's last_seq %d", last, mid)
	}

	post("venues/"+strconv.FormatInt(venue, 10), map[string]any{"city": "Lyon"})
	s.do("DELETE", "/vendor/events/v1/events/"+strconv.FormatInt(event, 10), asAdmin()).expectStatus(t, http.StatusOK)
	s.do("DELETE", "/vendor/events/v1/tags/"+strconv.FormatInt(tag, 10), asAdmin()).expectStatus(t, http.StatusOK)
	s.do("DELETE", "/vendor/events/v1/organizers/"+strconv.FormatInt(org, 10)+"?force=true", asAdmin()).expectStatus(t, http.StatusOK)

	for _, c := range []struct {
		caller string
		opts   []option
		since  int64
		want   []string
	}{
		{"administrator", []option{asAdmin()}, mid, []string{
			fmt.Sprintf("venue/%d updated", venue), fmt.Sprintf("tag/%d deleted", tag),
			fmt.Sprintf("event/%d trashed", event), fmt.Sprintf("organizer/%d deleted", org)}},
		{"visitor", nil, mid, []string{
			fmt.Sprintf("venue/%d updated", venue), fmt.Sprintf("tag/%d deleted", tag),
			fmt.Sprintf("event/%d deleted", event), fmt.Sprintf("organizer/%d deleted", org)}},
		{"visitor from the start: the draft organizer is gone, the rest is new", nil, start, []string{
			fmt.Sprintf("category/%d created", cat), fmt.Sprintf("venue/%d created", venue),
			fmt.Sprintf("tag/%d deleted", tag), fmt.Sprintf("event/%d deleted", event), fmt.Sprintf("organizer/%d deleted", org)}},
	} {
		t.Run(c.caller, func(t *testing.T) {
			entries, _, _ := feed(t, s, c.since, c.opts...)
			if got := fmt.Sprint(actions(entries)); got != fmt.Sprint(c.want) {
				t.Fatalf("feed since %d: %v\nwant %v", c.since, got, c.want)
			}
		})
	}
}

func TestTheChangeFeedPagesWithSinceAndRefusesBadParameters(t *testing.T) {
	s := startService(t)
	for i := 0; i < 5; i++ {
		s.do("POST", "/vendor/events/v1/tags", asAdmin(), jsonBody(map[string]any{"name": fmt.Sprintf("t%d", i)})).expectStatus(t, http.StatusCreated)
	}
	var seen []string
	next := "/vendor/events/v1/changes?per_page=2"
	for pages := 0; next != ""; pages++ {
		if pages > 5 {
			t.Fatalf("more than 5 pages: %v", seen)
		}
		m := s.do("GET", next).object(t)
		for _, e := range m["changes"].([]any) {
			seen = append(seen, fmt.Sprint(e.(map[string]any)["id"]))
		}
		next = ""
		if m["more"].(bool) {
			u, err := url.Parse(m["next_rest_url"].(string))
			if err != nil || u.Query().Get("since") != fmt.Sprint(m["last_seq"]) {
				t.Fatalf("next_rest_url %v does not continue from last_seq %v", m["next_rest_url"], m["last_seq"])
			}
			next = u.RequestURI()
		}
	}
	if fmt.Sprint(seen) != "[1 2 3 4 5]" {
		t.Fatalf("paged feed = %v, want the five tags once each", seen)
	}
	for _, q := range []string{"since=-1", "since=abc", "since=1.5", "per_page=0", "per_page=1001", "per_page=x"} {
		t.Run(q, func(t *testing.T) {
			s.do("GET", "/vendor/events/v1/changes?"+q).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
}
