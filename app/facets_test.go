package app_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
)

// summary writes a facet as "name=count" pairs in the answer's order,
// featured by value.
func summary(f app.Facet) string {
	var out []string
	for _, v := range f.Values {
		key := v.Name
		if v.Value != nil {
			key = fmt.Sprint(*v.Value)
		}
		out = append(out, fmt.Sprintf("%s=%d", key, v.Count))
	}
	return strings.Join(out, " ")
}

// valueKey is how a filter names a facet's value: a term by its slug, a
// venue or an organizer by its ID, featured by true or false.
func valueKey(name string, v app.FacetValue) string {
	switch {
	case v.Value != nil:
		return fmt.Sprint(*v.Value)
	case name == calendar.FacetCategories || name == calendar.FacetTags:
		return v.Slug
	}
	return fmt.Sprint(v.ID)
}

// filteredBy is f with the filter of a facet set to one value (valueKey's).
func filteredBy(f app.EventFilter, name, value string) app.EventFilter {
	id, _ := strconv.ParseInt(value, 10, 64)
	switch name {
	case calendar.FacetCategories:
		f.Categories = strs(value)
	case calendar.FacetTags:
		f.Tags = strs(value)
	case calendar.FacetVenue:
		f.Venues = ids(id)
	case calendar.FacetOrganizer:
		f.Organizers = ids(id)
	case calendar.FacetFeatured:
		f.Featured = ptr(value == "true")
	}
	return f
}

func (w *world) facets(caller app.Caller, f app.EventFilter) map[string]app.Facet {
	w.t.Helper()
	page, err := w.app.Events.List(w.ctx, caller, f)
	w.must(err)
	out := map[string]app.Facet{}
	for _, facet := range page.Facets {
		out[facet.Name] = facet
	}
	return out
}

func TestEventFacets(t *testing.T) {
	w := newWorld(t)
	hall, club := w.venue("Hall", app.LinkedInput{}), w.venue("Club", app.LinkedInput{})
	ann, bob := w.organizer("Ann"), w.organizer("Bob")
	type extra struct {
		venue      int64
		organizers []int64
		categories []string
		tags       []string
		featured   bool
		status     string
		hidden     bool
	}
	day := func(title, date string, x extra) {
		in := app.EventInput{PostFields: app.PostFields{Status: x.status}, Flags: map[string]bool{"featured": x.featured, "hide_from_listings": x.hidden}}
		if x.venue != 0 {
			in.Venue = &app.LinkRef{ID: x.venue}
		}
		if x.organizers != nil {
			refs := []app.LinkRef{}
			for _, id := range x.organizers {
				refs = append(refs, app.LinkRef{ID: id})
			}
			in.Organizers = &refs
		}
		if x.categories != nil {
			in.Categories = &x.categories
		}
		if x.tags != nil {
			in.Tags = &x.tags
		}
		w.event(title, date, in)
	}
	day("jazz night", "2030-07-01", extra{venue: hall.ID, organizers: []int64{ann.ID}, categories: []string{"Music", "Jazz"}, tags: []string{"late"}, featured: true})
	day("rock night", "2030-07-02", extra{venue: club.ID, organizers: []int64{bob.ID, ann.ID}, categories: []string{"Music"}})
	day("film", "2030-07-03", extra{categories: []string{"Cinema"}, tags: []string{"late"}, venue: hall.ID})
	day("draft", "2030-07-04", extra{status: "draft", categories: []string{"Music", "Draftcat"}, venue: club.ID})
	day("hidden", "2030-07-05", extra{hidden: true, categories: []string{"Music"}})
	day("autumn", "2030-09-01", extra{categories: []string{"Music"}, venue: club.ID, featured: true})
	july := month("2030-07")
	all := strs(calendar.FacetNames...)

	t.Run("counts and order", func(t *testing.T) {
		f := w.facets(visitor, app.EventFilter{Dates: july, Facets: all})
		want := map[string]string{
			"categories": "Music=2 Jazz=1 Cinema=1",
			"tags":       "late=2",
			"venue":      "Hall=2 Club=1",
			"organizer":  "Ann=2 Bob=1",
			"featured":   "false=2 true=1",
		}
		for name, want := range want {
			if got := summary(f[name]); got != want {
				t.Errorf("%s: got %q, want %q", name, got, want)
			}
		}
		if v := f["categories"].Values[0]; v.Slug != "music" || v.ID == 0 {
			t.Errorf("a category value: %+v", v)
		}
		onePage := w.facets(visitor, app.EventFilter{Dates: july, Facets: all, Page: app.PageRequest{Page: 2, PerPage: 1}})
		if got := summary(onePage["categories"]); got != want["categories"] {
			t.Errorf("counts of page 2 of 1 event: %q, want those of all matches", got)
		}
	})

	// Each value's count is the total of the list with that facet's own
	// filter replaced by the value (added where the list has none): what a
	// multi-select sidebar shows beside each box. A value whose list is
	// refused (a term the caller may not see) or empty is not shown.
	known := map[string][]string{
		calendar.FacetCategories: {"music", "jazz", "cinema", "draftcat"},
		calendar.FacetTags:       {"late"},
		calendar.FacetVenue:      {fmt.Sprint(hall.ID), fmt.Sprint(club.ID)},
		calendar.FacetOrganizer:  {fmt.Sprint(ann.ID), fmt.Sprint(bob.ID)},
		calendar.FacetFeatured:   {"true", "false"},
	}
	editor := w.callers[calendar.RoleEditor]
	for _, c := range []struct {
		name   string
		f      app.EventFilter
		caller app.Caller
	}{
		{"a month", app.EventFilter{Dates: july}, visitor},
		{"a month and a search", app.EventFilter{Dates: july, Search: ptr("night")}, visitor},
		{"a month and a category", app.EventFilter{Dates: july, Categories: strs("music")}, visitor},
		{"drafts for an editor", app.EventFilter{Dates: july}, editor},
		{"a month and a relevance search with a typo", app.EventFilter{Dates: july, Search: ptr("nigth"), OrderBy: "relevance"}, visitor},
		{"two months", app.EventFilter{Dates: app.Dates{"start_date": "2030-07-01", "end_date": "2030-09-30"}}, visitor},
		{"two categories ticked and a venue of neither", app.EventFilter{Dates: july, Categories: strs("jazz", "cinema"), Venues: ids(club.ID)}, visitor},
		{"every facet filtered", app.EventFilter{Dates: july, Categories: strs("music"), Tags: strs("late"), Venues: ids(hall.ID, club.ID),
			Organizers: ids(ann.ID), Featured: ptr(false)}, visitor},
		{"a draft's category for an editor", app.EventFilter{Dates: july, Categories: strs("draftcat"), Featured: ptr(false)}, editor},
	} {
		t.Run("counts are totals of the list with the facet's own filter replaced: "+c.name, func(t *testing.T) {
			withFacets := c.f
			withFacets.Facets = all
			f := w.facets(c.caller, withFacets)
			counted := 0
			for _, facet := range f {
				counted += len(facet.Values)
			}
			if counted == 0 {
				t.Fatal("nothing counted: the case tests nothing")
			}
			for name, values := range known {
				shown := map[string]int{}
				for _, v := range f[name].Values {
					shown[valueKey(name, v)] = v.Count
				}
				for _, value := range values {
					want := 0
					page, err := w.app.Events.List(w.ctx, c.caller, filteredBy(c.f, name, value))
					if err == nil {
						want = page.Total
					} else {
						invalid(t, err)
					}
					if got := shown[value]; got != want {
						t.Errorf("%s %s: the facet counts %d, the list filtered so has %d events", name, value, got, want)
					}
					delete(shown, value)
				}
				if len(shown) > 0 {
					t.Errorf("%s: values of no event: %v", name, shown)
				}
			}
		})
	}

	t.Run("drafts count for editors only, the window bounds the counts", func(t *testing.T) {
		categories := strs(calendar.FacetCategories)
		for _, c := range []struct{ got, want string }{
			{summary(w.facets(visitor, app.EventFilter{Dates: july, Facets: categories})["categories"]), "Music=2 Jazz=1 Cinema=1"},
			{summary(w.facets(w.callers[calendar.RoleEditor], app.EventFilter{Dates: july, Facets: categories})["categories"]), "Music=3 Jazz=1 Cinema=1 Draftcat=1"},
			{summary(w.facets(visitor, app.EventFilter{Dates: app.Dates{"start_date": "2030-07-01", "end_date": "2030-09-30"}, Facets: categories})["categories"]), "Music=3 Jazz=1 Cinema=1"},
		} {
			if c.got != c.want {
				t.Errorf("got %q, want %q", c.got, c.want)
			}
		}
	})

	t.Run("only the facets asked for; none, none at all", func(t *testing.T) {
		page, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: july, Facets: strs("featured", "venue")})
		w.must(err)
		if len(page.Facets) != 2 || page.Facets[0].Name != "venue" || page.Facets[1].Name != "featured" {
			t.Fatalf("facets: %+v", page.Facets)
		}
		without, err := w.app.Events.List(w.ctx, visitor, app.EventFilter{Dates: july}) // the same query: the cache must not answer with facets
		w.must(err)
		if without.Facets != nil {
			t.Fatalf("facets without asking: %+v", without.Facets)
		}
		empty := w.facets(visitor, app.EventFilter{Dates: app.Dates{"start_date": "2040-01-01", "end_date": "2040-01-02"}, Facets: strs("tags")})
		if tags, ok := empty["tags"]; !ok || tags.Values == nil || len(tags.Values) != 0 {
			t.Fatalf("no match: %+v", empty)
		}
	})
}

// watchedIndex is the real index, recording the searches of posts that reach
// it (those the cache answers do not). Once holdPages is called, the search
// of a page waits until a count-only search has begun, or its budget ends.
type watchedIndex struct {
	*index.Live
	mu       sync.Mutex
	searches []calendar.PostQuery
	counted  chan struct{} // closed by the first count-only search after holdPages
	closed   bool
}

func (x *watchedIndex) holdPages() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.counted, x.closed = make(chan struct{}), false
}

func (x *watchedIndex) SearchPosts(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	x.mu.Lock()
	x.searches = append(x.searches, q)
	counted := x.counted
	if q.Limit == 0 && counted != nil && !x.closed {
		close(counted)
		x.closed = true
	}
	x.mu.Unlock()
	if q.Limit > 0 && counted != nil {
		select {
		case <-counted:
		case <-ctx.Done():
			return calendar.PostPage{}, ctx.Err()
		}
	}
	return x.Live.SearchPosts(ctx, q)
}

// taken describes the searches made since the last call, sorted: a page's
// or a count's, the facets it counts, the facet filters it has.
func (x *watchedIndex) taken() []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []string
	for _, q := range x.searches {
		kind := "page"
		if q.Limit == 0 {
			kind = "count"
		}
		var filters []string
		for name, set := range map[string]bool{"categories": q.Categories != nil, "tags": q.Tags != nil, "venue": q.Venues != nil,
			"organizer": q.Organizers != nil, "featured": q.Featured != nil} {
			if set {
				filters = append(filters, name)
			}
		}
		sort.Strings(filters)
		out = append(out, fmt.Sprintf("%s of %v filtered by %v", kind, q.Facets, filters))
	}
	x.searches = nil
	sort.Strings(out)
	return out
}

// TestFacetsCostOneSearchMoreForEachFacetTheListFiltersOn: the list's own
// search counts the facets it does not filter on; each facet it filters on
// is counted by one count-only search without that filter, begun while the
// list's own runs (so the answer comes within one search budget, not one
// per facet); a list asked for again is answered from the cache.
func TestFacetsCostOneSearchMoreForEachFacetTheListFiltersOn(t *testing.T) {
	watched := &watchedIndex{}
	w := newWorldWatched(t, func(idx *index.Live) calendar.Index { watched.Live = idx; return watched })
	hall, ann := w.venue("Hall", app.LinkedInput{}), w.organizer("Ann")
	w.event("jazz night", "2030-07-01", app.EventInput{Venue: &app.LinkRef{ID: hall.ID}, Organizers: &[]app.LinkRef{{ID: ann.ID}},
		Categories: strs("Jazz"), Tags: strs("late"), Flags: map[string]bool{"featured": true}})
	july := month("2030-07")
	withFacets := func(f app.EventFilter, names ...string) app.EventFilter {
		f.Facets = strs(names...)
		return f
	}
	twoFiltered := withFacets(app.EventFilter{Dates: july, Categories: strs("jazz"), Venues: ids(hall.ID)}, "categories", "venue", "organizer")
	everyFiltered := withFacets(app.EventFilter{Dates: july, Categories: strs("jazz"), Tags: strs("late"), Venues: ids(hall.ID),
		Organizers: ids(ann.ID), Featured: ptr(true)}, calendar.FacetNames...)
	list := func(t *testing.T, f app.EventFilter) {
		t.Helper()
		page, err := w.app.Events.List(w.ctx, visitor, f)
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 1 {
			t.Errorf("total %d, want the one event", page.Total)
		}
	}
	watched.taken()
	for _, c := range []struct {
		name string
		f    app.EventFilter
		want []string
	}{
		{"no facet asked", app.EventFilter{Dates: july, Venues: ids(hall.ID)}, []string{"page of [] filtered by [venue]"}},
		{"facets of a list that filters on none of them", withFacets(app.EventFilter{Dates: july}, calendar.FacetNames...),
			[]string{"page of [categories tags venue organizer featured] filtered by []"}},
		{"a filter whose facet is not asked", withFacets(app.EventFilter{Dates: july, Venues: ids(hall.ID)}, "tags"),
			[]string{"page of [tags] filtered by [venue]"}},
		{"two facets the list filters on", twoFiltered, []string{"count of [categories] filtered by [venue]",
			"count of [venue] filtered by [categories]", "page of [organizer] filtered by [categories venue]"}},
		{"the same list again", twoFiltered, nil},
		{"every facet filtered and asked", everyFiltered, []string{
			"count of [categories] filtered by [featured organizer tags venue]", "count of [featured] filtered by [categories organizer tags venue]",
			"count of [organizer] filtered by [categories featured tags venue]", "count of [tags] filtered by [categories featured organizer venue]",
			"count of [venue] filtered by [categories featured organizer tags]", "page of [] filtered by [categories featured organizer tags venue]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			list(t, c.f)
			if got := watched.taken(); !slices.Equal(got, c.want) {
				t.Errorf("searches:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
	t.Run("the counts are searched while the page is", func(t *testing.T) {
		watched.holdPages() // a page searched before its counts would wait out its budget
		list(t, withFacets(app.EventFilter{Dates: app.Dates{"start_date": "2030-06-30", "end_date": "2030-07-02"}, Venues: ids(hall.ID)}, "venue"))
	})
}
