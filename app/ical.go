package app

import (
	"cmp"
	"context"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/ical"
)

// DefaultFeedLimit caps the events of one iCalendar feed, DefaultFeedMaxBytes
// its size, DefaultFeedZoneYears the years of zones its VTIMEZONEs describe
// (each described and the year before each run of them: a feed of 1,000
// events, each starting and ending in years of their own, needs 4,000):
// events past them are left out (X-WP-Total still counts them).
const (
	DefaultFeedLimit     = 1000
	DefaultFeedMaxBytes  = 8 << 20
	DefaultFeedZoneYears = 4096
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
// filter's PerPage only sets the totals the list would report. A series is
// written once with its rules, unless the filter expands it (Expand): then
// each occurrence listed is a VEVENT of its own, as the plugin writes them.
func (s *Events) Feed(ctx context.Context, caller Caller, f EventFilter) (*Feed, error) {
	ctx = searchingAs(ctx, caller)
	_, perPage := s.paging(f.Page)
	q, _, err := s.listQuery(ctx, caller, f)
	if err != nil {
		return nil, err
	}
	q.Limit = s.settings.FeedLimit
	return s.feedOf(ctx, caller, q, feedAs{password: f.Password, expand: f.Expand, perPage: perPage})
}

// feedAs is how a feed writes what its query finds: expanded (a VEVENT per
// event, no rules), with the totals of pages of perPage.
type feedAs struct {
	password string
	expand   bool
	perPage  int
}

// feedOf writes the events q finds (at most q.Limit) as a feed.
func (s *Events) feedOf(ctx context.Context, caller Caller, q calendar.PostQuery, as feedAs) (*Feed, error) {
	q.GeoGrid, q.Facets, q.Days = 0, nil, nil // a feed has no map, nor counts
	found, err := s.index.SearchPosts(ctx, q)
	if err != nil {
		return nil, err
	}
	events, err := s.store.Posts().GetMany(ctx, found.IDs)
	if err != nil {
		return nil, err
	}
	views, err := s.render(ctx, caller, events, as.password, false)
	if err != nil {
		return nil, err
	}
	var entries []feedEntry
	if as.expand {
		entries = eachOnItsOwn(events, views)
	} else if entries, err = s.feedEntries(ctx, caller, events, views, as.password); err != nil {
		return nil, err
	}
	page := newPage(views, 1, max(as.perPage, 1), found.Total)
	return &Feed{Body: s.renderICal(entries, s.feedHead(caller)), Total: page.Total, TotalPages: page.TotalPages}, nil
}

// EventFeed is one event as an iCalendar document (its .ics: what an "add
// to calendar" button downloads): the event as the caller may read it, a
// VEVENT of its own (an occurrence without its series' rules, as the
// plugin's single event export writes it).
func (s *Events) EventFeed(ctx context.Context, caller Caller, ref PostRef, password string) (*Feed, error) {
	e, err := s.readable(ctx, caller, ref, password)
	if err != nil {
		return nil, err
	}
	views, err := s.render(ctx, caller, []*calendar.Post{e}, password, false)
	if err != nil {
		return nil, err
	}
	head := s.feedHead(caller)
	head.name, head.url = views[0].Title, views[0].URL
	return &Feed{Body: s.renderICal(eachOnItsOwn([]*calendar.Post{e}, views), head), Total: 1, TotalPages: 1}, nil
}

// eachOnItsOwn makes each event a VEVENT of its own.
func eachOnItsOwn(events []*calendar.Post, views []EventView) []feedEntry {
	entries := make([]feedEntry, len(events))
	for i, e := range events {
		entries[i] = feedEntry{event: e, view: &views[i]}
	}
	return entries
}

// feedHead is what a calendar says of itself (RFC 7986): its name, the page
// that shows it, and how often a subscriber should fetch it again.
type feedHead struct {
	name, url string
}

// FeedRefreshInterval is how often a subscribed calendar asks us to fetch
// the feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL).
const FeedRefreshInterval = "PT1H"

func (s *Events) feedHead(caller Caller) feedHead {
	return feedHead{name: s.siteName(), url: s.home(caller) + "/events/"}
}

// siteHost names the site in UIDs and the calendar name.
// siteName is the site's name as people know it: the setting, else the site
// URL's host.
func (s *postService) siteName() string { return cmp.Or(s.settings.SiteName, s.siteHost()) }

func (s *postService) siteHost() string {
	u, err := url.Parse(s.settings.SiteURL)
	if err != nil || u.Hostname() == "" {
		return "localhost"
	}
	return u.Hostname()
}

// eventZone is the zone an event's times are written in, as renderEvent picks it.
func (s *Events) eventZone(e *calendar.Post) *time.Location {
	zone, err := calendar.ParseZone(e.TimeZone)
	if err != nil {
		return s.settings.TimeZone
	}
	return zone
}

// hasTZID: a zone of the tz database gets a TZID and a VTIMEZONE; UTC and
// fixed offsets are written as UTC times.
func hasTZID(loc *time.Location) bool {
	return loc != time.UTC && loc.String() != "UTC" && !calendar.IsOffsetZone(loc)
}

// renderICal writes the calendar, a VEVENT an entry, led by the VTIMEZONEs
// of the zones its times with a TZID name, for the years they fall in (a
// series' zone for the years its made occurrences span: see zoneYears). An
// entry is written while the feed keeps within its bytes and its zones
// within their years (FeedZoneYears, so that the years of a feed are kept
// whole for the next request); the first that does not fit ends the feed.
func (s *Events) renderICal(entries []feedEntry, head feedHead) []byte {
	w := &ical.Writer{}
	w.Line("BEGIN", "", "VCALENDAR")
	w.Line("VERSION", "", "2.0")
	w.Line("PRODID", "", "-//calendar//events feed//EN")
	w.Line("CALSCALE", "", "GREGORIAN")
	w.Text("X-WR-CALNAME", head.name)
	w.Text("NAME", head.name)
	w.Line("URL", ";VALUE=URI", head.url)
	w.Line("REFRESH-INTERVAL", ";VALUE=DURATION", FeedRefreshInterval)
	w.Line("X-PUBLISHED-TTL", "", FeedRefreshInterval)
	end := len("END:VCALENDAR\r\n")
	zones, events := ical.NewZones(), &ical.Writer{}
	written := 0
	for _, en := range entries {
		before := events.Len()
		s.writeVEvent(events, en)
		var years []ical.ZoneYears
		s.zoneYears(en, func(loc *time.Location, y ...int) { years = append(years, ical.ZoneYears{Zone: loc, Years: y}) })
		fits := func(zoneYears, zoneBytes int) bool {
			return zoneYears <= s.settings.FeedZoneYears && w.Len()+zoneBytes+events.Len()+end <= s.settings.FeedMaxBytes
		}
		if !zones.Grow(years, fits) {
			events.Truncate(before) // the feed is full: this event and the rest are left out
			break
		}
		written++
	}
	if written == 0 { // RFC 5545 wants one component at least: strict parsers refuse none
		site := []ical.ZoneYears{{Zone: s.settings.TimeZone, Years: []int{s.now().In(s.settings.TimeZone).Year()}}}
		zones.Grow(site, func(int, int) bool { return true })
	}
	zones.Write(w)
	w.Append(events.Bytes())
	w.Line("END", "", "VCALENDAR")
	return w.Bytes()
}

// feedStatus maps post statuses onto the VEVENT statuses.
var feedStatus = map[string]string{
	calendar.StatusPublish: "CONFIRMED", calendar.StatusFuture: "CONFIRMED", calendar.StatusPrivate: "CONFIRMED",
	calendar.StatusDraft: "TENTATIVE", calendar.StatusPending: "TENTATIVE", calendar.StatusTrash: "CANCELLED",
}

// writeVEvent writes an event; an exception of a series goes under the
// series' UID.
func (s *Events) writeVEvent(w *ical.Writer, en feedEntry) {
	e, v := en.event, en.view
	loc := s.eventZone(e)
	uid := e.ID
	if en.of != nil {
		uid = en.of.ID
	}
	w.Line("BEGIN", "", "VEVENT")
	w.Line("UID", "", ical.Text(strconv.FormatInt(uid, 10)+"@"+s.siteHost()))
	// Without a METHOD, DTSTAMP is when the event was last revised in the
	// store (RFC 5545 3.8.7.2): the feed is then the same bytes until an event
	// changes, so its ETag holds.
	w.Line("DTSTAMP", "", ical.UTC(e.Modified))
	switch start, end := e.Start.In(loc), e.End.In(loc); {
	case e.AllDay: // DTEND is exclusive: the day after the last day
		w.Line("DTSTART", ";VALUE=DATE", ical.Date(start))
		w.Line("DTEND", ";VALUE=DATE", ical.Date(time.Date(end.Year(), end.Month(), end.Day()+1, 0, 0, 0, 0, time.UTC)))
	case hasTZID(loc):
		tzid := ";TZID=" + loc.String() // tz database names need no quoting
		w.Line("DTSTART", tzid, ical.Local(start))
		w.Line("DTEND", tzid, ical.Local(end))
	default:
		w.Line("DTSTART", "", ical.UTC(start))
		w.Line("DTEND", "", ical.UTC(end))
	}
	s.writeRecurrence(w, en)
	w.Text("SUMMARY", v.Title)
	w.Text("DESCRIPTION", statusNote(v)+plainText(v.Description))
	w.Line("URL", "", v.URL)
	if img, ok := v.Image.(*ImageView); ok && img.URL != "" {
		w.Line("IMAGE", ";VALUE=URI;DISPLAY=BADGE", img.URL)
	}
	if v.OnlineURL != "" && v.AttendanceMode != calendar.AttendanceOffline {
		w.Line("CONFERENCE", ";VALUE=URI;FEATURE=VIDEO;LABEL="+ical.Param("Join online"), v.OnlineURL)
	}
	if venue, ok := v.Venue.(VenueView); ok && v.AttendanceMode != calendar.AttendanceOnline {
		w.Text("LOCATION", joinNonEmpty(venue.Venue, venue.Address, venue.City, venue.StateProvince, venue.Zip, venue.Country))
		if venue.GeoLat != nil && venue.GeoLng != nil {
			w.Line("GEO", "", formatCoord(*venue.GeoLat)+";"+formatCoord(*venue.GeoLng))
		}
	}
	if len(v.Organizer) > 0 { // a VEVENT has one ORGANIZER: the first
		o := v.Organizer[0]
		address := o.URL
		if o.Email != "" {
			address = "mailto:" + o.Email
		}
		w.Line("ORGANIZER", ";CN="+ical.Param(o.Organizer), address)
	}
	if len(v.Categories) > 0 {
		names := make([]string, len(v.Categories))
		for i, c := range v.Categories {
			names[i] = ical.Text(c.Name)
		}
		w.Line("CATEGORIES", "", strings.Join(names, ","))
	}
	w.Line("SEQUENCE", "", strconv.FormatInt(e.Revisions, 10))
	if !e.Date.IsZero() {
		w.Line("CREATED", "", ical.UTC(e.Date))
	}
	if !e.Modified.IsZero() {
		w.Line("LAST-MODIFIED", "", ical.UTC(e.Modified))
	}
	status, ok := feedStatus[e.Status]
	switch v.EventStatus {
	case calendar.EventCanceled:
		status, ok = "CANCELLED", true
	case calendar.EventPostponed:
		status, ok = "TENTATIVE", true
	}
	if ok {
		w.Line("STATUS", "", status)
	}
	if e.Status == calendar.StatusPrivate {
		w.Line("CLASS", "", "PRIVATE")
	}
	w.Line("END", "", "VEVENT")
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

var (
	lineBreakTag  = regexp.MustCompile(`(?i)<br\s*/?>\s*`)
	paragraphEnd  = regexp.MustCompile(`(?i)</p>\s*`)
	extraNewlines = regexp.MustCompile(`\n{3,}`)
)

// plainText turns a rendered HTML description into text: paragraphs become
// blank-line separated, line breaks newlines, tags go, entities are decoded.
func plainText(html string) string {
	s := lineBreakTag.ReplaceAllString(html, "\n")
	s = paragraphEnd.ReplaceAllString(s, "\n\n")
	return extraNewlines.ReplaceAllString(stripTags(s), "\n\n")
}

// statusNote leads the description of an event that does not take place as
// planned: calendars show no status but CANCELLED, and that one only as a
// strike-through.
func statusNote(v *EventView) string {
	label, ok := eventStatusLabels[v.EventStatus]
	if !ok {
		return ""
	}
	if v.EventStatusReason != "" {
		label += ": " + v.EventStatusReason
	}
	return label + "\n\n"
}

var eventStatusLabels = map[string]string{
	calendar.EventCanceled: "Canceled", calendar.EventPostponed: "Postponed",
	calendar.EventRescheduled: "Rescheduled", calendar.EventMovedOnline: "Moved online",
}
