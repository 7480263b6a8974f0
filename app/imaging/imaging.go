// Package imaging turns an uploaded image into what WordPress serves for it:
// a metadata-free "full" file, upright, plus the registered sub-sizes with
// WordPress' exact dimensions.
package imaging

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"runtime"
	"sync"
	"time"

	"golang.org/x/image/draw"
	"golang.org/x/image/vp8l"
	"golang.org/x/image/webp"
)

var (
	// ErrNotImage: the content is not a decodable JPEG, PNG, GIF or WebP.
	ErrNotImage = errors.New("imaging: not a JPEG, PNG, GIF or WebP image")
	// ErrTooManyPixels: the header announces more pixels than allowed; nothing
	// was decoded.
	ErrTooManyPixels = errors.New("imaging: image has too many pixels")
)

// DefaultMaxPixels is the cap Process applies when given maxPixels <= 0, so
// that a zero config value cannot switch the decompression-bomb guard off.
const DefaultMaxPixels = 50_000_000

// Format is an image container format, named as Go's image package does.
type Format string

const (
	JPEG Format = "jpeg"
	PNG  Format = "png"
	GIF  Format = "gif"
	WebP Format = "webp"
)

// MIME is the media type WordPress stores for the format.
func (f Format) MIME() string { return "image/" + string(f) }

// Ext is the file extension WordPress gives the format.
func (f Format) Ext() string {
	if f == JPEG {
		return "jpg"
	}
	return string(f)
}

// SizeSpec is a registered image size; 0 leaves that side unbounded.
type SizeSpec struct {
	Name          string
	Width, Height int
	Crop          bool
}

// WordPressSizes are the sub-sizes WordPress 6 makes on a fresh site, in
// the order it makes them, which is the order an attachment's metadata
// lists them in: _wp_make_subsizes puts medium, large, thumbnail and
// medium_large first, then the rest in the order they were registered
// (1536x1536 and 2048x2048 since WordPress 5.3). testdata/dimensions.json
// holds WordPress' own answers.
var WordPressSizes = []SizeSpec{
	{"medium", 300, 300, false},
	{"large", 1024, 1024, false},
	{"thumbnail", 150, 150, true},
	{"medium_large", 768, 0, false},
	{"1536x1536", 1536, 1536, false},
	{"2048x2048", 2048, 2048, false},
}

// File is one stored rendition of an upload.
type File struct {
	Name          string // size name, "" for the full file
	Width, Height int
	MIME          string // image/jpeg ...
	Ext           string // jpg, png, gif, webp
	Data          []byte
}

// Result is everything Process makes from one upload.
type Result struct {
	Format Format
	// Full is served as the "full" size: the original minus metadata, or,
	// when Rotated (or in the rare layout the stripper cannot walk), a
	// re-encoding of the upright pixels, in the format of the sizes.
	Full File
	// Rotated: EXIF asked for a rotation or flip, so Full was re-encoded
	// (WordPress then names it <name>-rotated.<ext>).
	Rotated bool
	// Sizes follow the order of the specs; sizes WordPress would not make
	// (the original is not larger) are absent.
	Sizes []File
}

// sniff decides the format from magic bytes only: names and declared types
// of uploads are not trusted.
func sniff(data []byte) Format {
	switch {
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return JPEG
	case bytes.HasPrefix(data, []byte(pngSignature)):
		return PNG
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return GIF
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return WebP
	}
	return ""
}

// Inspect reads only the header: the format and the stored width and height
// (before any EXIF orientation).
func Inspect(data []byte) (Format, int, int, error) {
	f := sniff(data)
	if f == "" {
		return "", 0, 0, ErrNotImage
	}
	var cfg image.Config
	err := guard(func() (err error) {
		r := bytes.NewReader(data)
		switch f {
		case JPEG:
			cfg, err = jpeg.DecodeConfig(r)
		case PNG:
			cfg, err = png.DecodeConfig(r)
		case GIF:
			cfg, err = gif.DecodeConfig(r)
		case WebP:
			cfg, err = webp.DecodeConfig(r)
		}
		return err
	})
	if err != nil {
		return "", 0, 0, fmt.Errorf("%w: %s header: %v", ErrNotImage, f, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return "", 0, 0, fmt.Errorf("%w: %s is %dx%d", ErrNotImage, f, cfg.Width, cfg.Height)
	}
	return f, cfg.Width, cfg.Height, nil
}

// Process checks the header against the pixel cap before decoding
// anything, then decodes (giving up with ErrTooSlow past the deadline),
// turns the pixels upright per EXIF and makes the sizes of specs.
func Process(data []byte, l Limits, specs []SizeSpec) (*Result, error) {
	f, w, h, err := Inspect(data)
	if err != nil {
		return nil, err
	}
	maxPixels := l.MaxPixels
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	cores := l.Cores
	if cores <= 0 {
		cores = runtime.GOMAXPROCS(0)
	}
	if int64(w)*int64(h) > maxPixels {
		return nil, fmt.Errorf("%w: %dx%d is over %d", ErrTooManyPixels, w, h, maxPixels)
	}
	meta, err := readMeta(f, data, w, h)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotImage, err)
	}
	img, err := decode(f, data, w, h, l.Deadline)
	if errors.Is(err, ErrTooSlow) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotImage, err)
	}

	// Go writes no WebP, and a resampled GIF has too many colors for a
	// palette: sizes are JPEG for photos (JPEG, opaque WebP), PNG otherwise.
	out := PNG
	if f == JPEG || (f == WebP && isOpaque(img)) {
		out = JPEG
	}
	res := &Result{Format: f}
	if meta.orientation > 1 {
		img = upright(img, meta.orientation, cores)
		res.Rotated = true
	} else if clean, err := strip(f, data); err == nil {
		res.Full = File{Width: w, Height: h, MIME: f.MIME(), Ext: f.Ext(), Data: clean}
	}
	// Rotated, or a layout the decoder accepts but the stripper cannot walk
	// (better fresh pixels than bytes that may carry metadata): the full file
	// is encoded while the sizes are made.
	var fullErr error
	var wg sync.WaitGroup
	if res.Full.Data == nil {
		if cores > 1 {
			wg.Go(func() { res.Full, fullErr = encodeFile("", img, out, fullQuality) })
		} else {
			res.Full, fullErr = encodeFile("", img, out, fullQuality)
		}
	}
	sizes, err := makeSizes(img, specs, out, cores)
	wg.Wait()
	if err := errors.Join(err, fullErr); err != nil {
		return nil, err
	}
	res.Sizes = sizes
	return res, nil
}

// decode returns the first frame on a w x h canvas (a GIF frame may cover
// only part of its logical screen), or ErrTooSlow once the deadline passed.
func decode(f Format, data []byte, w, h int, deadline time.Time) (img image.Image, err error) {
	err = guard(func() (err error) {
		r := &deadlineReader{data: data, deadline: deadline}
		switch f {
		case JPEG:
			img, err = jpeg.Decode(r)
		case PNG:
			img, err = png.Decode(r)
		case GIF:
			img, err = gif.Decode(r)
		case WebP:
			img, err = decodeWebP(data)
		}
		return err
	})
	if !deadline.IsZero() && time.Now().After(deadline) {
		return nil, ErrTooSlow // however the decoder reported the reader's refusal
	}
	if err != nil {
		return nil, err
	}
	if b := img.Bounds(); b != image.Rect(0, 0, w, h) {
		canvas := image.NewNRGBA(image.Rect(0, 0, w, h))
		draw.Draw(canvas, b, img, b.Min, draw.Src)
		img = canvas
	}
	return img, nil
}

// decodeWebP decodes a lossless frame by itself: x/image/webp refuses VP8L
// inside VP8X when the alpha flag is set, which is how libwebp writes every
// lossless image with transparency plus EXIF or XMP.
func decodeWebP(data []byte) (image.Image, error) {
	var lossless []byte
	_ = walkWebP(data, func(id string, _, _ int, body []byte) bool {
		if id == "VP8L" {
			lossless = body
		}
		return id != "VP8 " && id != "VP8L"
	})
	if lossless != nil {
		return vp8l.Decode(bytes.NewReader(lossless))
	}
	return webp.Decode(bytes.NewReader(data))
}

// guard turns a decoder panic on hostile input into an error.
func guard(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("decoder panic: %v", p)
		}
	}()
	return fn()
}

func isOpaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}
