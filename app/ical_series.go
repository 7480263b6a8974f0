package app

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/teambition/rrule-go"

	"calendar/app/calendar"
	"calendar/app/ical"
)

// A recurring event goes into the feed as calendars expect it: its series
// once, as one VEVENT with its rules (RRULE, RDATE, EXDATE), whichever of its
// occurrences the list found and wherever its own first date falls; an
// occurrence the rules do not give as it is (edited on its own, or kept at an
// earlier schedule) as a VEVENT under the series' UID with a RECURRENCE-ID.
// An occurrence is an event of its own (its UID, no RECURRENCE-ID) when the
// caller may not read its series, when its start is not one the rules give,
// or when it is an exception and nothing else of its series is in the feed
// (calendars differ on an exception without its series).

// feedEntry is one VEVENT of the feed.
type feedEntry struct {
	event *calendar.Post
	view  *EventView
	rules *feedRules     // set: event is a series, written with its rules
	of    *calendar.Post // set: event is an exception of this series
}

// feedRules are a series' rules as the feed writes them.
type feedRules struct {
	rrules          []string    // values; UNTIL in the form RFC 5545 asks beside DTSTART
	rdates, exdates []time.Time // sorted; EXDATE with the series' excluded starts
	// instances are the starts (Unix) the rules give, DTSTART included, up to
	// the last occurrence listed; nil when too many to tell.
	instances map[int64]bool
}

// maxCheckedInstances bounds the expansion that tells whether an occurrence's
// start is still one its series' rules give.
const maxCheckedInstances = 1 << 15

// feedSeries is a series some listed event belongs to (or is).
type feedSeries struct {
	post    *calendar.Post
	view    *EventView // nil until rendered
	rules   *feedRules
	last    time.Time // the latest occurrence listed
	written bool      // some VEVENT other than its exceptions brings it in
}

// feedEntries turns the listed events (views[i] rendered from events[i]) into
// the feed's VEVENTs, loading in one read the series of the occurrences that
// were listed without them, and keeping those the caller may read.
func (s *Events) feedEntries(ctx context.Context, caller Caller, events []*calendar.Post, views []EventView, password string) ([]feedEntry, error) {
	series := map[int64]*feedSeries{}
	for i, e := range events {
		if e.Parent == 0 && isSeries(e) {
			series[e.ID] = &feedSeries{post: e, view: &views[i]}
		}
	}
	var missing []int64
	for _, e := range events {
		if _, ok := series[e.Parent]; e.Parent != 0 && !ok && !slices.Contains(missing, e.Parent) {
			missing = append(missing, e.Parent)
		}
	}
	parents, err := s.store.Posts().GetMany(ctx, missing)
	if err != nil {
		return nil, err
	}
	for _, p := range parents {
		if p.Type == calendar.PostTypeEvent && p.Parent == 0 && isSeries(p) && p.Status != calendar.StatusTrash && calendar.CanRead(caller.User, p) {
			series[p.ID] = &feedSeries{post: p}
		}
	}
	parsed := map[int64]*rules{}
	for id, fs := range series {
		r, err := parseRecurrence(fs.post.Recurrence, s.eventZone(fs.post))
		if err != nil {
			delete(series, id) // rules it cannot read: written as a plain event
			continue
		}
		parsed[id], fs.rules = r, feedRulesOf(fs.post, r, s.eventZone(fs.post))
	}
	for _, e := range events {
		if fs := series[e.Parent]; fs != nil && e.Occurrence.After(fs.last) {
			fs.last = e.Occurrence
		}
	}
	for id, fs := range series {
		s.expandInstances(fs, parsed[id])
		if err := s.excludeHidden(ctx, caller, fs); err != nil {
			return nil, err
		}
	}

	// What each listed event is: a series, an occurrence its series stands
	// for, an exception of it, or an event of its own.
	const (
		plain = iota
		asSeries
		covered
		exception
	)
	kinds := make([]int, len(events))
	for i, e := range events {
		switch fs := series[e.Parent]; {
		case series[e.ID] != nil && e.Parent == 0:
			kinds[i], series[e.ID].written = asSeries, true
		case fs == nil || (fs.rules.instances != nil && !fs.rules.instances[e.Occurrence.Unix()]):
			kinds[i] = plain
		case !e.Detached && s.sameAsRules(fs.post, e):
			kinds[i], fs.written = covered, true
		default:
			kinds[i] = exception
		}
	}
	var render []*calendar.Post
	for _, fs := range series {
		if fs.written && fs.view == nil {
			render = append(render, fs.post)
		}
	}
	if len(render) > 0 {
		rendered, err := s.render(ctx, caller, render, password, false)
		if err != nil {
			return nil, err
		}
		for i, p := range render {
			series[p.ID].view = &rendered[i]
		}
	}

	// A series comes where its first listed event was, its exceptions after
	// it, so that a feed cut at its size never holds one without the other.
	var out []feedEntry
	done := map[int64]bool{}
	pending := map[int64][]feedEntry{}
	for i, e := range events {
		switch kind, fs := kinds[i], series[e.Parent]; {
		case kind == asSeries:
			fs = series[e.ID]
			fallthrough
		case kind == covered:
			if !done[fs.post.ID] {
				done[fs.post.ID] = true
				out = append(out, feedEntry{event: fs.post, view: fs.view, rules: fs.rules})
				out = append(out, pending[fs.post.ID]...)
			}
		case kind == exception && fs.written:
			en := feedEntry{event: e, view: &views[i], of: fs.post}
			if done[fs.post.ID] {
				out = append(out, en)
			} else {
				pending[fs.post.ID] = append(pending[fs.post.ID], en)
			}
		default:
			out = append(out, feedEntry{event: e, view: &views[i]})
		}
	}
	return out, nil
}

// feedRulesOf are a series' rules (r, read in its zone as its occurrences
// were made from them) as the feed writes them.
func feedRulesOf(p *calendar.Post, r *rules, zone *time.Location) *feedRules {
	out := &feedRules{}
	for _, line := range p.Recurrence {
		head, value, _ := strings.Cut(strings.TrimSpace(line), ":")
		name, _, _ := strings.Cut(head, ";")
		if strings.EqualFold(name, "RRULE") {
			out.rrules = append(out.rrules, untilAsDTStart(value, p.AllDay, zone))
		}
	}
	// An RDATE before DTSTART makes no occurrence here, but a calendar
	// would show one: it is left out.
	out.rdates = slices.DeleteFunc(slices.Clone(r.rdates), func(t time.Time) bool { return t.Before(p.Start) })
	out.exdates = append(slices.Clone(r.exdates), p.Excluded...)
	for _, l := range [][]time.Time{out.rdates, out.exdates} {
		slices.SortFunc(l, time.Time.Compare)
	}
	out.exdates = slices.CompactFunc(out.exdates, time.Time.Equal)
	out.rdates = slices.CompactFunc(out.rdates, time.Time.Equal)
	return out
}

// expandInstances lists the starts the series' rules give up to its last
// listed occurrence, so an occurrence whose start they no longer give is
// told apart.
func (s *Events) expandInstances(fs *feedSeries, r *rules) {
	p := fs.post
	fs.rules.instances = map[int64]bool{p.Start.Unix(): true}
	if !fs.last.After(p.Start) {
		return
	}
	r.exdates = append(r.exdates, p.Excluded...)
	starts, err := r.between(p.Start, p.Start, fs.last, s.eventZone(p), maxCheckedInstances)
	if err != nil || len(starts) == maxCheckedInstances {
		fs.rules.instances = nil // cannot tell: trust the occurrences
		return
	}
	for _, t := range starts {
		fs.rules.instances[t.Unix()] = true
	}
}

// excludeHidden adds to a series' EXDATEs the starts of its occurrences the
// caller may not read (made private, a draft, pending...): a calendar
// expanding the rules would show them otherwise, as ordinary instances.
// They are found among the occurrences of other statuses than the series'.
func (s *Events) excludeHidden(ctx context.Context, caller Caller, fs *feedSeries) error {
	rule := calendar.ReadRuleOf(caller.User)
	if rule.All {
		return nil
	}
	id := fs.post.ID
	others := slices.DeleteFunc(slices.Clone(calendar.PostStatuses), func(st string) bool { return st == fs.post.Status })
	occurrences, err := s.findPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, Parent: &id, Statuses: others})
	if err != nil {
		return err
	}
	for _, o := range occurrences {
		if !rule.Allows(o.Status, o.Author) {
			fs.rules.exdates = append(fs.rules.exdates, o.Occurrence)
		}
	}
	slices.SortFunc(fs.rules.exdates, time.Time.Compare)
	fs.rules.exdates = slices.CompactFunc(fs.rules.exdates, time.Time.Equal)
	return nil
}

// sameAsRules reports whether a calendar expanding the series' VEVENT shows
// the occurrence as it is: at its start, with the series' duration (in days
// for all-day events), in the series' zone.
func (s *Events) sameAsRules(series, o *calendar.Post) bool {
	if o.AllDay != series.AllDay || o.TimeZone != series.TimeZone {
		return false
	}
	if !series.AllDay {
		return o.Start.Equal(o.Occurrence) && o.End.Sub(o.Start) == series.End.Sub(series.Start)
	}
	zone := s.eventZone(series)
	days := func(from, to time.Time) int64 { return dayNumber(to.In(zone)) - dayNumber(from.In(zone)) }
	return days(o.Occurrence, o.Start) == 0 && days(o.Start, o.End) == days(series.Start, series.End)
}

// untilAsDTStart is an RRULE value as given (upper case, control characters
// dropped), its UNTIL rewritten only when its form does not match DTSTART's
// (RFC 5545 3.3.10): a DATE beside an all-day DTSTART, a UTC time beside any
// other. It is read as the series' occurrences were made: a local time or a
// date in the series' zone.
func untilAsDTStart(value string, allDay bool, zone *time.Location) string {
	value = strings.ToUpper(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, strings.TrimSpace(value)))
	parts := strings.Split(value, ";")
	for i, part := range parts {
		until, ok := strings.CutPrefix(part, "UNTIL=")
		if !ok || (allDay && len(until) == len("20060102")) || (!allDay && strings.HasSuffix(until, "Z")) {
			continue
		}
		t, err := rrule.StrToDatesInLoc(until, zone)
		if err != nil || len(t) != 1 {
			continue
		}
		if allDay {
			parts[i] = "UNTIL=" + ical.Date(t[0].In(zone))
		} else {
			parts[i] = "UNTIL=" + ical.UTC(t[0])
		}
	}
	return strings.Join(parts, ";")
}

// feedSpanEnd is how far a series' zone is described: the end of its made
// occurrences, or two years past its start when none are made yet.
func feedSpanEnd(p *calendar.Post) time.Time {
	end := p.MaterializedUntil
	if end.IsZero() {
		end = p.Start.AddDate(2, 0, 0)
	}
	if end.Before(p.End) {
		end = p.End
	}
	return end
}

// maxSeriesZoneYears bounds the years of a series' zone the feed describes.
const maxSeriesZoneYears = 100

// feedTimes writes instants of a series as its DTSTART is: dates for an
// all-day series, local times with its TZID, or UTC times.
func feedTimes(allDay bool, loc *time.Location, ts []time.Time) (params, value string) {
	values := make([]string, len(ts))
	for i, t := range ts {
		switch t = t.In(loc); {
		case allDay:
			values[i] = ical.Date(t)
		case hasTZID(loc):
			values[i] = ical.Local(t)
		default:
			values[i] = ical.UTC(t)
		}
	}
	switch {
	case allDay:
		params = ";VALUE=DATE"
	case hasTZID(loc):
		params = ";TZID=" + loc.String()
	}
	return params, strings.Join(slices.Compact(values), ",")
}

// writeRecurrence writes what ties a VEVENT to its series: the rules of a
// series, or the RECURRENCE-ID of an exception (the start the rules gave it,
// in the series' form).
func (s *Events) writeRecurrence(w *ical.Writer, en feedEntry) {
	if en.of != nil {
		params, value := feedTimes(en.of.AllDay, s.eventZone(en.of), []time.Time{en.event.Occurrence})
		w.Line("RECURRENCE-ID", params, value)
	}
	if en.rules == nil {
		return
	}
	for _, rule := range en.rules.rrules {
		w.Line("RRULE", "", rule)
	}
	loc := s.eventZone(en.event)
	for _, l := range []struct {
		name  string
		times []time.Time
	}{{"RDATE", en.rules.rdates}, {"EXDATE", en.rules.exdates}} {
		if len(l.times) > 0 {
			params, value := feedTimes(en.event.AllDay, loc, l.times)
			w.Line(l.name, params, value)
		}
	}
}

// zoneYears are the years of loc an entry's times with a TZID fall in.
func (s *Events) zoneYears(en feedEntry, add func(loc *time.Location, years ...int)) {
	e := en.event
	if loc := s.eventZone(e); !e.AllDay && hasTZID(loc) {
		add(loc, e.Start.In(loc).Year(), e.End.In(loc).Year())
		if en.rules != nil {
			last := feedSpanEnd(e).In(loc).Year()
			for y := max(e.Start.In(loc).Year(), last-maxSeriesZoneYears); y <= last; y++ {
				add(loc, y)
			}
			for _, t := range slices.Concat(en.rules.rdates, en.rules.exdates) {
				add(loc, t.In(loc).Year())
			}
		}
	}
	if en.of != nil {
		if loc := s.eventZone(en.of); !en.of.AllDay && hasTZID(loc) {
			add(loc, e.Occurrence.In(loc).Year())
		}
	}
}
