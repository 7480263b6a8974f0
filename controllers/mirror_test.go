package controllers_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// plurals are the collections by the feed's item types.
var plurals = map[string]string{"event": "events", "venue": "venues", "organizer": "organizers", "category": "categories", "tag": "tags"}

// mirror is a client that keeps a copy of what one caller can read by following
// the change feed and fetching each changed item.
type mirror struct {
	s     *service
	opts  []option
	since int64
	items map[string]map[string]any // "type/id" -> the item as GET by ID answers
}

func newMirror(s *service, opts ...option) *mirror {
	return &mirror{s: s, opts: opts, items: map[string]map[string]any{}}
}

// sync follows the feed to its end in small pages. An event embeds its venue,
// organizers and terms, and a term counts its events: the mirror refreshes the
// events that embed a changed item and the terms a changed event had or has.
func (m *mirror) sync(t *testing.T) {
	t.Helper()
	changed := map[string]bool{}
	for more := true; more; {
		res := m.s.do("GET", "/vendor/events/v1/changes?per_page=3&since="+strconv.FormatInt(m.since, 10), m.opts...)
		res.expectStatus(t, http.StatusOK)
		page := res.object(t)
		for _, raw := range page["changes"].([]any) {
			e := raw.(map[string]any)
			key := fmt.Sprintf("%s/%v", e["type"], e["id"])
			changed[key] = true
			if old := m.items[key]; old != nil && e["type"] == "event" {
				markTerms(old, changed)
			}
			if e["action"] == "deleted" {
				delete(m.items, key)
				continue
			}
			m.fetch(t, key)
			if e["type"] == "event" {
				markTerms(m.items[key], changed)
			}
		}
		m.since = int64(page["last_seq"].(float64))
		more = page["more"].(bool)
	}
	for key := range changed {
		if m.items[key] != nil && !isEvent(key) {
			m.fetch(t, key)
		}
	}
	for key, item := range m.items {
		if isEvent(key) && embedsAny(item, changed) {
			m.fetch(t, key)
		}
	}
}

func isEvent(key string) bool { return strings.HasPrefix(key, "event/") }

func (m *mirror) fetch(t *testing.T, key string) {
	t.Helper()
	typ, id, _ := strings.Cut(key, "/")
	res := m.s.do("GET", "/vendor/events/v1/"+plurals[typ]+"/"+id, m.opts...)
	if res.Status != http.StatusOK {
		t.Fatalf("fetching %s after the feed named it: %d %s", key, res.Status, res.Body)
	}
	m.items[key] = res.object(t)
}

// markTerms marks the terms an event carries as changed.
func markTerms(event map[string]any, changed map[string]bool) {
	for field, typ := range map[string]string{"categories": "category", "tags": "tag"} {
		terms, _ := event[field].([]any)
		for _, x := range terms {
			changed[fmt.Sprintf("%s/%v", typ, x.(map[string]any)["id"])] = true
		}
	}
}

// embedsAny reports whether an event shows one of the changed items.
func embedsAny(event map[string]any, changed map[string]bool) bool {
	var keys []string
	if v, ok := event["venue"].(map[string]any); ok {
		keys = append(keys, fmt.Sprintf("venue/%v", v["id"]))
	}
	orgs, _ := event["organizer"].([]any)
	for _, o := range orgs {
		keys = append(keys, fmt.Sprintf("organizer/%v", o.(map[string]any)["id"]))
	}
	for field, typ := range map[string]string{"categories": "category", "tags": "tag"} {
		terms, _ := event[field].([]any)
		for _, x := range terms {
			keys = append(keys, fmt.Sprintf("%s/%v", typ, x.(map[string]any)["id"]))
		}
	}
	for _, k := range keys {
		if changed[k] {
			return true
		}
	}
	return false
}

// listed is what the API lists for the caller: every item of every type, by
// key, as GET by ID answers it now, and as the list shows it.
func listed(t *testing.T, s *service, allStatuses bool, opts ...option) (byID, inList map[string]map[string]any) {
	t.Helper()
	out := map[string]map[string]any{}
	for typ, plural := range plurals {
		q := url.Values{"per_page": {"50"}}
		switch typ {
		case "category", "tag":
			q.Set("hide_empty", "false")
		default:
			q.Set("modified_after", "0") // every event, past ones too
			if allStatuses {
				q.Set("status", "publish,future,draft,pending,private,trash")
			}
		}
		for page := 1; ; page++ {
			q.Set("page", strconv.Itoa(page))
			res := s.do("GET", "/vendor/events/v1/"+plural+"?"+q.Encode(), opts...)
			res.expectStatus(t, http.StatusOK)
			items := res.object(t)[plural].([]any)
			for _, it := range items {
				key := fmt.Sprintf("%s/%v", typ, it.(map[string]any)["id"])
				out[key] = it.(map[string]any)
			}
			if len(items) < 50 {
				break
			}
		}
	}
	m := newMirror(s, opts...)
	for key := range out {
		m.fetch(t, key)
	}
	return m.items, out
}

// withoutJSONLD is an item as a list shows it: a single read adds json_ld to
// it and to the venue and organizers it embeds, and _links to a term.
func withoutJSONLD(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			if k != "json_ld" && k != "_links" {
				out[k] = withoutJSONLD(val)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = withoutJSONLD(val)
		}
		return out
	}
	return v
}

func TestAMirrorFollowingTheFeedEndsEqualToTheListsForAdminAndVisitor(t *testing.T) {
	t.Parallel()
	long(t)
	s := startService(t)
	rng := rand.New(rand.NewSource(7))
	admin, visitor := newMirror(s, asAdmin()), newMirror(s)
	live := map[string][]int64{} // type -> IDs not deleted for good
	pick := func(typ string) (int64, bool) {
		if len(live[typ]) == 0 {
			return 0, false
		}
		return live[typ][rng.Intn(len(live[typ]))], true
	}
	drop := func(typ string, id int64) {
		out := live[typ][:0]
		for _, x := range live[typ] {
			if x != id {
				out = append(out, x)
			}
		}
		live[typ] = out
	}
	some := func(typ string) []int64 {
		var out []int64
		for _, id := range live[typ] {
			if rng.Intn(3) == 0 {
				out = append(out, id)
			}
		}
		return out
	}
	statuses := []string{"publish", "publish", "draft", "private"}
	write := func(method, path string, body map[string]any) map[string]any {
		t.Helper()
		res := s.do(method, "/vendor/events/v1/"+path, asAdmin(), jsonBody(body))
		if res.Status != http.StatusOK && res.Status != http.StatusCreated {
			t.Fatalf("%s %s %v: %d %s", method, path, body, res.Status, res.Body)
		}
		return res.object(t)
	}
	n := 0
	create := func(typ string) {
		n++
		name := fmt.Sprintf("%s %d", typ, n)
		body := map[string]any{}
		switch typ {
		case "category", "tag":
			body["name"] = name
		case "venue", "organizer":
			body[typ], body["status"] = name, statuses[rng.Intn(len(statuses))]
		case "event":
			day := 1 + rng.Intn(28)
			body = map[string]any{"title": name, "status": statuses[rng.Intn(len(statuses))],
				"start_date": fmt.Sprintf("2027-02-%02d 10:00", day), "end_date": fmt.Sprintf("2027-02-%02d 12:00", day),
				"categories": some("category"), "tags": some("tag"), "organizer": some("organizer")}
			if v, ok := pick("venue"); ok {
				body["venue"] = v
			}
		}
		id := int64(write("POST", plurals[typ], body)["id"].(float64))
		live[typ] = append(live[typ], id)
	}
	types := []string{"event", "event", "venue", "organizer", "category", "tag"}
	for _, typ := range types {
		create(typ)
	}
	for step := 0; step < 120; step++ {
		typ := types[rng.Intn(len(types))]
		id, ok := pick(typ)
		path := plurals[typ] + "/" + strconv.FormatInt(id, 10)
		term := typ == "category" || typ == "tag"
		switch op := rng.Intn(10); {
		case !ok || op < 3:
			create(typ)
		case op < 6 && term:
			write("POST", path, map[string]any{"description": fmt.Sprintf("step %d", step)})
		case op < 6:
			body := map[string]any{"status": statuses[rng.Intn(len(statuses))]}
			if typ == "event" {
				body["title"], body["categories"] = fmt.Sprintf("event at step %d", step), some("category")
			} else {
				body[typ] = fmt.Sprintf("%s at step %d", typ, step)
			}
			write("POST", path, body)
		case op < 8 && !term:
			res := s.do("DELETE", "/vendor/events/v1/"+path, asAdmin())
			if res.Status != http.StatusOK && res.Status != http.StatusGone {
				t.Fatalf("trash %s: %d %s", path, res.Status, res.Body)
			}
		default:
			force := ""
			if !term {
				force = "?force=true"
			}
			s.do("DELETE", "/vendor/events/v1/"+path+force, asAdmin()).expectStatus(t, http.StatusOK)
			drop(typ, id)
		}
		if rng.Intn(8) == 0 {
			admin.sync(t)
		}
		if rng.Intn(8) == 0 {
			visitor.sync(t)
		}
	}
	admin.sync(t)
	visitor.sync(t)
	adminByID, adminList := listed(t, s, true, asAdmin())
	visitorByID, visitorList := listed(t, s, false)
	for _, c := range []struct {
		name       string
		mirror     *mirror
		want, list map[string]map[string]any
	}{
		{"administrator, every status", admin, adminByID, adminList},
		{"visitor, published only", visitor, visitorByID, visitorList},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, want := sortedKeys(c.mirror.items), sortedKeys(c.want); !reflect.DeepEqual(got, want) {
				t.Fatalf("mirror holds %v\nthe lists hold %v", got, want)
			}
			for key, item := range c.want {
				if !reflect.DeepEqual(c.mirror.items[key], item) {
					got, _ := json.Marshal(c.mirror.items[key])
					want, _ := json.Marshal(item)
					t.Fatalf("%s differs:\nmirror %s\nAPI    %s", key, got, want)
				}
				if !reflect.DeepEqual(withoutJSONLD(c.mirror.items[key]), withoutJSONLD(c.list[key])) {
					got, _ := json.Marshal(withoutJSONLD(c.mirror.items[key]))
					want, _ := json.Marshal(c.list[key])
					t.Fatalf("%s differs from the list:\nmirror %s\nlist   %s", key, got, want)
				}
			}
			if len(c.want) < 3 {
				t.Fatalf("only %d items: the random walk did too little", len(c.want))
			}
		})
	}
}

func sortedKeys(m map[string]map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
