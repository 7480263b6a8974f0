package imaging

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"testing"
	"time"
)

// gpsMarker sits in the GPS IFD of test EXIF blocks; finding it in any
// output means location data leaked.
const gpsMarker = "GPS-SECRET-48.8584N-2.2945E"

// photo is a w x h image of gradients plus noise: encoders and resamplers
// work on it roughly as on a real photo.
func photo(w, h int, seed uint64) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(seed, 1))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			n := rng.IntN(24)
			i := m.PixOffset(x, y)
			m.Pix[i] = uint8((x*255/w + n) & 0xff)
			m.Pix[i+1] = uint8((y*255/h + n) & 0xff)
			m.Pix[i+2] = uint8(((x+y)*127/(w+h) + 64 + n) & 0xff)
			m.Pix[i+3] = 255
		}
	}
	return m
}

// halves is w x h, left half red and right half blue, to see rotations.
func halves(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{220, 20, 20, 255}
			if x >= w/2 {
				c = color.RGBA{20, 20, 220, 255}
			}
			m.SetRGBA(x, y, c)
		}
	}
	return m
}

func encJPEG(t testing.TB, img image.Image, q int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encPNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encGIF(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gif.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exifTIFF is a little-endian EXIF block: IFD0 holds Orientation and a
// pointer to a GPS IFD whose map datum is gpsMarker.
func exifTIFF(orientation int) []byte {
	le := binary.LittleEndian
	entry := func(b []byte, tag, typ uint16, count, value uint32) []byte {
		b = le.AppendUint16(b, tag)
		b = le.AppendUint16(b, typ)
		b = le.AppendUint32(b, count)
		return le.AppendUint32(b, value)
	}
	const gpsIFD = 8 + 2 + 2*12 + 4
	const gpsText = gpsIFD + 2 + 12 + 4
	b := []byte("II*\x00")
	b = le.AppendUint32(b, 8)
	b = le.AppendUint16(b, 2)
	b = entry(b, 0x0112, 3, 1, uint32(orientation))
	b = entry(b, 0x8825, 4, 1, gpsIFD)
	b = le.AppendUint32(b, 0)
	b = le.AppendUint16(b, 1)
	b = entry(b, 0x0012, 2, uint32(len(gpsMarker)+1), gpsText)
	b = le.AppendUint32(b, 0)
	return append(b, gpsMarker+"\x00"...)
}

// jpegSegment is a marker segment with its length field.
func jpegSegment(marker byte, body []byte) []byte {
	s := []byte{0xFF, marker}
	s = binary.BigEndian.AppendUint16(s, uint16(len(body)+2))
	return append(s, body...)
}

// insertAfterSOI puts segments right after a JPEG's SOI marker.
func insertAfterSOI(jpg []byte, segs ...[]byte) []byte {
	out := append([]byte{}, jpg[:2]...)
	for _, s := range segs {
		out = append(out, s...)
	}
	return append(out, jpg[2:]...)
}

func exifSegment(orientation int) []byte {
	return jpegSegment(0xE1, append([]byte("Exif\x00\x00"), exifTIFF(orientation)...))
}

// pngChunk is a PNG chunk with a valid CRC.
func pngChunk(typ string, body []byte) []byte {
	c := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	c = append(c, typ...)
	c = append(c, body...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// insertAfterIHDR puts chunks between a PNG's IHDR and what follows it.
func insertAfterIHDR(p []byte, chunks ...[]byte) []byte {
	const at = 8 + 25 // signature + IHDR chunk
	out := append([]byte{}, p[:at]...)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return append(out, p[at:]...)
}

// riffChunk is a WebP chunk, padded to an even size.
func riffChunk(id string, body []byte) []byte {
	c := append([]byte(id), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...)
	c = append(c, body...)
	if len(body)%2 == 1 {
		c = append(c, 0)
	}
	return c
}

func riff(chunks ...[]byte) []byte {
	var body []byte
	for _, c := range chunks {
		body = append(body, c...)
	}
	out := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)+4))...)
	out = append(out, "WEBP"...)
	return append(out, body...)
}

// vp8x is the extended-format header chunk for a w x h canvas.
func vp8x(flags byte, w, h int) []byte {
	b := []byte{flags, 0, 0, 0}
	b = append(b, byte(w-1), byte((w-1)>>8), byte((w-1)>>16))
	b = append(b, byte(h-1), byte((h-1)>>8), byte((h-1)>>16))
	return riffChunk("VP8X", b)
}

// firstChunk returns the bytes of the first RIFF chunk of a simple WebP.
func firstChunk(t testing.TB, webp []byte) []byte {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(webp[16:]))
	return webp[12 : 20+n+n%2]
}

func decodeAny(t testing.TB, data []byte) image.Image {
	t.Helper()
	f, w, h, err := Inspect(data)
	if err != nil {
		t.Fatalf("output does not inspect: %v", err)
	}
	img, err := decode(f, data, w, h, time.Time{})
	if err != nil {
		t.Fatalf("output does not decode: %v", err)
	}
	return img
}
