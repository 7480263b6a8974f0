package controllers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
)

// The rules of venues and organizers are app's (app/linked_rules_test.go,
// app/linked_test.go, app/permissions_test.go); their routes' HTTP,
// linked_alone_test.go. Here, the helpers the whole-service tests share.

// roles is a service with one user of each role; creds[role] signs in as it.
type roles struct {
	*service
	creds map[calendar.Role]option
	ids   map[calendar.Role]float64
	// webhooks are a subscription of each role's that the matrix shares.
	webhooks map[calendar.Role]string
	// source is an import source the matrix shares, synonym a group.
	source, synonym, field string
}

func startWithRoles(t *testing.T) *roles {
	return startWithRolesSettings(t, func(*app.Settings) {})
}

// startWithRolesSettings is startWithRoles with changed app settings.
func startWithRolesSettings(t *testing.T, settings func(*app.Settings)) *roles {
	s := startServiceSettings(t, settings, func(*controllers.Config) {})
	r := &roles{service: s, creds: map[calendar.Role]option{}, ids: map[calendar.Role]float64{}, webhooks: map[calendar.Role]string{}}
	for _, role := range calendar.Roles {
		if role == calendar.RoleAdministrator {
			r.creds[role], r.ids[role] = asAdmin(), 1
			continue
		}
		id, pw := s.createUser("u-"+string(role), role)
		r.creds[role], r.ids[role] = bearer(pw), id
	}
	for _, creds := range r.creds { // a password's first use of the day is written: done before tests count writes
		s.do("GET", "/vendor/admin/v1/users/me", creds).expectStatus(t, http.StatusOK)
	}
	return r
}

func form(pairs ...string) option {
	v := url.Values{}
	for i := 0; i+1 < len(pairs); i += 2 {
		v.Add(pairs[i], pairs[i+1])
	}
	return body("application/x-www-form-urlencoded; charset=UTF-8", v.Encode())
}

// create makes a venue or organizer and returns its object.
func (s *service) create(kind string, cred option, pairs ...string) map[string]any {
	s.t.Helper()
	res := s.do("POST", "/vendor/events/v1/"+kind+"s", cred, form(pairs...))
	res.expectStatus(s.t, http.StatusCreated)
	return res.object(s.t)
}

func idOf(m map[string]any) string { return formatFloat(m["id"].(float64)) }

// keyOrder returns the top-level keys of a JSON object in order.
func keyOrder(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// listNames returns the sorted names under key in a list answer.
func listNames(t *testing.T, res *response, key, field string) string {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	var out []string
	for _, item := range res.object(t)[key].([]any) {
		out = append(out, item.(map[string]any)[field].(string))
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
