package calendar

import (
	"fmt"
	"sort"
	"unicode/utf8"
)

// The bounds on what one request may hold or ask for, so that no account can
// make the service store, index, search or answer without limit: the one
// table of their numbers. A route's parameters name them in their
// declarations (controllers' Arg: the checker that enforces them before any
// use case runs, the namespace index and the OpenAPI document that show
// them); the Limits table (docs/limits.md) states them, checked against those
// declarations by a test; a write's fields are bounded by them in app too
// (app/limits.go), whatever the entry point. A value beyond one is a 400
// naming the parameter.
const (
	// MaxTitleBytes bounds an event's title and a venue's or an organizer's name.
	MaxTitleBytes = 1000
	// MaxDescriptionBytes bounds a description (WordPress' TEXT column: 64 KiB).
	MaxDescriptionBytes = 65535
	// MaxExcerptBytes bounds an excerpt and a term's description.
	MaxExcerptBytes = 8192
	// MaxFieldBytes bounds a venue's or an organizer's text fields (address,
	// city, phone...).
	MaxFieldBytes = 500
	// MaxURLBytes bounds image and website URLs.
	MaxURLBytes = 2048
	// MaxPasswordBytes is WordPress' post_password column.
	MaxPasswordBytes = 255
	// MaxEmailBytes is the longest address RFC 5321 lets through.
	MaxEmailBytes = 254
	// MaxShortBytes bounds slugs as sent, term names and zone names.
	MaxShortBytes = 200
	// MaxDateBytes bounds a date as sent: the longest input the strtotime
	// reader takes (app/strtotime's maxInputBytes).
	MaxDateBytes = 100
	// MaxCostBytes bounds an event's cost, all its values together.
	MaxCostBytes = 1000

	// MaxOrganizers bounds the organizers of one event, MaxEventTerms its
	// categories and its tags (each).
	MaxOrganizers = 50
	MaxEventTerms = 100
	// MaxCreatedPerWrite bounds the venues, organizers and terms one event
	// write creates from fields or names.
	MaxCreatedPerWrite = 25

	// MaxListItems bounds every list parameter (however it is sent: a
	// repeated key counts each time), so no request can make the service
	// allocate or query without limit; a parameter may declare fewer.
	MaxListItems = 1000
	// MaxPage bounds a list's page number, so that its offset stays a
	// number the index counts in.
	MaxPage = 1 << 30
	// MaxPerPage is the largest page of a list: a larger per_page is read
	// as it (the plugin's sanitiser clamps it), not refused.
	MaxPerPage = 50
	// MaxChangesPerPage bounds a page of the change feed (beyond: 400);
	// DefaultChangesPerPage is its size when per_page is not sent.
	MaxChangesPerPage     = 1000
	DefaultChangesPerPage = 100

	// MaxLatitude and MaxLongitude bound a point's degrees, north and south,
	// east and west.
	MaxLatitude  = 90
	MaxLongitude = 180
	// MaxGeoRadius bounds the radius of "near me" (in its unit, more than
	// 0); DefaultGeoRadius is the radius when none is sent.
	MaxGeoRadius     = 20000
	DefaultGeoRadius = 25

	// MaxSearchLength bounds a search text.
	MaxSearchLength = 200
	// MaxPlaceBytes bounds a place's name (near=) and a box (geo_bounds).
	MaxPlaceBytes = 200
	// MaxSearchWords: a search of more words looks for its longest ones
	// (WordPress takes a search of ten words or more as one phrase).
	MaxSearchWords = 9
	// MaxWordBytes is the longest word the index keeps: longer ones are kept
	// and searched cut to this length, so one giant word cannot make every
	// search scan it.
	MaxWordBytes = 64
	// MaxIndexedTextBytes is how much of a venue's, an organizer's or a
	// media item's searchable field their substring search looks into.
	MaxIndexedTextBytes = 4096
	// MaxSearchTerms bounds the indexed terms one search may read to find
	// its words: the suffixes of words that its fragments of three
	// characters or more begin (an event's words, or those of each
	// searchable field of a venue, an organizer or a media item), the
	// words a relevance search's prefixes
	// begin and its lone characters of a script written without spaces are
	// part of, all together. A search that would read more is refused
	// (ErrSearchTooBroad), so that its cost is the search's, not the
	// content's.
	MaxSearchTerms = 10000
	// MaxDayCounts bounds the window facets=days counts the matches of,
	// day by day: a season of a month grid.
	MaxDayCounts = 93
)

// Webhooks (app/webhooks.go): what a subscription may hold, how many
// there may be, and what one delivery carries and reads.
const (
	// MaxWebhookFilterBytes bounds a subscription's filter (a query
	// string of the events list), MaxWebhookDescriptionBytes its
	// description; its URL is bounded by MaxURLBytes.
	MaxWebhookFilterBytes      = 2048
	MaxWebhookDescriptionBytes = 1000
	// DefaultWebhooksPerUser and DefaultWebhooksTotal bound the
	// subscriptions of one user and of the site.
	DefaultWebhooksPerUser = 20
	DefaultWebhooksTotal   = 1000
	// MaxWebhookPayloadBytes bounds a delivery's body: an object that
	// would make it larger is left out (the receiver reads it from its route).
	MaxWebhookPayloadBytes = 256 << 10
	// MaxWebhookResponseBytes is how much of a receiver's answer is read
	// (kept in the deliveries log: its first 200 bytes).
	MaxWebhookResponseBytes = 4 << 10
	// MaxWebhookAttemptsKept is how many of its latest attempts a
	// subscription keeps for its deliveries log.
	MaxWebhookAttemptsKept = 20
)

// AddTooLong records that a text is longer than its bound, wherever that
// bound is checked (the routes' checker, a write's fields in app): WordPress'
// maxLength failure (rest_too_long), counted in bytes.
func (p *InvalidParams) AddTooLong(name string, maxBytes int) {
	p.AddSchemaFailure(name, "rest_too_long", fmt.Sprintf("%s must be at most %s bytes long.", name, Thousands(int64(maxBytes))))
}

// AddTooManyItems records that a list has more items than its bound,
// wherever that bound is checked: WordPress' maxItems failure
// (rest_too_many_items).
func (p *InvalidParams) AddTooManyItems(name string, max int) {
	unit := "items"
	if max == 1 {
		unit = "item"
	}
	p.AddSchemaFailure(name, "rest_too_many_items", fmt.Sprintf("%s must contain at most %s %s.", name, Thousands(int64(max)), unit))
}

// AddOutOfRange records a number beyond [min, max], wherever that range is
// checked: WordPress' minimum/maximum failure (rest_out_of_bounds).
func (p *InvalidParams) AddOutOfRange(name string, min, max float64, exclusiveMin bool) {
	p.AddSchemaFailure(name, "rest_out_of_bounds", BetweenReason(name, min, max, exclusiveMin))
}

// BetweenReason is WordPress' reason for a number beyond a range bounded on
// both sides.
func BetweenReason(name string, min, max float64, exclusiveMin bool) string {
	side := "inclusive"
	if exclusiveMin {
		side = "exclusive"
	}
	return fmt.Sprintf("%s must be between %d (%s) and %d (inclusive)", name, int64(min), side, int64(max))
}

// AddUnpaired records a parameter sent without the one it goes with.
func (p *InvalidParams) AddUnpaired(name, needs string) {
	p.Add(name, fmt.Sprintf("%s and %s go together.", name, needs), nil)
}

// AddSchemaFailure records a failure of one of WordPress' schema keywords
// (code: rest_out_of_bounds, rest_too_long...): the reason under params, and
// under details the nested error WordPress writes for it, whose data is null.
func (p *InvalidParams) AddSchemaFailure(name, code, reason string) {
	p.Add(name, reason, map[string]any{"code": code, "message": reason, "data": nil})
}

// Thousands writes n with a comma every three digits, as WordPress'
// number_format_i18n does in English (65,535).
func Thousands(n int64) string {
	digits := fmt.Sprint(n)
	sign := ""
	if n < 0 {
		sign, digits = "-", digits[1:]
	}
	for i := len(digits) - 3; i > 0; i -= 3 {
		digits = digits[:i] + "," + digits[i:]
	}
	return sign + digits
}

// CapWord cuts a word to MaxWordBytes, on a character boundary: what the index
// keeps of a word, and so what a search looks for.
func CapWord(w string) string {
	if len(w) <= MaxWordBytes {
		return w
	}
	cut := MaxWordBytes
	for cut > 0 && !utf8.RuneStart(w[cut]) {
		cut--
	}
	return w[:cut]
}

// CapSearchWords is what a search looks for: each word cut to MaxWordBytes,
// then chosen by PickSearchWords.
func CapSearchWords(words []string) []string {
	capped := make([]string, len(words))
	for i, w := range words {
		capped[i] = CapWord(w)
	}
	return PickSearchWords(capped)
}

// PickSearchWords chooses the words a search looks for: each once, words of
// one byte left out when longer words remain (WordPress skips one-letter
// words: they match nearly everything, at the cost of a search through every
// word the index holds; a letter of another script than Latin is a word
// there), and at most MaxSearchWords of them, the longest, in their order.
func PickSearchWords(words []string) []string {
	seen := map[string]bool{}
	var all, kept []string
	for _, w := range words {
		if w == "" || seen[w] {
			continue
		}
		seen[w] = true
		all = append(all, w)
		if len(w) > 1 {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 && len(all) > 0 {
		kept = all[:1]
	}
	if len(kept) <= MaxSearchWords {
		return kept
	}
	longest := append([]string(nil), kept...)
	sort.SliceStable(longest, func(i, j int) bool { return len(longest[i]) > len(longest[j]) })
	chosen := map[string]bool{}
	for _, w := range longest[:MaxSearchWords] {
		chosen[w] = true
	}
	out := kept[:0:0]
	for _, w := range kept {
		if chosen[w] {
			out = append(out, w)
		}
	}
	return out
}

// Custom fields (app/fields.go): how many a site declares, what one
// declaration and one value hold, and what a list's filters name.
const (
	// MaxFields bounds the declarations of the site.
	MaxFields = 50
	// MaxFieldKeyBytes bounds a key, MaxFieldLabelBytes a label.
	MaxFieldKeyBytes   = 40
	MaxFieldLabelBytes = 200
	// MaxFieldOptions bounds the options of a select or multiselect,
	// MaxFieldOptionBytes each of them.
	MaxFieldOptions     = 100
	MaxFieldOptionBytes = 200
	// MaxFieldValueBytes bounds a text or URL value, MaxFieldTextareaBytes
	// a textarea's.
	MaxFieldValueBytes    = 1000
	MaxFieldTextareaBytes = 10000
	// MaxCustomFilters bounds the fields one list filters by (cf[...]),
	// MaxCustomFilterValues the values of one.
	MaxCustomFilters      = 10
	MaxCustomFilterValues = 20
	// MaxFieldReindexBatch is how many posts a declaration's re-index
	// reads from the store at once.
	MaxFieldReindexBatch = 500
)
