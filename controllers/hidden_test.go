package controllers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// Hidden means hidden: what a single read refuses, no list, count, facet,
// distance, status code or feed line tells. Each test fails on the code
// before it.

func TestNearMeTellsNothingOfWhereAHiddenVenueIs(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	places := map[string][2]string{"open": {"48.8566", "2.3522"}, "draft": {"45.7640", "4.8357"}, "locked": {"43.2965", "5.3698"}}
	soon := time.Now().AddDate(0, 1, 0).Format("2006-01-02")
	for name, at := range places {
		pairs := []string{"venue", name + " hall", "geo_lat", at[0], "geo_lng", at[1]}
		switch name {
		case "draft":
			pairs = append(pairs, "status", "draft")
		case "locked":
			pairs = append(pairs, "password", "sesame")
		}
		v := r.create("venue", asAdmin(), pairs...)
		r.event(map[string]any{"title": name + " show", "start_date": soon + " 20:00", "end_date": soon + " 22:00", "venue": v["id"]})
	}
	near := func(kind, name string, opts ...option) map[string]any {
		q := url.Values{"geoloc_lat": {places[name][0]}, "geoloc_lng": {places[name][1]}, "geoloc_radius": {"5"}, "geoloc_unit": {"km"}}
		res := r.do("GET", "/vendor/events/v1/"+kind+"?"+q.Encode(), opts...)
		res.expectStatus(t, http.StatusOK)
		return res.object(t)
	}
	for _, name := range []string{"draft", "locked"} {
		for _, who := range []struct {
			name string
			opts []option
		}{{"a visitor", nil}, {"an author", []option{r.creds[calendar.RoleAuthor]}}} {
			if got := near("events", name, who.opts...); got["total"] != float64(0) {
				t.Errorf("%s finds events near the %s venue: %v", who.name, name, got["events"])
			}
		}
		if got := near("venues", name); strings.Contains(fmt.Sprint(got["venues"]), name+" hall") {
			t.Errorf("a visitor finds the %s venue near where it is: %v", name, got["venues"])
		}
	}
	open := near("events", "open")["events"].([]any)
	if len(open) != 1 || open[0].(map[string]any)["distance"] == nil {
		t.Fatalf("the public venue's event near it, with its distance: %v", open)
	}
	everywhere := url.Values{"geoloc_lat": {"46"}, "geoloc_lng": {"3"}, "geoloc_radius": {"2000"}, "geoloc_unit": {"km"}, "orderby": {"distance"}}
	for _, e := range r.do("GET", "/vendor/events/v1/events?"+everywhere.Encode()).object(t)["events"].([]any) {
		if ev := e.(map[string]any); ev["title"] != "open show" {
			t.Errorf("%v is listed by distance around its hidden venue (distance %v)", ev["title"], ev["distance"])
		}
	}
}

func TestFacetsNameNoVenueOrOrganizerTheCallerMayNotRead(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	hall := r.create("venue", asAdmin(), "venue", "Hidden hall", "status", "draft")
	boss := r.create("organizer", asAdmin(), "organizer", "Private boss", "status", "private")
	soon := time.Now().AddDate(0, 1, 0).Format("2006-01-02")
	r.event(map[string]any{"title": "Gala", "start_date": soon + " 20:00", "end_date": soon + " 22:00", "venue": hall["id"], "organizer": []any{boss["id"]}})
	names := func(facet any, id any) bool {
		for _, v := range facet.([]any) {
			if v.(map[string]any)["id"] == id {
				return true
			}
		}
		return false
	}
	facets := r.do("GET", eventsPath+"?facets=venue,organizer").object(t)["facets"].(map[string]any)
	for name, id := range map[string]any{"venue": hall["id"], "organizer": boss["id"]} {
		if names(facets[name], id) {
			t.Errorf("the %s facet names the hidden %s %v: %v", name, name, id, facets[name])
		}
	}
	editor := r.do("GET", eventsPath+"?facets=venue", r.creds[calendar.RoleEditor]).object(t)["facets"].(map[string]any)
	if !names(editor["venue"], hall["id"]) {
		t.Fatalf("an editor, who reads the venue, does not see it in the facet: %v", editor["venue"])
	}
}

func TestATermADraftNamedIsHiddenUntilAnEventCarryingItMayBeRead(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	soon := time.Now().AddDate(0, 1, 0).Format("2006-01-02")
	draft := r.event(map[string]any{"title": "Launch", "status": "draft", "start_date": soon + " 20:00", "end_date": soon + " 22:00",
		"categories": "Spring launch", "tags": "codename-lilac"}, r.creds[calendar.RoleEditor])
	category := draft["categories"].([]any)[0].(map[string]any)
	for _, who := range []struct {
		name string
		opts []option
	}{{"a visitor", nil}, {"a subscriber", []option{r.creds[calendar.RoleSubscriber]}}} {
		for _, list := range []string{"/categories?hide_empty=false", "/tags?hide_empty=false", "/categories?search=spring&hide_empty=false"} {
			body := string(r.do("GET", "/vendor/events/v1"+list, who.opts...).Body)
			if strings.Contains(body, "Spring launch") || strings.Contains(body, "codename-lilac") {
				t.Errorf("%s lists the draft's term in %s: %s", who.name, list, body)
			}
		}
		r.do("GET", "/vendor/events/v1/categories/"+idOf(category), who.opts...).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		r.do("GET", eventsPath+"?categories=spring-launch", who.opts...).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		if feed := string(r.do("GET", "/vendor/events/v1/changes?since=0&per_page=100", who.opts...).Body); strings.Contains(feed,
			fmt.Sprintf(`"id":%v,"type":"tribe_events_cat","action":"created"`, category["id"])) {
			t.Errorf("%s follows the draft's category in the change feed: %s", who.name, feed)
		}
	}
	r.do("GET", "/vendor/events/v1/categories/"+idOf(category), r.creds[calendar.RoleEditor]).expectStatus(t, http.StatusOK)
	r.do("POST", eventsPath+"/"+idOf(draft), asAdmin(), form("status", "publish")).expectStatus(t, http.StatusOK)
	if body := string(r.do("GET", "/vendor/events/v1/categories").Body); !strings.Contains(body, "Spring launch") {
		t.Fatalf("once the event is published its category is listed: %s", body)
	}
}

func TestASlugOfAnEventTheCallerMayNotReadIsAnsweredAsAMissingOne(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	draft := r.event(at("Secret merger party", "2031-01-01 10:00:00", "2031-01-01 11:00:00"), r.creds[calendar.RoleContributor])
	for _, path := range []string{eventsPath + "/by-slug/" + draft["slug"].(string), eventsPath + "/by-slug/no-such-party"} {
		for _, who := range []struct {
			name string
			opts []option
		}{{"a visitor", nil}, {"an author", []option{r.creds[calendar.RoleAuthor]}}} {
			r.do("GET", path, who.opts...).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		}
	}
	venue := r.create("venue", asAdmin(), "venue", "Secret annex", "status", "private")
	r.do("GET", "/vendor/events/v1/venues/by-slug/"+venue["slug"].(string)).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	r.do("GET", eventsPath+"/by-slug/"+draft["slug"].(string), r.creds[calendar.RoleContributor]).expectStatus(t, http.StatusOK)
}

func TestTheFeedExcludesOccurrencesTheCallerMayNotRead(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	first := time.Now().UTC().AddDate(0, 0, 2).Truncate(24 * time.Hour).Add(18 * time.Hour)
	series := r.event(recurring("Choir", "UTC", first, first.Add(time.Hour), "RRULE:FREQ=WEEKLY;COUNT=4"))
	occurrences := r.occurrencesOf(t, series)
	hidden := occurrences[1]
	r.do("POST", eventsPath+"/"+idOf(hidden), asAdmin(), form("status", "private")).expectStatus(t, http.StatusOK)
	at := strings.ReplaceAll(strings.ReplaceAll(hidden["utc_start_date"].(string), "-", ""), ":", "")
	at = strings.Replace(at, " ", "T", 1) + "Z"
	feed := func(opts ...option) string {
		q := url.Values{"start_date": {first.Format("2006-01-02")}, "end_date": {first.AddDate(0, 1, 0).Format("2006-01-02")}}
		return string(r.do("GET", "/vendor/events/v1/events.ics?"+q.Encode(), opts...).Body)
	}
	visitor := feed()
	exdate := ""
	for _, line := range strings.Split(visitor, "\r\n") {
		if strings.HasPrefix(line, "EXDATE") {
			exdate = line
		}
	}
	if !strings.Contains(exdate, at) {
		t.Fatalf("a visitor's feed has the rules without an EXDATE at %s (the private occurrence): %q\n%s", at, exdate, visitor)
	}
	if editor := feed(r.creds[calendar.RoleEditor]); strings.Contains(editor, "EXDATE") && strings.Contains(editor, at) &&
		!strings.Contains(editor, "RECURRENCE-ID") {
		t.Fatalf("an editor, who reads the occurrence, has it excluded:\n%s", editor)
	}
}

// TestTheJSONLDOfAnEventTellsNothingOfAnOrganizerTheCallerMayNotRead: the
// organizer goes, and so does the performer the plugin writes beside it
// (its placeholder "Organization"), as on an event that has none.
func TestTheJSONLDOfAnEventTellsNothingOfAnOrganizerTheCallerMayNotRead(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	boss := r.create("organizer", asAdmin(), "organizer", "Private boss", "status", "private", "email", "boss@example.org")
	soon := time.Now().AddDate(0, 1, 0).Format("2006-01-02")
	with := r.event(map[string]any{"title": "Gala", "start_date": soon + " 20:00", "end_date": soon + " 22:00", "organizer": []any{boss["id"]}})
	without := r.event(map[string]any{"title": "Gala", "start_date": soon + " 20:00", "end_date": soon + " 22:00"})
	ld := func(e map[string]any) map[string]any {
		got := r.do("GET", eventsPath+"/"+idOf(e)).object(t)["json_ld"].(map[string]any)
		delete(got, "url")
		return got
	}
	if a, b := fmt.Sprint(ld(with)), fmt.Sprint(ld(without)); a != b {
		t.Fatalf("a visitor's JSON-LD of an event with a private organizer:\n%s\nof the same event without one:\n%s", a, b)
	}
}

// A venue made hidden on one replica while another has just placed an event
// there: the first replica's index had not yet seen the event, so nothing
// took the venue's position from it, and every map went on showing it.
// Now an event is placed from its venue as stored each time it is indexed,
// and each catch-up places again the events of the venues it applies.
func TestAVenueMadeHiddenTellsNoMapWhereItIsThroughItsEvents(t *testing.T) {
	t.Parallel()
	for _, hide := range []struct {
		name  string
		write func(s *service, venue string) *response
	}{
		{"made a draft", func(s *service, venue string) *response {
			return s.do("POST", "/vendor/events/v1/venues/"+venue, asAdmin(), form("status", "draft"))
		}},
		{"protected", func(s *service, venue string) *response {
			return s.do("POST", "/vendor/events/v1/venues/"+venue, asAdmin(), form("password", "sesame"))
		}},
		{"trashed", func(s *service, venue string) *response {
			return s.do("DELETE", "/vendor/events/v1/venues/"+venue, asAdmin())
		}},
	} {
		t.Run(hide.name, func(t *testing.T) {
			t.Parallel()
			a, b := twoReplicas(t)
			hall := a.create("venue", asAdmin(), "venue", "Stadtgarten", "geo_lat", "50.9413", "geo_lng", "6.9583")
			fields := at("Late set", "2030-01-10 22:00", "2030-01-10 23:00")
			fields["venue"] = hall["id"]
			b.event(fields) // a's index has not seen it yet
			// b's next pass: the event is applied there, and only the
			// venue's change is still to come.
			if _, err := b.app.CatchUp(context.Background()); err != nil {
				t.Fatal(err)
			}
			hide.write(a, idOf(hall)).expectStatus(t, http.StatusOK)
			for _, s := range []*service{a, b} { // as each replica's next sync pass does
				if _, err := s.app.CatchUp(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			for name, s := range map[string]*service{"the replica that hid it": a, "the other": b} {
				for _, query := range []string{
					"geoloc_lat=50.94&geoloc_lng=6.96&geoloc_radius=5&geoloc_unit=km",
					"near=K%C3%B6ln&geoloc_radius=10&geoloc_unit=km",
					"geo_bounds=50.8,6.8,51.0,7.1",
					"geoloc=true",
				} {
					res := s.do("GET", eventsPath+"?"+mapWindow+"&"+query)
					res.expectStatus(t, http.StatusOK)
					if got := res.object(t); got["total"] != float64(0) {
						t.Errorf("%s: a visitor finds the event of the hidden venue with %s: %v", name, query, got["events"])
					}
				}
				grid := s.do("GET", eventsPath+"?"+mapWindow+"&facets=geo_grid").object(t)["geo_grid"].(map[string]any)
				if cells := grid["cells"].([]any); len(cells) != 0 {
					t.Errorf("%s: a visitor's map has a cluster where the hidden venue is: %v", name, cells)
				}
			}
		})
	}
}

// twoReplicas are two services on one store, each with its own index, as
// replicas are; neither syncs on its own (tests call CatchUp).
func twoReplicas(t *testing.T) (a, b *service) {
	store := embedded.open(t, t.TempDir())
	t.Cleanup(func() { store.Close(context.Background()) }) // after both services stopped
	shared := backend{"shared", func(*testing.T, string) calendar.Store { return unclosed{store} }}
	return startServiceOn(t, shared, func(*app.Settings) {}, noConfig), startServiceOn(t, shared, func(*app.Settings) {}, noConfig)
}

// unclosed is a store its service does not close: the test does, once.
type unclosed struct{ calendar.Store }

func (unclosed) Close(context.Context) error { return nil }
