package controllers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"calendar/app/calendar"
)

// The rules of facets are tested in app (facets_test.go); here, the wrapper
// keys and the shape an answer gives them, the names refused, and what a
// sidebar of a front-end sees over HTTP.
func TestEventFacetsOverHTTP(t *testing.T) {
	t.Parallel()
	s := startService(t)
	hall := s.create("venue", asAdmin(), "venue", "Hall")
	s.event(map[string]any{"title": "jazz night", "start_date": "2030-07-01 10:00", "end_date": "2030-07-01 11:00",
		"venue": hall["id"], "categories": "Music", "featured": true})
	july := "start_date=2030-07-01&end_date=2030-07-31"
	with := s.do("GET", eventsPath+"?"+july+"&facets=featured,venue,categories")
	if got := strings.Join(keyOrder(t, with.Body), " "); got != "events rest_url total total_pages facets" {
		t.Fatalf("wrapper keys: %s", got)
	}
	if raw := string(with.Body); !strings.Contains(raw, `"facets":{"categories":[{"id":1,"slug":"music","name":"Music","count":1}],"venue":[{"id":`+idOf(hall)+`,"slug":"hall","name":"Hall","count":1}],"featured":[{"value":true,"count":1}]}`) {
		t.Fatalf("facets: %s", raw)
	}
	without := s.do("GET", eventsPath+"?"+july)
	if got := strings.Join(keyOrder(t, without.Body), " "); got != "events rest_url total total_pages" {
		t.Fatalf("wrapper keys without facets: %s", got)
	}
	if raw := string(s.do("GET", eventsPath+"?start_date=2040-01-01&end_date=2040-01-02&facets=tags").Body); !strings.Contains(raw, `"facets":{"tags":[]}`) {
		t.Fatalf("no match: %s", raw)
	}
	t.Run("the document shows the parameter and its values, each of which the list takes", func(t *testing.T) {
		var facets map[string]any
		for _, p := range asList(s.do("GET", "/vendor/events/v1/doc").object(t)["paths"].(map[string]any)["/events"].(map[string]any)["get"].(map[string]any)["parameters"]) {
			if p.(map[string]any)["name"] == "facets" {
				facets = p.(map[string]any)
			}
		}
		schema := asMap(facets["schema"])
		values := asList(asMap(asList(asMap(schema["items"])["anyOf"])[0])["enum"])                                            // or cf.<key>: anyOf's second
		if !strings.Contains(fmt.Sprint(facets["description"]), "multi-select") || len(values) != len(calendar.FacetNames)+2 { // and geo_grid, days
			t.Fatalf("the facets parameter: %v", facets)
		}
		q := url.Values{"start_date": {"2030-07-01"}, "end_date": {"2030-07-31"}}
		for _, name := range values {
			q.Add("facets", name.(string))
		}
		answer := s.do("GET", eventsPath+"?"+q.Encode()).object(t)
		if got := asMap(answer["facets"]); len(got) != len(values)-2 || answer["geo_grid"] == nil || len(asList(answer["days"])) != 31 {
			t.Fatalf("the values %v answer facets %v, geo_grid %v and days %v", values, got, answer["geo_grid"], answer["days"])
		}
	})
	for _, bad := range []string{"facets=nope", "facets=categories,nope", "facets=status"} {
		t.Run("rejects "+bad, func(t *testing.T) {
			s.do("GET", eventsPath+"?"+july+"&"+bad).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		})
	}
}

// TestFacetsCountEachValueAsAMultiSelectSidebarDoes: each value of a facet
// counts the events the list would have with that facet's own filter set to
// the value (replacing the values ticked there; added where none is), the
// other filters kept, as multi-select filters of search services count
// them; every count is checked against the total of that very list, asked
// for on its own. Venues, organizers and categories carry the name and slug
// of their own objects. A draft venue of another author is neither named
// nor counted for a visitor or a subscriber, who may not read it: filtering
// on it is refused them, so it has no count; an editor sees it.
func TestFacetsCountEachValueAsAMultiSelectSidebarDoes(t *testing.T) {
	t.Parallel()
	// The counts are the index's: the store that holds the events decides none of them.
	s := startService(t)

	_, subscriberPassword := s.createUser("abonnent", calendar.RoleSubscriber)
	_, editorPassword := s.createUser("redakteurin", calendar.RoleEditor)
	editor := bearer(editorPassword)
	paris := s.create("venue", asAdmin(), "venue", "Philharmonie de Paris", "city", "Paris")
	hamburg := s.create("venue", asAdmin(), "venue", "Elbphilharmonie", "city", "Hamburg")
	hidden := s.create("venue", editor, "venue", "Konzerthaus Berlin", "status", "draft")
	orchestra := s.create("organizer", asAdmin(), "organizer", "Orchestre de Paris")
	bigband := s.create("organizer", asAdmin(), "organizer", "NDR Bigband")
	for _, e := range []struct {
		title, day, categories string
		venue, organizer       map[string]any
		featured               bool
	}{
		{"Nuit du jazz", "02", "Jazz", paris, orchestra, true},
		{"Symphonie fantastique", "03", "Klassik", paris, orchestra, false},
		{"Sinfoniekonzert", "04", "Klassik", hamburg, nil, true},
		{"Big Band Abend", "05", "Jazz", hamburg, bigband, false},
		{"Jazz meets Klassik", "06", "Jazz,Klassik", hamburg, bigband, true},
		{"Rocknacht", "07", "Rock", hamburg, nil, false},
		{"Rock am Gendarmenmarkt", "08", "Rock", hidden, nil, true},
		{"Jazz am Gendarmenmarkt", "09", "Jazz", hidden, bigband, false},
	} {
		fields := at(e.title, "2030-07-"+e.day+" 20:00:00", "2030-07-"+e.day+" 22:00:00")
		fields["categories"], fields["venue"], fields["featured"] = e.categories, e.venue["id"], e.featured
		if e.organizer != nil {
			fields["organizer"] = []any{e.organizer["id"]}
		}
		s.event(fields)
	}

	// What each facet's values are called where they are objects of
	// their own, and how a filter names them.
	type value struct{ filter, name, slug string }
	object := func(path, nameKey string) value {
		m := s.do("GET", "/vendor/events/v1/"+path, asAdmin()).object(t)
		filter := idOf(m)
		if strings.HasPrefix(path, "categories") {
			filter = m["slug"].(string)
		}
		return value{filter, m[nameKey].(string), m["slug"].(string)}
	}
	category := func(slug string) value {
		list := s.do("GET", "/vendor/events/v1/categories?slug="+slug).object(t)["categories"].([]any)
		return object("categories/"+idOf(list[0].(map[string]any)), "name")
	}
	values := map[string][]value{
		"categories": {category("jazz"), category("klassik"), category("rock")},
		"venue":      {object("venues/"+idOf(paris), "venue"), object("venues/"+idOf(hamburg), "venue"), object("venues/"+idOf(hidden), "venue")},
		"organizer":  {object("organizers/"+idOf(orchestra), "organizer"), object("organizers/"+idOf(bigband), "organizer")},
		"featured":   {{filter: "true"}, {filter: "false"}},
	}
	key := func(facet string, v map[string]any) string {
		switch {
		case facet == "featured":
			return fmt.Sprint(v["value"])
		case facet == "categories":
			return v["slug"].(string)
		}
		return fmt.Sprint(v["id"])
	}

	total := func(q url.Values, who option) (int, bool) {
		res := s.do("GET", eventsPath+"?"+q.Encode(), who)
		if res.Status == http.StatusBadRequest { // a value the caller may not filter on
			return 0, false
		}
		res.expectStatus(t, http.StatusOK)
		return int(res.object(t)["total"].(float64)), true
	}
	callers := []struct {
		name       string
		who        option
		seesHidden bool
	}{{"a visitor", func(*http.Request) {}, false}, {"a subscriber", bearer(subscriberPassword), false}, {"an editor", editor, true}}
	ticked := func(pairs ...string) url.Values {
		q := url.Values{"start_date": {"2030-07-01"}, "end_date": {"2030-07-31"}}
		for i := 0; i+1 < len(pairs); i += 2 {
			q.Set(pairs[i], pairs[i+1])
		}
		return q
	}
	for _, c := range []struct {
		name string
		q    url.Values
	}{
		{"nothing ticked", ticked()},
		{"Jazz ticked", ticked("categories", "jazz")},
		{"Jazz and Klassik at the Elbphilharmonie", ticked("categories", "jazz,klassik", "venue", idOf(hamburg))},
		{"both halls, featured, one organizer", ticked("venue", idOf(paris)+","+idOf(hamburg), "featured", "true", "organizer", idOf(bigband))},
		{"every facet ticked", ticked("categories", "jazz,rock", "venue", idOf(hamburg)+","+idOf(paris), "featured", "false", "organizer", idOf(bigband)+","+idOf(orchestra))},
	} {
		for _, who := range callers {
			t.Run(c.name+", "+who.name, func(t *testing.T) {
				q := url.Values{"facets": {"categories,venue,organizer,featured"}}
				for k, v := range c.q {
					q[k] = v
				}
				res := s.do("GET", eventsPath+"?"+q.Encode(), who.who)
				res.expectStatus(t, http.StatusOK)
				facets := res.object(t)["facets"].(map[string]any)
				if !who.seesHidden && strings.Contains(string(res.Body), "Konzerthaus") {
					t.Errorf("the draft venue is named to %s: %v", who.name, facets)
				}
				for facet, known := range values {
					shown := map[string]map[string]any{}
					for _, v := range facets[facet].([]any) {
						shown[key(facet, v.(map[string]any))] = v.(map[string]any)
					}
					for _, want := range known {
						alone := url.Values{}
						for k, v := range c.q {
							alone[k] = v
						}
						alone.Set(facet, want.filter)
						count, filterable := total(alone, who.who)
						got, named := shown[want.filter]
						delete(shown, want.filter)
						if !filterable || count == 0 {
							if named {
								t.Errorf("%s %q is shown (%v), but %s lists no event of it", facet, want.filter, got, who.name)
							}
							continue
						}
						if !named || int(got["count"].(float64)) != count {
							t.Errorf("%s %q: the facet shows %v, the list filtered so has %d events", facet, want.filter, got, count)
							continue
						}
						if facet != "featured" && (got["name"] != want.name || got["slug"] != want.slug) {
							t.Errorf("%s %q is named %v %v, its object %q %q", facet, want.filter, got["name"], got["slug"], want.name, want.slug)
						}
					}
					if len(shown) > 0 {
						t.Errorf("%s: values of no known post: %v", facet, shown)
					}
				}
			})
		}
	}
}
