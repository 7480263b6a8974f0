package imaging

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"golang.org/x/image/vp8"
	"golang.org/x/image/vp8l"
)

const pngSignature = "\x89PNG\r\n\x1a\n"

// maxScans bounds progressive JPEG work: each scan walks every block of the
// image, so a small file with thousands of scans is a CPU bomb. Encoders
// write about ten.
const maxScans = 100

var errLayout = errors.New("unexpected container layout")

type meta struct {
	orientation int // EXIF orientation, 1 when absent
}

// readMeta reads what is needed before decoding: the EXIF orientation, and
// checks the decoders themselves do not make.
func readMeta(f Format, data []byte, w, h int) (meta, error) {
	m := meta{orientation: 1}
	var tiff []byte
	switch f {
	case JPEG:
		// Every SOS marker in the file counts, wherever it stands: the
		// decoder skips junk between segments, where a walk of the layout
		// stops, and in entropy-coded data 0xFF is never followed by 0xDA.
		if scans := bytes.Count(data, []byte{0xFF, 0xDA}); scans > maxScans {
			return m, fmt.Errorf("more than %d JPEG scans", maxScans)
		}
		_ = walkJPEG(data, func(s jpegSeg) bool {
			body := data[s.body:s.end]
			if tiff == nil && s.marker == 0xE1 && bytes.HasPrefix(body, []byte("Exif\x00\x00")) {
				tiff = body[6:]
				return false
			}
			return s.marker != 0xDA // EXIF comes before the first scan
		})
	case PNG:
		_ = walkPNG(data, func(typ string, _, _ int, body []byte) bool {
			if typ == "eXIf" {
				tiff = body
				return false
			}
			return true
		})
	case WebP:
		fw, fh := -1, -1
		_ = walkWebP(data, func(id string, _, _ int, body []byte) bool {
			switch id {
			case "EXIF":
				if tiff == nil {
					tiff = bytes.TrimPrefix(body, []byte("Exif\x00\x00"))
				}
			case "VP8 ", "VP8L":
				if fw < 0 {
					fw, fh = webpFrameSize(id, body)
				}
			}
			return true
		})
		// x/image/webp sizes its buffers from the frame but reports the VP8X
		// canvas, so the pixel cap only holds if the two agree.
		if fw < 0 {
			return m, errors.New("WebP without a still frame (animated?)")
		}
		if fw != w || fh != h {
			return m, fmt.Errorf("WebP frame %dx%d differs from canvas %dx%d", fw, fh, w, h)
		}
	}
	m.orientation = tiffOrientation(tiff)
	return m, nil
}

func webpFrameSize(id string, body []byte) (int, int) {
	r := bytes.NewReader(body)
	if id == "VP8L" {
		c, err := vp8l.DecodeConfig(r)
		if err != nil {
			return -1, -1
		}
		return c.Width, c.Height
	}
	d := vp8.NewDecoder()
	d.Init(r, len(body))
	fh, err := d.DecodeFrameHeader()
	if err != nil {
		return -1, -1
	}
	return fh.Width, fh.Height
}

// strip returns data without its metadata, byte for byte otherwise.
func strip(f Format, data []byte) ([]byte, error) {
	switch f {
	case JPEG:
		return stripJPEG(data)
	case PNG:
		return stripPNG(data)
	case GIF:
		return stripGIF(data)
	case WebP:
		return stripWebP(data)
	}
	return nil, errLayout
}

type jpegSeg struct {
	marker     byte // 0 for entropy-coded data
	start, end int  // the whole segment, fill bytes and marker included
	body       int  // start of the payload after the length field
}

// walkJPEG visits each segment up to and including EOI (what follows EOI,
// such as appended preview images or videos, is never visited) until visit
// returns false. Each step advances, so the walk is linear in len(data).
func walkJPEG(data []byte, visit func(jpegSeg) bool) error {
	if len(data) < 2 || data[0] != 0xFF || data[1] != 0xD8 {
		return errLayout
	}
	if !visit(jpegSeg{marker: 0xD8, start: 0, end: 2, body: 2}) {
		return nil
	}
	for i := 2; i < len(data); {
		j := i
		for j < len(data) && data[j] == 0xFF {
			j++
		}
		if j == i || j >= len(data) {
			return errLayout
		}
		s := jpegSeg{marker: data[j], start: i, body: j + 1, end: j + 1}
		switch m := s.marker; {
		case m == 0x00 || m == 0xD8:
			return errLayout
		case m == 0xD9:
			visit(s)
			return nil
		case m == 0x01 || (m >= 0xD0 && m <= 0xD7):
			// standalone marker, no length
		default:
			if j+3 > len(data) {
				return errLayout
			}
			n := int(binary.BigEndian.Uint16(data[j+1:]))
			if n < 2 || j+1+n > len(data) {
				return errLayout
			}
			s.body, s.end = j+3, j+1+n
		}
		if !visit(s) {
			return nil
		}
		i = s.end
		if s.marker == 0xDA {
			// Entropy-coded data runs to the first 0xFF that is neither a
			// stuffed 0xFF00 nor a restart marker.
			k := i
			for ; k+1 < len(data); k++ {
				if data[k] == 0xFF && data[k+1] != 0 && (data[k+1] < 0xD0 || data[k+1] > 0xD7) {
					break
				}
			}
			if k+1 >= len(data) {
				k = len(data)
			}
			if k > i && !visit(jpegSeg{start: i, end: k, body: i}) {
				return nil
			}
			i = k
		}
	}
	return nil
}

// stripJPEG keeps only what rendering needs: JFIF, the ICC profile and
// Adobe's color transform flag. EXIF, XMP, IPTC, MPF, maker data and
// comments go.
func stripJPEG(data []byte) ([]byte, error) {
	out := make([]byte, 0, len(data))
	err := walkJPEG(data, func(s jpegSeg) bool {
		body := data[s.body:s.end]
		keep := true
		switch m := s.marker; {
		case m == 0xFE:
			keep = false
		case m == 0xE0:
			keep = bytes.HasPrefix(body, []byte("JFIF\x00"))
		case m == 0xE2:
			keep = bytes.HasPrefix(body, []byte("ICC_PROFILE\x00"))
		case m == 0xEE:
			keep = bytes.HasPrefix(body, []byte("Adobe"))
		case m >= 0xE1 && m <= 0xEF:
			keep = false
		}
		if keep {
			out = append(out, data[s.start:s.end]...)
		}
		return true
	})
	return out, err
}

// walkPNG visits each chunk up to IEND; start and end span the whole chunk
// (length, type, data, CRC).
func walkPNG(data []byte, visit func(typ string, start, end int, body []byte) bool) error {
	if !bytes.HasPrefix(data, []byte(pngSignature)) {
		return errLayout
	}
	for i := len(pngSignature); i < len(data); {
		if len(data)-i < 12 {
			return errLayout
		}
		n := uint64(binary.BigEndian.Uint32(data[i:]))
		if n > uint64(len(data)-i-12) {
			return errLayout
		}
		end := i + 12 + int(n)
		typ := string(data[i+4 : i+8])
		if !visit(typ, i, end, data[i+8:end-4]) || typ == "IEND" {
			return nil
		}
		i = end
	}
	return errLayout
}

// pngKeep lists the ancillary chunks that affect rendering or animation;
// every other ancillary chunk (tEXt, zTXt, iTXt, eXIf, tIME, and private
// ones such as C2PA's caBX) is metadata and goes.
var pngKeep = map[string]bool{
	"tRNS": true, "cHRM": true, "gAMA": true, "iCCP": true, "sBIT": true,
	"sRGB": true, "cICP": true, "mDCV": true, "cLLI": true, "bKGD": true,
	"hIST": true, "pHYs": true, "sPLT": true, "acTL": true, "fcTL": true,
	"fdAT": true,
}

func stripPNG(data []byte) ([]byte, error) {
	out := append(make([]byte, 0, len(data)), pngSignature...)
	err := walkPNG(data, func(typ string, start, end int, _ []byte) bool {
		critical := typ[0]&0x20 == 0
		if critical || pngKeep[typ] {
			out = append(out, data[start:end]...)
		}
		return true
	})
	return out, err
}

// stripGIF drops comments and application extensions other than the
// animation loop ones (XMP hides in an application extension).
func stripGIF(data []byte) ([]byte, error) {
	if len(data) < 13 {
		return nil, errLayout
	}
	i := 13 + colorTableSize(data[10])
	if i > len(data) {
		return nil, errLayout
	}
	out := append(make([]byte, 0, len(data)), data[:i]...)
	for i < len(data) {
		var end int
		var err error
		keep := true
		switch data[i] {
		case 0x3B: // trailer; anything after it is dropped
			return append(out, 0x3B), nil
		case 0x21:
			if i+2 > len(data) {
				return nil, errLayout
			}
			if end, err = skipSubBlocks(data, i+2); err != nil {
				return nil, err
			}
			switch data[i+1] {
			case 0xF9, 0x01: // graphic control, plain text
			case 0xFF:
				app := data[i+2 : end]
				keep = len(app) >= 12 && app[0] == 11 &&
					(string(app[1:12]) == "NETSCAPE2.0" || string(app[1:12]) == "ANIMEXTS1.0")
			default:
				keep = false
			}
		case 0x2C:
			if i+10 > len(data) {
				return nil, errLayout
			}
			// descriptor, local color table, LZW minimum code size
			end, err = skipSubBlocks(data, i+10+colorTableSize(data[i+9])+1)
		default:
			return nil, errLayout
		}
		if err != nil {
			return nil, err
		}
		if keep {
			out = append(out, data[i:end]...)
		}
		i = end
	}
	return out, nil
}

func colorTableSize(packed byte) int {
	if packed&0x80 == 0 {
		return 0
	}
	return 3 << (packed&7 + 1)
}

func skipSubBlocks(data []byte, i int) (int, error) {
	for i < len(data) {
		n := int(data[i])
		i += 1 + n
		if n == 0 {
			return i, nil
		}
	}
	return 0, errLayout
}

// walkWebP visits the top-level RIFF chunks; end includes the pad byte when
// the file has it.
func walkWebP(data []byte, visit func(id string, start, end int, body []byte) bool) error {
	if len(data) < 12 || string(data[:4]) != "RIFF" || string(data[8:12]) != "WEBP" {
		return errLayout
	}
	limit := len(data)
	if n := uint64(binary.LittleEndian.Uint32(data[4:])) + 8; n < uint64(limit) {
		limit = int(n)
	}
	for i := 12; i+8 <= limit; {
		n := uint64(binary.LittleEndian.Uint32(data[i+4:]))
		if n > uint64(limit-i-8) {
			return errLayout
		}
		end := i + 8 + int(n)
		body := data[i+8 : end]
		if n&1 == 1 && end < limit {
			end++
		}
		if !visit(string(data[i:i+4]), i, end, body) {
			return nil
		}
		i = end
	}
	return nil
}

// webpKeep lists the chunks that carry pixels, color or animation.
var webpKeep = map[string]bool{"VP8 ": true, "VP8L": true, "VP8X": true, "ALPH": true, "ANIM": true, "ANMF": true, "ICCP": true}

func stripWebP(data []byte) ([]byte, error) {
	out := append(make([]byte, 0, len(data)), data[:12]...)
	err := walkWebP(data, func(id string, start, end int, body []byte) bool {
		if !webpKeep[id] {
			return true
		}
		at := len(out)
		out = append(out, data[start:end]...)
		if len(body)&1 == 1 && end-start == 8+len(body) {
			out = append(out, 0) // restore a pad byte the writer left out
		}
		if id == "VP8X" && len(body) >= 1 {
			const xmpFlag, exifFlag = 1 << 2, 1 << 3
			out[at+8] &^= xmpFlag | exifFlag
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	binary.LittleEndian.PutUint32(out[4:], uint32(len(out)-8))
	return out, nil
}
