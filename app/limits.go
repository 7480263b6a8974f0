package app

import (
	"sort"

	"calendar/app/calendar"
)

// What a write stores is bounded here, whatever the entry point: the HTTP
// routes check the same bounds first (their parameters name the same
// constants, and their checker answers with the same failure:
// InvalidParams.AddTooLong), but a write that comes another way (an importer calling
// the use cases, no HTTP) must not store a title of a megabyte either. So a
// stored field's bound is a rule of the domain, stated in this table, while
// what only a request asks for (a search, a point, a page) is bounded by the
// route's declaration alone: a list never stores what it was asked.

// textLimits bounds each text field the post writes store, by name.
var textLimits = map[string]int{
	"title": calendar.MaxTitleBytes, "venue": calendar.MaxTitleBytes, "organizer": calendar.MaxTitleBytes,
	"description": calendar.MaxDescriptionBytes, "excerpt": calendar.MaxExcerptBytes, "password": calendar.MaxPasswordBytes,
	"caption": calendar.MaxExcerptBytes, "alt_text": calendar.MaxExcerptBytes,
	"image": calendar.MaxURLBytes, "website": calendar.MaxURLBytes, "email": calendar.MaxEmailBytes,
	"slug": calendar.MaxShortBytes, "timezone": calendar.MaxShortBytes,
	"date": calendar.MaxDateBytes, "date_utc": calendar.MaxDateBytes, "start_date": calendar.MaxDateBytes, "end_date": calendar.MaxDateBytes,
	"address": calendar.MaxFieldBytes, "city": calendar.MaxFieldBytes, "country": calendar.MaxFieldBytes, "province": calendar.MaxFieldBytes,
	"state": calendar.MaxFieldBytes, "zip": calendar.MaxFieldBytes, "phone": calendar.MaxFieldBytes, "stateprovince": calendar.MaxFieldBytes,
}

// TextBound is the bound of a text field the post writes store, 0 for a
// field they do not know: the routes of venues and organizers declare their
// text fields' bounds from it, field by field as the service lists them.
func TextBound(field string) int { return textLimits[field] }

// termTextLimits bounds each text field the term writes store: names and
// slugs have WordPress' bound.
var termTextLimits = map[string]int{"name": calendar.MaxShortBytes, "slug": calendar.MaxShortBytes, "description": calendar.MaxExcerptBytes}

// checkLengths adds a failure for every text sent longer than its bound
// (textLimits), by field name.
func checkLengths(bad *calendar.InvalidParams, texts map[string]*string) {
	for _, name := range sortedKeys(texts) {
		if s := texts[name]; s != nil && len(*s) > textLimits[name] {
			bad.AddTooLong(name, textLimits[name])
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
