package app_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
)

// Hidden means hidden: what a single read refuses, no list, count, facet,
// distance, feed line or change tells, and a protected post shows inside
// others only what it shows alone. Each test failed on the code before the
// rule it pins (they were found over HTTP, and are kept here, where the
// rules are).

func TestNearMeTellsNothingOfWhereAHiddenVenueIs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	places := map[string][2]float64{"open": {48.8566, 2.3522}, "draft": {45.7640, 4.8357}, "locked": {43.2965, 5.3698}}
	for name, at := range places {
		in := app.LinkedInput{GeoLat: ptr(at[0]), GeoLng: ptr(at[1])}
		switch name {
		case "draft":
			in.Status = calendar.StatusDraft
		case "locked":
			in.Password = ptr("sesame")
		}
		v := w.venue(name+" hall", in)
		w.event(name+" show", "2030-06-10", app.EventInput{Venue: &app.LinkRef{ID: v.ID}})
	}
	near := func(name string) app.NearInput {
		return app.NearInput{Lat: ptr(places[name][0]), Lng: ptr(places[name][1]), Radius: ptr(5.0), Unit: "km"}
	}
	june := month("2030-06")
	for _, name := range []string{"draft", "locked"} {
		for _, who := range []calendar.Role{"", calendar.RoleAuthor} {
			caller := visitor
			if who != "" {
				caller = w.callers[who]
			}
			if got := w.titles(caller, app.EventFilter{Dates: june, Near: near(name)}); got != "" {
				t.Errorf("%q finds events near the %s venue: %s", who, name, got)
			}
		}
		page, err := w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{Near: near(name)})
		w.must(err)
		for _, v := range page.Items {
			if v.Venue == name+" hall" {
				t.Errorf("a visitor finds the %s venue near where it is", name)
			}
		}
	}
	page, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: june, Near: near("open")})
	w.must(err)
	if len(page.Items) != 1 || page.Items[0].Distance == nil {
		t.Fatalf("the public venue's event near it, with its distance: %+v", page.Items)
	}
	everywhere := app.NearInput{Lat: ptr(46.0), Lng: ptr(3.0), Radius: ptr(2000.0), Unit: "km"}
	if got := w.titles(visitor, app.EventFilter{Dates: june, Near: everywhere, OrderBy: "distance"}); got != "open show" {
		t.Errorf("listed by distance around their hidden venues: %s", got)
	}
}

func TestFacetsNameNoVenueOrOrganizerTheCallerMayNotRead(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	hall := w.venue("Hidden hall", app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusDraft}})
	boss, err := w.app.Organizers.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("Private boss"), Status: calendar.StatusPrivate}})
	w.must(err)
	w.event("Gala", "2030-06-10", app.EventInput{Venue: &app.LinkRef{ID: hall.ID}, Organizers: &[]app.LinkRef{{ID: boss.ID}}})
	names := func(caller app.Caller) map[string][]int64 {
		page, err := w.app.Events.List(w.ctx, caller, app.EventFilter{Dates: month("2030-06"), Facets: strs("venue", "organizer")})
		w.must(err)
		out := map[string][]int64{}
		for _, f := range page.Facets {
			for _, v := range f.Values {
				out[f.Name] = append(out[f.Name], v.ID)
			}
		}
		return out
	}
	if got := names(visitor); slices.Contains(got["venue"], hall.ID) || slices.Contains(got["organizer"], boss.ID) {
		t.Errorf("a visitor's facets name the hidden venue or organizer: %v", got)
	}
	if got := names(w.callers[calendar.RoleEditor]); !slices.Contains(got["venue"], hall.ID) || !slices.Contains(got["organizer"], boss.ID) {
		t.Errorf("an editor, who reads them, does not see them in the facets: %v", got)
	}
}

func TestATermADraftNamedIsHiddenUntilAnEventCarryingItMayBeRead(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	editor := w.callers[calendar.RoleEditor]
	draft, err := w.app.Events.Create(w.ctx, editor, app.EventInput{PostFields: app.PostFields{Title: ptr("Launch"), Status: calendar.StatusDraft},
		StartDate: ptr("2030-06-10 20:00"), EndDate: ptr("2030-06-10 22:00"), Categories: strs("Spring launch"), Tags: strs("codename-lilac")})
	w.must(err)
	category := draft.Categories[0].ID
	listed := func(caller app.Caller, f app.TermFilter) string {
		var out []string
		for _, terms := range []*app.Terms{w.app.Categories, w.app.Tags} {
			page, err := terms.List(w.ctx, caller, f)
			w.must(err)
			for _, term := range page.Items {
				out = append(out, term.Name)
			}
		}
		return strings.Join(out, ",")
	}
	for _, who := range []calendar.Role{"", calendar.RoleSubscriber} {
		caller := visitor
		if who != "" {
			caller = w.callers[who]
		}
		for _, f := range []app.TermFilter{{HideEmpty: ptr(false)}, {HideEmpty: ptr(false), Search: ptr("spring")}} {
			if got := listed(caller, f); strings.Contains(got, "Spring launch") || strings.Contains(got, "codename-lilac") {
				t.Errorf("%q lists the draft's terms: %s", who, got)
			}
		}
		_, err := w.app.Categories.Get(w.ctx, caller, category)
		invalid(t, err)
		_, err = w.app.Events.List(w.ctx, caller, app.EventFilter{Categories: strs("spring-launch")})
		invalid(t, err)
		changes, err := w.app.Changes(w.ctx, caller, app.ChangesRequest{PerPage: ptr(int64(100))})
		w.must(err)
		for _, c := range changes.Changes {
			if c.ID == category && c.Action != "deleted" {
				t.Errorf("%q follows the draft's category in the change feed: %+v", who, c)
			}
		}
	}
	_, err = w.app.Categories.Get(w.ctx, editor, category)
	w.must(err)
	_, err = w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: draft.ID}, app.EventInput{PostFields: app.PostFields{Status: calendar.StatusPublish}})
	w.must(err)
	if got := listed(visitor, app.TermFilter{}); !strings.Contains(got, "Spring launch") || !strings.Contains(got, "codename-lilac") {
		t.Fatalf("once the event is published its terms are listed: %s", got)
	}
}

// A slug of a post the caller may not read is answered as one that names
// nothing (app/item_errors.go), for events and venues alike.
func TestASlugOfAPostTheCallerMayNotReadIsAnsweredAsAMissingOne(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	contributor := w.callers[calendar.RoleContributor]
	draft, err := w.app.Events.Create(w.ctx, contributor, app.EventInput{PostFields: app.PostFields{Title: ptr("Secret merger party")},
		StartDate: ptr("2031-01-01 10:00"), EndDate: ptr("2031-01-01 11:00")})
	w.must(err)
	annex := w.venue("Secret annex", app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusPrivate}})
	for _, who := range []app.Caller{visitor, w.callers[calendar.RoleAuthor]} {
		for _, slug := range []string{draft.Slug, "no-such-party"} {
			_, err := w.app.Events.Get(w.ctx, who, app.PostRef{Slug: slug}, "")
			invalid(t, err)
		}
		_, err := w.app.Venues.Get(w.ctx, who, app.PostRef{Slug: annex.Slug}, "")
		invalid(t, err)
	}
	_, err = w.app.Events.Get(w.ctx, contributor, app.PostRef{Slug: draft.Slug}, "")
	w.must(err)
}

func TestTheFeedExcludesOccurrencesTheCallerMayNotRead(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	first := time.Now().UTC().AddDate(0, 0, 2) // occurrences are made up to two years ahead of now
	window := app.Dates{"start_date": first.Format("2006-01-02"), "end_date": first.AddDate(0, 1, 0).Format("2006-01-02")}
	series := w.event("Choir", first.Format("2006-01-02"), app.EventInput{Recurrence: strs("RRULE:FREQ=WEEKLY;COUNT=4"), Timezone: ptr("UTC")})
	page, err := w.app.Events.List(w.ctx, w.admin(), app.EventFilter{Parent: &series.ID, Dates: window})
	w.must(err)
	if len(page.Items) != 3 {
		t.Fatalf("%d occurrences", len(page.Items))
	}
	hidden := page.Items[1]
	_, err = w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: hidden.ID}, app.EventInput{PostFields: app.PostFields{Status: calendar.StatusPrivate}})
	w.must(err)
	at := strings.NewReplacer("-", "", ":", "", " ", "T").Replace(hidden.UTCStartDate) + "Z"
	feed := func(caller app.Caller) string {
		f, err := w.app.Events.Feed(w.ctx, caller, app.EventFilter{Dates: window})
		w.must(err)
		return string(f.Body)
	}
	exdate := ""
	for _, line := range strings.Split(feed(visitor), "\r\n") {
		if strings.HasPrefix(line, "EXDATE") {
			exdate = line
		}
	}
	if !strings.Contains(exdate, at) {
		t.Fatalf("a visitor's feed has the rules without an EXDATE at %s (the private occurrence): %q", at, exdate)
	}
	if editor := feed(w.callers[calendar.RoleEditor]); !strings.Contains(editor, "RECURRENCE-ID") {
		t.Fatalf("an editor, who reads the occurrence, has it as an exception of its own:\n%s", editor)
	}
}

// A protected venue or organizer shows inside an event what it shows alone:
// to whoever has neither the password nor the right to edit it, its name and
// nothing else, in the event, its JSON-LD and the feed.
func TestAProtectedVenueOrOrganizerIsMaskedInsideEvents(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	vault := w.venue("Vault", app.LinkedInput{PostFields: app.PostFields{Password: ptr("sesame"), Description: ptr("The secret room")},
		Meta: map[string]string{"address": "7 Hidden lane", "city": "Lyon"}})
	ghost, err := w.app.Organizers.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("Ghost"), Password: ptr("sesame")},
		Meta: map[string]string{"email": "ghost@example.org"}})
	w.must(err)
	e := w.event("Public show", "2030-06-01", app.EventInput{Venue: &app.LinkRef{ID: vault.ID}, Organizers: &[]app.LinkRef{{ID: ghost.ID}}})
	for _, c := range []struct {
		name     string
		caller   app.Caller
		password string
		masked   bool
	}{
		{"a visitor", visitor, "", true}, {"a contributor", w.callers[calendar.RoleContributor], "", true},
		{"with the password", visitor, "sesame", false}, {"an editor", w.callers[calendar.RoleEditor], "", false},
	} {
		got, err := w.app.Events.Get(w.ctx, c.caller, app.PostRef{ID: e.ID}, c.password)
		w.must(err)
		raw, _ := json.Marshal(got)
		v, _ := got.Venue.(app.VenueView)
		leaked := strings.Contains(string(raw), "Hidden lane") || strings.Contains(string(raw), "secret room") || strings.Contains(string(raw), "ghost@")
		if leaked != !c.masked || v.Venue != "Vault" || len(got.Organizer) != 1 || got.Organizer[0].Organizer != "Ghost" {
			t.Errorf("%s: masked %v, want %v: %s", c.name, !leaked, c.masked, raw)
		}
		feed, err := w.app.Events.Feed(w.ctx, c.caller, app.EventFilter{Dates: month("2030-06"), Password: c.password})
		w.must(err)
		if body := string(feed.Body); strings.Contains(body, "Hidden lane") != !c.masked || strings.Contains(body, "ghost@example.org") != !c.masked {
			t.Errorf("%s: the feed's LOCATION and ORGANIZER, masked %v:\n%s", c.name, c.masked, body)
		}
	}
	again, err := w.app.Venues.Create(w.ctx, w.callers[calendar.RoleContributor], app.LinkedInput{PostFields: app.PostFields{Title: ptr("Vault"), Password: ptr("sesame")}})
	w.must(err)
	if raw, _ := json.Marshal(again); again.ID != vault.ID || strings.Contains(string(raw), "Hidden lane") || strings.Contains(string(raw), "secret room") {
		t.Fatalf("a contributor creating one of the same name: %s, want the existing venue masked", raw)
	}
}

// The JSON-LD of an event tells nothing of an organizer the caller may not
// read: it is the JSON-LD of the same event without one.
func TestTheJSONLDOfAnEventTellsNothingOfAnOrganizerTheCallerMayNotRead(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	boss, err := w.app.Organizers.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("Private boss"), Status: calendar.StatusPrivate},
		Meta: map[string]string{"email": "boss@example.org"}})
	w.must(err)
	ld := func(e *app.EventView) map[string]any {
		got, err := w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: e.ID}, "")
		w.must(err)
		var m map[string]any
		w.must(json.Unmarshal(got.JSONLD, &m))
		delete(m, "url")
		return m
	}
	with := ld(w.event("Gala", "2030-06-01", app.EventInput{Organizers: &[]app.LinkRef{{ID: boss.ID}}}))
	without := ld(w.event("Gala", "2030-06-01", app.EventInput{}))
	if a, b := fmt.Sprint(with), fmt.Sprint(without); a != b {
		t.Fatalf("a visitor's JSON-LD of an event with a private organizer:\n%s\nof the same event without one:\n%s", a, b)
	}
}

func TestAPostTheCallerMayNotReadCannotBeLinked(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	private := w.venue("Private hall", app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusPrivate}, Meta: map[string]string{"address": "9 Private road"}})
	draft, err := w.app.Organizers.Create(w.ctx, w.callers[calendar.RoleEditor], app.LinkedInput{PostFields: app.PostFields{Title: ptr("Draft org"), Status: calendar.StatusDraft}})
	w.must(err)
	contributor := w.callers[calendar.RoleContributor]
	const missing = 99999
	for _, tc := range []struct {
		name     string
		link     func(id int64) app.EventInput
		hiddenID int64
	}{
		{"a private venue", func(id int64) app.EventInput { return app.EventInput{Venue: &app.LinkRef{ID: id}} }, private.ID},
		{"a private venue, as {id}", func(id int64) app.EventInput { return app.EventInput{Venue: &app.LinkRef{ID: id, FromObject: true}} }, private.ID},
		{"another's draft organizer", func(id int64) app.EventInput { return app.EventInput{Organizers: &[]app.LinkRef{{ID: id}}} }, draft.ID},
	} {
		write := func(id int64) error {
			in := tc.link(id)
			in.Title, in.StartDate, in.EndDate = ptr("Mine"), ptr("2030-06-01 20:00"), ptr("2030-06-01 22:00")
			_, err := w.app.Events.Create(w.ctx, contributor, in)
			return err
		}
		hidden, absent := calendar.AsError(write(tc.hiddenID)), calendar.AsError(write(missing))
		if hidden == nil || hidden.Kind != calendar.KindInvalid || strings.Contains(fmt.Sprint(hidden), "Private road") {
			t.Errorf("%s: linked what the caller may not read: %v", tc.name, hidden)
		} else if absent == nil || hidden.Code != absent.Code {
			t.Errorf("%s: a hidden post is told from a missing one: %v against %v", tc.name, hidden, absent)
		}
	}
	_, err = w.app.Events.List(w.ctx, contributor, app.EventFilter{Venues: ids(private.ID)})
	invalid(t, err)
	_, err = w.app.Events.List(w.ctx, w.callers[calendar.RoleEditor], app.EventFilter{Venues: ids(private.ID)})
	w.must(err)
}

func TestSearchDoesNotLookIntoProtectedFields(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.event("Members night", "2030-06-01", app.EventInput{PostFields: app.PostFields{Password: ptr("sesame"), Description: ptr("the codeword is zanzibar")}})
	w.venue("Locked hall", app.LinkedInput{PostFields: app.PostFields{Password: ptr("sesame")}, Meta: map[string]string{"address": "12 Zanzibar street"}})
	june := month("2030-06")
	for _, caller := range []app.Caller{visitor, w.callers[calendar.RoleContributor]} {
		if got := w.titles(caller, app.EventFilter{Dates: june, Search: ptr("zanzibar")}); got != "" {
			t.Errorf("a search for a protected word finds %q", got)
		}
		page, err := w.app.Venues.List(w.ctx, caller, app.LinkedFilter{Search: ptr("zanzibar")})
		w.must(err)
		if page.Total != 0 {
			t.Errorf("a venue search for a protected word finds %d", page.Total)
		}
	}
	if got := w.titles(visitor, app.EventFilter{Dates: june, Search: ptr("members")}); got != "Members night" {
		t.Errorf("the title stays searchable: %q", got)
	}
}

// A venue made hidden on one replica while another has just placed an event
// there: the first replica's index had not yet seen the event, so nothing
// took the venue's position from it, and every map went on showing it. Now
// an event is placed from its venue as stored each time it is indexed, and
// each catch-up places again the events of the venues it applies.
func TestAVenueMadeHiddenTellsNoMapWhereItIsThroughItsEvents(t *testing.T) {
	t.Parallel()
	for _, hide := range []struct {
		name  string
		write func(w *world, venue int64) error
	}{
		{"made a draft", func(w *world, venue int64) error {
			return get(w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: venue}, app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusDraft}}))
		}},
		{"protected", func(w *world, venue int64) error {
			return get(w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: venue}, app.LinkedInput{PostFields: app.PostFields{Password: ptr("sesame")}}))
		}},
		{"trashed", func(w *world, venue int64) error {
			return get(w.app.Venues.Delete(w.ctx, w.admin(), app.PostRef{ID: venue}, false))
		}},
	} {
		t.Run(hide.name, func(t *testing.T) {
			t.Parallel()
			a := newWorld(t)
			idx, err := index.Open(t.TempDir())
			a.must(err)
			t.Cleanup(func() { idx.Close() })
			b := &world{t: t, ctx: a.ctx, store: a.store, callers: a.callers,
				app: app.New(a.store, idx, app.Settings{SiteURL: "http://x", SearchBudget: 2 * time.Minute})}
			hall := a.venue("Stadtgarten", app.LinkedInput{GeoLat: ptr(50.9413), GeoLng: ptr(6.9583)})
			b.event("Late set", "2030-01-10", app.EventInput{Venue: &app.LinkRef{ID: hall.ID}}) // a's index has not seen it yet
			// b's next pass: the event is applied there, and only the venue's change is still to come.
			_, err = b.app.CatchUp(b.ctx)
			b.must(err)
			window := month("2030-01")
			nearby := app.EventFilter{Dates: window, Near: app.NearInput{Lat: ptr(50.94), Lng: ptr(6.96), Radius: ptr(5.0), Unit: "km"}}
			if got := b.titles(visitor, nearby); got != "Late set" {
				t.Fatalf("before the venue is hidden, a visitor finds near it %q", got)
			}
			a.must(hide.write(a, hall.ID))
			for _, w := range []*world{a, b} { // as each replica's next sync pass does
				_, err := w.app.CatchUp(w.ctx)
				w.must(err)
			}
			for name, w := range map[string]*world{"the replica that hid it": a, "the other": b} {
				for what, f := range map[string]app.EventFilter{
					"near the point":  {Near: app.NearInput{Lat: ptr(50.94), Lng: ptr(6.96), Radius: ptr(5.0), Unit: "km"}},
					"near the city":   {Near: app.NearInput{Place: ptr("Köln"), Radius: ptr(10.0), Unit: "km"}},
					"in a box":        {Near: app.NearInput{Bounds: ptr("50.8,6.8,51.0,7.1")}},
					"with a position": {HasGeo: ptr(true)},
				} {
					f.Dates = window
					if got := w.titles(visitor, f); got != "" {
						t.Errorf("%s: a visitor finds the event of the hidden venue %s: %s", name, what, got)
					}
				}
				page, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: window, Facets: strs(calendar.FacetGeoGrid)})
				w.must(err)
				if page.Grid == nil || len(page.Grid.Cells) != 0 {
					t.Errorf("%s: a visitor's map has a cluster where the hidden venue is: %+v", name, page.Grid)
				}
			}
		})
	}
}
