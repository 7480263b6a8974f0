// Package calendar is the service's vocabulary: the stored records (posts,
// terms, users), roles and capabilities, statuses, who may read a post
// (ReadRule), the one error type, the queries the index answers, the bounds
// on input, and the ports the storage (Store) and the search index (Index)
// implement. It holds no use case: app does, and repository and index depend
// on this package alone.
package calendar

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Post types: the three kinds of record that share the posts collection.
const (
	PostTypeEvent     = "event"
	PostTypeVenue     = "venue"
	PostTypeOrganizer = "organizer"
	// PostTypeAttachment is an uploaded image (WordPress keeps them as posts).
	PostTypeAttachment = "attachment"
)

// Post is the stored record of an event, a venue or an organizer.
type Post struct {
	ID       int64     `bson:"_id"`
	Seq      int64     `bson:"seq"`
	Type     string    `bson:"type"`
	Slug     string    `bson:"slug"`
	Status   string    `bson:"status"`
	Author   int64     `bson:"author"`
	Title    string    `bson:"title"`
	Content  string    `bson:"content,omitempty"`
	Excerpt  string    `bson:"excerpt,omitempty"`
	Date     time.Time `bson:"date"`     // publication instant, UTC
	Modified time.Time `bson:"modified"` // last change, UTC
	// DateUTC is the publication date in UTC when a write sent it apart
	// from Date and unlike it (WordPress keeps post_date_gmt as given, not
	// derived from post_date); nil: Date's.
	DateUTC *time.Time `bson:"date_utc,omitempty"`
	// Revisions counts the edits of the post's own fields since it was
	// made (bookkeeping writes aside): an iCalendar event's SEQUENCE.
	Revisions int64  `bson:"revisions,omitempty"`
	Password  string `bson:"password,omitempty"`
	Image     string `bson:"image,omitempty"` // absolute http(s) URL
	// ImageID is the attachment the image is, when it is one of ours;
	// ImageFile is a copy of its files, so a post renders without loading it.
	ImageID   int64      `bson:"image_id,omitempty"`
	ImageFile *MediaFile `bson:"image_file,omitempty"`
	// Media is an attachment's files.
	Media *MediaFile `bson:"media,omitempty"`
	// Meta holds a venue's or an organizer's text fields (address, city, phone,
	// email...), by their API names.
	Meta        map[string]string `bson:"meta,omitempty"`
	ShowMap     *bool             `bson:"show_map,omitempty"`
	ShowMapLink *bool             `bson:"show_map_link,omitempty"`
	Geo         *Geo              `bson:"geo,omitempty"`
	// Categories and Tags are an event's term IDs.
	Categories []int64 `bson:"categories,omitempty"`
	Tags       []int64 `bson:"tags,omitempty"`
	// An event's schedule: instants, and the zone its local times are shown in.
	Start    time.Time `bson:"start,omitempty"`
	End      time.Time `bson:"end,omitempty"`
	TimeZone string    `bson:"timezone,omitempty"`
	AllDay   bool      `bson:"all_day,omitempty"`
	// Cost holds the values as sent; the symbol and its position are inferred on save.
	Cost             []string `bson:"cost,omitempty"`
	CostSymbol       string   `bson:"cost_symbol,omitempty"`
	CostPosition     string   `bson:"cost_position,omitempty"`
	Website          *string  `bson:"website,omitempty"` // nil: the permalink stands in
	HideFromListings bool     `bson:"hide_from_listings,omitempty"`
	Sticky           bool     `bson:"sticky,omitempty"`
	Featured         bool     `bson:"featured,omitempty"`
	Venue            int64    `bson:"venue,omitempty"`
	Organizers       []int64  `bson:"organizers,omitempty"`
	// Whether and how the event takes place (event_status.go): "" is
	// scheduled and offline. PreviousStart is the start a rescheduled
	// event had before it moved.
	EventStatus       string     `bson:"event_status,omitempty"`
	EventStatusReason string     `bson:"event_status_reason,omitempty"`
	PreviousStart     *time.Time `bson:"previous_start,omitempty"`
	Attendance        string     `bson:"attendance_mode,omitempty"`
	OnlineURL         string     `bson:"online_url,omitempty"`

	// VenueGeo is the venue's public position (PublicPosition), which the
	// app reads from the venue as stored whenever it indexes the event or
	// measures a distance to it. Never stored: a copy kept with the event
	// went on telling where its venue was after the venue was hidden.
	VenueGeo *Geo `bson:"-"`

	// Custom holds the post's custom field values by key, each value as
	// its canonical text (a number as Go formats it, a date as
	// 2006-01-02, a boolean as true or false; a multiselect's several),
	// as checked against the declarations when written (app/fields.go).
	Custom map[string][]string `bson:"custom,omitempty"`
	// Indexed is what the index keeps of Custom: set by the app from the
	// declarations before the post is indexed. Never stored.
	Indexed []IndexedField `bson:"-"`

	// A recurring event. The series keeps its rules (RFC 5545 content lines,
	// read in its zone from its start), the starts of the occurrences it no
	// longer has (trashed, deleted or moved out: its EXDATEs) and how far its
	// occurrences are made. Each further occurrence is an event whose Parent
	// is the series, whose Occurrence is the start the rules gave it (its
	// RECURRENCE-ID), and which is Detached once edited on its own.
	Recurrence        []string    `bson:"recurrence,omitempty"`
	Excluded          []time.Time `bson:"excluded,omitempty"`
	MaterializedUntil time.Time   `bson:"materialized_until,omitempty"`
	Parent            int64       `bson:"parent,omitempty"`
	Occurrence        time.Time   `bson:"occurrence,omitempty"`
	Detached          bool        `bson:"detached,omitempty"`
	// Lease is held by the job working on a series' occurrences.
	Lease *Lease `bson:"lease,omitempty"`

	// Imported is what an imported event was made from (nil: it was not):
	// written with the event, so that a run that stopped between storing
	// the event and its ImportItem finds the event again on the next run.
	Imported *ImportedAs `bson:"imported,omitempty"`

	// CreatedSeq is the sequence of the insert, so the change feed can tell a
	// creation from an update; 0 for posts stored before it was kept.
	CreatedSeq int64 `bson:"created_seq,omitempty"`
	fresh      bool  // an ID was just assigned: the next sequence is the insert's
	// Changed is, per field a write changed since the post was made, the
	// sequence of that write (changed.go); changing, the fields the write
	// under way changes (NoteChanges), stamped with its sequence.
	Changed  map[string]int64 `bson:"changed,omitempty"`
	changing []string
	// Standings are the post's status and author before each of its latest
	// changes of them: who could read it at an earlier point of the change
	// feed (StandingAt).
	Standings []Standing `bson:"standings,omitempty"`
	standing  int        // 1 + the index of the standing the write under way adds
}

// ImportedAs is an imported event's origin as its creation wrote it: its
// ImportItem's unique key (ImportItemOf) and the version and hash of the
// item written. Later writes leave it as it was: the ImportItem is what
// follows the event after its creation.
type ImportedAs struct {
	Item    string `bson:"item"`
	Version string `bson:"version,omitempty"`
	Hash    string `bson:"hash"`
}

// MediaFile is an uploaded image as served: the full file and its sizes,
// named relative to the uploads directory ("2026/11/poster.jpg").
type MediaFile struct {
	File     string      `bson:"file"`
	MIME     string      `bson:"mime"`
	Width    int         `bson:"width"`
	Height   int         `bson:"height"`
	FileSize int64       `bson:"filesize"`
	Sizes    []MediaSize `bson:"sizes,omitempty"`
}

// MediaSize is one resized copy. A record has them in the order they were
// made, WordPress' metadata order, but uploads stored before that order was
// kept have them in the order WordPress registers sizes: readers put them
// in WordPress' order.
type MediaSize struct {
	Name     string `bson:"name"`
	File     string `bson:"file"`
	MIME     string `bson:"mime"`
	Width    int    `bson:"width"`
	Height   int    `bson:"height"`
	FileSize int64  `bson:"filesize"`
}

// Names are every file of the image, the full one first.
func (m *MediaFile) Names() []string {
	out := []string{m.File}
	for _, s := range m.Sizes {
		out = append(out, s.File)
	}
	return out
}

// Geo is a venue's position: given exactly, or approximated from its city.
type Geo struct {
	Lat    float64 `bson:"lat"`
	Lng    float64 `bson:"lng"`
	Source string  `bson:"source,omitempty"`
}

// Where a venue's coordinates come from.
const (
	GeoExact = "exact"
	GeoCity  = "city"
)

// PublishedUTC is the publication date the API shows as date_utc.
func (p *Post) PublishedUTC() time.Time {
	if p.DateUTC != nil {
		return *p.DateUTC
	}
	return p.Date
}

func (p *Post) DocID() int64      { return p.ID }
func (p *Post) SetDocID(id int64) { p.ID, p.fresh = id, id != 0 }
func (p *Post) DocSeq() int64     { return p.Seq }
func (p *Post) DocKind() string   { return p.Type }

// SetSeq: repositories assign the ID and then the sequence on insert only.
func (p *Post) SetSeq(seq int64) {
	if p.fresh {
		p.CreatedSeq, p.fresh = seq, false
	}
	stamp(&p.Changed, p.changing, seq)
	if p.standing > 0 { // in a slice of the record's own, as stamp's map
		own := slices.Clone(p.Standings)
		own[p.standing-1].Until = seq
		p.Standings = own
	}
	p.Seq = seq
}

// UniqueKeys: a slug is unique per post type.
func (p *Post) UniqueKeys() map[string][]string {
	return map[string][]string{"type_slug": {p.Type + "/" + p.Slug}}
}

// Term is the stored record of an event category or an event tag.
type Term struct {
	ID          int64  `bson:"_id"`
	Seq         int64  `bson:"seq"`
	Taxonomy    string `bson:"taxonomy"`
	Name        string `bson:"name"`
	Slug        string `bson:"slug"`
	Description string `bson:"description,omitempty"`
	Parent      int64  `bson:"parent"`
	// FromEvent: the term was made by an event write that named it (not
	// through the term routes), so it is shown only with an event the
	// caller may read (see Terms.hidden).
	FromEvent bool `bson:"from_event,omitempty"`
	// FromRoutes: the term was made through the term routes, so anyone sees
	// it. A term with neither mark was stored before terms were marked; it
	// is hidden as one an event made, but only while some event carries it,
	// so what only drafts carry is not shown, and an empty term still is.
	FromRoutes bool `bson:"from_routes,omitempty"`

	CreatedSeq int64 `bson:"created_seq,omitempty"` // as Post.CreatedSeq
	fresh      bool
	Changed    map[string]int64 `bson:"changed,omitempty"` // as Post.Changed
	changing   []string
}

func (t *Term) DocID() int64      { return t.ID }
func (t *Term) SetDocID(id int64) { t.ID, t.fresh = id, id != 0 }
func (t *Term) DocSeq() int64     { return t.Seq }
func (t *Term) DocKind() string   { return t.Taxonomy }

func (t *Term) SetSeq(seq int64) {
	if t.fresh {
		t.CreatedSeq, t.fresh = seq, false
	}
	stamp(&t.Changed, t.changing, seq)
	t.Seq = seq
}

// UniqueKeys: a slug is unique per taxonomy.
func (t *Term) UniqueKeys() map[string][]string {
	return map[string][]string{"taxonomy_slug": {t.Taxonomy + "/" + t.Slug}}
}

// FoldTitle is a title as duplicate detection compares it: trimmed, accents
// removed, case folded (the collation the plugin's database applies).
func FoldTitle(title string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.TrimSpace(title)) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// MetaAlt and MetaSource are an attachment's alternative text and the URL it
// was sideloaded from.
const (
	MetaAlt    = "alt_text"
	MetaSource = "source"
)

// Lease is a job's hold on a series. Holder "" marks a job that stopped
// before it finished: its occurrences are to be reconciled.
type Lease struct {
	Holder string    `bson:"holder"`
	Until  time.Time `bson:"until"`
}

// MIMEOf is the type of one of the files, false when it is not one of them.
func (m *MediaFile) MIMEOf(name string) (string, bool) {
	if m == nil {
		return "", false
	}
	if m.File == name {
		return m.MIME, true
	}
	for _, s := range m.Sizes {
		if s.File == name {
			return s.MIME, true
		}
	}
	return "", false
}

// MediaOf is an attachment's files; nil for a nil post.
func (p *Post) MediaOf() *MediaFile {
	if p == nil {
		return nil
	}
	return p.Media
}

// Revision is the post's revision (its sequence); 0 for a nil post.
func (p *Post) Revision() int64 {
	if p == nil {
		return 0
	}
	return p.Seq
}

// The two taxonomies, by the names clients of the plugin know them.
const (
	TaxonomyCategory = "tribe_events_cat"
	TaxonomyTag      = "post_tag"
)
