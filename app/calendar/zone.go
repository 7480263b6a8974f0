package calendar

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

var utcOffsetZone = regexp.MustCompile(`^UTC([+-])(\d{1,2})(?:(?:\.(\d+))|(?::(\d{2})))?$`)

var errBadZone = errors.New("not a time zone")

// ParseZone reads an event zone: an IANA name, UTC, or an offset form such as
// UTC+5, UTC-3.5 or UTC+5:30. IANA zones are kept once loaded: every render
// and every index write reads one, and loading one reads its file. Only names
// of the tz database's shape are looked up (no dots: "./Europe/Paris" would
// open the same file under endless names), so what is kept is at most the
// database's few hundred zones, whoever writes the names.
func ParseZone(name string) (*time.Location, error) {
	name = strings.TrimSpace(name)
	if loc, ok := zonesLoaded.Load(name); ok {
		return loc.(*time.Location), nil
	}
	return parseZone(name)
}

var (
	ianaName    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$`)
	zonesLoaded sync.Map // IANA name -> *time.Location
)

func parseZone(name string) (*time.Location, error) {
	name = strings.TrimSpace(name)
	if strings.EqualFold(name, "utc") {
		return time.UTC, nil
	}
	if m := utcOffsetZone.FindStringSubmatch(strings.ToUpper(name)); m != nil {
		hours, _ := strconv.Atoi(m[2])
		minutes := 0
		if m[3] != "" {
			frac, _ := strconv.ParseFloat("0."+m[3], 64)
			minutes = int(frac * 60)
		}
		if m[4] != "" {
			minutes, _ = strconv.Atoi(m[4])
		}
		offset := hours*3600 + minutes*60
		if offset > 14*3600 || minutes >= 60 {
			return nil, errBadZone
		}
		if m[1] == "-" {
			offset = -offset
		}
		return time.FixedZone(strings.ToUpper(name), offset), nil
	}
	if !ianaName.MatchString(name) || strings.EqualFold(name, "local") {
		return nil, errBadZone
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, errBadZone
	}
	zonesLoaded.Store(name, loc)
	return loc, nil
}

// IsOffsetZone tells a zone ParseZone made from an offset (UTC+5:30), which
// has no rules of its own.
func IsOffsetZone(loc *time.Location) bool { return utcOffsetZone.MatchString(loc.String()) }

// ZoneAbbr is the abbreviation of a zone at an instant (EST or EDT), or an
// offset zone's own name.
func ZoneAbbr(loc *time.Location, at time.Time) string {
	if utcOffsetZone.MatchString(loc.String()) {
		return loc.String()
	}
	abbr, _ := at.In(loc).Zone()
	return abbr
}

// WallClock is an instant's wall-clock time in a zone, written as if in UTC:
// the plugin, in its default time-zone mode, orders and bounds events by
// their local start and end as written ("2025-05-01 20:00:00"), whatever
// their zone, and reads a date bound as a wall-clock time of the site's zone.
func WallClock(t time.Time, zone *time.Location) time.Time {
	l := t.In(zone)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// LocalSchedule is an event's start and end as wall-clock times of its own
// zone (WallClock); an event whose zone cannot be read keeps its UTC times.
func (p *Post) LocalSchedule() (start, end time.Time) {
	zone, err := ParseZone(p.TimeZone)
	if err != nil || p.TimeZone == "" {
		return p.Start, p.End
	}
	return WallClock(p.Start, zone), WallClock(p.End, zone)
}
