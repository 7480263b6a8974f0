package recur

import (
	"slices"

	"github.com/teambition/rrule-go"
)

// steps expands an HOURLY or MINUTELY rule. Step k is k*INTERVAL hours or
// minutes after DTSTART's, counted on the wall clock across days. A step
// gives starts when BYHOUR (and, MINUTELY, BYMINUTE) hold its hour (and
// minute) and the day parts keep its day.
//
// Which slots of a day the steps reach repeats every cycle of unitsPerDay /
// gcd(INTERVAL, unitsPerDay) steps, so the steps on an allowed slot are
// listed once; when there are none the rule gives nothing, at once, where
// rrule-go would search for ever. The steps of a day the day parts drop are
// skipped together.
func (x *expansion) steps() error {
	r := x.rule
	unitsPerDay, unitSeconds := int64(24), 3600
	if r.freq == rrule.MINUTELY {
		unitsPerDay, unitSeconds = 1440, 60
	}
	origin := r.start.dn*unitsPerDay + int64(r.startSec/unitSeconds)
	hits, every := x.allowedSteps(origin, unitsPerDay)
	if (len(hits) == 0 && !every) || !x.someSetPosFits() {
		return nil
	}
	cycle := unitsPerDay / gcd(r.interval%unitsPerDay, unitsPerDay)
	// nextHit is the first step from k on that lands on an allowed slot.
	nextHit := func(k int64) int64 {
		if every {
			return k
		}
		base, in := k/cycle*cycle, k%cycle
		if i, _ := slices.BinarySearch(hits, in); i < len(hits) {
			return base + hits[i]
		}
		return base + cycle + hits[0]
	}
	k := nextHit(max(floorDiv(floorDiv(x.fromWall, int64(unitSeconds))-origin, r.interval), 0))
	var day date
	seen, keep := false, false
	for {
		at := origin + k*r.interval
		dn, slot := floorDiv(at, unitsPerDay), floorMod(at, unitsPerDay)
		if dn*86400+slot*int64(unitSeconds) > x.stopWall {
			return nil
		}
		if !seen || dn != day.dn {
			day, seen = dateOf(dn), true
			if day.y > maxYear {
				return nil
			}
			r.see(&x.year, day.y)
			keep = r.keeps(day, &x.year)
		}
		if err := x.meter.visit(); err != nil {
			return err
		}
		if !keep {
			// The first step of the next day: ceil(((dn+1)*units - origin) / interval).
			k = nextHit(floorDiv((dn+1)*unitsPerDay-origin+r.interval-1, r.interval))
			continue
		}
		x.kept = append(x.kept[:0], day)
		if x.emitPeriod(x.kept, int(slot)*unitSeconds); x.emit.done {
			return nil
		}
		k = nextHit(k + 1)
	}
}

// allowedSteps lists the steps of the first cycle that land on an hour (and
// minute) BYHOUR (and BYMINUTE) allow, or says every step does.
func (x *expansion) allowedSteps(origin, unitsPerDay int64) (hits []int64, every bool) {
	r := x.rule
	if !r.hasHours && (!r.hasMinutes || unitsPerDay == 24) {
		return nil, true
	}
	step := r.interval % unitsPerDay
	cycle := unitsPerDay / gcd(step, unitsPerDay)
	for k := int64(0); k < cycle; k++ {
		slot := floorMod(origin+k*step, unitsPerDay)
		hour, minute := slot, int64(0)
		if unitsPerDay == 1440 {
			hour, minute = slot/60, slot%60
		}
		if (!r.hasHours || r.hours[hour]) && (!r.hasMinutes || unitsPerDay == 24 || r.minutes[minute]) {
			hits = append(hits, k)
		}
	}
	return hits, false
}

// someSetPosFits: a step has len(times) starts, so BYSETPOS positions
// beyond that select nothing, in every step.
func (x *expansion) someSetPosFits() bool {
	n := len(x.rule.times)
	if len(x.rule.setPos) == 0 {
		return true
	}
	for _, p := range x.rule.setPos {
		if p <= n && p >= -n {
			return true
		}
	}
	return false
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
