package app

import (
	"fmt"
	"slices"
	"time"

	"calendar/app/calendar"
)

// Per-day counts (facets=days) are the dots and badges of a month grid: the
// list's matching events on each day of its window, an event on every day
// its times cover (a festival on each of its days, an all-day event on its
// day, each occurrence of a series on its own). Days are those of the
// wall-clock times the list bounds and orders events by (the plugin's
// default time-zone mode: each event at its own local times, the window's
// bounds read in the site's zone), so a day's count is what the list
// answers for that day, and a change of daylight-saving time moves no
// event to another day. With tz, the days are those of that zone (a
// reader's, whose grid shows each event at its local times there): a timed
// event is on every day of that zone its instants cover, an all-day event
// on its own dates whatever the zone (as calendar apps show a birthday or
// a holiday); the events counted are still the list's, its window read as
// ever. They are counted by the index from its bitmaps, no event rendered
// (index/days.go).

// DayCount is one day of a window and its matching events.
type DayCount struct {
	Date  string `json:"date"`
	Count int    `json:"count"`
}

// readDays sets q.Days from facets=days: the days from the list's earliest
// lower date bound to its latest upper one, at most
// calendar.MaxDayCounts of them, else a 400 naming facets; in the zone tz
// names (f.DaysZone), which only facets=days reads (else a 400 naming tz).
func readDays(f EventFilter, q *calendar.PostQuery, bad *calendar.InvalidParams) {
	zone := ""
	if f.DaysZone != nil {
		if loc, err := calendar.ParseZone(*f.DaysZone); err == nil {
			zone = loc.String()
		} else {
			bad.Add("tz", "tz is not a time zone: give an IANA name such as Europe/Berlin, or UTC.", nil)
		}
	}
	if f.Facets == nil || !slices.Contains(*f.Facets, calendar.FacetDays) {
		if f.DaysZone != nil {
			bad.Add("tz", "tz is the zone of the days facets=days counts: add days to facets, or leave tz out.", nil)
		}
		return
	}
	lo, hi := earliestBound(q.StartAfter, q.EndAfter), latestBound(q.StartBefore, q.EndBefore)
	if lo == nil || hi == nil || q.IDs != nil {
		bad.Add("facets", fmt.Sprintf("facets=days counts the days of the list's window: give start_date and end_date, at most %d days apart.", calendar.MaxDayCounts), nil)
		return
	}
	first := dayOf(lo.T)
	last := dayOf(hi.T)
	if !hi.Inclusive && hi.T.Equal(last) && last.After(first) { // up to midnight, not into the day it begins
		last = last.AddDate(0, 0, -1)
	}
	n := int(last.Sub(first).Hours()/24) + 1
	if n < 1 || n > calendar.MaxDayCounts {
		bad.Add("facets", fmt.Sprintf("facets=days counts at most %d days; this window has %d: narrow start_date and end_date.", calendar.MaxDayCounts, max(n, 0)), nil)
		return
	}
	q.Days = &calendar.DaySpan{First: first, Count: n, Zone: zone}
}

// dayOf is 00:00 of a wall-clock time's day.
func dayOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func earliestBound(a, b *calendar.Bound) *calendar.Bound {
	if a == nil || b != nil && b.T.Before(a.T) {
		return b
	}
	return a
}

func latestBound(a, b *calendar.Bound) *calendar.Bound {
	if a == nil || b != nil && b.T.After(a.T) {
		return b
	}
	return a
}

func newDayCounts(span calendar.DaySpan, counts []int) []DayCount {
	out := make([]DayCount, span.Count)
	for k := range out {
		out[k].Date = span.First.AddDate(0, 0, k).Format(time.DateOnly)
		if k < len(counts) {
			out[k].Count = counts[k]
		}
	}
	return out
}
