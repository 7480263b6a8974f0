package app

import (
	"bytes"
	"encoding/json"
	"html"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// ImageView is a post's image, as the plugin writes it: the URL and its
// extension, and for one of our uploads its ID, dimensions, size in bytes and
// sizes.
type ImageView struct {
	URL       string     `json:"url"`
	ID        int64      `json:"id,omitempty"`
	Extension string     `json:"extension,omitempty"`
	Width     int        `json:"width,omitempty"`
	Height    int        `json:"height,omitempty"`
	FileSize  int64      `json:"filesize,omitempty"`
	Sizes     ImageSizes `json:"sizes,omitempty"`
}

// ImageSizes are an image's sizes, written as the plugin passes WordPress'
// metadata on: an object keyed by size name, in the metadata's order.
type ImageSizes []ImageSizeView

func (s ImageSizes) MarshalJSON() ([]byte, error) {
	return OrderedObject(len(s), func(i int) (string, any) { return s[i].Name, s[i] })
}

// ImageSizeView is one size of an image (the plugin's keys: WordPress'
// metadata of the size, its file replaced by its URL). An upload stored
// before sizes had their byte size kept has none, as WordPress' metadata
// before 6.0.
type ImageSizeView struct {
	Name     string `json:"-"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	MIME     string `json:"mime-type"`
	FileSize int64  `json:"filesize,omitempty"`
	URL      string `json:"url"`
}

// The venue and organizer objects follow one rule, the plugin's
// (Post_Repository::get_venue_data and get_organizer_data run PHP's
// array_filter over each object): a key whose value is empty is left out,
// wherever the object is shown (read alone, listed, embedded in an event,
// answered to a write). Empty here is what the service can write as empty: a
// text "", no author, no image, no JSON-LD. What the plugin adds after its
// filter stays even when false: a venue's show_map and show_map_link (and its
// global IDs, never empty). An organizer's filter runs over every key, so its
// description, excerpt, phone, website and email go when empty, as a venue's
// do. Unlike PHP's filter, a text "0" (a zip code, a phone) is a value and is
// kept (docs/contract.md). The omitempty tags below are that rule.

// VenueView is the venue object, keys in the plugin's order; empty keys are
// left out (the rule above).
type VenueView struct {
	ID            int64           `json:"id"`
	Author        string          `json:"author,omitempty"`
	Status        string          `json:"status"`
	Date          string          `json:"date"`
	DateUTC       string          `json:"date_utc"`
	Modified      string          `json:"modified"`
	ModifiedUTC   string          `json:"modified_utc"`
	URL           string          `json:"url"`
	Venue         string          `json:"venue"`
	Description   string          `json:"description,omitempty"`
	Excerpt       string          `json:"excerpt,omitempty"`
	Slug          string          `json:"slug,omitempty"`
	Image         *ImageView      `json:"image,omitempty"`
	Address       string          `json:"address,omitempty"`
	City          string          `json:"city,omitempty"`
	Country       string          `json:"country,omitempty"`
	Province      string          `json:"province,omitempty"`
	State         string          `json:"state,omitempty"`
	Zip           string          `json:"zip,omitempty"`
	Phone         string          `json:"phone,omitempty"`
	Website       string          `json:"website,omitempty"`
	StateProvince string          `json:"stateprovince,omitempty"`
	GeoLat        *float64        `json:"geo_lat,omitempty"`
	GeoLng        *float64        `json:"geo_lng,omitempty"`
	GeoSource     string          `json:"geo_source,omitempty"` // exact, or city when approximated
	JSONLD        json.RawMessage `json:"json_ld,omitempty"`
	// CustomFields are the custom fields of venues the caller may see, as
	// an event's; absent when none, as the plugin answers (it has none).
	CustomFields    any      `json:"custom_fields,omitempty"`
	ShowMap         *bool    `json:"show_map"`
	ShowMapLink     *bool    `json:"show_map_link"`
	GlobalID        string   `json:"global_id"`
	GlobalIDLineage []string `json:"global_id_lineage"`
	// Distance from the point of a "near me" list, in its unit.
	Distance *float64 `json:"distance,omitempty"`
	// access is what deciding whether a caller may see the venue inside an
	// event needs (never written out); modifiedAt is when it last changed.
	access     *calendar.Post
	modifiedAt time.Time
}

// OrganizerView is the organizer object, keys in the plugin's order; empty
// keys are left out (the rule above VenueView), as a venue's.
type OrganizerView struct {
	ID          int64           `json:"id"`
	Author      string          `json:"author,omitempty"`
	Status      string          `json:"status"`
	Date        string          `json:"date"`
	DateUTC     string          `json:"date_utc"`
	Modified    string          `json:"modified"`
	ModifiedUTC string          `json:"modified_utc"`
	URL         string          `json:"url"`
	Organizer   string          `json:"organizer"`
	Description string          `json:"description,omitempty"`
	Excerpt     string          `json:"excerpt,omitempty"`
	Slug        string          `json:"slug,omitempty"`
	Image       *ImageView      `json:"image,omitempty"`
	Phone       string          `json:"phone,omitempty"`
	Website     string          `json:"website,omitempty"`
	Email       string          `json:"email,omitempty"`
	JSONLD      json.RawMessage `json:"json_ld,omitempty"`
	// CustomFields are as a venue's.
	CustomFields    any      `json:"custom_fields,omitempty"`
	GlobalID        string   `json:"global_id"`
	GlobalIDLineage []string `json:"global_id_lineage"`
	access          *calendar.Post
	modifiedAt      time.Time
}

// accessOf keeps of a post what the read rule and the password check ask:
// rendered venues and organizers carry it, so that the events they are shown
// in can fit them to each caller.
func accessOf(p *calendar.Post) *calendar.Post {
	return &calendar.Post{ID: p.ID, Seq: p.Seq, Type: p.Type, Author: p.Author, Status: p.Status, Password: p.Password}
}

// postCommon is what every post object starts with.
type postCommon struct {
	author, date, dateUTC, modified, modifiedUTC, url, description, excerpt, globalID string
	image                                                                             *ImageView
}

// renderAs says how a post is rendered: single adds json_ld, masked hides
// what a password protects, home is the home URL its links start with.
type renderAs struct {
	single, masked bool
	home           string
	// custom is the custom_fields of a venue or an organizer shown to its
	// caller (customOf); nil: none.
	custom any
}

// common renders the shared part.
func (s *postService) common(p *calendar.Post, home string) postCommon {
	c := postCommon{
		author: itoa(p.Author), date: s.formatLocal(p.Date), dateUTC: formatUTC(p.PublishedUTC()),
		modified: s.formatLocal(p.Modified), modifiedUTC: formatUTC(p.Modified),
		url: permalink(p, home), globalID: s.globalID(p.ID),
	}
	texts := s.texts(p)
	c.description, c.excerpt = texts.description, texts.excerpt
	if p.Author == 0 {
		c.author = ""
	}
	if p.Image != "" {
		c.image = s.imageView(p.Image, p.ImageID, p.ImageFile)
	}
	return c
}

// linkedName is the name and slug a venue or an organizer is shown by,
// wherever it is shown: its object (masked too: a protected one keeps its
// name), the events that embed it, the facets that count it.
func linkedName(p *calendar.Post) (name, slug string) { return p.Title, p.Slug }

// renderVenue is the venue object.
func (s *postService) renderVenue(p *calendar.Post, as renderAs) VenueView {
	c := s.common(p, as.home)
	m := p.Meta
	name, slug := linkedName(p)
	v := VenueView{
		ID: p.ID, Author: c.author, Status: p.Status, Date: c.date, DateUTC: c.dateUTC, Modified: c.modified,
		ModifiedUTC: c.modifiedUTC, URL: c.url, Venue: name, Description: c.description, Excerpt: c.excerpt,
		Slug: slug, Image: c.image, GlobalID: c.globalID, GlobalIDLineage: []string{c.globalID},
		Address: m["address"], City: m["city"], Country: m["country"], Province: m["province"], State: m["state"],
		Zip: m["zip"], Phone: m["phone"], Website: m["website"], StateProvince: stateProvince(m),
		ShowMap: p.ShowMap, ShowMapLink: p.ShowMapLink, access: accessOf(p), modifiedAt: p.Modified, CustomFields: as.custom,
	}
	if p.Geo != nil {
		v.GeoLat, v.GeoLng, v.GeoSource = &p.Geo.Lat, &p.Geo.Lng, p.Geo.Source
		if v.GeoSource == "" {
			v.GeoSource = calendar.GeoExact
		}
	}
	if as.single {
		v.JSONLD = encodeLD(venueJSONLD(v))
	}
	if as.masked {
		return maskVenue(v)
	}
	return v
}

// maskVenue keeps of a password-protected venue what the plugin shows
// without its password (its state, as the plugin's list forgets it), and its
// name, which the plugin blanks by accident.
func maskVenue(v VenueView) VenueView {
	return VenueView{
		ID: v.ID, Author: v.Author, Status: v.Status, Date: v.Date, DateUTC: v.DateUTC, Modified: v.Modified,
		ModifiedUTC: v.ModifiedUTC, URL: v.URL, Venue: v.Venue, Slug: v.Slug, State: v.State,
		GlobalID: v.GlobalID, GlobalIDLineage: v.GlobalIDLineage, access: v.access, modifiedAt: v.modifiedAt,
	}
}

// stateProvince is the stored value, else the state for the US (or no
// country), else the province.
func stateProvince(m map[string]string) string {
	if sp := m["stateprovince"]; sp != "" {
		return sp
	}
	if c := m["country"]; m["state"] != "" && (c == "" || c == "US" || c == "United States") {
		return m["state"]
	}
	return m["province"]
}

// renderOrganizer is the organizer object, as renderVenue.
func (s *postService) renderOrganizer(p *calendar.Post, as renderAs) OrganizerView {
	c := s.common(p, as.home)
	name, slug := linkedName(p)
	o := OrganizerView{
		ID: p.ID, Author: c.author, Status: p.Status, Date: c.date, DateUTC: c.dateUTC, Modified: c.modified,
		ModifiedUTC: c.modifiedUTC, URL: c.url, Organizer: name, Description: c.description, Excerpt: c.excerpt,
		Slug: slug, Image: c.image, Phone: p.Meta["phone"], Website: p.Meta["website"], Email: p.Meta["email"],
		GlobalID: c.globalID, GlobalIDLineage: []string{c.globalID}, access: accessOf(p), modifiedAt: p.Modified, CustomFields: as.custom,
	}
	if as.single {
		o.JSONLD = encodeLD(withoutEmpty(map[string]any{
			"@type": "Person", "name": o.Organizer, "description": stripTags(o.Description), "url": o.Website,
			"telephone": o.Phone, "email": o.Email, "sameAs": o.Website, "image": imageURL(o.Image),
		}))
	}
	if as.masked {
		return maskOrganizer(o)
	}
	return o
}

// maskOrganizer keeps of a password-protected organizer what maskVenue keeps.
func maskOrganizer(o OrganizerView) OrganizerView {
	return OrganizerView{
		ID: o.ID, Author: o.Author, Status: o.Status, Date: o.Date, DateUTC: o.DateUTC, Modified: o.Modified,
		ModifiedUTC: o.ModifiedUTC, URL: o.URL, Organizer: o.Organizer, Slug: o.Slug,
		GlobalID: o.GlobalID, GlobalIDLineage: o.GlobalIDLineage, access: o.access, modifiedAt: o.modifiedAt,
	}
}

func venueJSONLD(v VenueView) map[string]any {
	ld := withoutEmpty(map[string]any{
		"@type": "Place", "name": v.Venue, "description": stripTags(v.Description), "url": v.URL,
		"telephone": v.Phone, "sameAs": v.Website, "image": imageURL(v.Image),
	})
	address := withoutEmpty(map[string]any{
		"streetAddress": v.Address, "addressLocality": v.City, "addressRegion": v.StateProvince,
		"postalCode": v.Zip, "addressCountry": v.Country,
	})
	if len(address) > 0 {
		address["@type"] = "PostalAddress"
		ld["address"] = address
	}
	if v.GeoLat != nil {
		ld["geo"] = map[string]any{"@type": "GeoCoordinates", "latitude": *v.GeoLat, "longitude": *v.GeoLng}
	}
	return ld
}

// encodeLD writes a JSON-LD object once, when its view is rendered: kept
// views (viewCache) are then written without encoding a map again, which
// sorts its keys through reflection and took a tenth of a single read's CPU.
// Keys come out sorted, as a map's do, and no HTML is escaped, as in every
// answer.
func encodeLD(ld map[string]any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if len(ld) == 0 || enc.Encode(ld) != nil { // nothing to show, or a value JSON cannot hold
		return nil
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func withoutEmpty(m map[string]any) map[string]any {
	for k, v := range m {
		if v == "" {
			delete(m, k)
		}
	}
	return m
}

func imageURL(i *ImageView) string {
	if i == nil {
		return ""
	}
	return i.URL
}

func urlPath(raw string) string {
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		raw = raw[:i]
	}
	return raw
}

func stripTags(s string) string {
	return strings.TrimSpace(html.UnescapeString(wordpress.StripTags(s)))
}
