package app

import (
	"context"
	"errors"
	"net/url"
	"path"

	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// postImages is what a write of a post asks of the media library (Media,
// given to the services of events, venues and organizers in New): the
// image it sends read as an attachment or a URL, while the input is
// checked; then, once the write is permitted and before its
// compare-and-swap, a foreign URL sideloaded (once, so before the loop).
type postImages interface {
	checkImage(ctx context.Context, raw string, bad *calendar.InvalidParams) *imageChoice
	sideload(ctx context.Context, actor *calendar.User, c *imageChoice) error
}

var _ postImages = (*Media)(nil)

// imageChoice is a checked image of a post write: an attachment of ours, or
// a URL kept as given ("" removes the image).
type imageChoice struct {
	url        string
	attachment *calendar.Post
	// sideload: the URL is a foreign one the service fetches into the library.
	sideload bool
}

// checkImage reads an image as the interface takes it: an attachment ID, the
// URL of one of our uploads (which is that attachment), or another absolute
// http(s) URL.
func (m *Media) checkImage(ctx context.Context, raw string, bad *calendar.InvalidParams) *imageChoice {
	const invalid = "image must be the ID of an image of the media library, or an absolute http(s) URL."
	if raw == "" {
		return &imageChoice{}
	}
	if id, ok := wordpress.WholeNumber(raw); ok {
		p, err := m.loadAttachment(ctx, id)
		if err != nil {
			bad.Add("image", invalid, nil)
			return nil
		}
		return m.attachmentChoice(p)
	}
	if !isHTTPURL(raw) {
		bad.Add("image", invalid, nil)
		return nil
	}
	switch p, err := m.ownUpload(ctx, raw); {
	case err != nil:
		bad.Add("image", "image names no image of the media library.", nil)
		return nil
	case p != nil:
		return m.attachmentChoice(p)
	}
	return &imageChoice{url: raw, sideload: m.settings.Sideload != nil}
}

// attachmentChoice: a post keeps the URL a sideloaded image came from, so
// that sending it again keeps the attachment, or else the file's URL.
func (m *Media) attachmentChoice(p *calendar.Post) *imageChoice {
	c := &imageChoice{url: p.Meta[calendar.MetaSource], attachment: p}
	if c.url == "" {
		c.url = m.fileURL(p.Media.File)
	}
	return c
}

// applyImage writes the image onto a post, with a copy of an attachment's
// files.
func (c *imageChoice) applyImage(p *calendar.Post) {
	if c.url == p.Image && c.attachment == nil && p.ImageID != 0 {
		return // the URL it was sideloaded from, sent again: it stays the attachment
	}
	p.Image, p.ImageID, p.ImageFile = c.url, 0, nil
	if a := c.attachment; a != nil {
		f := *a.Media
		p.ImageID, p.ImageFile = a.ID, &f
	}
}

// sideload fetches a foreign image into the library, once per URL: an
// attachment already sideloaded from it is reused. It is a step of a post's
// write of its own, after the write is permitted (permit) and before its
// compare-and-swap, which only applies what it resolved. Only callers who
// may upload have it done; a fetch that fails or is refused (an address that
// is not public) leaves the URL as given, as when sideloading is off.
func (m *Media) sideload(ctx context.Context, actor *calendar.User, c *imageChoice) error {
	if c == nil || !c.sideload || !actor.Can(calendar.CapUploadFiles) {
		return nil
	}
	found, err := m.index.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeAttachment, Statuses: []string{calendar.StatusInherit},
		Reader: calendar.ReadEverything, Source: c.url, Limit: 1})
	if err != nil {
		return err
	}
	if len(found.IDs) > 0 {
		if p, err := m.loadAttachment(ctx, found.IDs[0]); err == nil {
			*c = *m.attachmentChoice(p)
			return nil
		}
	}
	data, err := m.settings.Sideload.Fetch(ctx, c.url, m.settings.MaxUpload)
	if err != nil {
		return nil
	}
	u, _ := url.Parse(c.url)
	p, err := m.upload(ctx, actor, UploadInput{FileName: path.Base(u.Path), Data: data}, c.url)
	if e := (*calendar.Error)(nil); errors.As(err, &e) && (e.Kind == calendar.KindInvalid || e.Kind == calendar.KindTooLarge) {
		return nil // not an image we take: the URL stays as given
	}
	if err != nil {
		return err
	}
	*c = *m.attachmentChoice(p)
	return nil
}
