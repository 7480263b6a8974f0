package app

import (
	"strconv"
	"strings"
	"time"
)

// DateFormat is how the API writes dates: local or UTC wall time to the second.
const DateFormat = "2006-01-02 15:04:05"

var zonelessLayouts = []string{DateFormat, "2006-01-02 15:04", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"}

// ParseDate reads a date input: a Unix timestamp, RFC 3339 (with its offset), or
// a zone-less "YYYY-MM-DD[ HH:MM[:SS]]" read in loc. The natural-language forms
// of the events issue come with the full parser.
func ParseDate(s string, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && len(s) > 4 {
		return time.Unix(n, 0).UTC(), true
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), true
	}
	for _, layout := range zonelessLayouts {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
