package wordpress

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var utcOffsetZone = regexp.MustCompile(`^UTC([+-])(\d{1,2})(?:(?:\.(\d+))|(?::(\d{2})))?$`)

var errBadZone = errors.New("not a time zone")

// ParseZone reads an event zone: an IANA name, UTC, or an offset form such as
// UTC+5, UTC-3.5 or UTC+5:30.
func ParseZone(name string) (*time.Location, error) {
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
	if name == "" || strings.EqualFold(name, "local") || strings.Contains(name, "..") {
		return nil, errBadZone
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, errBadZone
	}
	return loc, nil
}

// IsOffsetZone tells a zone ParseZone made from an offset (UTC+5:30), which
// has no rules of its own.
func IsOffsetZone(loc *time.Location) bool { return utcOffsetZone.MatchString(loc.String()) }

// zoneAbbr is the abbreviation of a zone at an instant (EST or EDT), or an
// offset zone's own name.
func ZoneAbbr(loc *time.Location, at time.Time) string {
	if utcOffsetZone.MatchString(loc.String()) {
		return loc.String()
	}
	abbr, _ := at.In(loc).Zone()
	return abbr
}
