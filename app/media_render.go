package app

import (
	"path"
	"slices"
	"strings"

	"calendar/app/calendar"
	"calendar/app/imaging"
)

// imageView is a post's image: a URL as given, or one of our uploads with
// its dimensions and sizes.
func (s *postService) imageView(url string, id int64, f *calendar.MediaFile) *ImageView {
	v := &ImageView{URL: url, Extension: strings.TrimPrefix(path.Ext(urlPath(url)), ".")}
	if f == nil {
		return v
	}
	v.URL, v.ID, v.Width, v.Height, v.FileSize = s.fileURL(f.File), id, f.Width, f.Height, f.FileSize
	v.Extension = strings.TrimPrefix(path.Ext(f.File), ".")
	for _, size := range inMetadataOrder(f.Sizes) {
		v.Sizes = append(v.Sizes, ImageSizeView{Name: size.Name, Width: size.Width, Height: size.Height, MIME: size.MIME,
			FileSize: size.FileSize, URL: s.fileURL(size.File)})
	}
	return v
}

// inMetadataOrder are an upload's sizes in the order WordPress' metadata
// lists them (imaging.WordPressSizes'): uploads stored before that order
// was kept have theirs in the order WordPress registers them. A size of
// another name would come last.
func inMetadataOrder(sizes []calendar.MediaSize) []calendar.MediaSize {
	rank := func(s calendar.MediaSize) int {
		if i := slices.IndexFunc(imaging.WordPressSizes, func(w imaging.SizeSpec) bool { return w.Name == s.Name }); i >= 0 {
			return i
		}
		return len(imaging.WordPressSizes)
	}
	ordered := slices.Clone(sizes)
	slices.SortStableFunc(ordered, func(a, b calendar.MediaSize) int { return rank(a) - rank(b) })
	return ordered
}

// fileURL is where an uploaded file is served.
func (s *postService) fileURL(name string) string { return s.settings.SiteURL + "/uploads/" + name }

// AttachmentView is an attachment in WordPress' media shape.
type AttachmentView struct {
	ID           int64        `json:"id"`
	Date         string       `json:"date"`
	DateGMT      string       `json:"date_gmt"`
	GUID         Rendered     `json:"guid"`
	Modified     string       `json:"modified"`
	ModifiedGMT  string       `json:"modified_gmt"`
	Slug         string       `json:"slug"`
	Status       string       `json:"status"`
	Type         string       `json:"type"`
	Link         string       `json:"link"`
	Title        Rendered     `json:"title"`
	Author       int64        `json:"author"`
	Description  Rendered     `json:"description"`
	Caption      Rendered     `json:"caption"`
	AltText      string       `json:"alt_text"`
	MediaType    string       `json:"media_type"`
	MIMEType     string       `json:"mime_type"`
	MediaDetails MediaDetails `json:"media_details"`
	Post         *int64       `json:"post"`
	SourceURL    string       `json:"source_url"`
	revision     int64
}

// Rendered is WordPress' {"rendered": ...} text; Raw is there for those who
// may edit it.
type Rendered struct {
	Raw      *string `json:"raw,omitempty"`
	Rendered string  `json:"rendered"`
}

// MediaDetails are an attachment's dimensions, file and sizes.
type MediaDetails struct {
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	File      string            `json:"file"`
	FileSize  int64             `json:"filesize"`
	Sizes     MediaDetailsSizes `json:"sizes"`
	ImageMeta map[string]any    `json:"image_meta"`
}

// MediaDetailsSizes are an attachment's sizes as WordPress' media endpoint
// writes them: an object keyed by size name, in the order of the
// attachment's metadata, then "full".
type MediaDetailsSizes []MediaDetailsSize

func (s MediaDetailsSizes) MarshalJSON() ([]byte, error) {
	return OrderedObject(len(s), func(i int) (string, any) { return s[i].Name, s[i] })
}

// MediaDetailsSize is one size of an attachment (WordPress' keys). The
// size in bytes is the metadata's: "full" has none, as WordPress writes it
// apart from the metadata, and neither has a size of an upload stored
// before they were kept.
type MediaDetailsSize struct {
	Name      string `json:"-"`
	File      string `json:"file"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	FileSize  int64  `json:"filesize,omitempty"`
	MIMEType  string `json:"mime_type"`
	SourceURL string `json:"source_url"`
}

// mediaDateFormat is how WordPress' core endpoints write dates.
const mediaDateFormat = "2006-01-02T15:04:05"

// renderAttachment writes an attachment; raw texts for those who may edit it.
func (m *Media) renderAttachment(p *calendar.Post, caller Caller) AttachmentView {
	f := p.Media
	if f == nil {
		f = &calendar.MediaFile{}
	}
	texts := m.texts(p)
	src := m.fileURL(f.File)
	v := AttachmentView{
		ID: p.ID, revision: p.Seq, Date: p.Date.In(m.settings.TimeZone).Format(mediaDateFormat), DateGMT: p.Date.UTC().Format(mediaDateFormat),
		GUID: Rendered{Rendered: src}, Modified: p.Modified.In(m.settings.TimeZone).Format(mediaDateFormat),
		ModifiedGMT: p.Modified.UTC().Format(mediaDateFormat), Slug: p.Slug, Status: p.Status, Type: calendar.PostTypeAttachment,
		Link: m.home(caller) + "/?attachment_id=" + itoa(p.ID), Title: Rendered{Rendered: p.Title}, Author: p.Author,
		Description: Rendered{Rendered: texts.description}, Caption: Rendered{Rendered: texts.excerpt},
		AltText: p.Meta[calendar.MetaAlt], MediaType: "image", MIMEType: f.MIME, SourceURL: src,
		MediaDetails: MediaDetails{Width: f.Width, Height: f.Height, File: f.File, FileSize: f.FileSize,
			Sizes: MediaDetailsSizes{}, ImageMeta: map[string]any{}},
	}
	for _, s := range inMetadataOrder(f.Sizes) {
		v.MediaDetails.Sizes = append(v.MediaDetails.Sizes, MediaDetailsSize{Name: s.Name, File: path.Base(s.File),
			Width: s.Width, Height: s.Height, FileSize: s.FileSize, MIMEType: s.MIME, SourceURL: m.fileURL(s.File)})
	}
	// WordPress adds "full" only to an image that has sizes: a small one's
	// are {}.
	if len(f.Sizes) > 0 {
		v.MediaDetails.Sizes = append(v.MediaDetails.Sizes, MediaDetailsSize{Name: "full", File: path.Base(f.File),
			Width: f.Width, Height: f.Height, MIMEType: f.MIME, SourceURL: src})
	}
	if canEdit(caller.User, p) {
		title, description, caption := p.Title, p.Content, p.Excerpt
		v.Title.Raw, v.Description.Raw, v.Caption.Raw = &title, &description, &caption
	}
	return v
}
