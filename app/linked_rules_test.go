package app_test

import (
	"fmt"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// Venues and organizers, without HTTP: their objects key by key, what a
// write takes, who may write them, who reads and lists them, their
// searches, pages, trash and passwords. Their routes' HTTP is controllers'
// (linked_alone_test.go); every route by every role, controllers'
// matrix_test.go.

func TestTheVenueAndOrganizerObjectsKeyByKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	venue := w.venue("Hall", app.LinkedInput{PostFields: app.PostFields{Description: ptr("Big hall"), Excerpt: ptr("Short"),
		Image: ptr("https://img.example/hall.jpg")}, GeoLat: ptr(45.76), GeoLng: ptr(4.84),
		Meta: map[string]string{"address": "1 Main St", "city": "Lyon", "country": "France", "province": "Rhône", "state": "ARA",
			"zip": "69001", "phone": "+33 1", "website": "https://hall.example", "stateprovince": "Rhône"}})
	single, err := w.app.Venues.Get(w.ctx, visitor, app.PostRef{ID: venue.ID}, "")
	w.must(err)
	keysAre(t, single, strings.Fields("id author status date date_utc modified modified_utc url venue description excerpt slug image "+
		"address city country province state zip phone website stateprovince geo_lat geo_lng geo_source json_ld "+
		"show_map show_map_link global_id global_id_lineage"))
	if single.Author != "1" || single.Description != "<p>Big hall</p>" || single.ShowMap == nil || !*single.ShowMap ||
		single.Image.Extension != "jpg" || !strings.HasSuffix(single.GlobalID, fmt.Sprint("?id=", venue.ID)) {
		t.Fatalf("venue values: %+v", single)
	}
	if venue.JSONLD != nil {
		t.Fatal("json_ld outside a single read")
	}
	// An organizer leaves its empty fields out, as a venue does: the
	// plugin's Post_Repository::get_organizer_data runs array_filter over
	// the whole organizer (OrganizerUpdateCest: emptied email, phone and
	// website are not in the answer).
	organizer := func(in app.LinkedInput) app.OrganizerView {
		created, err := w.app.Organizers.Create(w.ctx, w.admin(), in)
		w.must(err)
		read, err := w.app.Organizers.Get(w.ctx, visitor, app.PostRef{ID: created.ID}, "")
		w.must(err)
		return read
	}
	keysAre(t, organizer(app.LinkedInput{PostFields: app.PostFields{Title: ptr("Ann"), Description: ptr("Host"), Excerpt: ptr("Short"),
		Image: ptr("https://img.example/ann.jpg")}, Meta: map[string]string{"phone": "+33 1", "website": "https://ann.example", "email": "ann@example.org"}}),
		strings.Fields("id author status date date_utc modified modified_utc url organizer description excerpt slug image phone website email json_ld global_id global_id_lineage"))
	keysAre(t, organizer(app.LinkedInput{PostFields: app.PostFields{Title: ptr("Bob")}}),
		strings.Fields("id author status date date_utc modified modified_utc url organizer slug json_ld global_id global_id_lineage"))
	bare := w.venue("Bare", app.LinkedInput{})
	if got := strings.Join(jsonKeys(t, jsonAt(t, bare)), " "); strings.Contains(got, "address") || !strings.Contains(got, "show_map show_map_link") {
		t.Fatalf("empty keys kept or show_map missing: %s", got)
	}
}

func TestVenueAndOrganizerWritesAreValidated(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	named := func(name string, change func(in *app.LinkedInput)) app.LinkedInput {
		in := app.LinkedInput{PostFields: app.PostFields{Title: &name}, Meta: map[string]string{}}
		if change != nil {
			change(&in)
		}
		return in
	}
	meta := func(k, v string) func(in *app.LinkedInput) { return func(in *app.LinkedInput) { in.Meta[k] = v } }
	for _, c := range []struct {
		kind string
		in   app.LinkedInput
		ok   bool
	}{
		{"venue", named("A", nil), true},
		{"venue", named("", nil), false},
		{"venue", named("   ", nil), false},
		{"venue", named("W", meta("website", "https://w.example")), true},
		{"venue", named("W2", meta("website", "venue.com")), false},
		{"venue", named("I", func(in *app.LinkedInput) { in.Image = ptr("https://i.example/a.png") }), true},
		{"venue", named("I2", func(in *app.LinkedInput) { in.Image = ptr("123") }), false},
		{"venue", named("I3", func(in *app.LinkedInput) { in.Image = ptr("ftp://i.example/a.png") }), false},
		{"venue", named("Au", func(in *app.LinkedInput) { in.Author = ptr(int64(1)) }), true},
		{"venue", named("Au2", func(in *app.LinkedInput) { in.Author = ptr(int64(999)) }), false},
		{"venue", named("D", func(in *app.LinkedInput) { in.Date = ptr("2024-05-01 10:00:00") }), true},
		{"venue", named("D2", func(in *app.LinkedInput) { in.Date = ptr("foo") }), false},
		{"venue", named("D3", func(in *app.LinkedInput) { in.DateUTC = ptr("1700000000") }), true},
		{"venue", named("S", func(in *app.LinkedInput) { in.Status = calendar.StatusDraft }), true},
		{"venue", named("G", func(in *app.LinkedInput) { in.GeoLat, in.GeoLng = ptr(-90.0), ptr(180.0) }), true},
		{"venue", named("G2", func(in *app.LinkedInput) { in.GeoLat = ptr(10.0) }), false},
		{"venue", named("G3", func(in *app.LinkedInput) { in.GeoLat, in.GeoLng = ptr(91.0), ptr(0.0) }), false},
		{"venue", named("G4", func(in *app.LinkedInput) { in.GeoLat, in.GeoLng = ptr(0.0), ptr(-181.0) }), false},
		{"organizer", named("E", meta("email", "e@example.org")), true},
		{"organizer", named("E2", meta("email", "not-an-email")), false},
		{"organizer", named("E3", meta("email", "Ann <ann@example.org>")), false},
		{"organizer", named("", nil), false},
	} {
		var err error
		if c.kind == "venue" {
			err = get(w.app.Venues.Create(w.ctx, w.admin(), c.in))
		} else {
			err = get(w.app.Organizers.Create(w.ctx, w.admin(), c.in))
		}
		if c.ok && err != nil {
			t.Errorf("%s %s: %v", c.kind, showLinked(c.in), err)
		} else if !c.ok {
			if e := calendar.AsError(err); e == nil || e.Code != "rest_invalid_param" {
				t.Errorf("%s %s: %v, want it refused", c.kind, showLinked(c.in), err)
			}
		}
	}
}

// showLinked writes a venue or organizer write for a failure's message.
func showLinked(in app.LinkedInput) string {
	return fmt.Sprintf("%q %v author %v date %v/%v image %v geo %v,%v status %q", valueOf(in.Title), in.Meta, valueOf(in.Author),
		valueOf(in.Date), valueOf(in.DateUTC), valueOf(in.Image), valueOf(in.GeoLat), valueOf(in.GeoLng), in.Status)
}

func valueOf[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// Who may write venues (organizers are the same service): the statuses
// each role's creates get, another's venue by ID and by slug, one's own
// published or not, another author named. Reading, editing and deleting
// posts of every status by every role: permissions_test.go.
func TestWhoMayWriteVenues(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	create := func(role calendar.Role, name string, change func(in *app.LinkedInput)) (app.VenueView, error) {
		in := app.LinkedInput{PostFields: app.PostFields{Title: &name}}
		if change != nil {
			change(&in)
		}
		caller := visitor
		if role != "" {
			caller = w.callers[role]
		}
		return w.app.Venues.Create(w.ctx, caller, in)
	}
	publish := func(in *app.LinkedInput) { in.Status = calendar.StatusPublish }
	for role, want := range map[calendar.Role]string{calendar.RoleContributor: "pending", calendar.RoleAuthor: "publish",
		calendar.RoleEditor: "publish", calendar.RoleAdministrator: "publish"} {
		if v, err := create(role, "By "+string(role), publish); err != nil || v.Status != want {
			t.Errorf("%s asking publish: %v (%v), want %s", role, v.Status, err, want)
		}
	}
	invalid(t, get(create("", "x", nil)), "rest_forbidden")
	invalid(t, get(create(calendar.RoleSubscriber, "x", nil)), "rest_forbidden")

	admins := w.venue("Admin's", app.LinkedInput{})
	city := app.LinkedInput{Meta: map[string]string{"city": "Lyon"}}
	for _, ref := range []app.PostRef{{ID: admins.ID}, {Slug: admins.Slug}} {
		for _, role := range []calendar.Role{"", calendar.RoleSubscriber, calendar.RoleContributor, calendar.RoleAuthor} {
			caller := visitor
			if role != "" {
				caller = w.callers[role]
			}
			invalid(t, get(w.app.Venues.Update(w.ctx, caller, ref, city)), "rest_forbidden")
			invalid(t, get(w.app.Venues.Delete(w.ctx, caller, ref, false)), "rest_forbidden")
		}
		for _, role := range []calendar.Role{calendar.RoleEditor, calendar.RoleAdministrator} {
			_, err := w.app.Venues.Update(w.ctx, w.callers[role], ref, city)
			w.must(err)
			other, err := create(calendar.RoleAuthor, fmt.Sprint("Author's for ", role, ref), nil)
			w.must(err)
			theirs := app.PostRef{ID: other.ID} // by the same kind of reference
			if ref.ID == 0 {
				theirs = app.PostRef{Slug: other.Slug}
			}
			_, err = w.app.Venues.Delete(w.ctx, w.callers[role], theirs, false)
			w.must(err)
		}
	}

	contributor := w.callers[calendar.RoleContributor]
	mine, err := create(calendar.RoleContributor, "Mine", nil)
	w.must(err)
	_, err = w.app.Venues.Update(w.ctx, contributor, app.PostRef{ID: mine.ID}, app.LinkedInput{Meta: map[string]string{"city": "Nice"}})
	w.must(err)
	_, err = w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: mine.ID}, app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusPublish}})
	w.must(err)
	invalid(t, get(w.app.Venues.Update(w.ctx, contributor, app.PostRef{ID: mine.ID}, app.LinkedInput{Meta: map[string]string{"city": "Metz"}})), "rest_forbidden")
	invalid(t, get(w.app.Venues.Delete(w.ctx, contributor, app.PostRef{ID: mine.ID}, false)), "rest_forbidden")
	draft, err := create(calendar.RoleContributor, "Draft of mine", nil)
	w.must(err)
	_, err = w.app.Venues.Delete(w.ctx, contributor, app.PostRef{ID: draft.ID}, false)
	w.must(err)

	author := w.callers[calendar.RoleAuthor]
	own, err := create(calendar.RoleAuthor, "Author's", nil)
	w.must(err)
	_, err = w.app.Venues.Update(w.ctx, author, app.PostRef{ID: own.ID}, app.LinkedInput{Meta: map[string]string{"city": "Nice"}})
	w.must(err)
	_, err = w.app.Venues.Delete(w.ctx, author, app.PostRef{ID: own.ID}, false)
	w.must(err)

	invalid(t, get(create(calendar.RoleAuthor, "Stolen", func(in *app.LinkedInput) { in.Author = ptr(int64(1)) })), "rest_forbidden")
	given, err := create(calendar.RoleEditor, "Given", func(in *app.LinkedInput) { in.Author = &author.User.ID })
	w.must(err)
	if given.Author != fmt.Sprint(author.User.ID) {
		t.Fatalf("an editor naming the author: author %v", given.Author)
	}
}

// A contributor's draft venue is read by its author, editors and
// administrators, and answered as not accessible to the others; a list
// counts for each caller what it may read.
func TestWhoReadsAndListsAnUnpublishedVenue(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	draft, err := w.app.Venues.Create(w.ctx, w.callers[calendar.RoleContributor], app.LinkedInput{PostFields: app.PostFields{Title: ptr("Secret draft")}})
	w.must(err)
	w.venue("Open", app.LinkedInput{})
	for role, reads := range map[calendar.Role]bool{"": false, calendar.RoleSubscriber: false, calendar.RoleAuthor: false,
		calendar.RoleContributor: true, calendar.RoleEditor: true, calendar.RoleAdministrator: true} {
		caller := visitor
		if role != "" {
			caller = w.callers[role]
		}
		_, err := w.app.Venues.Get(w.ctx, caller, app.PostRef{ID: draft.ID}, "")
		if e := calendar.AsError(err); reads && err != nil || !reads && (e == nil || e.Kind != calendar.KindForbidden || e.Code != "venue-not-accessible") {
			t.Errorf("%q reading a contributor's draft: %v", role, err)
		}
		page, err := w.app.Venues.List(w.ctx, caller, app.LinkedFilter{})
		w.must(err)
		if want := map[bool]int{true: 2, false: 1}[reads]; page.Total != want {
			t.Errorf("%q lists %d venues, want %d", role, page.Total, want)
		}
	}
}

func TestTheVenueStatusFilter(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.venue("P", app.LinkedInput{})
	w.venue("D", app.LinkedInput{PostFields: app.PostFields{Status: calendar.StatusDraft}})
	for _, c := range []struct {
		role     calendar.Role
		statuses []string
		total    int // -1: refused
	}{
		{calendar.RoleEditor, []string{"publish", "draft"}, 2},
		{calendar.RoleEditor, []string{"draft"}, 1},
		{calendar.RoleEditor, []string{"foo"}, -1},
		{calendar.RoleEditor, []string{"foo", "bar", "publish"}, -1},
		{calendar.RoleEditor, []string{"any"}, -1},
		{"", []string{"publish"}, 1},
		{"", []string{"publish", "draft"}, -1},
		{calendar.RoleSubscriber, []string{"draft"}, -1},
	} {
		caller := visitor
		if c.role != "" {
			caller = w.callers[c.role]
		}
		page, err := w.app.Venues.List(w.ctx, caller, app.LinkedFilter{Statuses: &c.statuses})
		switch {
		case c.total < 0:
			invalid(t, err)
		case err != nil || page.Total != c.total:
			t.Errorf("%q listing %v: %v (%v), want %d", c.role, c.statuses, page, err, c.total)
		}
	}
}

func TestVenuePagesAndTheirBounds(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *app.Settings) { s.PerPage = 10 })
	for i := range 7 {
		w.venue(fmt.Sprintf("Venue %d", i), app.LinkedInput{Meta: map[string]string{"city": "Lyon"}})
	}
	list := func(f app.LinkedFilter) (*app.Page[app.VenueView], error) {
		return w.app.Venues.List(w.ctx, visitor, f)
	}
	seen := map[int64]bool{}
	for page := 1; page <= 3; page++ {
		p, err := list(app.LinkedFilter{Page: app.PageRequest{Page: page, PerPage: 3}, Search: ptr("lyon")})
		w.must(err)
		if p.Total != 7 || p.TotalPages != 3 || len(p.Items) != min(3, 7-3*(page-1)) {
			t.Fatalf("page %d: %d items of %d in %d pages", page, len(p.Items), p.Total, p.TotalPages)
		}
		for _, v := range p.Items {
			seen[v.ID] = true
		}
	}
	if len(seen) != 7 {
		t.Fatalf("the pages hold %d venues, want each of the 7 once", len(seen))
	}
	_, err := list(app.LinkedFilter{Page: app.PageRequest{Page: 4, PerPage: 3}})
	invalid(t, err, "venue-archive-page-not-found")
	if none, err := list(app.LinkedFilter{Search: ptr("nowhere")}); err != nil || none.Total != 0 || none.TotalPages != 0 || len(none.Items) != 0 {
		t.Fatalf("a search matching nothing: %+v (%v)", none, err)
	}
	if all, err := list(app.LinkedFilter{}); err != nil || len(all.Items) != 7 {
		t.Fatalf("the site's page size: %+v (%v)", all, err)
	}
}

func TestSearchMatchesFragmentsInAnyOrderWithinOneField(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.venue("Venue foo", app.LinkedInput{Meta: map[string]string{"address": "100, Avenue du Temple", "province": "Ile de France"}})
	w.venue("Other place", app.LinkedInput{Meta: map[string]string{"city": "Temple"}})
	organizer := func(name string, meta map[string]string) {
		_, err := w.app.Organizers.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: &name}, Meta: meta})
		w.must(err)
	}
	organizer("Three", map[string]string{"email": "three@three.com", "website": "http://one.com"})
	organizer("Five", map[string]string{"email": "five@common.com"})
	organizer("Four", map[string]string{"phone": "1111-22"})
	for _, c := range []struct {
		of     *app.LinkedPosts[app.VenueView]
		search string
		want   int
	}{
		{w.app.Venues, "venue foo", 1}, {w.app.Venues, "temple avenue", 1}, {w.app.Venues, "france, ile de", 1},
		{w.app.Venues, "TEMPLE", 2}, {w.app.Venues, "avenue other", 0},
	} {
		if page, err := c.of.List(w.ctx, visitor, app.LinkedFilter{Search: &c.search}); err != nil || page.Total != c.want {
			t.Errorf("venues %q: %v (%v), want %d", c.search, page, err, c.want)
		}
	}
	for search, want := range map[string]int{"three@three.com": 1, "three@four.com": 0, "@common.com": 1, "http://one.com": 1, "1111": 1, "three one.com": 0} {
		if page, err := w.app.Organizers.List(w.ctx, visitor, app.LinkedFilter{Search: &search}); err != nil || page.Total != want {
			t.Errorf("organizers %q: %v (%v), want %d", search, page, err, want)
		}
	}
}

func TestAVenueIsTrashedThenDeletedForGood(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	v := w.venue("Doomed", app.LinkedInput{})
	ref := app.PostRef{ID: v.ID}
	trashed, err := w.app.Venues.Delete(w.ctx, w.admin(), ref, false)
	w.must(err)
	if trashed.Trashed.Status != calendar.StatusTrash {
		t.Fatalf("after a delete: %+v", trashed)
	}
	if e := calendar.AsError(get(w.app.Venues.Delete(w.ctx, w.admin(), ref, false))); e == nil || e.Kind != calendar.KindGone || e.Code != "venue-is-in-trash" {
		t.Fatalf("trashing it again: %v", e)
	}
	if e := calendar.AsError(get(w.app.Venues.Get(w.ctx, visitor, ref, ""))); e == nil || e.Code != "venue-not-accessible" {
		t.Fatalf("a visitor reads the trashed venue: %v", e)
	}
	if got, err := w.app.Venues.Get(w.ctx, w.admin(), ref, ""); err != nil || got.Status != calendar.StatusTrash {
		t.Fatalf("the administrator reads it: %+v (%v)", got, err)
	}
	if page, err := w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{}); err != nil || page.Total != 0 {
		t.Fatalf("a trashed venue is listed: %+v (%v)", page, err)
	}
	gone, err := w.app.Venues.Delete(w.ctx, w.admin(), ref, true)
	w.must(err)
	if d := gone.ForGood; d == nil || !d.Deleted || d.Previous.Venue != "Doomed" {
		t.Fatalf("deleted for good: %+v", gone)
	}
	invalid(t, get(w.app.Venues.Get(w.ctx, w.admin(), ref, "")))
	if page, err := w.app.Venues.List(w.ctx, w.admin(), app.LinkedFilter{Statuses: strs("trash")}); err != nil || page.Total != 0 {
		t.Fatalf("a deleted venue is still in the index: %+v (%v)", page, err)
	}
	// The ID is checked before the permission, as the plugin checks it as an argument.
	invalid(t, get(w.app.Venues.Delete(w.ctx, visitor, app.PostRef{ID: 999}, false)))
	invalid(t, get(w.app.Venues.Delete(w.ctx, w.admin(), app.PostRef{ID: 999}, false)))
}

func TestAPasswordHidesAllOfAVenueButItsName(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	v := w.venue("Hidden", app.LinkedInput{PostFields: app.PostFields{Password: ptr("sesame"), Description: ptr("Secret")}, Meta: map[string]string{"address": "1 Road"}})
	masked, err := w.app.Venues.Get(w.ctx, visitor, app.PostRef{ID: v.ID}, "")
	w.must(err)
	if masked.Venue != "Hidden" || masked.Address != "" || masked.Description != "" || masked.ShowMap != nil {
		t.Fatalf("masked venue: %+v", masked)
	}
	for name, read := range map[string]func() (app.VenueView, error){
		"with the password": func() (app.VenueView, error) {
			return w.app.Venues.Get(w.ctx, visitor, app.PostRef{ID: v.ID}, "sesame")
		},
		"as an editor": func() (app.VenueView, error) {
			return w.app.Venues.Get(w.ctx, w.callers[calendar.RoleEditor], app.PostRef{ID: v.ID}, "")
		},
	} {
		if full, err := read(); err != nil || full.Address != "1 Road" {
			t.Errorf("%s: not unmasked: %+v (%v)", name, full, err)
		}
	}
	page, err := w.app.Venues.List(w.ctx, visitor, app.LinkedFilter{})
	w.must(err)
	if len(page.Items) != 1 || page.Items[0].Address != "" {
		t.Fatalf("masked fields in a visitor's list: %+v", page.Items)
	}
}

func TestAnIDOrSlugOfTheOtherKindIsAMissingOne(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	o := w.organizer("Org")
	v := w.venue("Ven", app.LinkedInput{})
	invalid(t, get(w.app.Venues.Get(w.ctx, visitor, app.PostRef{ID: o.ID}, "")))
	invalid(t, get(w.app.Organizers.Get(w.ctx, visitor, app.PostRef{ID: v.ID}, "")))
	invalid(t, get(w.app.Venues.Get(w.ctx, visitor, app.PostRef{Slug: o.Slug}, "")))
}
