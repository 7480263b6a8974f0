package controllers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"calendar/app"
)

// facetsOf decodes the facets of an event list answer.
func facetsOf(t *testing.T, res *response) map[string][]map[string]any {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	raw, ok := res.object(t)["facets"].(map[string]any)
	if !ok {
		t.Fatalf("no facets in %s", res.Body)
	}
	out := map[string][]map[string]any{}
	for name, values := range raw {
		for _, v := range values.([]any) {
			out[name] = append(out[name], v.(map[string]any))
		}
	}
	return out
}

// summary writes a facet as "key=count" pairs in the answer's order.
func summary(values []map[string]any, key string) string {
	var out []string
	for _, v := range values {
		k := v[key]
		if f, ok := k.(float64); ok {
			k = formatFloat(f)
		}
		out = append(out, toString(k)+"="+formatFloat(v["count"].(float64)))
	}
	return strings.Join(out, " ")
}

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

func TestEventFacets(t *testing.T) {
	r := startWithRoles(t)
	hall := r.create("venue", asAdmin(), "venue", "Hall")
	club := r.create("venue", asAdmin(), "venue", "Club")
	ann := r.create("organizer", asAdmin(), "organizer", "Ann")
	bob := r.create("organizer", asAdmin(), "organizer", "Bob")
	day := func(title string, month time.Month, d int, extra map[string]any) {
		f := at(title, time.Date(2030, month, d, 10, 0, 0, 0, time.UTC).Format(app.DateFormat), time.Date(2030, month, d, 11, 0, 0, 0, time.UTC).Format(app.DateFormat))
		for k, v := range extra {
			f[k] = v
		}
		r.event(f)
	}
	day("jazz night", 7, 1, map[string]any{"venue": hall["id"], "organizer": []any{ann["id"]}, "categories": "Music,Jazz", "tags": "late", "featured": true})
	day("rock night", 7, 2, map[string]any{"venue": club["id"], "organizer": []any{bob["id"], ann["id"]}, "categories": "Music"})
	day("film", 7, 3, map[string]any{"categories": "Cinema", "tags": "late", "venue": hall["id"]})
	day("draft", 7, 4, map[string]any{"status": "draft", "categories": "Music,Draftcat", "venue": club["id"]})
	day("hidden", 7, 5, map[string]any{"hide_from_listings": true, "categories": "Music"})
	day("autumn", 9, 1, map[string]any{"categories": "Music", "venue": club["id"], "featured": true})
	july := "start_date=2030-07-01&end_date=2030-07-31"
	all := "&facets=categories,tags,venue,organizer,featured"

	t.Run("counts and order", func(t *testing.T) {
		f := facetsOf(t, r.do("GET", eventsPath+"?"+july+all))
		want := map[string]string{
			"categories": "Music=2 Jazz=1 Cinema=1",
			"tags":       "late=2",
			"venue":      idOf(hall) + "=2 " + idOf(club) + "=1",
			"organizer":  idOf(ann) + "=2 " + idOf(bob) + "=1",
			"featured":   "false=2 true=1",
		}
		for name, w := range want {
			key := "name"
			switch name {
			case "venue", "organizer":
				key = "id"
			case "featured":
				key = "value"
			}
			if got := summary(f[name], key); got != w {
				t.Errorf("%s: got %q, want %q", name, got, w)
			}
		}
		if m := f["categories"][0]; m["slug"] != "music" || m["id"] == nil {
			t.Errorf("a category value: %v", m)
		}
		onePage := facetsOf(t, r.do("GET", eventsPath+"?"+july+all+"&per_page=1&page=2"))
		if got := summary(onePage["categories"], "name"); got != want["categories"] {
			t.Errorf("counts of page 2 of 1 event: %q, want those of all matches", got)
		}
	})

	// Each count must be the total of the list filtered by that value.
	for _, c := range []struct {
		name, query string
		cred        []option
	}{
		{"a month", july, nil},
		{"a month and a search", july + "&search=night", nil},
		{"a month and a category", july + "&categories=music", nil},
		{"drafts for an editor", july, []option{r.creds[app.RoleEditor]}},
		{"a month and a relevance search with a typo", july + "&search=nigth&orderby=relevance", nil},
		{"two months", "start_date=2030-07-01&end_date=2030-09-30", nil},
	} {
		t.Run("counts are list totals: "+c.name, func(t *testing.T) {
			f := facetsOf(t, r.do("GET", eventsPath+"?"+c.query+all, c.cred...))
			if len(f["categories"]) == 0 && strings.Contains(c.query, "2030") {
				t.Fatalf("no category counted for %s", c.query)
			}
			for name, values := range f {
				for _, v := range values {
					filter := name + "="
					if name == "featured" {
						filter += strconv.FormatBool(v["value"].(bool))
					} else {
						filter += formatFloat(v["id"].(float64))
					}
					res := r.do("GET", eventsPath+"?"+c.query+"&"+filter, c.cred...)
					res.expectStatus(t, http.StatusOK)
					if got, want := res.Header.Get("X-WP-Total"), formatFloat(v["count"].(float64)); got != want {
						t.Errorf("%s: the list has %s events, the facet says %s", filter, got, want)
					}
				}
			}
		})
	}

	t.Run("drafts count for editors only, the window bounds the counts", func(t *testing.T) {
		anon := facetsOf(t, r.do("GET", eventsPath+"?"+july+"&facets=categories"))
		editor := facetsOf(t, r.do("GET", eventsPath+"?"+july+"&facets=categories", r.creds[app.RoleEditor]))
		longer := facetsOf(t, r.do("GET", eventsPath+"?start_date=2030-07-01&end_date=2030-09-30&facets=categories"))
		for _, c := range []struct{ got, want string }{
			{summary(anon["categories"], "name"), "Music=2 Jazz=1 Cinema=1"},
			{summary(editor["categories"], "name"), "Music=3 Jazz=1 Cinema=1 Draftcat=1"},
			{summary(longer["categories"], "name"), "Music=3 Jazz=1 Cinema=1"},
		} {
			if c.got != c.want {
				t.Errorf("got %q, want %q", c.got, c.want)
			}
		}
	})

	t.Run("only the facets asked for; none, none at all", func(t *testing.T) {
		with := r.do("GET", eventsPath+"?"+july+"&facets=featured,venue")
		if got := strings.Join(keyOrder(t, with.Body), " "); got != "events rest_url total total_pages facets" {
			t.Fatalf("wrapper keys: %s", got)
		}
		if f := facetsOf(t, with); len(f) != 2 || f["venue"] == nil || f["featured"] == nil {
			t.Fatalf("facets: %v", f)
		}
		without := r.do("GET", eventsPath+"?"+july) // the same query: the cache must not answer with facets
		if got := strings.Join(keyOrder(t, without.Body), " "); got != "events rest_url total total_pages" {
			t.Fatalf("wrapper keys without facets: %s", got)
		}
		empty := facetsOf(t, r.do("GET", eventsPath+"?start_date=2040-01-01&end_date=2040-01-02&facets=tags"))
		if raw := string(r.do("GET", eventsPath+"?start_date=2040-01-01&end_date=2040-01-02&facets=tags").Body); !strings.Contains(raw, `"facets":{"tags":[]}`) || len(empty["tags"]) != 0 {
			t.Fatalf("no match: %s", raw)
		}
	})

	for _, bad := range []string{"facets=nope", "facets=categories,nope", "facets=status"} {
		t.Run("rejects "+bad, func(t *testing.T) {
			r.do("GET", eventsPath+"?"+july+"&"+bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
}
