package controllers_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/emersion/go-ical"

	"calendar/app/calendar"
)

// world is random content in every status, by every kind of author, some of
// it protected, linked every which way (the administrator links anything).
type world struct {
	events, venues, organizers []map[string]any
	words                      []string
}

var worldStatuses = []string{"publish", "future", "draft", "pending", "private", "trash"}

func buildWorld(t *testing.T, r *roles, rng *rand.Rand) *world {
	t.Helper()
	w := &world{words: []string{"alpha", "bravo", "charlie", "delta"}}
	authors := []calendar.Role{calendar.RoleAdministrator, calendar.RoleEditor, calendar.RoleAuthor, calendar.RoleContributor}
	post := func(kind string, fields map[string]any) map[string]any {
		fields["author"] = r.ids[authors[rng.IntN(len(authors))]]
		status := worldStatuses[rng.IntN(len(worldStatuses))]
		fields["status"] = status
		if status == "trash" {
			fields["status"] = "publish"
		}
		if rng.IntN(5) == 0 {
			fields["password"] = "pw" + fmt.Sprint(rng.IntN(3))
		}
		res := r.do("POST", "/vendor/events/v1/"+kind, asAdmin(), jsonBody(fields))
		res.expectStatus(t, http.StatusCreated)
		m := res.object(t)
		if status == "trash" {
			r.do("DELETE", "/vendor/events/v1/"+kind+"/"+idOf(m), asAdmin()).expectStatus(t, http.StatusOK)
		}
		return m
	}
	for i := 0; i < 10; i++ {
		w.venues = append(w.venues, post("venues", map[string]any{"venue": fmt.Sprintf("Venue %d %s", i, w.words[i%4]),
			"address": "1 Secret street", "city": "Lyon"}))
		w.organizers = append(w.organizers, post("organizers", map[string]any{"organizer": fmt.Sprintf("Org %d", i),
			"email": fmt.Sprintf("org%d@example.org", i)}))
	}
	for i := 0; i < 36; i++ {
		day := 1 + rng.IntN(28)
		fields := at(fmt.Sprintf("Event %d %s", i, w.words[rng.IntN(4)]),
			fmt.Sprintf("2031-01-%02d 10:00:00", day), fmt.Sprintf("2031-01-%02d 12:00:00", day))
		fields["description"] = "about " + w.words[rng.IntN(4)]
		fields["venue"] = w.venues[rng.IntN(len(w.venues))]["id"]
		fields["organizer"] = []any{w.organizers[rng.IntN(len(w.organizers))]["id"], w.organizers[rng.IntN(len(w.organizers))]["id"]}
		fields["categories"] = []any{"Cat " + w.words[rng.IntN(4)]}
		w.events = append(w.events, post("events", fields))
	}
	return w
}

// readable is what single reads let a caller read, by post type: a 200, or
// the 403 of a password it did not send (lists show such a post masked).
func readable(t *testing.T, r *roles, opts []option, kind string, posts []map[string]any) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, p := range posts {
		res := r.do("GET", "/vendor/events/v1/"+kind+"/"+idOf(p), opts...)
		switch {
		case res.Status == http.StatusOK:
			out[idOf(p)] = true
		case res.Status == http.StatusForbidden && strings.HasSuffix(fmt.Sprint(res.object(t)["code"]), "-password-protected"):
			out[idOf(p)] = true
		case res.Status != http.StatusForbidden:
			t.Fatalf("GET %s %s: %d %s", kind, idOf(p), res.Status, res.Body)
		}
	}
	return out
}

// walk follows a list from page 1 to its last page and checks that the pages
// reach exactly its total, each item once; it returns the items, or nil when
// the list refuses the query (a status the caller may not ask for...).
func walk(t *testing.T, r *roles, opts []option, path, key string) []map[string]any {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	first := r.do("GET", path+sep+"per_page=7", opts...)
	if first.Status == http.StatusBadRequest {
		return nil
	}
	first.expectStatus(t, http.StatusOK)
	m := first.object(t)
	total := int(m["total"].(float64))
	if got := first.Header.Get("X-WP-Total"); got != fmt.Sprint(total) {
		t.Fatalf("%s: X-WP-Total %s, total %d", path, got, total)
	}
	var items []map[string]any
	seen := map[string]bool{}
	for page := 1; ; page++ {
		if page > 1 {
			res := r.do("GET", path+sep+fmt.Sprintf("per_page=7&page=%d", page), opts...)
			if res.Status == http.StatusNotFound {
				break
			}
			res.expectStatus(t, http.StatusOK)
			m = res.object(t)
		}
		list := m[key].([]any)
		if len(list) == 0 {
			break
		}
		for _, item := range list {
			it := item.(map[string]any)
			if seen[idOf(it)] {
				t.Fatalf("%s: %s twice", path, idOf(it))
			}
			seen[idOf(it)] = true
			items = append(items, it)
		}
	}
	if len(items) != total {
		t.Fatalf("%s: the pages reach %d items, total says %d", path, len(items), total)
	}
	return items
}

// TestWhatListsShowIsWhatSingleReadsAllow is the read rule's property: for
// every caller and every list-like path, the posts an answer shows (its
// items, what they embed, its feed, its counts) are among those single reads
// let that caller read, and the totals are what paging reaches.
func TestWhatListsShowIsWhatSingleReadsAllow(t *testing.T) {
	t.Parallel() // long: it runs beside the others
	long(t)
	r := startWithRoles(t)
	w := buildWorld(t, r, rand.New(rand.NewPCG(15, 2026)))
	window := "start_date=2031-01-01&end_date=2031-01-31"
	var eventIDs, venueIDs []string
	for _, e := range w.events {
		eventIDs = append(eventIDs, idOf(e))
	}
	for _, v := range w.venues {
		venueIDs = append(venueIDs, idOf(v))
	}
	for _, role := range []calendar.Role{"", calendar.RoleSubscriber, calendar.RoleContributor, calendar.RoleAuthor, calendar.RoleEditor, calendar.RoleAdministrator} {
		t.Run(fmt.Sprintf("%q", role), func(t *testing.T) {
			opts := r.caller(role)
			may := map[string]map[string]bool{
				"events": readable(t, r, opts, "events", w.events), "venues": readable(t, r, opts, "venues", w.venues),
				"organizers": readable(t, r, opts, "organizers", w.organizers),
			}
			if role != calendar.RoleEditor && role != calendar.RoleAdministrator && (len(may["events"]) == 0 || len(may["events"]) == len(w.events)) {
				t.Fatalf("the world does not put the rule to the test: %d of %d events readable", len(may["events"]), len(w.events))
			}
			shows := func(where, kind string, item map[string]any) {
				t.Helper()
				if !may[kind][idOf(item)] {
					t.Errorf("%s shows %s %s, which a single read refuses", where, kind, idOf(item))
				}
			}
			checkEvents := func(path string) []map[string]any {
				t.Helper()
				items := walk(t, r, opts, path, "events")
				for _, e := range items {
					shows(path, "events", e)
					if v, ok := e["venue"].(map[string]any); ok {
						shows(path+" (venue of "+idOf(e)+")", "venues", v)
					}
					for _, o := range e["organizer"].([]any) {
						shows(path+" (organizer of "+idOf(e)+")", "organizers", o.(map[string]any))
					}
				}
				return items
			}
			eventQueries := []string{window, window + "&search=bravo", "include=" + strings.Join(eventIDs, ","),
				window + "&venue=" + strings.Join(venueIDs[:3], ","), "modified_after=2000-01-01", window + "&orderby=relevance&search=charlie"}
			for _, status := range append(worldStatuses, "publish,future,draft,pending,private,trash") {
				eventQueries = append(eventQueries, window+"&status="+status)
			}
			for _, q := range eventQueries {
				checkEvents(eventsPath + "?" + q)
			}

			all := checkEvents(eventsPath + "?" + window + "&status=publish,future,draft,pending,private")
			faceted := r.do("GET", eventsPath+"?"+window+"&status=publish,future,draft,pending,private&facets=featured,venue,organizer", opts...)
			if faceted.Status == http.StatusOK {
				facets := faceted.object(t)["facets"].(map[string]any)
				featured := 0
				for _, v := range facets["featured"].([]any) {
					featured += int(v.(map[string]any)["count"].(float64))
				}
				if featured != len(all) {
					t.Errorf("the featured facet counts %d events, the list has %d", featured, len(all))
				}
				for _, name := range []string{"venue", "organizer"} {
					for _, v := range facets[name].([]any) {
						if n := int(v.(map[string]any)["count"].(float64)); n > len(all) {
							t.Errorf("%s facet %v counts %d events, the list has %d", name, v, n, len(all))
						}
					}
				}
			}
			// A facet the list filters on is counted without that filter:
			// still only the venues and organizers the caller may read.
			var mayVenues []string
			for _, id := range venueIDs {
				if may["venues"][id] && len(mayVenues) < 3 {
					mayVenues = append(mayVenues, id)
				}
			}
			if len(mayVenues) > 0 {
				res := r.do("GET", eventsPath+"?"+window+"&venue="+strings.Join(mayVenues, ",")+"&facets=venue,organizer", opts...)
				res.expectStatus(t, http.StatusOK)
				facets := res.object(t)["facets"].(map[string]any)
				for name, kind := range map[string]string{"venue": "venues", "organizer": "organizers"} {
					for _, v := range facets[name].([]any) {
						shows("the "+name+" facet of a list filtered by venue", kind, v.(map[string]any))
					}
				}
			}

			feed := r.do("GET", "/vendor/events/v1/events.ics?"+window+"&status=publish,future,draft,pending,private", opts...)
			if feed.Status == http.StatusOK {
				cal, err := ical.NewDecoder(bytes.NewReader(feed.Body)).Decode()
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range cal.Events() {
					uid, _ := e.Props.Get("UID").Text()
					if id, _, _ := strings.Cut(uid, "@"); !may["events"][id] {
						t.Errorf("the feed shows event %s", id)
					}
				}
			}

			for _, kind := range []string{"venues", "organizers"} {
				queries := []string{"", "?search=bravo", "?has_events=true", "?has_events=false", "?only_with_upcoming=true"}
				for _, status := range worldStatuses {
					queries = append(queries, "?status="+status)
				}
				for _, e := range w.events[:8] {
					queries = append(queries, "?event="+idOf(e))
				}
				for _, q := range queries {
					for _, item := range walk(t, r, opts, "/vendor/events/v1/"+kind+q, kind) {
						shows(kind+q, kind, item)
					}
				}
			}

			for _, e := range w.events {
				for _, kind := range []string{"categories", "tags", "venues", "organizers"} {
					res := r.do("GET", "/vendor/events/v1/"+kind+"?event="+idOf(e), opts...)
					if may["events"][idOf(e)] != (res.Status == http.StatusOK) {
						t.Errorf("%s?event=%s answers %d to a caller who reads the event: %v", kind, idOf(e), res.Status, may["events"][idOf(e)])
					}
				}
			}

			changes := r.do("GET", "/vendor/events/v1/changes?since=0&per_page=1000", opts...).object(t)
			for _, c := range changes["changes"].([]any) {
				entry := c.(map[string]any)
				kind := map[string]string{"event": "events", "venue": "venues", "organizer": "organizers"}[entry["type"].(string)]
				if kind == "" {
					continue
				}
				id := formatFloat(entry["id"].(float64))
				if deleted := entry["action"] == "deleted"; deleted == may[kind][id] {
					t.Errorf("the change feed says %v of %s %s, which the caller reads: %v", entry["action"], kind, id, may[kind][id])
				}
			}
		})
	}
}

// TestCountsCountOnlyReadableEvents: has_events counts the events the caller
// may read, never trashed ones; a term's count is of published events.
func TestCountsCountOnlyReadableEvents(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	for _, status := range []string{"private", "trash"} {
		v := r.create("venue", asAdmin(), "venue", "Behind "+status)
		e := r.event(map[string]any{"title": status, "start_date": "2031-01-01 10:00", "end_date": "2031-01-01 11:00", "venue": v["id"],
			"status": strings.Replace(status, "trash", "publish", 1), "categories": "Hidden " + status})
		if status == "trash" {
			r.do("DELETE", eventsPath+"/"+idOf(e), asAdmin()).expectStatus(t, http.StatusOK)
		}
	}
	for role, want := range map[calendar.Role]string{"": "", calendar.RoleAuthor: "", calendar.RoleEditor: "Behind private"} {
		if got := listNames(t, r.do("GET", "/vendor/events/v1/venues?has_events=true", r.caller(role)...), "venues", "venue"); got != want {
			t.Errorf("%q: venues with events %q, want %q", role, got, want)
		}
	}
	cats := r.do("GET", "/vendor/events/v1/categories?hide_empty=false").object(t)["categories"].([]any)
	for _, c := range cats {
		if n := c.(map[string]any)["count"]; n != float64(0) {
			t.Errorf("category %v counts %v events", c.(map[string]any)["name"], n)
		}
	}
	if got := names(t, r.do("GET", "/vendor/events/v1/categories"), "categories"); got != "" {
		t.Errorf("categories of unpublished events are listed: %q", got)
	}
}
