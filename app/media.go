package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// Media is the media library: images uploaded once, kept in their WordPress
// sizes, and referenced by ID from events, venues and organizers. An
// attachment is a post (WordPress keeps them so) whose files the Store's
// Files keep.
type Media struct {
	postService
	budget *uploadBudget
	// editEvent edits the events whose image a delete removes.
	editEvent eventEditor
}

// Defaults of the upload bounds (Settings.MaxUpload, Settings.MaxPixels).
const (
	DefaultMaxUpload = 10 << 20
	DefaultMaxPixels = 50_000_000
)

// UploadInput is one upload: the file's bytes and the name the client gave
// it, and the text fields sent beside it.
type UploadInput struct {
	FileName string
	Data     []byte
	MediaFields
}

// MediaFields are an attachment's text fields; nil was not sent.
type MediaFields struct {
	Title, AltText, Caption, Description *string
}

// MediaFilter selects a page of the library.
type MediaFilter struct {
	Page    PageRequest
	Search  *string
	Authors []int64
}

// Upload stores an image as an attachment: its record first, marked as
// uploading (readable by no one), then every file, then the record as done.
// A crash in between leaves a record no one reads and files no record
// serves, which Sweep removes.
func (m *Media) Upload(ctx context.Context, caller Caller, in UploadInput) (AttachmentView, error) {
	p, err := m.upload(ctx, caller.User, in, "")
	if err != nil {
		return AttachmentView{}, err
	}
	return m.renderAttachment(p, caller), nil
}

func (m *Media) upload(ctx context.Context, actor *calendar.User, in UploadInput, source string) (*calendar.Post, error) {
	if !actor.Can(calendar.CapUploadFiles) {
		return nil, errCannotUpload(actor)
	}
	if err := m.checkFields(in.MediaFields); err != nil {
		return nil, err
	}
	if len(in.Data) == 0 {
		return nil, calendar.NewError(calendar.KindInvalid, "rest_upload_no_data", "No data supplied.")
	}
	if int64(len(in.Data)) > m.settings.MaxUpload {
		return nil, errUploadTooLarge(m.settings.MaxUpload)
	}
	img, err := m.process(ctx, in.Data)
	if err != nil {
		return nil, err
	}
	stem := fileStem(in.FileName)
	now := m.now().UTC().Truncate(time.Second)
	p := &calendar.Post{Type: calendar.PostTypeAttachment, Status: calendar.StatusUploading, Author: actor.ID, Date: now, Modified: now,
		Title: stem, Meta: map[string]string{}}
	if source != "" {
		p.Meta[calendar.MetaSource] = source
	}
	applyMediaFields(p, in.MediaFields, htmlFilterFor(actor))
	if err := m.insert(ctx, p, wordpress.SanitizeTitle(p.Title)); err != nil {
		return nil, err
	}
	folder := now.In(m.settings.TimeZone).Format("2006/01/")
	files, err := m.writeFiles(ctx, p.ID, folder, stem, img)
	if err != nil {
		_ = m.discard(ctx, p, postWrite{}, nil) // the files written were removed; Sweep takes what a failure left
		return nil, err
	}
	return p, m.edit(ctx, p, postWrite{}, func(p *calendar.Post) error {
		p.Media, p.Status = files, calendar.StatusInherit
		return nil
	})
}

func errCannotUpload(actor *calendar.User) *calendar.Error {
	return calendar.ForbiddenAs(actor, "rest_cannot_create", "Sorry, you are not allowed to upload media on this site.")
}

func errUploadTooLarge(limit int64) *calendar.Error {
	return calendar.NewError(calendar.KindTooLarge, "rest_upload_file_too_big", "The file is larger than "+itoa(limit)+" bytes.").
		With("max_bytes", limit)
}

func (m *Media) checkFields(f MediaFields) error {
	var bad calendar.InvalidParams
	checkLengths(&bad, map[string]*string{"title": f.Title, "alt_text": f.AltText, "caption": f.Caption, "description": f.Description})
	if f.Title != nil && strings.TrimSpace(*f.Title) == "" {
		bad.Add("title", "title must not be empty.", nil)
	}
	return bad.Err()
}

// applyMediaFields writes the sent fields onto p, the title, caption and
// description through the writer's HTML filter (WordPress stores them as an
// attachment's post title, excerpt and content). The alt text is post meta,
// which kses does not filter.
func applyMediaFields(p *calendar.Post, f MediaFields, html htmlFilter) {
	if f.Title != nil {
		p.Title = strings.TrimSpace(*html.title(f.Title))
	}
	if f.AltText != nil {
		p.Meta[calendar.MetaAlt] = *f.AltText
	}
	if f.Caption != nil {
		p.Excerpt = *html.post(f.Caption)
	}
	if f.Description != nil {
		p.Content = *html.post(f.Description)
	}
}

// Get reads one attachment.
func (m *Media) Get(ctx context.Context, caller Caller, id int64) (AttachmentView, error) {
	p, err := m.loadAttachment(ctx, id)
	if err != nil {
		return AttachmentView{}, err
	}
	return m.renderAttachment(p, caller), nil
}

// loadAttachment finds a finished attachment; anything else is WordPress' 404.
func (m *Media) loadAttachment(ctx context.Context, id int64) (*calendar.Post, error) {
	p, err := m.store.Posts().Get(ctx, id)
	if errors.Is(err, calendar.ErrNotFound) || (err == nil && (p.Type != calendar.PostTypeAttachment || p.Status != calendar.StatusInherit)) {
		return nil, itemErrors.attachmentAbsent()
	}
	return p, err
}

// List is one page of the library, newest first.
func (m *Media) List(ctx context.Context, caller Caller, f MediaFilter) (*Page[AttachmentView], error) {
	ctx = searchingAs(ctx, caller)
	page, perPage := m.paging(f.Page)
	q, err := m.listQuery(caller, f, page, perPage)
	if err != nil {
		return nil, err
	}
	found, err := m.index.SearchPosts(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(found.IDs) == 0 && page > 1 && found.Total > 0 {
		return nil, calendar.NewError(calendar.KindInvalid, "rest_post_invalid_page_number", "The page number requested is larger than the number of pages available.")
	}
	posts, err := m.store.Posts().GetMany(ctx, found.IDs)
	if err != nil {
		return nil, err
	}
	items := make([]AttachmentView, 0, len(posts))
	for _, p := range posts {
		items = append(items, m.renderAttachment(p, caller))
	}
	return newPage(items, page, perPage, found.Total), nil
}

// Update changes the text fields sent; who may is decided as for posts.
func (m *Media) Update(ctx context.Context, caller Caller, id int64, f MediaFields) (AttachmentView, error) {
	actor := caller.User
	if actor == nil {
		return AttachmentView{}, calendar.ErrForbidden(nil)
	}
	p, err := m.loadAttachment(ctx, id)
	if err != nil {
		return AttachmentView{}, err
	}
	if err := m.checkFields(f); err != nil {
		return AttachmentView{}, err
	}
	if !canEdit(actor, p) {
		return AttachmentView{}, errCannotEdit(actor)
	}
	err = m.edit(ctx, p, postWrite{expect: caller.Expect}, func(p *calendar.Post) error {
		if !canEdit(actor, p) {
			return errCannotEdit(actor)
		}
		if p.Meta == nil {
			p.Meta = map[string]string{}
		}
		applyMediaFields(p, f, htmlFilterFor(actor))
		return nil
	})
	if err != nil {
		return AttachmentView{}, err
	}
	return m.renderAttachment(p, caller), nil
}

func errCannotEdit(actor *calendar.User) *calendar.Error {
	return calendar.ForbiddenAs(actor, "rest_cannot_edit", "Sorry, you are not allowed to edit this post.")
}

// Delete removes an attachment for good (attachments have no trash, as in
// WordPress): first from the posts whose image it is, then its record, then
// its files, so that no step leaves a post pointing at a missing file.
func (m *Media) Delete(ctx context.Context, caller Caller, id int64, force bool) (Deleted[AttachmentView], error) {
	var none Deleted[AttachmentView]
	actor := caller.User
	if actor == nil {
		return none, calendar.ErrForbidden(nil)
	}
	p, err := m.loadAttachment(ctx, id)
	if err != nil {
		return none, err
	}
	if !canDelete(actor, p) {
		return none, calendar.ForbiddenAs(actor, "rest_cannot_delete", "Sorry, you are not allowed to delete this post.")
	}
	if !force {
		return none, calendar.NewError(calendar.KindNotImplemented, "rest_trash_not_supported", "Attachments do not support trashing. Set 'force' to true to delete.")
	}
	if err := caller.Expect.holds(p.Seq, p.Modified); err != nil {
		return none, err // before the posts that show it lose it
	}
	previous := m.renderAttachment(p, caller)
	err = m.forEachPost(ctx, m.editEvent, func(q *calendar.PostQuery) { q.Type, q.Images = "", []int64{p.ID} }, func(post *calendar.Post) error {
		if post.ImageID != p.ID {
			return errUnchanged
		}
		post.Image, post.ImageID, post.ImageFile = "", 0, nil
		return nil
	})
	if err != nil {
		return none, err
	}
	err = m.discard(ctx, p, postWrite{expect: caller.Expect}, func(cur *calendar.Post) error {
		if !canDelete(actor, cur) {
			return calendar.ForbiddenAs(actor, "rest_cannot_delete", "Sorry, you are not allowed to delete this post.")
		}
		return nil
	})
	if err != nil {
		return none, err
	}
	m.deleteFiles(ctx, p.Media)
	return Deleted[AttachmentView]{Deleted: true, Previous: previous}, nil
}

// MaxUpload is the largest file the library takes, in bytes.
func (m *Media) MaxUpload() int64 { return m.settings.MaxUpload }
