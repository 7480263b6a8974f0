// Package recur expands one RFC 5545 recurrence rule within a window and a
// budget.
//
// rrule-go, which expanded rules before, cannot be stopped: its iterator
// looks for ever for a BYHOUR an INTERVAL never reaches, and it walks a rule
// that never matches up to the year 9999 whatever its UNTIL. Expand gives the
// same starts as rrule-go for every rule rrule-go ends on (a test compares
// the two on a table rrule-go wrote, see testdata/generate.go), but the
// window, a count of periods and a deadline all bound it. rrule-go is kept
// for parsing: its ROption is the rule Expand reads.
//
// Where rrule-go departs from RFC 5545 Expand follows it, so that series
// expand as they did:
//   - a wall-clock time a DST change skips is read by time.Date, which takes
//     the offset after the change in zones west of UTC (02:30 on a
//     spring-forward day in New York is 01:30 EST, so that day's starts can
//     come out of order) and the one before it east of UTC (Paris: 03:30
//     CEST), where RFC 5545 always takes the one before;
//   - the first WEEKLY period runs from DTSTART to the end of its week, so
//     BYSETPOS counts only the days of that week from DTSTART on;
//   - BYDAY ordinals are dropped from WEEKLY and finer rules, and in a
//     MONTHLY or YEARLY rule BYDAY=MO,1TU keeps the days both parts keep
//     (none) rather than those either keeps;
//   - COUNT counts a start a rule gives twice in a row (BYHOUR=9,9) twice;
//   - week numbers at the turn of a year: see weekNumbers and weeksBefore.
//
// Where rrule-go panics (BYDAY=-6MO or 8MO in a MONTHLY rule) Expand selects
// nothing.
package recur

import (
	"errors"
	"time"

	"github.com/teambition/rrule-go"
)

// Budget bounds one expansion. Periods is how many FREQ*INTERVAL periods
// it may visit: for HOURLY and MINUTELY, each step on a day the day parts
// keep and each day they drop; zero or less leaves only the window to bound
// it. Deadline, when not zero, is the instant it must stop by.
type Budget struct {
	Periods  int
	Deadline time.Time
}

// ErrBudget says the rule needed more than its budget; what it found before
// comes with it.
var ErrBudget = errors.New("recurrence rule: over its budget")

// wallSlack bounds how far a DST or zone change can move a wall-clock time
// from where its neighbours put it. Periods are skipped or stopped on wall
// clock with this margin, so that none that could give a start within the
// window is missed.
const wallSlack = 48 * 3600

// Expand returns, in order, the starts the rule gives after `after`
// (excluded) and up to `until` (included), at most limit of them. (In
// order but for the starts a DST gap moves back, which come where rrule-go
// gives them.)
//
// opt is rrule-go's parsed rule (rrule.StrToROptionInLocation); its Dtstart
// is ignored for dtstart, the series' first start, in the series' zone: the
// rule runs on dtstart's wall clock in dtstart's Location. The rule's UNTIL
// and COUNT apply too; with COUNT the rule is walked from dtstart, without
// it from shortly before `after`. Expansion stops once a period starts after
// until (give or take wallSlack), so a rule that never matches costs at most
// the periods of the window, and with ErrBudget, and what it found so far,
// when the budget runs out. FREQ=SECONDLY and BYEASTER are refused.
func Expand(opt rrule.ROption, dtstart, after, until time.Time, limit int, b Budget) ([]time.Time, error) {
	if dtstart.IsZero() {
		return nil, errors.New("recurrence rule: no DTSTART")
	}
	r, err := newRule(opt, dtstart)
	if err != nil {
		return nil, err
	}
	if !r.until.IsZero() && r.until.Before(until) {
		until = r.until
	}
	if limit <= 0 || !until.After(after) || until.Before(r.dtstart) {
		return nil, nil
	}
	x := &expansion{
		rule:  r,
		loc:   dtstart.Location(),
		emit:  emitter{dtstart: r.dtstart, until: until, after: after, countLeft: r.count, limit: limit},
		meter: meter{periods: b.Periods, deadline: b.Deadline},
	}
	x.stopWall = wallSeconds(until.In(x.loc)) + wallSlack
	if r.count == 0 && after.After(r.dtstart) {
		x.fromWall = wallSeconds(after.In(x.loc)) - wallSlack
	} else {
		x.fromWall = wallSeconds(r.dtstart)
	}
	if r.freq == rrule.HOURLY || r.freq == rrule.MINUTELY {
		err = x.steps()
	} else {
		err = x.periods()
	}
	return x.emit.out, err
}

// expansion is the state of one Expand.
type expansion struct {
	rule     *rule
	loc      *time.Location
	emit     emitter
	meter    meter
	fromWall int64 // wall-clock seconds: periods ending before are skipped
	stopWall int64 // and periods starting after end the expansion
	year     yearView
	kept     []date
	picked   []time.Time
}

// wallSeconds counts the seconds of t's wall clock from 1970-01-01 00:00 on
// that same clock.
func wallSeconds(t time.Time) int64 {
	y, m, d := t.Date()
	h, mi, s := t.Clock()
	return daysFromCivil(y, int(m), d)*86400 + int64(h*3600+mi*60+s)
}

// meter counts the periods visited against the budget.
type meter struct {
	periods  int
	deadline time.Time
	visited  int
}

// deadlineEvery spaces the clock reads: a period costs well under a
// microsecond, so the deadline is overrun by less than that many of them.
const deadlineEvery = 64

func (m *meter) visit() error {
	m.visited++
	if m.periods > 0 && m.visited > m.periods {
		return ErrBudget
	}
	if !m.deadline.IsZero() && m.visited%deadlineEvery == 1 && time.Now().After(m.deadline) {
		return ErrBudget
	}
	return nil
}
