package controllers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"calendar/app/calendar"
)

const eventsPath = "/vendor/events/v1/events"

// event creates an event as admin from JSON fields and returns its object.
func (s *service) event(fields map[string]any, opts ...option) map[string]any {
	s.t.Helper()
	if opts == nil {
		opts = []option{asAdmin()}
	}
	res := s.do("POST", eventsPath, append(opts, jsonBody(fields))...)
	res.expectStatus(s.t, http.StatusCreated)
	return res.object(s.t)
}

func at(title, start, end string) map[string]any {
	return map[string]any{"title": title, "start_date": start, "end_date": end}
}

func TestTheEventObjectKeyByKey(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall", "city", "Lyon")
	fields := at("Gala", "2030-05-01 20:00:00", "2030-05-01 23:00:00")
	fields["venue"] = venue["id"]
	fields["organizer"] = []any{map[string]any{"organizer": "Ann"}}
	fields["categories"] = "Music"
	fields["cost"] = "20$"
	fields["description"] = "Line one\nline two"
	created := s.do("POST", eventsPath, asAdmin(), jsonBody(fields))
	created.expectStatus(t, http.StatusCreated)
	keys := "id global_id global_id_lineage author status date date_utc modified modified_utc url rest_url title " +
		"description excerpt slug image all_day start_date start_date_details end_date end_date_details " +
		"utc_start_date utc_start_date_details utc_end_date utc_end_date_details timezone timezone_abbr cost " +
		"cost_details website show_map show_map_link hide_from_listings sticky featured categories tags venue " +
		"organizer custom_fields"
	if got := strings.Join(keyOrder(t, created.Body), " "); got != keys {
		t.Fatalf("created event keys:\n got %s\nwant %s", got, keys)
	}
	e := created.object(t)
	single := s.do("GET", eventsPath+"/"+idOf(e))
	if got := strings.Join(keyOrder(t, single.Body), " "); got != keys+" json_ld" {
		t.Fatalf("single event keys: %s", got)
	}
	m := single.object(t)
	checks := map[string]any{
		"author": "1", "title": "Gala", "description": "<p>Line one<br />\nline two</p>", "image": false, "all_day": false,
		"start_date": "2030-05-01 20:00:00", "utc_start_date": "2030-05-01 20:00:00", "timezone": "UTC", "timezone_abbr": "UTC",
		"cost": "20$", "website": m["url"], "rest_url": s.URL + eventsPath + "/" + idOf(e), "slug": "gala",
	}
	for k, want := range checks {
		if m[k] != want {
			t.Errorf("%s = %v, want %v", k, m[k], want)
		}
	}
	if d := m["start_date_details"].(map[string]any); d["year"] != "2030" || d["month"] != "05" || d["hour"] != "20" || d["minutes"] != "00" {
		t.Errorf("start_date_details = %v", d)
	}
	if v := m["venue"].(map[string]any); v["venue"] != "Hall" || v["json_ld"] == nil {
		t.Errorf("venue = %v, want the one venue object with json_ld on a single read", v)
	}
	if o := m["organizer"].([]any); len(o) != 1 || o[0].(map[string]any)["organizer"] != "Ann" {
		t.Errorf("organizer = %v", o)
	}
	if c := m["categories"].([]any); len(c) != 1 || c[0].(map[string]any)["taxonomy"] != "tribe_events_cat" || c[0].(map[string]any)["urls"] == nil {
		t.Errorf("categories = %v", c)
	}
	if cf, ok := m["custom_fields"].([]any); !ok || len(cf) != 0 {
		t.Errorf("custom_fields = %v, want []", m["custom_fields"])
	}
	bare := s.event(at("Bare", "2030-05-02 10:00:00", "2030-05-02 11:00:00"))
	if v, ok := bare["venue"].([]any); !ok || len(v) != 0 {
		t.Errorf("an event without a venue has venue %v, want []", bare["venue"])
	}
}

func TestEventWriteFieldsAreValidated(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	organizer := r.create("organizer", asAdmin(), "organizer", "Org")
	ok := func(extra map[string]any) map[string]any {
		f := at("E", "2030-01-01 10:00:00", "2030-01-01 11:00:00")
		for k, v := range extra {
			f[k] = v
		}
		return f
	}
	cases := []struct {
		name   string
		fields map[string]any
		cred   option
		code   string
	}{
		{"valid", ok(nil), nil, ""},
		{"no title", map[string]any{"start_date": "2030-01-01", "end_date": "2030-01-02"}, nil, "rest_missing_callback_param"},
		{"no dates", map[string]any{"title": "E"}, nil, "rest_missing_callback_param"},
		{"empty title", ok(map[string]any{"title": " "}), nil, "rest_invalid_param"},
		{"free text date", ok(map[string]any{"start_date": "before my birthday"}), nil, "rest_invalid_param"},
		{"empty date", ok(map[string]any{"end_date": ""}), nil, "rest_invalid_param"},
		{"end before start", ok(map[string]any{"end_date": "2029-12-31 10:00:00"}), nil, "rest_invalid_param"},
		{"natural dates", ok(map[string]any{"start_date": "tomorrow 9am", "end_date": "+5 days 11am"}), nil, ""},
		{"unix timestamps", ok(map[string]any{"start_date": "1893456000", "end_date": "1893459600"}), nil, ""},
		{"offset zone", ok(map[string]any{"timezone": "UTC-3.5"}), nil, ""},
		{"unknown zone", ok(map[string]any{"timezone": "Mars/Base"}), nil, "rest_invalid_param"},
		{"image URL", ok(map[string]any{"image": "https://img.example/a.png"}), nil, ""},
		{"image ID", ok(map[string]any{"image": "123"}), nil, "rest_invalid_param"},
		{"website", ok(map[string]any{"website": "https://e.example"}), nil, ""},
		{"website without scheme", ok(map[string]any{"website": "foo"}), nil, "rest_invalid_param"},
		{"unknown author", ok(map[string]any{"author": 999}), nil, "rest_invalid_param"},
		{"bad status", ok(map[string]any{"status": "kinda"}), nil, "rest_invalid_param"},
		{"bad boolean", ok(map[string]any{"featured": "maybe"}), nil, "rest_invalid_param"},
		{"cost list", ok(map[string]any{"cost": []any{"0$", "20$"}}), nil, ""},
		{"cost object", ok(map[string]any{"cost": map[string]any{"a": map[string]any{}}}), nil, "rest_invalid_param"},
		{"venue unknown ID", ok(map[string]any{"venue": 99999}), nil, "rest_invalid_param"},
		{"venue {id} of an organizer", ok(map[string]any{"venue": map[string]any{"id": organizer["id"]}}), nil, "invalid-linked-post-id"},
		{"two venues", ok(map[string]any{"venue": []any{1, 2}}), nil, "rest_invalid_param"},
		{"venue object without a name", ok(map[string]any{"venue": map[string]any{"city": "Lyon"}}), nil, "rest_missing_callback_param"},
		{"venue as a one-element list", ok(map[string]any{"venue": []any{map[string]any{"venue": "Listed"}}}), nil, ""},
		{"organizer not an ID", ok(map[string]any{"organizer": "abc"}), nil, "rest_invalid_param"},
		{"organizers as CSV", ok(map[string]any{"organizer": idOf(organizer) + "," + idOf(organizer)}), nil, ""},
		{"unknown category ID", ok(map[string]any{"categories": []any{"9999"}}), nil, "rest_invalid_param"},
		{"new category by a contributor", ok(map[string]any{"categories": "Brand new"}), r.creds[calendar.RoleContributor], "rest_invalid_param"},
		{"new category by an author", ok(map[string]any{"categories": "Brand new"}), r.creds[calendar.RoleAuthor], ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cred := c.cred
			if cred == nil {
				cred = asAdmin()
			}
			res := r.do("POST", eventsPath, cred, jsonBody(c.fields))
			if c.code == "" {
				res.expectStatus(t, http.StatusCreated)
				return
			}
			res.expectError(t, http.StatusBadRequest, c.code)
		})
	}
	t.Run("declared parameters come before permission, then anonymous writes are refused", func(t *testing.T) {
		r.do("POST", eventsPath, jsonBody(map[string]any{"title": "t"})).expectError(t, 400, "rest_missing_callback_param")
		r.do("POST", eventsPath, jsonBody(ok(map[string]any{"featured": "maybe"}))).expectError(t, 400, "rest_invalid_param")
		r.do("POST", eventsPath, jsonBody(ok(map[string]any{"start_date": "nope"}))).expectError(t, 401, "rest_forbidden")
		r.do("POST", eventsPath, jsonBody(ok(nil))).expectError(t, 401, "rest_forbidden")
		r.do("POST", eventsPath, r.creds[calendar.RoleSubscriber], jsonBody(ok(map[string]any{"start_date": "nope"}))).expectError(t, 400, "rest_invalid_param")
		r.do("POST", eventsPath, r.creds[calendar.RoleSubscriber], jsonBody(ok(nil))).expectError(t, 403, "rest_forbidden")
	})
	t.Run("organizers keep their order and drop repeats", func(t *testing.T) {
		e := r.event(ok(map[string]any{"organizer": []any{map[string]any{"organizer": "Zed"}, organizer["id"], map[string]any{"id": organizer["id"]}}}))
		var names []string
		for _, o := range e["organizer"].([]any) {
			names = append(names, o.(map[string]any)["organizer"].(string))
		}
		if strings.Join(names, ",") != "Zed,Org" {
			t.Fatalf("organizers = %v", names)
		}
	})
}

func TestEventDatesInZones(t *testing.T) {
	t.Parallel()
	s := startService(t)
	cases := []struct {
		zone, start              string
		allDay                   bool
		local, utc, localEnd, tz string
	}{
		{"UTC", "2018-01-01 16:00:00", false, "2018-01-01 16:00:00", "2018-01-01 16:00:00", "", "UTC"},
		{"America/New_York", "2018-01-01 16:00:00", false, "2018-01-01 16:00:00", "2018-01-01 21:00:00", "", "EST"},
		{"Europe/Rome", "2018-01-01 16:00:00", false, "2018-01-01 16:00:00", "2018-01-01 15:00:00", "", "CET"},
		{"America/New_York", "2026-03-07 12:00:00", false, "2026-03-07 12:00:00", "2026-03-07 17:00:00", "", "EST"},
		{"America/New_York", "2026-03-08 12:00:00", false, "2026-03-08 12:00:00", "2026-03-08 16:00:00", "", "EDT"},
		{"America/New_York", "2026-03-08 02:30:00", false, "2026-03-08 03:30:00", "2026-03-08 07:30:00", "", "EDT"},
		{"Europe/Rome", "2026-07-01 09:00:00", false, "2026-07-01 09:00:00", "2026-07-01 07:00:00", "", "CEST"},
		{"UTC+5", "2018-01-01 16:00:00", false, "2018-01-01 16:00:00", "2018-01-01 11:00:00", "", "UTC+5"},
		{"UTC-3.5", "2018-01-01 16:00:00", false, "2018-01-01 16:00:00", "2018-01-01 19:30:00", "", "UTC-3.5"},
		{"Europe/Rome", "2018-01-01 16:00:00", true, "2018-01-01 00:00:00", "2017-12-31 23:00:00", "2018-01-01 23:59:59", "CET"},
		{"Europe/Rome", "2018-01-01T16:00:00Z", false, "2018-01-01 17:00:00", "2018-01-01 16:00:00", "", "CET"},
		{"America/New_York", "1514840400", false, "2018-01-01 16:00:00", "2018-01-01 21:00:00", "", "EST"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %s all-day=%v", c.zone, c.start, c.allDay), func(t *testing.T) {
			e := s.event(map[string]any{"title": "Z", "start_date": c.start, "end_date": "2026-12-31 23:00:00", "timezone": c.zone, "all_day": c.allDay})
			if e["start_date"] != c.local || e["utc_start_date"] != c.utc || e["timezone_abbr"] != c.tz || e["timezone"] != c.zone {
				t.Fatalf("start %v / utc %v / abbr %v / zone %v; want %s / %s / %s / %s",
					e["start_date"], e["utc_start_date"], e["timezone_abbr"], e["timezone"], c.local, c.utc, c.tz, c.zone)
			}
			if c.localEnd != "" && e["end_date"] != "2026-12-31 23:59:59" {
				t.Fatalf("an all-day event ends at %v, want the end day at 23:59:59", e["end_date"])
			}
		})
	}
	t.Run("natural language in the event's zone, not the site's", func(t *testing.T) {
		rome, _ := time.LoadLocation("Europe/Rome")
		e := s.event(map[string]any{"title": "N", "start_date": "tomorrow 4pm", "end_date": "tomorrow 5pm", "timezone": "Europe/Rome"})
		want := time.Now().In(rome).AddDate(0, 0, 1).Format("2006-01-02") + " 16:00:00"
		if e["start_date"] != want {
			t.Fatalf("start_date = %v, want %s", e["start_date"], want)
		}
	})
	t.Run("a new zone keeps the local times", func(t *testing.T) {
		e := s.event(map[string]any{"title": "Move", "start_date": "2018-01-01 16:00:00", "end_date": "2018-01-01 17:00:00"})
		moved := s.do("PATCH", eventsPath+"/"+idOf(e), asAdmin(), jsonBody(map[string]any{"timezone": "America/New_York"})).object(t)
		if moved["start_date"] != "2018-01-01 16:00:00" || moved["utc_start_date"] != "2018-01-01 21:00:00" {
			t.Fatalf("after moving zones: %v / %v", moved["start_date"], moved["utc_start_date"])
		}
	})
}
