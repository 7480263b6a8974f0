package app

import (
	"context"
	"slices"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/strtotime"
)

// How a list request becomes an index query, for every list: events (shared
// with the iCalendar feed), venues and organizers, media, terms. Each reads
// the request's filter, checks what needs the domain (a missing or
// unreadable venue, event or term given as a filter is a 400), and sets the
// caller's read rule on the query (calendar.ReadRule), so the index answers
// pages, totals and facets of what the caller may read only. The filter's
// shape is the route's to check, before it comes here: a search's length and
// emptiness, a point's degrees and its pair, a radius, a unit, a precision,
// a page (the routes' declared parameters, app/calendar/bounds.go's numbers).

// dateParams are the list's date bounds, the field each compares and how.
var dateParams = []struct {
	name     string
	start    bool // compares the start (else the end)
	min      bool // a lower bound (else an upper one)
	incl     bool
	dayStart bool // whole-day mode moves the value to 00:00:00 (else 23:59:59)
}{
	{"start_date", true, true, true, true},
	{"end_date", false, false, true, false},
	{"starts_before", true, false, false, false},
	{"starts_after", true, true, false, false},
	{"ends_before", false, false, false, false},
	{"ends_after", false, true, false, false},
}

// listQuery turns the list's filter and the caller's visibility into the
// index query (without its page), shared by the list and the feed.
func (s *Events) listQuery(ctx context.Context, caller Caller, f EventFilter) (calendar.PostQuery, *nearMe, error) {
	actor := caller.User
	var err error
	q := calendar.PostQuery{Type: calendar.PostTypeEvent, Order: calendar.OrderStart, ListedOnly: true}
	var bad calendar.InvalidParams
	if f.Search != nil {
		// Accents are folded, as WordPress' database collation does and as
		// the index folds the words it keeps.
		q.Words = SearchFragments(foldSearch(*f.Search))
		// In every order, a search also matches as relevance does (typos,
		// prefixes, stems): the same search finds the same events on a
		// map as in a ranked list.
		q.Tolerant = *f.Search
	}
	for _, t := range []struct {
		name  string
		refs  *[]string
		terms *Terms
		dst   *[]int64
	}{{"categories", f.Categories, s.categories, &q.Categories}, {"tags", f.Tags, s.tags, &q.Tags}} {
		if t.refs != nil {
			ids, err := t.terms.resolveRefs(ctx, actor, *t.refs)
			if err != nil || len(*t.refs) == 0 {
				bad.Add(t.name, "every item must be an existing term ID or slug.", nil)
			}
			// A parent category matches its children's events too.
			if *t.dst, err = t.terms.withDescendants(ctx, ids); err != nil {
				return q, nil, err
			}
		}
	}
	for _, l := range []struct {
		name string
		ids  *[]int64
		kind string
		dst  *[]int64
	}{{"venue", f.Venues, calendar.PostTypeVenue, &q.Venues}, {"organizer", f.Organizers, calendar.PostTypeOrganizer, &q.Organizers}} {
		if l.ids != nil {
			if !s.allReadable(ctx, actor, *l.ids, l.kind) {
				bad.Add(l.name, "every item must be the ID of an existing "+l.kind+".", nil)
			}
			*l.dst = *l.ids
		}
	}
	q.Featured, q.HasGeo, q.OncePerSeries = f.Featured, f.HasGeo, f.HideSubsequentRecurrences
	if f.EventStatuses != nil {
		for _, st := range *f.EventStatuses {
			if !slices.Contains(calendar.EventStatuses, st) {
				bad.Add("event_status", "event_status must list values of "+strings.Join(calendar.EventStatuses, ", ")+".", nil)
			}
		}
		q.EventStatuses = *f.EventStatuses
	}
	near := readNear(f.Near, &bad)
	if near != nil {
		q.Near = &near.GeoNear
	}
	q.Within = readBounds(f.Near.Bounds, &bad)
	byDistance := readOrder(f.OrderBy, near, &bad)
	readSearchOrder(f, &q, &bad)
	readGrid(f, &q)
	if f.Search != nil {
		q.Language = s.searchLanguage(caller.Language)
		if q.Synonyms, err = s.synonyms.forSearch(ctx, *f.Search); err != nil {
			return q, nil, err
		}
	}
	if f.Parent != nil {
		if _, err := s.loadReadable(ctx, actor, calendar.PostTypeEvent, *f.Parent); err != nil {
			bad.Add("post_parent", "post_parent must be the ID of an existing event.", nil)
		}
		q.Parent = f.Parent
	}
	if f.Include != nil {
		for _, id := range *f.Include {
			if id <= 0 {
				bad.Add("include", "every item must be a positive integer.", nil)
			}
		}
		q.IDs, q.Order = *f.Include, calendar.OrderPublished
	} else if err := s.dateBounds(f, &q, &bad); err != nil {
		return q, nil, err
	}
	readDays(f, &q, &bad)
	if byDistance {
		q.Order = calendar.OrderDistance
	}
	readModifiedAfter(f.ModifiedAfter, s.now(), &q, &bad)
	if err := s.readCustom(ctx, caller, f, &q, &bad); err != nil {
		return q, nil, err
	}
	if err := bad.Err(); err != nil {
		return q, nil, err
	}
	if q.Statuses, err = listStatuses(actor, f.Statuses); err != nil {
		return q, nil, err
	}
	q.Reader = calendar.ReadRuleOf(actor)
	return q, near, nil
}

// allReadable: every ID names a post of the type that the caller may read
// (one it may not is a missing one).
func (s *Events) allReadable(ctx context.Context, actor *calendar.User, ids []int64, postType string) bool {
	if len(ids) == 0 {
		return false
	}
	posts, err := s.store.Posts().GetMany(ctx, ids)
	if err != nil || len(posts) != len(dedupe(ids)) {
		return false
	}
	for _, p := range posts {
		if p.Type != postType || !calendar.CanRead(actor, p) {
			return false
		}
	}
	return true
}

func dedupe(ids []int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// dateBounds applies the plugin's date rules: each bound is a whole day (its
// UTC calendar date at 00:00:00 or 23:59:59, a wall-clock time of the site's
// zone, compared with the events' local times) unless
// strict_dates is true (then the value is an instant, zone-less values in
// UTC); with no date parameter the window runs from yesterday to two years
// ahead; a relative bound alone drops that default window.
func (s *Events) dateBounds(f EventFilter, q *calendar.PostQuery, bad *calendar.InvalidParams) error {
	strict := f.StrictDates
	now := s.now()
	site := s.settings.TimeZone
	values := map[string]string{}
	relative := false
	for _, d := range dateParams {
		if raw, ok := f.Dates[d.name]; ok {
			values[d.name] = raw
			relative = relative || (d.name != "start_date" && d.name != "end_date")
		}
	}
	// The default window fills what start_date and end_date leave open; a
	// sync (modified_after) and a subscription's filter want past events too.
	if !relative && f.ModifiedAfter == nil && !f.AllDates {
		if _, ok := values["start_date"]; !ok {
			values["start_date"] = now.UTC().AddDate(0, 0, -1).Format("2006-01-02") + " 23:59:00"
		}
		if _, ok := values["end_date"]; !ok {
			values["end_date"] = now.UTC().AddDate(2, 0, 0).Format(DateFormat)
		}
	}
	for _, d := range dateParams {
		raw, ok := values[d.name]
		if !ok {
			continue
		}
		t, err := strtotime.Parse(raw, now, time.UTC)
		if err != nil {
			bad.Add(d.name, d.name+" is not a date.", nil)
			continue
		}
		// The bound is a wall-clock time of the site's zone, compared with
		// each event's local times (calendar.WallClock).
		if strict {
			t = calendar.WallClock(t, site)
		} else {
			y, m, day := t.UTC().Date()
			if d.dayStart {
				t = time.Date(y, m, day, 0, 0, 0, 0, time.UTC)
			} else {
				t = time.Date(y, m, day, 23, 59, 59, 0, time.UTC)
			}
		}
		b := &calendar.Bound{T: t, Inclusive: d.incl}
		switch {
		case d.start && d.min:
			q.StartAfter = later(q.StartAfter, b)
		case d.start:
			q.StartBefore = earlier(q.StartBefore, b)
		case d.min:
			q.EndAfter = later(q.EndAfter, b)
		default:
			q.EndBefore = earlier(q.EndBefore, b)
		}
	}
	return nil
}

// DateParams are the names of the list's date bounds.
func DateParams() []string {
	names := make([]string, len(dateParams))
	for i, d := range dateParams {
		names[i] = d.name
	}
	return names
}

// later keeps the tighter of two lower bounds; earlier, of two upper bounds.
func later(a, b *calendar.Bound) *calendar.Bound {
	if a == nil || b.T.After(a.T) || (b.T.Equal(a.T) && !b.Inclusive) {
		return b
	}
	return a
}

func earlier(a, b *calendar.Bound) *calendar.Bound {
	if a == nil || b.T.Before(a.T) || (b.T.Equal(a.T) && !b.Inclusive) {
		return b
	}
	return a
}

// searchLanguage is the language a relevance search stems in: the one the
// request's address names (its primary subtag: pt for pt-br) when the site
// has it, else the site's first ("" when it has none).
func (s *Events) searchLanguage(requested string) string {
	primary, _, _ := strings.Cut(strings.ReplaceAll(strings.ToLower(requested), "_", "-"), "-")
	if slices.Contains(s.settings.Languages, primary) {
		return primary
	}
	if len(s.settings.Languages) > 0 {
		return s.settings.Languages[0]
	}
	return ""
}

// readSearchOrder applies orderby=relevance (the search ranks the list) and
// facets=. Relevance without a search has nothing to rank by: a 400 tells the
// client so, where falling back to the default order would hide the mistake.
func readSearchOrder(f EventFilter, q *calendar.PostQuery, bad *calendar.InvalidParams) {
	if f.OrderBy == "relevance" {
		if f.Search != nil {
			q.Relevance, q.Tolerant = *f.Search, "" // its words rank; q.Words widen it
		} else {
			bad.Add("orderby", "orderby=relevance needs search.", nil)
		}
	}
	if f.Facets != nil {
		q.Facets = []string{}
		for _, name := range calendar.FacetNames {
			if slices.Contains(*f.Facets, name) {
				q.Facets = append(q.Facets, name)
			}
		}
		for _, name := range *f.Facets { // then the custom fields', as asked
			if strings.HasPrefix(name, calendar.FacetCustomPrefix) && !slices.Contains(q.Facets, name) {
				q.Facets = append(q.Facets, name)
			}
		}
	}
}

// readNear reads a "near me" point (geoloc_lat and geoloc_lng, or near: a
// place the gazetteer finds; geoloc_radius, geoloc_unit); nil when no point is
// given. The route has checked the point's degrees, that its two halves come
// together and without near, the radius and the unit.
func readNear(in NearInput, bad *calendar.InvalidParams) *nearMe {
	if in.Place != nil {
		if lat, lng, ok := findPlace(*in.Place, bad); ok {
			in.Lat, in.Lng = &lat, &lng
		}
	}
	unit, radius := in.Unit, float64(calendar.DefaultGeoRadius)
	if unit == "" {
		unit = DefaultGeoUnit
	}
	if in.Radius != nil {
		radius = *in.Radius
	}
	if in.Lat == nil || in.Lng == nil {
		return nil
	}
	return &nearMe{GeoNear: calendar.GeoNear{Lat: *in.Lat, Lng: *in.Lng, Km: radius * kmPer[unit]}, unit: unit}
}

// readOrder reads orderby: the default order, or distance (which needs a point).
func readOrder(orderBy string, near *nearMe, bad *calendar.InvalidParams) bool {
	if orderBy == "distance" && near == nil {
		bad.Add("orderby", "orderby=distance needs a point: geoloc_lat and geoloc_lng, or near.", nil)
	}
	return orderBy == "distance"
}

// readModifiedAfter sets the modified_after filter and its order on q when
// it was sent.
func readModifiedAfter(raw *string, now time.Time, q *calendar.PostQuery, bad *calendar.InvalidParams) {
	if raw == nil {
		return
	}
	t, err := strtotime.Parse(*raw, now, time.UTC)
	if err != nil {
		bad.Add("modified_after", "modified_after is not a date.", nil)
		return
	}
	q.ModifiedAfter = &calendar.Bound{T: t.UTC()}
	q.Order = calendar.OrderModified
}

// eventFilters applies event, has_events and only_with_upcoming: each narrows
// the IDs the list may return, through the links of the events the caller may
// read, in the index. An event the caller may not read is a missing one.
func (s *LinkedPosts[V]) eventFilters(ctx context.Context, actor *calendar.User, f LinkedFilter, q *calendar.PostQuery) error {
	restrict := func(ids []int64) {
		if q.IDs == nil {
			q.IDs = ids
		} else {
			q.IDs = inOrderOf(q.IDs, ids)
		}
	}
	if f.Event != nil {
		e, err := s.loadReadable(ctx, actor, calendar.PostTypeEvent, *f.Event)
		if err != nil {
			return calendar.ErrInvalidParam("event", "event must be the ID of an event.")
		}
		ids := e.Organizers
		if s.kind.postType == calendar.PostTypeVenue {
			ids = []int64{}
			if e.Venue != 0 {
				ids = []int64{e.Venue}
			}
		}
		restrict(append([]int64{}, ids...))
	}
	if f.HasEvents != nil {
		// Events that count: published, scheduled or private, as the caller
		// may read them (the plugin counts drafts and pending ones out, and
		// trashed ones in: a trashed event is no longer there).
		counts, err := s.index.CountLinks(ctx, s.link(), calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: []string{calendar.StatusPublish, calendar.StatusFuture, calendar.StatusPrivate}, Reader: q.Reader})
		if err != nil {
			return err
		}
		if *f.HasEvents {
			restrict(keys(counts))
		} else {
			q.ExcludeIDs = append(q.ExcludeIDs, keys(counts)...)
		}
	}
	if f.OnlyWithUpcoming {
		// The plugin's quirk, kept: the events' statuses are the list's.
		upcoming := calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: q.Statuses, Reader: q.Reader, StartAfter: &calendar.Bound{T: calendar.WallClock(s.now(), s.settings.TimeZone), Inclusive: true}}
		counts, err := s.index.CountLinks(ctx, s.link(), upcoming)
		if err != nil {
			return err
		}
		restrict(keys(counts))
	}
	return nil
}

// listQuery turns a venue or organizer list's filter and the caller's
// visibility into the index query for one page.
func (s *LinkedPosts[V]) listQuery(ctx context.Context, actor *calendar.User, f LinkedFilter, page, perPage int) (calendar.PostQuery, *nearMe, error) {
	q := calendar.PostQuery{Type: s.kind.postType, Offset: (page - 1) * perPage, Limit: perPage}
	if f.Search != nil {
		q.Fragments = SearchFragments(*f.Search)
	}
	var err error
	if q.Statuses, err = listStatuses(actor, f.Statuses); err != nil {
		return q, nil, err
	}
	q.Reader = calendar.ReadRuleOf(actor)
	if err := s.eventFilters(ctx, actor, f, &q); err != nil {
		return q, nil, err
	}
	var near *nearMe
	var bad calendar.InvalidParams
	if s.kind.postType == calendar.PostTypeVenue {
		if near = readNear(f.Near, &bad); near != nil {
			q.Near = &near.GeoNear
		}
		q.Within = readBounds(f.Near.Bounds, &bad)
		order := ""
		if f.ByDistance {
			order = "distance"
		}
		if readOrder(order, near, &bad) {
			q.Order = calendar.OrderDistance
		}
	}
	readModifiedAfter(f.ModifiedAfter, s.now(), &q, &bad)
	if err := bad.Err(); err != nil {
		return q, nil, err
	}
	return q, near, nil
}

// listQuery turns a media list's filter into the index query for one page:
// finished uploads, newest first.
func (m *Media) listQuery(caller Caller, f MediaFilter, page, perPage int) (calendar.PostQuery, error) {
	q := calendar.PostQuery{Type: calendar.PostTypeAttachment, Statuses: []string{calendar.StatusInherit}, Reader: calendar.ReadRuleOf(caller.User),
		Authors: f.Authors, Offset: (page - 1) * perPage, Limit: perPage}
	if f.Search != nil && strings.TrimSpace(*f.Search) != "" {
		q.Fragments = SearchFragments(*f.Search)
	}
	return q, nil
}

// listQuery turns a term list's filter and the caller's visibility into the
// index query, and the order asked for (count is applied to the answer).
func (s *Terms) listQuery(ctx context.Context, caller Caller, f TermFilter) (calendar.TermQuery, string, error) {
	q := calendar.TermQuery{Taxonomy: s.kind.taxonomy}
	var bad calendar.InvalidParams
	nonEmpty := func(name string, v *string) string {
		if v == nil {
			return ""
		}
		if strings.TrimSpace(*v) == "" {
			bad.Add(name, name+" must not be empty.", nil)
		}
		return *v
	}
	if f.Search != nil {
		q.Search = *f.Search
	}
	q.Slug = nonEmpty("slug", f.Slug)
	order, orderBy := strings.ToLower(nonEmpty("order", f.Order)), nonEmpty("orderby", f.OrderBy)
	if order != "" && order != "asc" && order != "desc" {
		bad.Add("order", "order must be asc or desc.", nil)
	}
	q.Desc = order == "desc"
	for _, l := range []struct {
		name string
		refs *[]string
		dst  *[]int64
	}{{"include", f.Include, &q.Include}, {"exclude", f.Exclude, &q.Exclude}} {
		if l.refs != nil {
			ids, err := s.resolveRefs(ctx, caller.User, *l.refs)
			if err != nil {
				bad.Add(l.name, err.Error(), nil)
			}
			*l.dst = ids
		}
	}
	if f.Parent != nil {
		if *f.Parent != 0 && !s.exists(ctx, *f.Parent) {
			bad.Add("parent", "parent must be an existing category, or 0.", nil)
		}
		q.Parent = f.Parent
	}
	var event *calendar.Post
	if f.Event != nil { // one the caller may not read is a missing one
		e, err := s.posts.loadReadable(ctx, caller.User, calendar.PostTypeEvent, *f.Event)
		if err != nil {
			bad.Add(f.EventParam, f.EventParam+" must be the ID of an event.", nil)
		}
		event = e
	}
	if err := bad.Err(); err != nil {
		return q, "", err
	}
	if event != nil {
		carried := event.Categories
		if s.kind.taxonomy == calendar.TaxonomyTag {
			carried = event.Tags
		}
		if q.Include == nil {
			q.Include = append([]int64{}, carried...)
		} else {
			q.Include = inOrderOf(q.Include, carried)
		}
	}
	switch orderBy {
	case "id", "name", "slug", "parent", "description":
		q.OrderBy = orderBy
	case "none", "term_group":
		q.OrderBy = "id"
	}
	return q, orderBy, nil
}
