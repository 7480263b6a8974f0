package app

import (
	"time"
)

// zoneState is what a VTIMEZONE observance describes: offset, name, daylight.
type zoneState struct {
	offset int
	name   string
	dst    bool
}

func stateAt(loc *time.Location, t time.Time) zoneState {
	local := t.In(loc)
	name, offset := local.Zone()
	return zoneState{offset: offset, name: name, dst: local.IsDST()}
}

// transition is the instant a zone moves from one state to the next.
type transition struct {
	at       time.Time
	from, to zoneState
}

// zoneTransitions finds the changes of a zone in [from, to): Go's tz database
// has no list of them, so it steps a day at a time and bisects to the second
// where the state changes (zones change at most once a day).
func zoneTransitions(loc *time.Location, from, to time.Time) []transition {
	var out []transition
	for t := from; t.Before(to); {
		next := t.Add(24 * time.Hour)
		if next.After(to) {
			next = to
		}
		before, after := stateAt(loc, t), stateAt(loc, next)
		if before != after {
			lo, hi := t, next // state(lo) = before, state(hi) != before
			for hi.Sub(lo) > time.Second {
				mid := lo.Add(hi.Sub(lo) / 2).Truncate(time.Second)
				if mid.Equal(lo) {
					mid = lo.Add(time.Second)
				}
				if stateAt(loc, mid) == before {
					lo = mid
				} else {
					hi = mid
				}
			}
			out = append(out, transition{at: hi, from: before, to: stateAt(loc, hi)})
			next = hi
		}
		t = next
	}
	return out
}

// writeVTimezone describes loc for the calendar years from first to last: the
// observance in effect when the first year begins, then every change up to the
// end of the last year, each with its real offsets.
func writeVTimezone(w *icalWriter, loc *time.Location, first, last int) {
	start := time.Date(first, 1, 1, 0, 0, 0, 0, loc)
	end := time.Date(last+1, 1, 1, 0, 0, 0, 0, loc)
	changes := zoneTransitions(loc, start.AddDate(-1, 0, 0), end)
	opening := transition{at: start, from: stateAt(loc, start), to: stateAt(loc, start)}
	var kept []transition
	for _, c := range changes {
		if c.at.After(start) {
			kept = append(kept, c)
		} else {
			opening = c // the latest change before the years begin is still in effect
		}
	}
	w.line("BEGIN", "", "VTIMEZONE")
	w.line("TZID", "", icalText(loc.String()))
	for _, c := range append([]transition{opening}, kept...) {
		kind := "STANDARD"
		if c.to.dst {
			kind = "DAYLIGHT"
		}
		w.line("BEGIN", "", kind)
		// DTSTART is the wall-clock time of the change in the offset it leaves.
		w.line("DTSTART", "", icalLocal(c.at.UTC().Add(time.Duration(c.from.offset)*time.Second)))
		w.line("TZOFFSETFROM", "", icalOffset(c.from.offset))
		w.line("TZOFFSETTO", "", icalOffset(c.to.offset))
		w.text("TZNAME", c.to.name)
		w.line("END", "", kind)
	}
	w.line("END", "", "VTIMEZONE")
}
