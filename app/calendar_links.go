package app

import (
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"calendar/app/calendar"
)

// CalendarLinks are what an "add to calendar" button opens, named after the
// plugin's own links (its single event's iCal export and Google Calendar
// link, its Outlook 365 and Outlook Live exports): the event's iCalendar
// file, and the forms of Google Calendar and Outlook on the web that add it.
type CalendarLinks struct {
	ICal        string `json:"ical"`
	GCal        string `json:"gcal,omitempty"`
	Outlook365  string `json:"outlook_365,omitempty"`
	OutlookLive string `json:"outlook_live,omitempty"`
}

// maxLinkDetailsRunes bounds the text a link carries: browsers and the
// calendars' forms refuse URLs of some kilobytes.
const maxLinkDetailsRunes = 500

// calendarLinks are the event's links as the view shows it (its venue, if
// the caller may read it; the link to join): root is the API root.
func calendarLinks(v *EventView, e *calendar.Post, root string) *CalendarLinks {
	links := &CalendarLinks{ICal: root + "events/" + itoa(e.ID) + ".ics"}
	location := ""
	if venue, ok := v.Venue.(VenueView); ok && v.AttendanceMode != calendar.AttendanceOnline {
		location = joinNonEmpty(venue.Venue, venue.Address, venue.City, venue.StateProvince, venue.Zip, venue.Country)
	}
	if location == "" && v.OnlineURL != "" {
		location = v.OnlineURL
	}
	details := cutRunes(strings.TrimSpace(strings.Join([]string{plainText(v.Excerpt), v.OnlineURL, v.URL}, "\n\n")), maxLinkDetailsRunes)
	start, end := e.Start.UTC(), e.End.UTC()

	g := url.Values{"action": {"TEMPLATE"}, "text": {v.Title}, "details": {details}}
	if location != "" {
		g.Set("location", location)
	}
	o := url.Values{"path": {"/calendar/action/compose"}, "rru": {"addevent"}, "subject": {v.Title}, "body": {details}}
	if location != "" {
		o.Set("location", location)
	}
	if e.AllDay { // whole days of the event's own calendar; the end is the day after
		zone := start
		if loc, err := calendar.ParseZone(e.TimeZone); err == nil {
			zone, end = e.Start.In(loc), e.End.In(loc)
		}
		first := time.Date(zone.Year(), zone.Month(), zone.Day(), 0, 0, 0, 0, time.UTC)
		after := time.Date(end.Year(), end.Month(), end.Day()+1, 0, 0, 0, 0, time.UTC)
		g.Set("dates", first.Format("20060102")+"/"+after.Format("20060102"))
		o.Set("startdt", first.Format("2006-01-02"))
		o.Set("enddt", after.Format("2006-01-02"))
		o.Set("allday", "true")
	} else {
		g.Set("dates", start.Format("20060102T150405Z")+"/"+end.Format("20060102T150405Z"))
		o.Set("startdt", start.Format(time.RFC3339))
		o.Set("enddt", end.Format(time.RFC3339))
		o.Set("allday", "false")
	}
	if v.TimeZone != "" && !strings.HasPrefix(v.TimeZone, "UTC") {
		g.Set("ctz", v.TimeZone) // shown in the event's zone
	}
	links.GCal = "https://calendar.google.com/calendar/render?" + g.Encode()
	links.Outlook365 = "https://outlook.office.com/calendar/0/deeplink/compose?" + o.Encode()
	links.OutlookLive = "https://outlook.live.com/calendar/0/deeplink/compose?" + o.Encode()
	return links
}

// cutRunes keeps at most n runes of s, ending with an ellipsis when cut.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
