package recur

import (
	"slices"
	"time"
)

// emitter takes the starts a rule generates, in rrule-go's order, and
// applies what ends or filters them.
type emitter struct {
	dtstart, until, after time.Time
	countLeft             int // 0: no COUNT
	limit                 int
	out                   []time.Time
	last                  time.Time // the previous start, to drop a repeat
	done                  bool
}

// add applies, to one generated start, UNTIL (the first start after it ends
// the rule, as in rrule-go, even where a DST change makes a later start an
// earlier instant), DTSTART, COUNT, then the caller's window and limit. A
// start equal to the one before it is counted but given once, as rrule-go's
// Set gives it (BYHOUR=9,9, or two wall-clock times one instant).
func (e *emitter) add(t time.Time) {
	if t.After(e.until) {
		e.done = true
		return
	}
	if t.Before(e.dtstart) {
		return
	}
	repeat := t.Equal(e.last)
	e.last = t
	if !repeat && t.After(e.after) {
		e.out = append(e.out, t)
		e.done = len(e.out) >= e.limit
	}
	if e.countLeft > 0 {
		e.countLeft--
		e.done = e.done || e.countLeft == 0
	}
}

// emitPeriod gives the starts of one period: every kept day at every time,
// or with BYSETPOS those at its positions in that list, in time order.
// base is added to each time (the hour or minute of an HOURLY or MINUTELY
// step).
func (x *expansion) emitPeriod(days []date, base int) {
	times := x.rule.times
	if len(x.rule.setPos) == 0 {
		for _, d := range days {
			for _, s := range times {
				if x.emit.add(x.at(d, base+s)); x.emit.done {
					return
				}
			}
		}
		return
	}
	n := len(days) * len(times)
	picked := x.picked[:0]
	for _, pos := range x.rule.setPos {
		i := pos - 1
		if pos < 0 {
			i = n + pos
		}
		if i < 0 || i >= n {
			continue
		}
		t := x.at(days[i/len(times)], base+times[i%len(times)])
		if !slices.ContainsFunc(picked, t.Equal) {
			picked = append(picked, t)
		}
	}
	slices.SortFunc(picked, time.Time.Compare)
	x.picked = picked
	for _, t := range picked {
		if x.emit.add(t); x.emit.done {
			return
		}
	}
}

// at is the instant of second s of day d on DTSTART's wall clock. A time a
// DST change skips is read by time.Date, as rrule-go reads it.
func (x *expansion) at(d date, s int) time.Time {
	return time.Date(d.y, time.Month(d.m), d.d, s/3600, s/60%60, s%60, 0, x.loc)
}
