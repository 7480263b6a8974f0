package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// importItem is an event as a source gives it, whatever its kind: what a
// run compares with what it wrote before and writes through the events
// service as the source's author would.
type importItem struct {
	// Key is its identity at the source (an iCalendar UID, with
	// "@"+RECURRENCE-ID for an overridden instance; a global_id; an @id or
	// URL; a CSV row's key); Version what the source says of its revision
	// (SEQUENCE and LAST-MODIFIED, modified), "" when it says nothing.
	Key     string `json:"-"`
	Version string `json:"-"`
	// failure is why the item cannot be imported ("" when it can).
	failure string

	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Excerpt     string `json:"excerpt,omitempty"`
	URL         string `json:"url,omitempty"`
	Image       string `json:"image,omitempty"`
	// Start and End are wall-clock times in Zone ("2006-01-02 15:04:05");
	// an all-day event's End is its last day.
	Start  string `json:"start"`
	End    string `json:"end"`
	Zone   string `json:"zone"`
	AllDay bool   `json:"all_day,omitempty"`
	// Recurrence are the series' lines (RRULE, RDATE, EXDATE) in Zone.
	Recurrence []string `json:"recurrence,omitempty"`
	// Series is the key of the series an overridden instance belongs to.
	Series string `json:"series,omitempty"`
	// Canceled: the source says it does not take place.
	Canceled   bool          `json:"canceled,omitempty"`
	Cost       string        `json:"cost,omitempty"`
	Categories []string      `json:"categories,omitempty"`
	Tags       []string      `json:"tags,omitempty"`
	Venue      *importPlace  `json:"venue,omitempty"`
	Organizers []importPlace `json:"organizers,omitempty"`
}

// importPlace is a venue or an organizer as the source gives it; Key its
// identity there ("" when it has none: it is matched by name and city).
type importPlace struct {
	Key  string            `json:"key,omitempty"`
	Name string            `json:"name"`
	Meta map[string]string `json:"meta,omitempty"`
	Lat  *float64          `json:"lat,omitempty"`
	Lng  *float64          `json:"lng,omitempty"`
}

// hash is what the item says, as a digest: an item whose source gives no
// version is unchanged while its hash is.
func (it *importItem) hash() string {
	b, _ := json.Marshal(it) // plain data: never fails
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// wallLayout is how an item's times are written, as the events API reads them.
const wallLayout = "2006-01-02 15:04:05"

func wall(t time.Time) string { return t.Format(wallLayout) }
