package controllers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"calendar/app"
)

// Custom fields over HTTP, on each store: declared, checked on writes,
// answered, filtered, counted and ordered by; a hidden one absent from
// everything an anonymous reader gets; a declaration changed while lists
// are read, with no 503 and no value lost; a field holding values deleted
// with force only.
func TestCustomFieldsOverHTTPOnEitherStore(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		for _, d := range []map[string]any{
			{"key": "age", "label": "Age limit", "type": "number", "public": true, "filterable": true, "schema_org": "typicalAgeRange"},
			{"key": "lang", "label": "Language", "type": "multiselect", "options": []string{"en", "fr", "de"}, "public": true, "filterable": true},
			{"key": "budget", "label": "Budget", "type": "number", "filterable": true},
		} {
			s.do("POST", "/vendor/admin/v1/fields", asAdmin(), jsonBody(d)).expectStatus(t, http.StatusCreated)
		}
		s.do("POST", "/vendor/admin/v1/fields", jsonBody(map[string]any{"key": "x", "label": "X", "type": "text"})).expectError(t, http.StatusUnauthorized, "rest_not_logged_in")
		if got := s.do("GET", "/vendor/admin/v1/fields").list(t); len(got) != 2 {
			t.Fatalf("an anonymous reader lists %d declarations, want the 2 public ones", len(got))
		}

		bad := s.do("POST", "/vendor/events/v1/events", asAdmin(), jsonBody(map[string]any{"title": "Bad", "start_date": "2030-06-01 20:00",
			"end_date": "2030-06-01 22:00", "custom_fields": map[string]any{"age": "eighteen"}}))
		if params := bad.expectError(t, http.StatusBadRequest, "rest_invalid_param")["data"].(map[string]any)["params"].(map[string]any); params["custom_fields[age]"] == nil {
			t.Fatalf("the failure does not name custom_fields[age]: %s", bad.Body)
		}
		ids := map[string]string{}
		for _, e := range []struct {
			title, day string
			cf         map[string]any
		}{
			{"Teen", "03", map[string]any{"age": 12, "lang": []string{"en"}}},
			{"Adult", "01", map[string]any{"age": 18, "lang": []string{"fr", "en"}, "budget": 5000}},
			{"Plain", "02", nil},
		} {
			in := map[string]any{"title": e.title, "start_date": "2030-06-" + e.day + " 20:00", "end_date": "2030-06-" + e.day + " 22:00"}
			if e.cf != nil {
				in["custom_fields"] = e.cf
			} else {
				in["custom_fields"] = []any{} // the plugin's own answer sent back: nothing
			}
			res := s.do("POST", "/vendor/events/v1/events", asAdmin(), jsonBody(in))
			res.expectStatus(t, http.StatusCreated)
			ids[e.title] = fmt.Sprint(res.object(t)["id"])
		}

		list := func(query string, opts ...option) (string, *response) {
			res := s.do("GET", "/vendor/events/v1/events?start_date=2030-06-01&end_date=2030-06-30&"+query, opts...)
			if res.Status != http.StatusOK {
				return "", res
			}
			var titles []string
			for _, e := range res.object(t)["events"].([]any) {
				titles = append(titles, e.(map[string]any)["title"].(string))
			}
			return strings.Join(titles, ","), res
		}
		for query, want := range map[string]string{
			"cf[lang]=fr,de":              "Adult",
			"cf[age][gte]=13":             "Adult",
			"cf[age][lte]=18&cf[lang]=en": "Adult,Teen",
			"orderby=cf.age":              "Teen,Adult,Plain",
			"cf[budget][gte]=1":           "", // hidden: 400 for a visitor
			"facets=cf.budget":            "",
			"orderby=cf.budget":           "",
			"cf[nothing]=x":               "",
			"cf[age][between]=1":          "",
			"facets=cf.Age":               "",
		} {
			got, res := list(query)
			if want == "" {
				res.expectError(t, http.StatusBadRequest, "rest_invalid_param")
			} else if got != want {
				t.Errorf("%s lists %q, want %q", query, got, want)
			}
		}
		if got, _ := list("cf[budget][gte]=1000", asAdmin()); got != "Adult" {
			t.Errorf("an administrator filtering by a hidden field lists %q", got)
		}
		_, faceted := list("facets=cf.lang&cf[lang]=fr")
		if facets := fmt.Sprint(faceted.object(t)["facets"]); facets != "map[cf.lang:[map[count:2 name:en] map[count:1 name:fr]]]" {
			t.Errorf("facets %s", facets)
		}

		// Nothing an anonymous reader gets holds the hidden field: the item,
		// the list, the feed, the event embedded in its series' list.
		for _, path := range []string{"/vendor/events/v1/events/" + ids["Adult"], "/vendor/events/v1/events?start_date=2030-06-01&end_date=2030-06-30",
			"/vendor/events/v1/events.ics?start_date=2030-06-01&end_date=2030-06-30", "/vendor/events/v1/events/" + ids["Adult"] + "?_embed=1"} {
			res := s.do("GET", path)
			res.expectStatus(t, http.StatusOK)
			if strings.Contains(string(res.Body), "5000") || strings.Contains(string(res.Body), "Budget") {
				t.Errorf("%s shows the hidden field: %s", path, res.Body)
			}
		}
		one := s.do("GET", "/vendor/events/v1/events/"+ids["Adult"]).object(t)
		if got := fmt.Sprint(one["custom_fields"]); got != "map[age:map[label:Age limit value:18] lang:map[label:Language value:[fr en]]]" {
			t.Errorf("custom_fields %s", got)
		}
		if ld := one["json_ld"].(map[string]any); ld["typicalAgeRange"] != float64(18) {
			t.Errorf("json_ld %v", ld)
		}
		if got := fmt.Sprint(s.do("GET", "/vendor/events/v1/events/"+ids["Plain"]).object(t)["custom_fields"]); got != "[]" {
			t.Errorf("an event without values answers custom_fields %s, want [] as the plugin", got)
		}
		if got := fmt.Sprint(s.do("GET", "/vendor/events/v1/events/"+ids["Adult"], asAdmin()).object(t)["custom_fields"]); !strings.Contains(got, "budget:map[label:Budget value:5000]") {
			t.Errorf("an administrator reads custom_fields %s", got)
		}

		// Declarations change while lists are read: none answers 503, no
		// value is lost.
		var wg sync.WaitGroup
		statuses := make(chan int, 64)
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 8 {
					_, res := list("cf[age][gte]=1&facets=cf.lang")
					statuses <- res.Status
				}
			}()
		}
		for _, change := range []map[string]any{{"label": "Languages"}, {"filterable": false}, {"filterable": true}} {
			s.do("PATCH", "/vendor/admin/v1/fields/lang", asAdmin(), jsonBody(change)).expectStatus(t, http.StatusOK)
		}
		s.do("PUT", "/vendor/admin/v1/fields/age", asAdmin(), jsonBody(map[string]any{"label": "Minimum age", "public": true, "filterable": true})).expectStatus(t, http.StatusOK)
		wg.Wait()
		close(statuses)
		for status := range statuses {
			if status != http.StatusOK && status != http.StatusBadRequest { // 400: facets=cf.lang while it was not filterable
				t.Errorf("a list read while declarations changed answered %d", status)
			}
		}
		waitUntil(t, func() bool { got, _ := list("cf[lang]=fr&orderby=cf.age"); return got == "Adult" })
		if got := fmt.Sprint(s.do("GET", "/vendor/events/v1/events/"+ids["Teen"]).object(t)["custom_fields"]); got != "map[age:map[label:Minimum age value:12] lang:map[label:Languages value:[en]]]" {
			t.Errorf("after the changes, custom_fields %s", got)
		}

		s.do("DELETE", "/vendor/admin/v1/fields/lang", asAdmin()).expectError(t, http.StatusConflict, "rest_field_in_use")
		s.do("DELETE", "/vendor/admin/v1/fields/lang?force=true", asAdmin()).expectStatus(t, http.StatusOK)
		waitUntil(t, func() bool {
			p, err := s.store.Posts().Get(t.Context(), mustID(t, ids["Teen"]))
			return err == nil && p.Custom["lang"] == nil && p.Custom["age"] != nil
		})
		s.do("GET", "/vendor/events/v1/events?"+url.Values{"cf[lang]": {"en"}}.Encode()).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	})
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	var id int64
	if _, err := fmt.Sscan(s, &id); err != nil {
		t.Fatal(err)
	}
	return id
}
