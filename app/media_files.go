package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"calendar/app/calendar"
	"calendar/app/imaging"
	"calendar/app/wordpress"
)

// maxStemBytes bounds a file's name before its size and extension.
const maxStemBytes = 80

var percentEncoded = regexp.MustCompile(`%[0-9a-f]{2}`)

// fileStem is the name an upload's files start with: the client's name
// without folders or extension, as a slug (so no traversal, control
// characters or spaces). A name with no Latin letter or digit left (ポスター)
// becomes "image-" and a hash of it, so that different names stay apart;
// no name at all, "image". The extension comes from the content, never
// from the name.
func fileStem(name string) string {
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	if dot := strings.LastIndexByte(name, '.'); dot > 0 {
		name = name[:dot]
	}
	stem := percentEncoded.ReplaceAllString(wordpress.SanitizeTitle(name), "-")
	stem = strings.Trim(dashes.ReplaceAllString(stem, "-"), "-_.")
	if len(stem) > maxStemBytes {
		stem = strings.TrimRight(stem[:maxStemBytes], "-_")
	}
	switch {
	case stem != "":
		return stem
	case strings.IndexFunc(name, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0:
		sum := sha256.Sum256([]byte(name))
		return "image-" + hex.EncodeToString(sum[:4])
	}
	return "image"
}

// Names an upload tries: stem, then stem-1 to stem-9 as WordPress numbers
// them, then stem- and a random suffix, so names taken by earlier uploads
// (a thousand poster.png in a month) cost a few tries, never a refusal.
const (
	numberedNames = 10
	randomNames   = 8
)

// writeFiles stores the image's files under folder: stem.ext (stem-rotated
// when turned upright) and stem-WxH.ext for each size, under the first
// free name (numberedNames, randomNames).
func (m *Media) writeFiles(ctx context.Context, owner int64, folder, stem string, img *imaging.Result) (*calendar.MediaFile, error) {
	var err error
	for n := 0; n < numberedNames+randomNames; n++ {
		base := folder + stem
		switch {
		case n >= numberedNames:
			base += "-" + randomSuffix()
		case n > 0:
			base += "-" + itoa(int64(n))
		}
		var media *calendar.MediaFile
		if media, err = m.tryFiles(ctx, owner, base, img); !errors.Is(err, calendar.ErrConflict) {
			return media, err
		}
	}
	return nil, err
}

// randomSuffix is six letters and digits (31 bits).
func randomSuffix() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 6)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

func (m *Media) tryFiles(ctx context.Context, owner int64, base string, img *imaging.Result) (*calendar.MediaFile, error) {
	full := base + "." + img.Full.Ext
	if img.Rotated {
		full = base + "-rotated." + img.Full.Ext
	}
	media := &calendar.MediaFile{File: full, MIME: img.Full.MIME, Width: img.Full.Width, Height: img.Full.Height,
		FileSize: int64(len(img.Full.Data))}
	files := []imaging.File{img.Full}
	for _, s := range img.Sizes {
		name := base + "-" + itoa(int64(s.Width)) + "x" + itoa(int64(s.Height)) + "." + s.Ext
		media.Sizes = append(media.Sizes, calendar.MediaSize{Name: s.Name, File: name, MIME: s.MIME, Width: s.Width,
			Height: s.Height, FileSize: int64(len(s.Data))})
		files = append(files, s)
	}
	var written []string
	for i, name := range media.Names() {
		if slices.Contains(written, name) { // two sizes of one shape share a file
			continue
		}
		if err := m.store.Files().PutFile(ctx, name, owner, files[i].Data); err != nil {
			for _, w := range written {
				_ = m.store.Files().DeleteFile(ctx, w)
			}
			return nil, err
		}
		written = append(written, name)
	}
	return media, nil
}

// deleteFiles removes an image's files; what fails is left to Sweep.
func (m *Media) deleteFiles(ctx context.Context, media *calendar.MediaFile) {
	if media == nil {
		return
	}
	for _, name := range media.Names() {
		_ = m.store.Files().DeleteFile(ctx, name)
	}
}

// ServedFile is a stored file an attachment serves, with its type.
type ServedFile struct {
	calendar.StoredFile
	MIME string
}

// OpenFile opens a file of a finished attachment by its name under the
// uploads URL; a file no finished attachment lists (a crash mid-upload left
// it) is not found.
func (m *Media) OpenFile(ctx context.Context, name string) (*ServedFile, error) {
	notFound := calendar.NewError(calendar.KindNotFound, "rest_no_route", "No route was found matching the URL and request method.")
	f, err := m.store.Files().OpenFile(ctx, name)
	if errors.Is(err, calendar.ErrNotFound) {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	owner, err := m.loadAttachment(ctx, f.Info().Owner)
	mime, listed := "", false
	if err == nil {
		mime, listed = owner.Media.MIMEOf(name)
	}
	if !listed {
		f.Close()
		if err != nil && calendar.AsError(err).Kind != calendar.KindNotFound {
			return nil, err
		}
		return nil, notFound
	}
	return &ServedFile{StoredFile: f, MIME: mime}, nil
}

// SweepGrace is how old an unfinished upload must be before Sweep removes
// it: another replica may be writing it still.
const SweepGrace = time.Hour

// Sweep removes what unfinished uploads left before the instant: records
// still marked as uploading and files no finished attachment lists. It
// reports how many records and files it removed.
func (m *Media) Sweep(ctx context.Context, before time.Time) (records, files int, err error) {
	q := calendar.PostQuery{Type: calendar.PostTypeAttachment, Statuses: []string{calendar.StatusUploading}, Reader: calendar.ReadEverything, Limit: 1000}
	found, err := m.index.SearchPosts(ctx, q)
	if err != nil {
		return 0, 0, err
	}
	stale, err := m.store.Posts().GetMany(ctx, found.IDs)
	if err != nil {
		return 0, 0, err
	}
	for _, p := range stale {
		unfinished := func(p *calendar.Post) error {
			if p.Status != calendar.StatusUploading || !p.Modified.Before(before) {
				return errUnchanged
			}
			return nil
		}
		if unfinished(p) == nil {
			if err := m.discard(ctx, p, postWrite{}, unfinished); err != nil {
				return records, files, err
			}
			records++
		}
	}
	stored, err := m.store.Files().ListFiles(ctx, before)
	if err != nil {
		return records, files, err
	}
	for _, f := range stored {
		owner, err := m.loadAttachment(ctx, f.Owner)
		if err != nil && calendar.AsError(err).Kind != calendar.KindNotFound {
			return records, files, err
		}
		if _, listed := owner.MediaOf().MIMEOf(f.Name); err == nil && listed {
			continue
		}
		if err := m.store.Files().DeleteFile(ctx, f.Name); err != nil {
			return records, files, err
		}
		files++
	}
	return records, files, nil
}

// uploadsURL is where the files are served: {site}/uploads/.
func (m *Media) uploadsURL() string { return m.settings.SiteURL + "/uploads/" }

// ownUpload finds the attachment one of our file URLs serves, nil when the
// URL is not one of ours.
func (m *Media) ownUpload(ctx context.Context, rawURL string) (*calendar.Post, error) {
	name, ok := strings.CutPrefix(rawURL, m.uploadsURL())
	if !ok {
		return nil, nil
	}
	name, _, _ = strings.Cut(name, "?")
	info, err := m.store.Files().StatFile(ctx, name)
	if errors.Is(err, calendar.ErrNotFound) {
		return nil, calendar.ErrInvalidParam("image", "image names no file of the media library.")
	}
	if err != nil {
		return nil, err
	}
	p, err := m.loadAttachment(ctx, info.Owner)
	if err != nil || !slices.Contains(p.Media.Names(), name) {
		return nil, calendar.ErrInvalidParam("image", "image names no file of the media library.")
	}
	return p, nil
}

var dashes = regexp.MustCompile(`-+`)
