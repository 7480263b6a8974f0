package app

import (
	"context"
	"strings"
	"time"
)

// EventListArgs are the parameters of GET /events.
var EventListArgs = []Arg{
	pageArgs[0], pageArgs[1],
	{Name: "start_date", Type: TypeString, Description: "Events that start on or after this date (the whole day unless strict_dates)."},
	{Name: "end_date", Type: TypeString, Description: "Events that end on or before this date (the whole day unless strict_dates)."},
	{Name: "search", Type: TypeString, Description: "Words that must all occur in the title, description or excerpt."},
	{Name: "categories", Type: TypeArray, Items: TypeString, Description: "Event category IDs or slugs (any of them)."},
	{Name: "tags", Type: TypeArray, Items: TypeString, Description: "Tag IDs or slugs (any of them)."},
	{Name: "venue", Type: TypeArray, Items: TypeInteger, Description: "Venue IDs (any of them)."},
	{Name: "organizer", Type: TypeArray, Items: TypeInteger, Description: "Organizer IDs (any of them)."},
	{Name: "featured", Type: TypeBoolean, Description: "Only featured events (true) or only the others (false)."},
	{Name: "status", Type: TypeArray, Items: TypeString, Description: "Statuses to list; only publish for visitors who may not edit."},
	{Name: "post_parent", Type: TypeInteger, Description: "Only the children of this event."},
	{Name: "include", Type: TypeArray, Items: TypeInteger, Description: "Only these events; date filters are ignored."},
	{Name: "starts_before", Type: TypeString}, {Name: "starts_after", Type: TypeString},
	{Name: "ends_before", Type: TypeString}, {Name: "ends_after", Type: TypeString},
	{Name: "strict_dates", Type: TypeString, Default: "false", Description: "true: compare the dates as sent; otherwise whole days."},
	{Name: "ticketed", Type: TypeBoolean, Description: "Ticketing is not enabled: true is a 400, false no filter."},
	{Name: "password", Type: TypeString, Description: "Shows the details of events protected by this password."},
	{Name: "geoloc", Type: TypeBoolean, Description: "true: only events whose venue has coordinates; false: only the others."},
	NearArgs[0], NearArgs[1], NearArgs[2], NearArgs[3],
	{Name: "orderby", Type: TypeString, Default: "start_date", Enum: []string{"start_date", "distance", "relevance"},
		Description: "start_date (then publication date, then ID), distance from the point, nearest first, or relevance to search (best first, then start_date); relevance matches words, their prefixes, one typo in words of five letters or more, accents folded."},
	{Name: "facets", Type: TypeArray, Items: TypeString, Enum: facetNames,
		Description: "Count the matching events per value of these fields, under facets."},
	modifiedAfterArg,
}

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
func (s *Events) List(ctx context.Context, actor *User, v Values, root string) (*Page[EventView], error) {
	page, perPage, err := s.paging(v)
	if err != nil {
		return nil, err
	}
	q, near, err := s.listQuery(ctx, actor, v)
	if err != nil {
		return nil, err
	}
	q.Offset, q.Limit = (page-1)*perPage, perPage
	found, err := s.searchPosts(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(found.IDs) == 0 && page > 1 {
		return nil, NewError(KindNotFound, "event-archive-page-not-found", "The requested event archive page does not exist")
	}
	events, err := s.store.Posts().GetMany(ctx, found.IDs)
	if err != nil {
		return nil, err
	}
	items, err := s.render(ctx, events, actor, v, false, root)
	if err != nil {
		return nil, err
	}
	for i, e := range events {
		items[i].Distance = near.distance(e.VenueGeo)
	}
	answer := newPage(items, page, perPage, found.Total)
	if q.Facets != nil {
		if answer.Facets, err = s.facets(ctx, q.Facets, found.Facets); err != nil {
			return nil, err
		}
	}
	return answer, nil
}

// listQuery turns the list parameters and the caller's visibility into the
// index query (without its page), shared by the list and the feed.
func (s *Events) listQuery(ctx context.Context, actor *User, v Values) (PostQuery, *nearMe, error) {
	var err error
	q := PostQuery{Type: PostTypeEvent, Order: OrderStart, ListedOnly: true}
	var bad InvalidParams
	if search, ok := v.String("search"); ok {
		if strings.TrimSpace(search) == "" || search == "0" || len(search) > MaxSearchLength {
			bad.Add("search", "search must be a non-empty string of at most 200 bytes.", nil)
		}
		// Accents are folded, as WordPress' database collation does and as
		// the index folds the words it keeps.
		q.Words = SearchFragments(FoldTitle(search))
	}
	if ticketed, _ := v.Bool("ticketed"); ticketed {
		bad.Add("ticketed", "ticketing is not enabled", nil)
	}
	if strict, ok := v.String("strict_dates"); ok && (strict == "" || strict == "0") {
		bad.Add("strict_dates", "strict_dates must be a non-empty string.", nil)
	}
	if password, ok := v.String("password"); ok && (password == "" || password == "0") {
		bad.Add("password", "password must be a non-empty string.", nil)
	}
	for _, f := range []struct {
		name  string
		terms *Terms
		dst   *[]int64
	}{{"categories", s.categories, &q.Categories}, {"tags", s.tags, &q.Tags}} {
		if refs, ok := v.Strings(f.name); ok {
			ids, err := f.terms.resolveRefs(ctx, refs)
			if err != nil || len(refs) == 0 {
				bad.Add(f.name, "every item must be an existing term ID or slug.", nil)
			}
			*f.dst = ids
		}
	}
	for _, f := range []struct {
		name string
		kind string
		dst  *[]int64
	}{{"venue", PostTypeVenue, &q.Venues}, {"organizer", PostTypeOrganizer, &q.Organizers}} {
		if ids, ok := v.Ints(f.name); ok {
			if !s.allReadable(ctx, actor, ids, f.kind) {
				bad.Add(f.name, "every item must be the ID of an existing "+f.kind+".", nil)
			}
			*f.dst = ids
		}
	}
	if featured, ok := v.Bool("featured"); ok {
		q.Featured = &featured
	}
	if geoloc, ok := v.Bool("geoloc"); ok {
		q.HasGeo = &geoloc
	}
	near := readNear(v, &bad)
	if near != nil {
		q.Near = &near.GeoNear
	}
	byDistance := readOrder(v, near, &bad)
	readSearchOrder(v, &q, &bad)
	if parent, ok := v.Int("post_parent"); ok {
		if _, err := s.loadReadable(ctx, actor, PostTypeEvent, parent); err != nil {
			bad.Add("post_parent", "post_parent must be the ID of an existing event.", nil)
		}
		q.Parent = &parent
	}
	if ids, ok := v.Ints("include"); ok {
		for _, id := range ids {
			if id <= 0 {
				bad.Add("include", "every item must be a positive integer.", nil)
			}
		}
		q.IDs, q.Order = ids, OrderPublished
	} else if err := s.dateBounds(v, &q, &bad); err != nil {
		return q, nil, err
	}
	if byDistance {
		q.Order = OrderDistance
	}
	readModifiedAfter(v, s.now(), &q, &bad)
	if err := bad.Err(); err != nil {
		return q, nil, err
	}
	if q.Statuses, err = listStatuses(actor, v); err != nil {
		return q, nil, err
	}
	q.Reader = readRuleOf(actor)
	return q, near, nil
}

// allReadable: every ID names a post of the type that the caller may read
// (one it may not is a missing one).
func (s *Events) allReadable(ctx context.Context, actor *User, ids []int64, postType string) bool {
	if len(ids) == 0 {
		return false
	}
	posts, err := s.store.Posts().GetMany(ctx, ids)
	if err != nil || len(posts) != len(dedupe(ids)) {
		return false
	}
	for _, p := range posts {
		if p.Type != postType || !canRead(actor, p) {
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
func (s *Events) dateBounds(v Values, q *PostQuery, bad *InvalidParams) error {
	strictRaw, _ := v.String("strict_dates")
	strict := isTruthyFilter(strictRaw)
	now := s.now()
	site := s.settings.TimeZone
	values := map[string]string{}
	relative := false
	for _, d := range dateParams {
		if raw, ok := v.String(d.name); ok {
			values[d.name] = raw
			relative = relative || (d.name != "start_date" && d.name != "end_date")
		}
	}
	// The default window fills what start_date and end_date leave open; a
	// sync (modified_after) wants past events too.
	if !relative && !v.Has("modified_after") {
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
		t, err := ParseDate(raw, now, time.UTC)
		if err != nil {
			bad.Add(d.name, d.name+" is not a date.", nil)
			continue
		}
		if !strict {
			y, m, day := t.UTC().Date()
			if d.dayStart {
				t = wallClock(y, int(m), day, 0, 0, 0, site)
			} else {
				t = wallClock(y, int(m), day, 23, 59, 59, site)
			}
		}
		b := &Bound{T: t, Inclusive: d.incl}
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

// later keeps the tighter of two lower bounds; earlier, of two upper bounds.
func later(a, b *Bound) *Bound {
	if a == nil || b.T.After(a.T) || (b.T.Equal(a.T) && !b.Inclusive) {
		return b
	}
	return a
}

func earlier(a, b *Bound) *Bound {
	if a == nil || b.T.Before(a.T) || (b.T.Equal(a.T) && !b.Inclusive) {
		return b
	}
	return a
}

// isTruthyFilter is PHP's FILTER_VALIDATE_BOOLEAN: 1, true, on, yes.
func isTruthyFilter(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "on", "yes":
		return true
	}
	return false
}
