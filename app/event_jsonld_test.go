package app_test

import (
	"encoding/json"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// An event's JSON-LD names a performer (the plugin's placeholder,
// "Organization") only beside an organizer the caller may read: an event
// whose organizers are all hidden from the caller reads as one that has
// none, which has no performer either.
func TestTheJSONLDNamesAPerformerOnlyBesideAnOrganizerTheCallerReads(t *testing.T) {
	w := newWorld(t)
	public := w.organizer("Open house")
	hidden, err := w.app.Organizers.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("Private boss"), Status: calendar.StatusPrivate}})
	w.must(err)
	organized := func(title string, organizers ...int64) int64 {
		refs := []app.LinkRef{}
		for _, id := range organizers {
			refs = append(refs, app.LinkRef{ID: id})
		}
		return w.event(title, "2030-06-01", app.EventInput{Organizers: &refs}).ID
	}
	cases := []struct {
		name      string
		event     int64
		caller    app.Caller
		performer any // nil: absent
		organizer string
	}{
		{"no organizer", organized("Alone"), visitor, nil, ""},
		{"a public organizer", organized("Open", public.ID), visitor, "Organization", "Open house"},
		{"its only organizer hidden from a visitor", organized("Gala", hidden.ID), visitor, nil, ""},
		{"its only organizer read by the administrator", organized("Gala", hidden.ID), w.admin(), "Organization", "Private boss"},
		{"a hidden organizer before a public one", organized("Both", hidden.ID, public.ID), visitor, "Organization", "Open house"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := w.app.Events.Get(w.ctx, c.caller, app.PostRef{ID: c.event}, "")
			w.must(err)
			var ld map[string]any
			w.must(json.Unmarshal(v.JSONLD, &ld))
			name := ""
			if organizer, ok := ld["organizer"].(map[string]any); ok {
				name, _ = organizer["name"].(string)
			}
			if performer, ok := ld["performer"]; performer != c.performer || ok != (c.performer != nil) || name != c.organizer {
				t.Fatalf("performer %#v (present: %v), organizer %v; want performer %#v beside organizer %q", performer, ok, ld["organizer"], c.performer, c.organizer)
			}
		})
	}
}
