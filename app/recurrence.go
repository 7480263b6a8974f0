package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/teambition/rrule-go"
)

// Recurring events are expanded by rrule-go, a port of python-dateutil's
// rrule (the reference implementation of RFC 5545 rules most calendars
// follow), already in the module graph through the iCalendar encoder.

const (
	// SeriesHorizon is how far ahead a series' occurrences are made: the
	// default list window, so any list from today finds them; a series that
	// never ends is extended as time passes.
	SeriesHorizon = 2 * 365 * 24 * time.Hour
	// MaxOccurrencesAhead caps the occurrences of one series made ahead of
	// now, so an hourly rule does not make 17,000 events.
	MaxOccurrencesAhead = 1000
	// MaxRecurrenceLines bounds the content lines of a series,
	// MaxRecurrenceLineBytes each of them.
	MaxRecurrenceLines     = 20
	MaxRecurrenceLineBytes = 1000
	// minOccurrenceGap: a rule may not repeat more than once a minute.
	minOccurrenceGap = time.Minute
	// noOccurrenceWithin is how far a rule is searched for a second
	// occurrence before it is refused as producing none.
	noOccurrenceWithin = 10 * 366 * 24 * time.Hour
)

// rules is a series' recurrence read in its zone from its start.
type rules struct {
	options []rrule.ROption
	rdates  []time.Time
	exdates []time.Time
}

// parseRecurrence reads content lines as Google Calendar's API takes them:
// RRULE, RDATE and EXDATE, local times in the event's zone. A wrong line is
// reported by its index and the part that is wrong.
func parseRecurrence(lines []string, zone *time.Location) (*rules, error) {
	if len(lines) > MaxRecurrenceLines {
		return nil, fmt.Errorf("at most %d lines", MaxRecurrenceLines)
	}
	r := &rules{}
	for i, line := range lines {
		line = strings.TrimSpace(line)
		name, value, ok := strings.Cut(line, ":")
		params := ""
		if n, p, found := strings.Cut(name, ";"); found {
			name, params = n, p
		}
		name = strings.ToUpper(name)
		fail := func(format string, args ...any) error {
			return fmt.Errorf("line %d (%s): %s", i+1, name, fmt.Sprintf(format, args...))
		}
		if !ok || value == "" {
			return nil, fmt.Errorf("line %d: want NAME:VALUE, such as RRULE:FREQ=WEEKLY", i+1)
		}
		switch name {
		case "RRULE":
			if params != "" {
				return nil, fail("takes no parameters")
			}
			opt, err := rrule.StrToROptionInLocation(strings.ToUpper(value), zone)
			if err != nil {
				return nil, fail("%v", err)
			}
			if opt.Freq == rrule.SECONDLY {
				return nil, fail("FREQ=SECONDLY repeats more than once a minute")
			}
			if opt.Interval < 0 || opt.Count < 0 {
				return nil, fail("INTERVAL and COUNT must be positive")
			}
			if len(r.options) > 0 {
				return nil, fail("one RRULE per series")
			}
			r.options = append(r.options, *opt)
		case "RDATE", "EXDATE":
			raw := strings.ToUpper(value)
			if params != "" {
				raw = upperParams(params) + ":" + raw
			}
			dates, err := rrule.StrToDatesInLoc(raw, zone)
			if err != nil {
				return nil, fail("%v", err)
			}
			if name == "RDATE" {
				r.rdates = append(r.rdates, dates...)
			} else {
				r.exdates = append(r.exdates, dates...)
			}
		default:
			return nil, fmt.Errorf("line %d: %q is not RRULE, RDATE or EXDATE", i+1, name)
		}
	}
	if len(r.options) == 0 && len(r.rdates) == 0 {
		return nil, fmt.Errorf("no RRULE or RDATE: nothing recurs")
	}
	return r, nil
}

// upperParams writes parameters as rrule-go reads them, in upper case but
// for a TZID's zone name, which is case-sensitive.
func upperParams(params string) string {
	parts := strings.Split(params, ";")
	for i, p := range parts {
		name, value, _ := strings.Cut(p, "=")
		if name = strings.ToUpper(name); name == "TZID" {
			parts[i] = name + "=" + value
		} else {
			parts[i] = name + "=" + strings.ToUpper(value)
		}
	}
	return strings.Join(parts, ";")
}

// between gives the starts of the occurrences after from (excluded) up to
// until (included), at most limit, from a series starting at start (its
// DTSTART, itself the first occurrence) in zone. The rule is cut at until,
// so even a rule that matches nothing stops there.
func (r *rules) between(start, from, until time.Time, zone *time.Location, limit int) ([]time.Time, error) {
	set := &rrule.Set{}
	set.DTStart(start.In(zone))
	for _, opt := range r.options {
		opt.Dtstart = start.In(zone)
		if opt.Until.IsZero() || opt.Until.After(until) {
			opt.Until = until // also beside COUNT: a rule that matches nothing must stop
		}
		rule, err := rrule.NewRRule(opt)
		if err != nil {
			return nil, err
		}
		set.RRule(rule)
	}
	for _, d := range r.rdates {
		set.RDate(d)
	}
	for _, d := range r.exdates {
		set.ExDate(d)
	}
	var out []time.Time
	next := set.Iterator()
	for len(out) < limit {
		t, ok := next()
		if !ok || t.After(until) {
			break
		}
		if t.After(from) {
			out = append(out, t)
		}
	}
	return out, nil
}

// checkRecurrence refuses rules that make no occurrence besides the first,
// or that repeat more than once a minute.
func (r *rules) check(start time.Time, zone *time.Location) error {
	window := noOccurrenceWithin
	for _, opt := range r.options {
		if opt.Freq == rrule.MINUTELY || opt.Freq == rrule.HOURLY {
			window = SeriesHorizon
		}
	}
	first, err := r.between(start, start, start.Add(window), zone, 50)
	if err != nil {
		return err
	}
	if len(first) == 0 {
		return fmt.Errorf("the rules give no occurrence after the first")
	}
	previous := start
	for _, t := range first {
		if t.Sub(previous) < minOccurrenceGap {
			return fmt.Errorf("the rules repeat more than once a minute")
		}
		previous = t
	}
	return nil
}
