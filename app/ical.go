package app

import (
	"context"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"calendar/app/wordpress"
)

// DefaultFeedLimit caps the events of one iCalendar feed, DefaultFeedMaxBytes
// its size: events past it are left out (X-WP-Total still counts them).
const (
	DefaultFeedLimit    = 1000
	DefaultFeedMaxBytes = 8 << 20
)

// Feed is the event list as an iCalendar (RFC 5545) document, with the totals
// the JSON list would report for the same request.
type Feed struct {
	Body       []byte
	Total      int
	TotalPages int
}

// Feed answers the event list's filters and visibility with every matching
// event up to the feed limit, rendered from the same views as the list; the
// filter's PerPage only sets the totals the list would report.
func (s *Events) Feed(ctx context.Context, caller Caller, f EventFilter) (*Feed, error) {
	_, perPage := s.paging(f.Page)
	q, _, err := s.listQuery(ctx, caller.User, f)
	if err != nil {
		return nil, err
	}
	q.Limit = s.settings.FeedLimit
	found, err := s.index.SearchPosts(ctx, q)
	if err != nil {
		return nil, err
	}
	events, err := s.store.Posts().GetMany(ctx, found.IDs)
	if err != nil {
		return nil, err
	}
	views, err := s.render(ctx, caller, events, f.Password, false)
	if err != nil {
		return nil, err
	}
	entries, err := s.feedEntries(ctx, caller, events, views, f.Password)
	if err != nil {
		return nil, err
	}
	page := newPage(views, 1, perPage, found.Total)
	return &Feed{Body: s.renderICal(entries), Total: page.Total, TotalPages: page.TotalPages}, nil
}

// siteHost names the site in UIDs and the calendar name.
func (s *postService) siteHost() string {
	u, err := url.Parse(s.settings.SiteURL)
	if err != nil || u.Hostname() == "" {
		return "localhost"
	}
	return u.Hostname()
}

// eventZone is the zone an event's times are written in, as renderEvent picks it.
func (s *Events) eventZone(e *Post) *time.Location {
	zone, err := wordpress.ParseZone(e.TimeZone)
	if err != nil {
		return s.settings.TimeZone
	}
	return zone
}

// hasTZID: a zone of the tz database gets a TZID and a VTIMEZONE; UTC and
// fixed offsets are written as UTC times.
func hasTZID(loc *time.Location) bool {
	return loc != time.UTC && loc.String() != "UTC" && !wordpress.IsOffsetZone(loc)
}

// renderICal writes the calendar, a VEVENT an entry.
func (s *Events) renderICal(entries []icalEntry) []byte {
	// Only times with a TZID need their zone described, for the years they
	// fall in: bounded by the events, however far apart they are; a series'
	// zone for the years its made occurrences span (see zoneYears).
	years := map[string][]int{}
	locs := map[string]*time.Location{}
	for _, en := range entries {
		s.zoneYears(en, func(loc *time.Location, y ...int) {
			locs[loc.String()] = loc
			years[loc.String()] = append(years[loc.String()], y...)
		})
	}
	w := &icalWriter{}
	w.line("BEGIN", "", "VCALENDAR")
	w.line("VERSION", "", "2.0")
	w.line("PRODID", "", "-//calendar//events feed//EN")
	w.line("CALSCALE", "", "GREGORIAN")
	w.text("X-WR-CALNAME", s.siteHost())
	for _, name := range slices.Sorted(maps.Keys(locs)) {
		y := years[name]
		slices.Sort(y)
		writeVTimezone(w, locs[name], slices.Compact(y))
	}
	end := len("END:VCALENDAR\r\n")
	written := len(locs)
	for _, en := range entries {
		before := w.buf.Len()
		s.writeVEvent(w, en)
		if w.buf.Len()+end > s.settings.FeedMaxBytes {
			w.buf.Truncate(before) // the feed is full: this event and the rest are left out
			break
		}
		written++
	}
	if written == 0 { // RFC 5545 wants one component at least: strict parsers refuse none
		writeVTimezone(w, s.settings.TimeZone, []int{s.now().In(s.settings.TimeZone).Year()})
	}
	w.line("END", "", "VCALENDAR")
	return w.buf.Bytes()
}

// icalStatus maps post statuses onto the VEVENT statuses.
var icalStatus = map[string]string{
	StatusPublish: "CONFIRMED", StatusFuture: "CONFIRMED", StatusPrivate: "CONFIRMED",
	StatusDraft: "TENTATIVE", StatusPending: "TENTATIVE", StatusTrash: "CANCELLED",
}

// writeVEvent writes an event; an exception of a series goes under the
// series' UID.
func (s *Events) writeVEvent(w *icalWriter, en icalEntry) {
	e, v := en.event, en.view
	loc := s.eventZone(e)
	uid := e.ID
	if en.of != nil {
		uid = en.of.ID
	}
	w.line("BEGIN", "", "VEVENT")
	w.line("UID", "", icalText(strconv.FormatInt(uid, 10)+"@"+s.siteHost()))
	// Without a METHOD, DTSTAMP is when the event was last revised in the
	// store (RFC 5545 3.8.7.2): the feed is then the same bytes until an event
	// changes, so its ETag holds.
	w.line("DTSTAMP", "", icalUTC(e.Modified))
	switch start, end := e.Start.In(loc), e.End.In(loc); {
	case e.AllDay: // DTEND is exclusive: the day after the last day
		w.line("DTSTART", ";VALUE=DATE", icalDate(start))
		w.line("DTEND", ";VALUE=DATE", icalDate(time.Date(end.Year(), end.Month(), end.Day()+1, 0, 0, 0, 0, time.UTC)))
	case hasTZID(loc):
		tzid := ";TZID=" + loc.String() // tz database names need no quoting
		w.line("DTSTART", tzid, icalLocal(start))
		w.line("DTEND", tzid, icalLocal(end))
	default:
		w.line("DTSTART", "", icalUTC(start))
		w.line("DTEND", "", icalUTC(end))
	}
	s.writeRecurrence(w, en)
	w.text("SUMMARY", v.Title)
	w.text("DESCRIPTION", plainText(v.Description))
	w.line("URL", "", v.URL)
	if venue, ok := v.Venue.(VenueView); ok {
		w.text("LOCATION", joinNonEmpty(venue.Venue, venue.Address, venue.City, venue.StateProvince, venue.Zip, venue.Country))
		if venue.GeoLat != nil && venue.GeoLng != nil {
			w.line("GEO", "", formatCoord(*venue.GeoLat)+";"+formatCoord(*venue.GeoLng))
		}
	}
	if len(v.Organizer) > 0 { // a VEVENT has one ORGANIZER: the first
		o := v.Organizer[0]
		address := o.URL
		if o.Email != "" {
			address = "mailto:" + o.Email
		}
		w.line("ORGANIZER", ";CN="+icalParam(o.Organizer), address)
	}
	if len(v.Categories) > 0 {
		names := make([]string, len(v.Categories))
		for i, c := range v.Categories {
			names[i] = icalText(c.Name)
		}
		w.line("CATEGORIES", "", strings.Join(names, ","))
	}
	w.line("SEQUENCE", "", strconv.FormatInt(e.Seq, 10))
	if !e.Date.IsZero() {
		w.line("CREATED", "", icalUTC(e.Date))
	}
	if !e.Modified.IsZero() {
		w.line("LAST-MODIFIED", "", icalUTC(e.Modified))
	}
	if status, ok := icalStatus[e.Status]; ok {
		w.line("STATUS", "", status)
	}
	if e.Status == StatusPrivate {
		w.line("CLASS", "", "PRIVATE")
	}
	w.line("END", "", "VEVENT")
}

func joinNonEmpty(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ", ")
}

func formatCoord(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
