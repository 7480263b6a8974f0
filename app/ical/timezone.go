package ical

import (
	"bytes"
	"sync/atomic"
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

// zoneYear names one year of one zone.
type zoneYear struct {
	zone string
	year int
}

// yearBlock is one year of a zone as VTIMEZONE lines, ready to be copied:
// changes, an observance for each change during the year (from its 1
// January, local); next, the observance that opens a run of years starting
// the year after: its last change, or, when it has none, the state in
// effect on the next 1 January. A run of years [a, b] is then year a-1's
// next and the changes of a to b.
type yearBlock struct{ changes, next []byte }

// blockOverhead is what a kept year costs besides its lines (its key, list
// element and map slot), so that the budget in bytes bounds the entries too.
const blockOverhead = 128

// KeptZoneBytes bounds the years of zones kept for every feed: 4 MiB, each
// year counted as its lines and blockOverhead, so 32,768 years at most
// (about 9,000 of a zone with summer time, whose year is some 320 bytes).
const KeptZoneBytes = 4 << 20

// yearBlocks keeps years of zones once worked out, the least recently used
// forgotten first; computed counts the years it had to work out.
type yearBlocks struct {
	kept     *lru.Cache[zoneYear, yearBlock]
	computed atomic.Int64
}

func newYearBlocks(budget int) *yearBlocks {
	return &yearBlocks{kept: lru.NewCosted[zoneYear](budget, func(b yearBlock) int { return len(b.changes) + len(b.next) + blockOverhead })}
}

// knownYears are shared by every feed: a feed of events in many zones over
// many years asked the same years again on every request, and working one
// out steps through each of its days.
var knownYears = newYearBlocks(KeptZoneBytes)

// year is a year of loc as VTIMEZONE lines.
func (b *yearBlocks) year(loc *time.Location, year int) yearBlock {
	key := zoneYear{loc.String(), year}
	if kept, ok := b.kept.Get(key); ok {
		return kept
	}
	b.computed.Add(1)
	start, end := time.Date(year, 1, 1, 0, 0, 0, 0, loc), time.Date(year+1, 1, 1, 0, 0, 0, 0, loc)
	changes := zoneTransitions(loc, start, end)
	opening := transition{at: end, from: stateAt(loc, end), to: stateAt(loc, end)}
	if len(changes) > 0 {
		opening = changes[len(changes)-1]
	}
	w := &Writer{}
	for _, c := range changes {
		writeObservance(w, c)
	}
	n := w.Len()
	writeObservance(w, opening)
	lines := bytes.Clone(w.Bytes())
	block := yearBlock{changes: lines[:n:n], next: lines[n:]}
	b.kept.Put(key, block)
	return block
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
