package app_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// declare declares a field as the administrator.
func (w *world) declare(key, label, typ string, in app.FieldInput) *app.FieldView {
	w.t.Helper()
	in.Key, in.Label, in.Type = &key, &label, &typ
	f, err := w.app.Fields.Create(w.ctx, w.admin(), in)
	w.must(err)
	return f
}

// customJSON is an event's custom_fields as its caller reads it.
func (w *world) customJSON(caller app.Caller, id int64) string {
	w.t.Helper()
	e, err := w.app.Events.Get(w.ctx, caller, app.PostRef{ID: id}, "")
	w.must(err)
	raw, err := json.Marshal(e.CustomFields)
	w.must(err)
	return string(raw)
}

func TestCustomFieldDeclarationsAreChecked(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.declare("age_limit", "Age limit", calendar.FieldNumber, app.FieldInput{})
	for _, c := range []struct {
		name, key, typ string
		in             app.FieldInput
		code           string
	}{
		{"a key that is not lower-case letters, digits and underscores", "Age", calendar.FieldText, app.FieldInput{}, "rest_invalid_param"},
		{"a key that begins with a digit", "1st", calendar.FieldText, app.FieldInput{}, "rest_invalid_param"},
		{"a key too long", strings.Repeat("k", calendar.MaxFieldKeyBytes+1), calendar.FieldText, app.FieldInput{}, "rest_invalid_param"},
		{"an unknown type", "k", "color", app.FieldInput{}, "rest_invalid_param"},
		{"a select without options", "k", calendar.FieldSelect, app.FieldInput{}, "rest_invalid_param"},
		{"options of a text", "k", calendar.FieldText, app.FieldInput{Options: strs("a")}, "rest_invalid_param"},
		{"an option with a comma", "k", calendar.FieldSelect, app.FieldInput{Options: strs("a,b")}, "rest_invalid_param"},
		{"a filterable textarea", "k", calendar.FieldTextarea, app.FieldInput{Filterable: ptr(true)}, "rest_invalid_param"},
		{"an unknown post type", "k", calendar.FieldText, app.FieldInput{PostTypes: strs("attachment")}, "rest_invalid_param"},
		{"an unknown schema.org property", "k", calendar.FieldText, app.FieldInput{SchemaOrg: ptr("colour")}, "rest_invalid_param"},
		{"a key declared already", "age_limit", calendar.FieldText, app.FieldInput{}, "rest_field_exists"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := c.in
			in.Key, in.Label, in.Type = &c.key, ptr("L"), &c.typ
			_, err := w.app.Fields.Create(w.ctx, w.admin(), in)
			invalid(t, err, c.code)
		})
	}
	t.Run("only administrators declare", func(t *testing.T) {
		_, err := w.app.Fields.Create(w.ctx, w.callers[calendar.RoleEditor], app.FieldInput{Key: ptr("k"), Label: ptr("K"), Type: ptr(calendar.FieldText)})
		invalid(t, err, "rest_forbidden")
	})
	t.Run("a type does not change", func(t *testing.T) {
		_, err := w.app.Fields.Update(w.ctx, w.admin(), "age_limit", app.FieldInput{Type: ptr(calendar.FieldText)}, false, false)
		invalid(t, err)
	})
}

func TestCustomFieldValuesAreCheckedAgainstTheirDeclaration(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.declare("age", "Age limit", calendar.FieldNumber, app.FieldInput{Required: ptr(true)})
	w.declare("lang", "Language", calendar.FieldMultiselect, app.FieldInput{Options: strs("en", "fr")})
	w.declare("day", "Day", calendar.FieldDate, app.FieldInput{})
	w.declare("link", "Tickets", calendar.FieldURL, app.FieldInput{})
	w.declare("free", "Free", calendar.FieldBoolean, app.FieldInput{})
	w.declare("capacity", "Capacity", calendar.FieldNumber, app.FieldInput{PostTypes: strs(calendar.PostTypeVenue)})
	create := func(values map[string]any) error {
		_, err := w.app.Events.Create(w.ctx, w.admin(), app.EventInput{PostFields: app.PostFields{Title: ptr("E"), CustomFields: values},
			StartDate: ptr("2030-06-01 10:00"), EndDate: ptr("2030-06-01 11:00")})
		return err
	}
	for _, c := range []struct {
		name   string
		values map[string]any
		param  string // the failure's parameter, "" none
	}{
		{"a required field missing", map[string]any{"lang": []any{"en"}}, "custom_fields[age]"},
		{"a number that is not one", map[string]any{"age": "sixteen"}, "custom_fields[age]"},
		{"an option that is not one", map[string]any{"age": 16.0, "lang": []any{"de"}}, "custom_fields[lang]"},
		{"a date not as YYYY-MM-DD", map[string]any{"age": 16.0, "day": "June 1st"}, "custom_fields[day]"},
		{"a URL without http", map[string]any{"age": 16.0, "link": "ftp://x.example"}, "custom_fields[link]"},
		{"a boolean that is not one", map[string]any{"age": 16.0, "free": "maybe"}, "custom_fields[free]"},
		{"a field of venues", map[string]any{"age": 16.0, "capacity": 300.0}, "custom_fields[capacity]"},
		{"a field not declared", map[string]any{"age": 16.0, "colour": "red"}, "custom_fields[colour]"},
		{"a text too long", map[string]any{"age": 16.0, "link": "https://x.example/" + strings.Repeat("a", calendar.MaxFieldValueBytes)}, "custom_fields[link]"},
		{"every type right", map[string]any{"age": "16", "lang": "fr,en", "day": "2030-06-01", "link": "https://x.example", "free": true}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := create(c.values)
			if c.param == "" {
				w.must(err)
				return
			}
			var e *calendar.Error
			invalid(t, err)
			if errors.As(err, &e); e.Data["params"].(map[string]string)[c.param] == "" {
				t.Fatalf("the failure names %v, not %s", e.Data["params"], c.param)
			}
		})
	}
	t.Run("an update may not clear a required field", func(t *testing.T) {
		e := w.event("E", "2030-06-02", app.EventInput{PostFields: app.PostFields{CustomFields: map[string]any{"age": 18.0}}})
		_, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: e.ID}, app.EventInput{PostFields: app.PostFields{CustomFields: map[string]any{"age": nil}}})
		invalid(t, err)
		if got := w.customJSON(w.admin(), e.ID); got != `{"age":{"label":"Age limit","value":18}}` {
			t.Fatalf("custom_fields = %s", got)
		}
	})
}

func TestCustomFieldsFilterCountAndOrderTheList(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.declare("age", "Age limit", calendar.FieldNumber, app.FieldInput{Public: ptr(true), Filterable: ptr(true)})
	w.declare("lang", "Language", calendar.FieldMultiselect, app.FieldInput{Options: strs("en", "fr", "de"), Public: ptr(true), Filterable: ptr(true)})
	w.declare("day", "Doors", calendar.FieldDate, app.FieldInput{Public: ptr(true), Filterable: ptr(true)})
	w.declare("free", "Free", calendar.FieldBoolean, app.FieldInput{Public: ptr(true), Filterable: ptr(true)})
	w.declare("note", "Note", calendar.FieldText, app.FieldInput{Public: ptr(true)}) // not filterable
	for _, e := range []struct {
		title string
		cf    map[string]any
	}{
		{"Teen", map[string]any{"age": 12.0, "lang": []any{"en"}, "day": "2030-06-03", "free": true, "note": "x"}},
		{"Adult", map[string]any{"age": 18.0, "lang": []any{"fr", "en"}, "day": "2030-06-01", "free": false}},
		{"Senior", map[string]any{"age": 65.5, "lang": []any{"de"}, "day": "2030-06-02"}},
		{"Plain", nil},
	} {
		w.event(e.title, "2030-06-0"+string(rune('1'+len(e.title)%5)), app.EventInput{PostFields: app.PostFields{CustomFields: e.cf}})
	}
	list := func(f app.EventFilter) string {
		f.Dates = month("2030-06")
		return w.titles(visitor, f)
	}
	sorted := func(s string) string {
		parts := strings.Split(s, ",")
		slices.Sort(parts)
		return strings.Join(parts, ",")
	}
	for _, c := range []struct {
		name   string
		custom map[string]app.CustomParam
		want   string
	}{
		{"any of the values", map[string]app.CustomParam{"lang": {Values: []string{"fr", "de"}}}, "Adult,Senior"},
		{"a boolean", map[string]app.CustomParam{"free": {Values: []string{"true"}}}, "Teen"},
		{"numbers from a bound", map[string]app.CustomParam{"age": {Gte: ptr("18")}}, "Adult,Senior"},
		{"numbers between bounds", map[string]app.CustomParam{"age": {Gte: ptr("12"), Lte: ptr("18")}}, "Adult,Teen"},
		{"a number as its value", map[string]app.CustomParam{"age": {Values: []string{"65.50"}}}, "Senior"},
		{"dates up to a bound", map[string]app.CustomParam{"day": {Lte: ptr("2030-06-02")}}, "Adult,Senior"},
		{"two fields together", map[string]app.CustomParam{"lang": {Values: []string{"en"}}, "age": {Lte: ptr("15")}}, "Teen"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := sorted(list(app.EventFilter{Custom: c.custom})); got != c.want {
				t.Fatalf("listed %s, want %s", got, c.want)
			}
		})
	}
	t.Run("a field that is not filterable filters nothing: 400", func(t *testing.T) {
		_, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Custom: map[string]app.CustomParam{"note": {Values: []string{"x"}}}})
		invalid(t, err)
	})
	t.Run("ordered by a number, then by a date, those without it last", func(t *testing.T) {
		if got := list(app.EventFilter{OrderBy: "cf.age"}); got != "Teen,Adult,Senior,Plain" {
			t.Fatalf("by age: %s", got)
		}
		if got := list(app.EventFilter{OrderBy: "cf.day"}); got != "Adult,Senior,Teen,Plain" {
			t.Fatalf("by day: %s", got)
		}
	})
	t.Run("facets are disjunctive", func(t *testing.T) {
		page, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: month("2030-06"), Facets: strs("cf.lang", "cf.free"),
			Custom: map[string]app.CustomParam{"lang": {Values: []string{"de"}}}})
		w.must(err)
		got := facetText(page.Facets)
		// lang counted without its own filter; free under lang=de.
		if want := "cf.lang: en=2 de=1 fr=1; cf.free:"; got != want {
			t.Fatalf("facets %q, want %q", got, want)
		}
	})
	t.Run("a facet search finds a custom field's values", func(t *testing.T) {
		values, err := w.app.Events.FacetSearch(w.ctx, visitor, "cf.lang", "e", app.EventFilter{Dates: month("2030-06")})
		w.must(err)
		if got := facetText([]app.Facet{{Name: "cf.lang", Values: values}}); got != "cf.lang: en=2" {
			t.Fatalf("a search of e in cf.lang: %q", got)
		}
	})
}

func facetText(facets []app.Facet) string {
	var parts []string
	for _, f := range facets {
		s := f.Name + ":"
		for _, v := range f.Values {
			s += " " + v.Name + "=" + strconv.Itoa(v.Count)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func TestHiddenCustomFieldsAreSeenOnlyByThoseWhoMayEdit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.declare("budget", "Budget", calendar.FieldNumber, app.FieldInput{Filterable: ptr(true)}) // not public
	w.declare("age", "Age limit", calendar.FieldNumber, app.FieldInput{Public: ptr(true), Filterable: ptr(true), SchemaOrg: ptr("typicalAgeRange")})
	e := w.event("Gala", "2030-06-01", app.EventInput{PostFields: app.PostFields{CustomFields: map[string]any{"budget": 5000.0, "age": 18.0}}})
	if got := w.customJSON(visitor, e.ID); got != `{"age":{"label":"Age limit","value":18}}` {
		t.Fatalf("a visitor reads %s", got)
	}
	if got := w.customJSON(w.callers[calendar.RoleEditor], e.ID); got != `{"budget":{"label":"Budget","value":5000},"age":{"label":"Age limit","value":18}}` {
		t.Fatalf("an editor reads %s", got)
	}
	single, err := w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: e.ID}, "")
	w.must(err)
	if ld := string(single.JSONLD); !strings.Contains(ld, `"typicalAgeRange":18`) || strings.Contains(ld, "5000") {
		t.Fatalf("json_ld %s", ld)
	}
	page, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: month("2030-06")})
	w.must(err)
	if raw, _ := json.Marshal(page.Items[0].CustomFields); strings.Contains(string(raw), "budget") {
		t.Fatalf("a visitor's list shows %s", raw)
	}
	for name, f := range map[string]app.EventFilter{
		"a filter": {Custom: map[string]app.CustomParam{"budget": {Gte: ptr("1")}}},
		"a facet":  {Facets: strs("cf.budget")},
		"an order": {OrderBy: "cf.budget"},
	} {
		_, err := w.app.Events.List(w.ctx, visitor, f)
		invalid(t, err)
		var e *calendar.Error
		errors.As(err, &e)
		if raw, _ := json.Marshal(e.Data); !strings.Contains(string(raw), `no filterable custom field \"budget\"`) {
			t.Fatalf("%s by a hidden field is refused as one that does not exist: %s", name, raw)
		}
	}
	if got := w.titles(w.callers[calendar.RoleEditor], app.EventFilter{Dates: month("2030-06"), Custom: map[string]app.CustomParam{"budget": {Gte: ptr("1000")}}}); got != "Gala" {
		t.Fatalf("an editor's filter by a hidden field lists %q", got)
	}
	t.Run("a venue's too, and none on one without values, as the plugin", func(t *testing.T) {
		w.declare("capacity", "Capacity", calendar.FieldNumber, app.FieldInput{Public: ptr(true), PostTypes: strs(calendar.PostTypeVenue)})
		w.declare("door_code", "Door code", calendar.FieldText, app.FieldInput{PostTypes: strs(calendar.PostTypeVenue)})
		v := w.venue("Hall", app.LinkedInput{PostFields: app.PostFields{CustomFields: map[string]any{"capacity": "300", "door_code": "1234"}}})
		plain := w.venue("Shed", app.LinkedInput{})
		for _, c := range []struct {
			caller app.Caller
			id     int64
			want   string
		}{
			{visitor, v.ID, `{"label":"Capacity","value":300}}`},
			{w.callers[calendar.RoleEditor], v.ID, `"door_code":{"label":"Door code","value":"1234"}`},
			{visitor, plain.ID, `null`},
		} {
			got, err := w.app.Venues.Get(w.ctx, c.caller, app.PostRef{ID: c.id}, "")
			w.must(err)
			raw, _ := json.Marshal(got.CustomFields)
			if !strings.Contains(string(raw), c.want) || (c.caller.User == nil && strings.Contains(string(raw), "1234")) {
				t.Errorf("venue %d reads custom_fields %s, want %s", c.id, raw, c.want)
			}
		}
	})
	fields, err := w.app.Fields.List(w.ctx, visitor)
	w.must(err)
	if len(fields) != 2 || fields[0].Key != "age" {
		t.Fatalf("a visitor reads the declarations %+v", fields)
	}
	_, err = w.app.Fields.Get(w.ctx, visitor, "budget")
	invalid(t, err, "rest_field_invalid_key")
}

func TestChangingADeclarationIndexesItsPostsAgainAndLosesNoValue(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.declare("lang", "Language", calendar.FieldSelect, app.FieldInput{Options: strs("en", "fr"), Public: ptr(true)})
	e := w.event("Concert", "2030-06-01", app.EventInput{PostFields: app.PostFields{CustomFields: map[string]any{"lang": "fr"}}})
	byLang := app.EventFilter{Dates: month("2030-06"), Custom: map[string]app.CustomParam{"lang": {Values: []string{"fr"}}}}
	_, err := w.app.Events.List(w.ctx, visitor, byLang)
	invalid(t, err) // not filterable yet

	_, err = w.app.Fields.Update(w.ctx, w.admin(), "lang", app.FieldInput{Filterable: ptr(true)}, false, false)
	w.must(err)
	w.must(w.app.Fields.Settle(w.ctx)) // the posts holding it, indexed again in the background
	if got := w.titles(visitor, byLang); got != "Concert" {
		t.Fatalf("once filterable, the filter lists %q", got)
	}

	t.Run("an option in use is taken away with force only, and then its values", func(t *testing.T) {
		_, err := w.app.Fields.Update(w.ctx, w.admin(), "lang", app.FieldInput{Options: strs("en")}, false, false)
		invalid(t, err, "rest_field_in_use")
		if got := w.customJSON(visitor, e.ID); got != `{"lang":{"label":"Language","value":"fr"}}` {
			t.Fatalf("refused, yet the value is %s", got)
		}
	})
	t.Run("a field that holds values is deleted with force only, and then its values", func(t *testing.T) {
		_, err := w.app.Fields.Delete(w.ctx, w.admin(), "lang", false)
		invalid(t, err, "rest_field_in_use")
		deleted, err := w.app.Fields.Delete(w.ctx, w.admin(), "lang", true)
		w.must(err)
		if deleted.Removing != 1 {
			t.Fatalf("removing %d", deleted.Removing)
		}
		w.must(w.app.Fields.Settle(w.ctx))
		stored, err := w.store.Posts().Get(w.ctx, e.ID)
		w.must(err)
		if stored.Custom != nil {
			t.Fatalf("the values stay: %v", stored.Custom)
		}
		if got := w.customJSON(visitor, e.ID); got != `[]` {
			t.Fatalf("custom_fields = %s", got)
		}
	})
}
