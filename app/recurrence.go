package app

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/teambition/rrule-go"

	"calendar/app/recur"
)

// Recurring events are read by rrule-go's parser and expanded by app/recur,
// which gives rrule-go's starts within a budget (rrule-go's own iterator
// cannot be stopped: a rule that never matches ran for ever).

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

// What one expansion of a series' rules may cost: periods visited (a
// period is one FREQ*INTERVAL step, or, for an hourly or minutely rule, one
// step on a day it keeps or one day it drops) and time. Two years of a
// minutely rule that never matches visit about 730 days; a rule over the
// budget is refused where it is written and fails its job where it is made.
const (
	expansionPeriods = 500_000
	expansionTime    = time.Second
)

// errRulesTooCostly: the rules need more than their budget to expand.
var errRulesTooCostly = errors.New("the rules take too long to expand")

// between gives the starts of the occurrences after from (excluded) up to
// until (included), at most limit, from a series starting at start (its
// DTSTART, itself the first occurrence) in zone: the RRULE's, as app/recur
// expands it within its budget, and the RDATEs, less the EXDATEs, in order.
func (r *rules) between(start, from, until time.Time, zone *time.Location, limit int) ([]time.Time, error) {
	return r.within(start, from, until, zone, limit, recur.Budget{Periods: expansionPeriods, Deadline: time.Now().Add(expansionTime)})
}

// within is between under another budget.
func (r *rules) within(start, from, until time.Time, zone *time.Location, limit int, budget recur.Budget) ([]time.Time, error) {
	var out []time.Time
	for _, opt := range r.options {
		starts, err := recur.Expand(opt, start.In(zone), from, until, limit, budget)
		if errors.Is(err, recur.ErrBudget) {
			return nil, errRulesTooCostly
		}
		if err != nil {
			return nil, err
		}
		out = append(out, starts...)
	}
	for _, d := range r.rdates {
		if d.After(from) && !d.After(until) {
			out = append(out, d)
		}
	}
	out = slices.DeleteFunc(out, func(t time.Time) bool { return slices.ContainsFunc(r.exdates, t.Equal) })
	slices.SortFunc(out, time.Time.Compare)
	out = slices.CompactFunc(out, time.Time.Equal)
	return out[:min(len(out), limit)], nil
}

// check refuses rules that make no occurrence besides the first within the
// window a series is checked over (ten years, two for hourly and minutely
// rules), or that repeat more than once a minute: every start the rules
// give in that window, and every RDATE, wherever it falls, is compared with
// its neighbours.
func (r *rules) check(start time.Time, zone *time.Location) error {
	window := noOccurrenceWithin
	for _, opt := range r.options {
		if opt.Freq == rrule.MINUTELY || opt.Freq == rrule.HOURLY {
			window = SeriesHorizon
		}
	}
	starts, err := r.between(start, start, start.Add(window), zone, maxCheckedStarts)
	if err != nil {
		return err
	}
	if len(starts) == 0 && !slices.ContainsFunc(r.rdates, start.Before) {
		return fmt.Errorf("the rules give no occurrence after the first")
	}
	all := append([]time.Time{start}, starts...)
	for _, d := range r.rdates {
		if d.After(start) {
			all = append(all, d)
		}
	}
	slices.SortFunc(all, time.Time.Compare)
	all = slices.CompactFunc(all, time.Time.Equal) // an RDATE the window's starts hold already
	for i := 1; i < len(all); i++ {
		if all[i].Sub(all[i-1]) < minOccurrenceGap {
			return fmt.Errorf("the rules repeat more than once a minute")
		}
	}
	return nil
}

// maxCheckedStarts bounds the starts check compares: more than a series
// makes at once.
const maxCheckedStarts = 4 * MaxOccurrencesAhead
