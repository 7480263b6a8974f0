package app

import (
	"context"
	"time"

	"calendar/app/calendar"
	"calendar/app/strtotime"
)

// The plugin's own iCalendar exports, which visitors saved in their
// calendar apps from its pages (Tribe__Events__iCal): a page's events with
// ?ical=1, each event (each occurrence of a series) a VEVENT of its own and
// no rules, in the order of their starts, windowed as the page is:
//
//   - the events page and the list page: the upcoming events, those ending
//     now or later, or on or after the day of tribe-bar-date when that day is
//     still to come (an earlier one is ignored, as is eventDate), the first
//     PluginFeedCount of them;
//   - the month view: every event that runs within the month's grid, from
//     the first day of the week holding the 1st to the last day of the week
//     holding the month's last day (weeks begin on Monday, WordPress'
//     default start_of_week), the month named by eventDate or tribe-bar-date
//     (YYYY-MM or a date in it), else the current one;
//   - a single event's permalink: that event.
//
// Events hidden from listings are left out of the pages' feeds, as the
// plugin's views leave them out; a category (tribe_events_cat) narrows them.

// PluginFeedCount is how many upcoming events the list's export writes: the
// plugin's default (tribe_ical_feed_posts_per_page).
const PluginFeedCount = 30

// Site pages whose export a SiteFeed answers.
const (
	SitePageList  = "list"
	SitePageMonth = "month"
)

// SiteFeedRequest is a page's export: which page, and its query.
type SiteFeedRequest struct {
	Page string // SitePageList or SitePageMonth
	// Month is eventDate (or the month view's path segment), BarDate
	// tribe-bar-date, as sent ("" when not).
	Month, BarDate string
	Categories     *[]string
}

// SiteFeed writes a page's export as the plugin does.
func (s *Events) SiteFeed(ctx context.Context, caller Caller, r SiteFeedRequest) (*Feed, error) {
	ctx = searchingAs(ctx, caller)
	q, _, err := s.listQuery(ctx, caller, EventFilter{Categories: r.Categories, AllDates: true})
	if err != nil {
		return nil, err
	}
	site := s.settings.TimeZone
	now := s.now()
	today := calendar.WallClock(now, site)
	switch r.Page {
	case SitePageMonth:
		first, last := monthGrid(s.pageMonth(r, now))
		q.EndAfter = &calendar.Bound{T: first, Inclusive: true}
		q.StartBefore = &calendar.Bound{T: last.Add(24*time.Hour - time.Second), Inclusive: true}
		q.Limit = s.settings.FeedLimit // the plugin writes the whole month
	default:
		from := today
		if day, ok := s.pageDate(r.BarDate, now); ok && day.After(today) {
			from = day
		}
		q.EndAfter = &calendar.Bound{T: from, Inclusive: true}
		q.Limit = min(PluginFeedCount, s.settings.FeedLimit)
	}
	q.Order = calendar.OrderStart
	return s.feedOf(ctx, caller, q, feedAs{expand: true, perPage: q.Limit})
}

// pageDate is a date the pages take (tribe-bar-date), at 00:00 as a wall
// clock of the site's zone.
func (s *Events) pageDate(raw string, now time.Time) (time.Time, bool) {
	if raw == "" {
		return time.Time{}, false
	}
	if t, err := time.Parse("2006-01", raw); err == nil {
		return t, true
	}
	t, err := strtotime.Parse(raw, now, s.settings.TimeZone)
	if err != nil {
		return time.Time{}, false
	}
	y, m, d := t.In(s.settings.TimeZone).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), true
}

// pageMonth is the first day of the month the month view shows.
func (s *Events) pageMonth(r SiteFeedRequest, now time.Time) time.Time {
	for _, raw := range []string{r.Month, r.BarDate} {
		if t, ok := s.pageDate(raw, now); ok {
			return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
		}
	}
	t := calendar.WallClock(now, s.settings.TimeZone)
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// monthGrid is the first and the last day of the weeks (Monday to Sunday)
// a month's grid shows.
func monthGrid(firstOfMonth time.Time) (first, last time.Time) {
	back := (int(firstOfMonth.Weekday()) + 6) % 7 // days since Monday
	first = firstOfMonth.AddDate(0, 0, -back)
	end := firstOfMonth.AddDate(0, 1, -1)
	last = end.AddDate(0, 0, (7-int(end.Weekday()))%7)
	return first, last
}
