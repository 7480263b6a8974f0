package recur

import "github.com/teambition/rrule-go"

// periods expands a YEARLY, MONTHLY, WEEKLY or DAILY rule: period k is the
// year, month, week or day k*INTERVAL after DTSTART's; its days are those
// the BYxxx day parts keep, each at every time of the rule.
func (x *expansion) periods() error {
	r := x.rule
	for k := x.firstPeriod(); ; k++ {
		first, days := x.period(k)
		if first.y > maxYear || first.dn*86400 > x.stopWall {
			return nil
		}
		if err := x.meter.visit(); err != nil {
			return err
		}
		r.see(&x.year, first.y)
		if r.freq == rrule.YEARLY || r.freq == rrule.MONTHLY {
			r.markOrdinals(&x.year, first.m)
		}
		x.kept = x.kept[:0]
		for d := first; days > 0; d.advance() {
			days--
			if r.keeps(d, &x.year) {
				x.kept = append(x.kept, d)
			}
		}
		if x.emitPeriod(x.kept, 0); x.emit.done {
			return nil
		}
	}
}

// period gives the first day of period k and how many days it has. Weeks
// start on WKST; the first one runs from DTSTART, as in rrule-go.
func (x *expansion) period(k int64) (date, int) {
	r := x.rule
	switch r.freq {
	case rrule.YEARLY:
		y := int64(r.start.y) + k*r.interval
		if y > maxYear {
			return date{y: maxYear + 1}, 0
		}
		return dateOf(daysFromCivil(int(y), 1, 1)), yearLen(int(y))
	case rrule.MONTHLY:
		m := x.monthIndex() + k*r.interval
		y, mo := int(floorDiv(m, 12)), int(floorMod(m, 12))+1
		if y > maxYear {
			return date{y: maxYear + 1}, 0
		}
		return dateOf(daysFromCivil(y, mo, 1)), monthLen(y, mo)
	case rrule.WEEKLY:
		if k == 0 {
			return r.start, (r.wkst-r.start.wd+6)%7 + 1
		}
		return dateOf(x.weekZero() + k*7*r.interval), 7
	default:
		return dateOf(r.start.dn + k*r.interval), 1
	}
}

func (x *expansion) monthIndex() int64 { return int64(x.rule.start.y)*12 + int64(x.rule.start.m-1) }

// weekZero is the day DTSTART's week starts on.
func (x *expansion) weekZero() int64 {
	s := x.rule.start
	return s.dn - int64((s.wd-x.rule.wkst+7)%7)
}

// firstPeriod skips the periods that end before fromWall: the latest one
// starting at or before it, so none that could give a start in the window
// is skipped.
func (x *expansion) firstPeriod() int64 {
	r := x.rule
	from := dateOf(floorDiv(x.fromWall, 86400))
	var k int64
	switch r.freq {
	case rrule.YEARLY:
		k = int64(from.y-r.start.y) / r.interval
	case rrule.MONTHLY:
		k = (int64(from.y)*12 + int64(from.m-1) - x.monthIndex()) / r.interval
	case rrule.WEEKLY:
		k = (from.dn - x.weekZero()) / (7 * r.interval)
	default:
		k = (from.dn - r.start.dn) / r.interval
	}
	return max(k, 0)
}
