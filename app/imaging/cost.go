package imaging

import (
	"errors"
	"io"
	"time"
)

// What processing an image costs, known from its header before anything
// is decoded, so that a service can refuse it or wait for room, and how
// long decoding may take.

// ErrTooSlow: decoding did not finish by the deadline (a progressive JPEG
// with thousands of scans, whatever its header claims).
var ErrTooSlow = errors.New("imaging: decoding took too long")

// Limits bound one Process call.
type Limits struct {
	// MaxPixels caps width times height (<= 0: DefaultMaxPixels).
	MaxPixels int64
	// Deadline, when set, is when decoding gives up with ErrTooSlow.
	Deadline time.Time
	// Cores is how many goroutines work on the image at once (<= 0: one
	// per core), so that a service can keep a core for its readers.
	Cores int
}

// encoderBytes is what one encoding takes besides its output: a deflate
// compressor's state for a PNG is about a megabyte.
const encoderBytes = 1 << 20

// costMargin: a tenth more for what decoders and encoders allocate beside
// the pixels (rows, tables, and under the race detector its own records).
const costMargin = 10

// Cost is the memory Process allocates for data, in bytes, an upper bound
// of what it holds at once (and what a collector lets pile up before it
// runs): the file and its stripped copy, the decoded pixels (a progressive
// JPEG's coefficients included), the RGBA copy the sizes are scaled from,
// an upright copy and its encoding when EXIF turns the image, and for each
// size what scaling keeps (scaleBytes), the pixels and the encoding, as
// planSizes plans them. TestCostBoundsWhatProcessAllocates holds it to that.
func Cost(data []byte, specs []SizeSpec) (int64, error) {
	f, w, h, err := Inspect(data)
	if err != nil {
		return 0, err
	}
	m, err := readMeta(f, data, w, h)
	if err != nil {
		return 0, ErrNotImage
	}
	px := int64(w) * int64(h)
	decoded, convert, err := decodedBytes(f, data, px)
	if err != nil {
		return 0, err
	}
	cost := 2*int64(len(data)) + decoded + convert*px
	if m.orientation > 4 { // turned a quarter: the sizes come from h x w
		w, h = h, w
	}
	if m.orientation > 1 {
		cost += max(decoded, 4*px) + 4*px + encoderBytes
	}
	for _, j := range planSizes(w, h, specs) {
		out := int64(j.r.Width) * int64(j.r.Height)
		cost += scaleBytes(j.r.Width, j.r.Height, j.rect.Dx(), j.rect.Dy()) + 4*out + 4*out + encoderBytes
	}
	return cost + cost/costMargin, nil
}

// decodedBytes is what the decoder of f allocates for px pixels, and the
// bytes per pixel of the RGBA copy makeSizes takes of it (0 when it scales
// the decoded image itself).
func decodedBytes(f Format, data []byte, px int64) (decoded, convert int64, err error) {
	switch f {
	case JPEG:
		components, progressive, err := jpegFrame(data)
		if err != nil {
			return 0, 0, err
		}
		decoded = int64(components) * px
		if progressive {
			decoded += 4 * int64(components) * px // one int32 coefficient per sample, kept across scans
		}
		return decoded, 4, nil
	case PNG:
		bpp, interlaced, err := pngPixel(data)
		if err != nil {
			return 0, 0, err
		}
		decoded = bpp * px
		if interlaced {
			decoded *= 2 // each pass, then the whole
		}
		if bpp > 4 {
			return decoded, 4, nil // 16-bit is scaled from an 8-bit copy
		}
		return decoded, 0, nil
	case GIF:
		return 1*px + 4*px, 4, nil // the frame, the canvas it is drawn on
	case WebP:
		return 4 * px, 4, nil
	}
	return 0, 0, ErrNotImage
}

// jpegFrame reads the frame header: the number of components and whether
// the frame is progressive.
func jpegFrame(data []byte) (components int, progressive bool, err error) {
	found := false
	_ = walkJPEG(data, func(s jpegSeg) bool {
		if m := s.marker; m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC && s.end-s.body >= 6 {
			components, progressive, found = int(data[s.body+5]), m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE, true
			return false
		}
		return s.marker != 0xDA
	})
	if !found || components < 1 {
		// A layout only the decoder follows: assume the worst it can be.
		return 4, true, nil
	}
	return components, progressive, nil
}

// pngPixel reads IHDR: the bytes per pixel of the image Go decodes it into,
// and whether it is interlaced.
func pngPixel(data []byte) (bpp int64, interlaced bool, err error) {
	if len(data) < 33 || string(data[12:16]) != "IHDR" {
		return 0, false, ErrNotImage
	}
	depth, color := data[24], data[25]
	interlaced = data[28] != 0
	switch {
	case color == 3 || (color == 0 && depth <= 8): // paletted, gray
		bpp = 1
	case color == 0: // gray 16
		bpp = 2
	case depth == 16: // RGB, gray+alpha, RGBA at 16 bits: RGBA64, NRGBA64
		bpp = 8
	default:
		bpp = 4
	}
	return bpp, interlaced, nil
}

// deadlineReader hands the decoder a few bytes at a time and refuses to go
// on past the deadline: progressive scans cost CPU for every block of the
// image however few bytes they hold, so the deadline is checked about once
// per scan.
type deadlineReader struct {
	data     []byte
	deadline time.Time
}

// deadlineChunk is how many bytes a read hands out: a scan header is about
// a dozen.
const deadlineChunk = 16

func (r *deadlineReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	if !r.deadline.IsZero() && time.Now().After(r.deadline) {
		return 0, ErrTooSlow
	}
	n := copy(p[:min(len(p), deadlineChunk)], r.data)
	r.data = r.data[n:]
	return n, nil
}
