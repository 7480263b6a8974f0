package app

import (
	"fmt"
	"sort"

	"calendar/app/calendar"
)

// textLimits bounds each text parameter of the post writes, by name.
var textLimits = map[string]int{
	"title": calendar.MaxTitleBytes, "venue": calendar.MaxTitleBytes, "organizer": calendar.MaxTitleBytes,
	"description": calendar.MaxDescriptionBytes, "excerpt": calendar.MaxExcerptBytes, "password": calendar.MaxPasswordBytes,
	"caption": calendar.MaxExcerptBytes, "alt_text": calendar.MaxExcerptBytes,
	"image": calendar.MaxURLBytes, "website": calendar.MaxURLBytes, "email": calendar.MaxEmailBytes,
	"slug": calendar.MaxShortBytes, "timezone": calendar.MaxShortBytes, "date": calendar.MaxShortBytes, "date_utc": calendar.MaxShortBytes,
	"start_date": calendar.MaxShortBytes, "end_date": calendar.MaxShortBytes,
	"address": calendar.MaxFieldBytes, "city": calendar.MaxFieldBytes, "country": calendar.MaxFieldBytes, "province": calendar.MaxFieldBytes,
	"state": calendar.MaxFieldBytes, "zip": calendar.MaxFieldBytes, "phone": calendar.MaxFieldBytes, "stateprovince": calendar.MaxFieldBytes,
}

// checkLengths adds a failure for every text sent longer than its bound
// (textLimits), by parameter name.
func checkLengths(bad *calendar.InvalidParams, texts map[string]*string) {
	for _, name := range sortedKeys(texts) {
		if s := texts[name]; s != nil && len(*s) > textLimits[name] {
			bad.Add(name, fmt.Sprintf("%s must not be longer than %d bytes.", name, textLimits[name]), nil)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
