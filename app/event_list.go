package app

import (
	"context"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/strtotime"
)

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

// List answers GET /events through the index.
func (s *Events) List(ctx context.Context, caller Caller, f EventFilter) (*Page[EventView], error) {
	page, perPage := s.paging(f.Page)
	q, near, err := s.listQuery(ctx, caller.User, f)
	if err != nil {
		return nil, err
	}
	q.Offset, q.Limit = (page-1)*perPage, perPage
	found, err := s.index.SearchPosts(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(found.IDs) == 0 && page > 1 {
		return nil, calendar.NewError(calendar.KindNotFound, "event-archive-page-not-found", "The requested event archive page does not exist")
	}
	events, err := s.store.Posts().GetMany(ctx, found.IDs)
	if err != nil {
		return nil, err
	}
	items, err := s.render(ctx, caller, events, f.Password, false)
	if err != nil {
		return nil, err
	}
	for i, e := range events {
		if v, ok := items[i].Venue.(VenueView); ok && v.GeoLat != nil { // shown only where the venue shows it
			items[i].Distance = near.distance(e.VenueGeo)
		}
	}
	answer := newPage(items, page, perPage, found.Total)
	if q.Facets != nil {
		if answer.Facets, err = s.facets(ctx, caller.User, q.Facets, found.Facets); err != nil {
			return nil, err
		}
	}
	return answer, nil
}

// listQuery turns the list's filter and the caller's visibility into the
// index query (without its page), shared by the list and the feed.
func (s *Events) listQuery(ctx context.Context, actor *calendar.User, f EventFilter) (calendar.PostQuery, *nearMe, error) {
	var err error
	q := calendar.PostQuery{Type: calendar.PostTypeEvent, Order: calendar.OrderStart, ListedOnly: true}
	var bad calendar.InvalidParams
	if f.Search != nil {
		if search := *f.Search; strings.TrimSpace(search) == "" || search == "0" || len(search) > calendar.MaxSearchLength {
			bad.Add("search", "search must be a non-empty string of at most 200 bytes.", nil)
		}
		// Accents are folded, as WordPress' database collation does and as
		// the index folds the words it keeps.
		q.Words = SearchFragments(calendar.FoldTitle(*f.Search))
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
	q.Featured, q.HasGeo = f.Featured, f.HasGeo
	near := readNear(f.Near, &bad)
	if near != nil {
		q.Near = &near.GeoNear
	}
	byDistance := readOrder(f.OrderBy, near, &bad)
	readSearchOrder(f, &q, &bad)
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
	if byDistance {
		q.Order = calendar.OrderDistance
	}
	readModifiedAfter(f.ModifiedAfter, s.now(), &q, &bad)
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
// UTC calendar date at 00:00:00 or 23:59:59, read in the site zone) unless
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
	// sync (modified_after) wants past events too.
	if !relative && f.ModifiedAfter == nil {
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
		if !strict {
			y, m, day := t.UTC().Date()
			if d.dayStart {
				t = strtotime.WallClock(y, int(m), day, 0, 0, 0, site)
			} else {
				t = strtotime.WallClock(y, int(m), day, 23, 59, 59, site)
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
