package ical

import (
	"time"

	"calendar/app/lru"
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

// WriteTimezone writes the VTIMEZONE of loc for the given calendar years (sorted, distinct):
// for each run of consecutive years, the observance in effect when it begins,
// then every change up to its end, each with its real offsets.
func WriteTimezone(w *Writer, loc *time.Location, years []int) {
	w.Line("BEGIN", "", "VTIMEZONE")
	w.Line("TZID", "", Text(loc.String()))
	for i := 0; i < len(years); {
		j := i
		for j+1 < len(years) && years[j+1] == years[j]+1 {
			j++
		}
		for _, c := range observances(loc, years[i], years[j]) {
			writeObservance(w, c)
		}
		i = j + 1
	}
	w.Line("END", "", "VTIMEZONE")
}

// observances are the changes of loc from the start of year first to the end
// of year last, led by the latest one before (or, when none in the year
// before, the state at the start as an observance of its own).
func observances(loc *time.Location, first, last int) []transition {
	start := time.Date(first, 1, 1, 0, 0, 0, 0, loc)
	opening := transition{at: start, from: stateAt(loc, start), to: stateAt(loc, start)}
	var kept []transition
	for y := first - 1; y <= last; y++ {
		for _, c := range transitionsIn(loc, y) {
			if c.at.After(start) {
				kept = append(kept, c)
			} else {
				opening = c
			}
		}
	}
	return append([]transition{opening}, kept...)
}

// zoneYear names one year of one zone.
type zoneYear struct {
	zone string
	year int
}

// knownTransitions keeps the changes of each zone and year once found:
// finding them steps through every day of the year, and a feed of events
// in many zones over many years asked it again on every request. 1,024
// years of zones hold a few hundred kilobytes.
var knownTransitions = lru.New[zoneYear, []transition](1024)

// transitionsIn are loc's changes during year (from its 1 January, local).
func transitionsIn(loc *time.Location, year int) []transition {
	key := zoneYear{loc.String(), year}
	if known, ok := knownTransitions.Get(key); ok {
		return known
	}
	found := zoneTransitions(loc, time.Date(year, 1, 1, 0, 0, 0, 0, loc), time.Date(year+1, 1, 1, 0, 0, 0, 0, loc))
	knownTransitions.Put(key, found)
	return found
}

func writeObservance(w *Writer, c transition) {
	kind := "STANDARD"
	if c.to.dst {
		kind = "DAYLIGHT"
	}
	w.Line("BEGIN", "", kind)
	// DTSTART is the wall-clock time of the change in the offset it leaves.
	w.Line("DTSTART", "", Local(c.at.UTC().Add(time.Duration(c.from.offset)*time.Second)))
	w.Line("TZOFFSETFROM", "", Offset(c.from.offset))
	w.Line("TZOFFSETTO", "", Offset(c.to.offset))
	w.Text("TZNAME", c.to.name)
	w.Line("END", "", kind)
}
