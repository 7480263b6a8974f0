package imaging

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"math/rand/v2"
	"testing"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
)

// assertClean fails if data carries an EXIF block or the GPS marker.
func assertClean(t *testing.T, what string, data []byte) {
	t.Helper()
	for _, needle := range []string{"Exif", gpsMarker, "http://ns.adobe.com/xap"} {
		if bytes.Contains(data, []byte(needle)) {
			t.Errorf("%s still contains %q", what, needle)
		}
	}
}

func TestRotatedJPEGIsReencodedUprightWithoutMetadata(t *testing.T) {
	// Stored 400x300 with red on the left; orientation 6 means "turn 90°
	// clockwise to view", so upright is 300x400 with red on top.
	data := insertAfterSOI(encJPEG(t, halves(400, 300), 92), exifSegment(6))
	res, err := Process(data, Limits{}, WordPressSizes)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Rotated || res.Full.Width != 300 || res.Full.Height != 400 || res.Full.MIME != "image/jpeg" {
		t.Fatalf("full: rotated=%v %dx%d %s", res.Rotated, res.Full.Width, res.Full.Height, res.Full.MIME)
	}
	full := decodeAny(t, res.Full.Data)
	if b := full.Bounds(); b.Dx() != 300 || b.Dy() != 400 {
		t.Fatalf("full decodes as %v", b)
	}
	if r, _, b, _ := full.At(150, 20).RGBA(); r < b {
		t.Error("top of the upright image is not red")
	}
	if r, _, b, _ := full.At(150, 380).RGBA(); r > b {
		t.Error("bottom of the upright image is not blue")
	}
	assertClean(t, "full", res.Full.Data)
	want := map[string][2]int{"thumbnail": {150, 150}, "medium": {225, 300}}
	if len(res.Sizes) != len(want) {
		t.Fatalf("%d sizes, want %d", len(res.Sizes), len(want))
	}
	for _, s := range res.Sizes {
		assertClean(t, s.Name, s.Data)
		if d := want[s.Name]; s.Width != d[0] || s.Height != d[1] {
			t.Errorf("%s is %dx%d, want %v (upright)", s.Name, s.Width, s.Height, d)
		}
	}
}

func TestUnrotatedJPEGLosesOnlyItsMetadataSegments(t *testing.T) {
	plain := encJPEG(t, photo(320, 240, 5), 90)
	jfif := jpegSegment(0xE0, []byte("JFIF\x00\x01\x02\x00\x00\x01\x00\x01\x00\x00"))
	icc := jpegSegment(0xE2, []byte("ICC_PROFILE\x00\x01\x01fake-profile"))
	adobe := jpegSegment(0xEE, []byte("Adobe\x00\x64\x00\x00\x00\x00\x01"))
	xmp := jpegSegment(0xE1, []byte("http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta/>"))
	iptc := jpegSegment(0xED, []byte("Photoshop 3.0\x008BIM"))
	mpf := jpegSegment(0xE2, []byte("MPF\x00II*\x00"))
	comment := jpegSegment(0xFE, []byte("shot at home"))
	tests := []struct {
		name      string
		in, want  []byte
		trailing  []byte
		orientTag int
	}{
		{"orientation 1 and GPS", insertAfterSOI(plain, exifSegment(1)), plain, nil, 1},
		{"no orientation tag", insertAfterSOI(plain, jpegSegment(0xE1, []byte("Exif\x00\x00II*\x00\x08\x00\x00\x00\x00\x00"))), plain, nil, 0},
		{"rendering segments stay", insertAfterSOI(plain, jfif, exifSegment(1), icc, adobe), insertAfterSOI(plain, jfif, icc, adobe), nil, 1},
		{"xmp iptc mpf comment go", insertAfterSOI(plain, xmp, iptc, mpf, comment), plain, nil, 0},
		{"data after EOI goes", plain, plain, []byte("\xff\xd8\xff\xe1\x00\x10Exif\x00\x00" + gpsMarker), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := append(append([]byte{}, tc.in...), tc.trailing...)
			res, err := Process(in, Limits{}, WordPressSizes)
			if err != nil {
				t.Fatal(err)
			}
			if res.Rotated {
				t.Error("rotated without a rotating orientation")
			}
			if !bytes.Equal(res.Full.Data, tc.want) {
				t.Errorf("full is %d bytes, want the %d bytes of the original minus metadata", len(res.Full.Data), len(tc.want))
			}
			assertClean(t, "full", res.Full.Data)
			for _, s := range res.Sizes {
				assertClean(t, s.Name, s.Data)
			}
		})
	}
}

func TestPNGStripKeepsRenderingChunksOnly(t *testing.T) {
	plain := encPNG(t, photo(40, 30, 6))
	gama := pngChunk("gAMA", []byte{0, 0, 0xB1, 0x8F})
	phys := pngChunk("pHYs", []byte{0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1})
	in := insertAfterIHDR(plain,
		gama,
		pngChunk("tEXt", []byte("Comment\x00"+gpsMarker)),
		pngChunk("zTXt", []byte("Author\x00\x00x")),
		pngChunk("iTXt", []byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00http://ns.adobe.com/xap")),
		pngChunk("eXIf", exifTIFF(1)),
		pngChunk("tIME", []byte{7, 232, 1, 2, 3, 4, 5}),
		pngChunk("caBX", []byte("c2pa manifest with location")),
		phys,
	)
	res, err := Process(append(in, "trailing"+gpsMarker...), Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := insertAfterIHDR(plain, gama, phys); !bytes.Equal(res.Full.Data, want) {
		t.Errorf("full is %d bytes, want %d", len(res.Full.Data), len(want))
	}
	assertClean(t, "full", res.Full.Data)
}

func TestPNGOrientationFromEXIfChunk(t *testing.T) {
	in := insertAfterIHDR(encPNG(t, halves(40, 30)), pngChunk("eXIf", exifTIFF(8)))
	res, err := Process(in, Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Rotated || res.Full.Width != 30 || res.Full.Height != 40 || res.Full.MIME != "image/png" {
		t.Fatalf("rotated=%v %dx%d %s", res.Rotated, res.Full.Width, res.Full.Height, res.Full.MIME)
	}
	// Orientation 8 turns counter-clockwise: the red left half goes down.
	full := decodeAny(t, res.Full.Data)
	if r, _, b, _ := full.At(15, 35).RGBA(); r < b {
		t.Error("bottom of the upright image is not red")
	}
	assertClean(t, "full", res.Full.Data)
}

func TestGIFStripDropsCommentsAndForeignApplicationBlocks(t *testing.T) {
	pal := color.Palette{color.Black, color.White}
	frame := func() *image.Paletted {
		m := image.NewPaletted(image.Rect(0, 0, 8, 8), pal)
		m.Pix[3] = 1
		return m
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, &gif.GIF{Image: []*image.Paletted{frame(), frame()}, Delay: []int{5, 5}, LoopCount: 0}); err != nil {
		t.Fatal(err)
	}
	plain := b.Bytes()
	head := 13 + colorTableSize(plain[10])
	subBlocks := func(s string) []byte {
		var out []byte
		for len(s) > 0 {
			n := min(len(s), 255)
			out = append(append(out, byte(n)), s[:n]...)
			s = s[n:]
		}
		return append(out, 0)
	}
	comment := append([]byte{0x21, 0xFE}, subBlocks("secret "+gpsMarker)...)
	xmp := append([]byte{0x21, 0xFF}, subBlocks("\x0bXMP DataXMP<x:xmpmeta xmlns:x=\"http://ns.adobe.com/xap\"/>")...)
	var in []byte
	in = append(in, plain[:head]...)
	in = append(in, comment...)
	in = append(in, xmp...)
	in = append(in, plain[head:]...)
	res, err := Process(in, Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res.Full.Data, plain) {
		t.Errorf("full is %d bytes, want the %d bytes without comment and XMP", len(res.Full.Data), len(plain))
	}
	if !bytes.Contains(res.Full.Data, []byte("NETSCAPE2.0")) {
		t.Error("the loop extension was dropped")
	}
	g, err := gif.DecodeAll(bytes.NewReader(res.Full.Data))
	if err != nil || len(g.Image) != 2 {
		t.Errorf("stripped GIF lost its animation: %v", err)
	}
}

func TestWebPStripDropsEXIFAndXMPAndFixesHeader(t *testing.T) {
	lossless := readTestdata(t, "lossless_alpha.webp")
	vp8l := firstChunk(t, lossless)
	const alphaFlag, exifFlag, xmpFlag = 1 << 4, 1 << 3, 1 << 2
	tests := []struct {
		name string
		in   []byte
	}{
		{"written by webpmux", readTestdata(t, "lossless_alpha_exif1.webp")},
		{"metadata before the frame", riff(
			vp8x(alphaFlag|exifFlag|xmpFlag, 200, 160),
			riffChunk("EXIF", append([]byte("Exif\x00\x00"), exifTIFF(1)...)),
			riffChunk("XMP ", []byte("<x:xmpmeta xmlns:x='http://ns.adobe.com/xap'/>")),
			vp8l,
			riffChunk("JUNK", []byte(gpsMarker)),
		)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Process(tc.in, Limits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Rotated {
				t.Fatal("rotated")
			}
			assertClean(t, "full", res.Full.Data)
			if want := riff(vp8x(alphaFlag, 200, 160), vp8l); !bytes.Equal(res.Full.Data, want) {
				t.Errorf("full is %d bytes, want %d: VP8X with the alpha flag only, then the frame", len(res.Full.Data), len(want))
			}
			orig, err := webp.Decode(bytes.NewReader(lossless))
			if err != nil {
				t.Fatal(err)
			}
			if !sameImage(decodeAny(t, res.Full.Data), orig) {
				t.Error("stripped WebP decodes to other pixels")
			}
		})
	}
}

func TestRotatedWebPIsJPEGWhenOpaqueAndPNGWithAlpha(t *testing.T) {
	tests := []struct {
		file       string
		mime       string
		w, h       int
		sizes      int
		alphaAtTop bool
	}{
		{"lossy_opaque_exif6.webp", "image/jpeg", 240, 320, 2, false},
		{"lossless_alpha_exif6.webp", "image/png", 160, 200, 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			res, err := Process(readTestdata(t, tc.file), Limits{}, WordPressSizes)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Rotated || res.Full.MIME != tc.mime || res.Full.Width != tc.w || res.Full.Height != tc.h {
				t.Fatalf("full: rotated=%v %s %dx%d", res.Rotated, res.Full.MIME, res.Full.Width, res.Full.Height)
			}
			assertClean(t, "full", res.Full.Data)
			if len(res.Sizes) != tc.sizes {
				t.Errorf("%d sizes, want %d", len(res.Sizes), tc.sizes)
			}
			for _, s := range res.Sizes {
				assertClean(t, s.Name, s.Data)
				if s.MIME != tc.mime {
					t.Errorf("%s is %s", s.Name, s.MIME)
				}
			}
			if tc.alphaAtTop {
				// The graded-alpha left half of the source is the top once
				// turned clockwise.
				full := decodeAny(t, res.Full.Data)
				if _, _, _, a := full.At(80, 10).RGBA(); a>>8 > 100 {
					t.Errorf("alpha at the top is %d, want the transparent side", a>>8)
				}
			}
		})
	}
}

func TestWebPFrameLargerThanCanvasIsRefused(t *testing.T) {
	// A 1x1 canvas around a 200x160 frame would slip past the pixel cap.
	in := riff(vp8x(0, 1, 1), firstChunk(t, readTestdata(t, "lossless_alpha.webp")))
	if _, err := Process(in, Limits{}, nil); !errors.Is(err, ErrNotImage) {
		t.Errorf("err = %v, want ErrNotImage", err)
	}
}

func TestJPEGWithThousandsOfScansIsRefused(t *testing.T) {
	plain := encJPEG(t, photo(16, 16, 7), 90)
	sos := bytes.Index(plain, []byte{0xFF, 0xDA})
	n := int(binary.BigEndian.Uint16(plain[sos+2:]))
	scan := append(append([]byte{}, plain[sos:sos+2+n]...), 0x00)
	in := append([]byte{}, plain[:sos]...)
	for range maxScans + 1 {
		in = append(in, scan...)
	}
	in = append(in, 0xFF, 0xD9)
	if _, err := Process(in, Limits{}, nil); !errors.Is(err, ErrNotImage) {
		t.Errorf("err = %v, want ErrNotImage", err)
	}
}

func TestTIFFOrientationIsDefensive(t *testing.T) {
	be := func(tag, typ uint16, count, value uint32) []byte {
		b := []byte("MM\x00*\x00\x00\x00\x08\x00\x01")
		b = binary.BigEndian.AppendUint16(b, tag)
		b = binary.BigEndian.AppendUint16(b, typ)
		b = binary.BigEndian.AppendUint32(b, count)
		return binary.BigEndian.AppendUint32(b, value)
	}
	tests := []struct {
		name string
		tiff []byte
		want int
	}{
		{"little endian 6", exifTIFF(6), 6},
		{"big endian 8 in a SHORT", be(0x0112, 3, 1, 8<<16), 8},
		{"LONG value", be(0x0112, 4, 1, 3), 3},
		{"out of range", exifTIFF(9), 1},
		{"zero", exifTIFF(0), 1},
		{"two values", be(0x0112, 3, 2, 6<<16), 1},
		{"wrong type", be(0x0112, 2, 1, 6<<16), 1},
		{"other tag", be(0x0110, 3, 1, 6<<16), 1},
		{"nil", nil, 1},
		{"not TIFF", []byte("JFIF\x00\x00\x00\x08\x00\x00"), 1},
		{"IFD offset past end", []byte("II*\x00\xff\xff\xff\xff"), 1},
		{"IFD offset inside header", []byte("II*\x00\x02\x00\x00\x00\x01\x00"), 1},
		{"entry count past end", []byte("II*\x00\x08\x00\x00\x00\xff\xff\x12\x01\x03\x00"), 1},
	}
	for _, tc := range tests {
		if got := tiffOrientation(tc.tiff); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := exifTIFF(rng.IntN(10))
		for range 4 {
			b[rng.IntN(len(b))] = byte(rng.Uint32())
		}
		if o := tiffOrientation(b[:rng.IntN(len(b))]); o < 1 || o > 8 {
			t.Fatalf("orientation %d out of range", o)
		}
	}
}

func TestUprightTurnsEveryOrientation(t *testing.T) {
	// Upright is [1 2 3 4; 5 6 7 8]; each row is how a camera stores it
	// for that orientation (EXIF 2.3, table of Orientation values).
	stored := map[int][][]uint8{
		2: {{4, 3, 2, 1}, {8, 7, 6, 5}},
		3: {{8, 7, 6, 5}, {4, 3, 2, 1}},
		4: {{5, 6, 7, 8}, {1, 2, 3, 4}},
		5: {{1, 5}, {2, 6}, {3, 7}, {4, 8}},
		6: {{4, 8}, {3, 7}, {2, 6}, {1, 5}},
		7: {{8, 4}, {7, 3}, {6, 2}, {5, 1}},
		8: {{5, 1}, {6, 2}, {7, 3}, {8, 4}},
	}
	for o, rows := range stored {
		g := image.NewGray(image.Rect(0, 0, len(rows[0]), len(rows)))
		for y, row := range rows {
			for x, v := range row {
				g.SetGray(x, y, color.Gray{v * 30})
			}
		}
		nrgba := image.NewNRGBA(g.Rect)
		draw.Draw(nrgba, g.Rect, g, image.Point{}, draw.Src)
		for _, src := range []image.Image{g, toRGBA(g, 2), nrgba} {
			up := upright(src, o, 2)
			if b := up.Bounds(); b.Dx() != 4 || b.Dy() != 2 {
				t.Fatalf("orientation %d: %T upright is %v", o, src, b)
			}
			for y := 0; y < 2; y++ {
				for x := 0; x < 4; x++ {
					if r, _, _, _ := up.At(x, y).RGBA(); uint8(r>>8) != uint8(1+x+4*y)*30 {
						t.Errorf("orientation %d %T: (%d,%d) = %d, want %d", o, src, x, y, r>>8, (1+x+4*y)*30)
					}
				}
			}
		}
	}
}

func TestUprightYCbCrPlanesMatchRGBA(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, ratio := range []image.YCbCrSubsampleRatio{
		image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio420,
		image.YCbCrSubsampleRatio422, image.YCbCrSubsampleRatio440,
	} {
		m := image.NewYCbCr(image.Rect(0, 0, 6, 4), ratio)
		for _, p := range [][]byte{m.Y, m.Cb, m.Cr} {
			for i := range p {
				p[i] = uint8(rng.Uint32())
			}
		}
		for o := 2; o <= 8; o++ {
			got, want := upright(m, o, 2), upright(toRGBA(m, 2), o, 2)
			if _, ok := got.(*image.YCbCr); !ok {
				t.Errorf("%v orientation %d fell back to %T", ratio, o, got)
			}
			if !sameImage(got, want) {
				t.Errorf("%v orientation %d: planes turned differently from pixels", ratio, o)
			}
		}
	}
}

func sameImage(a, b image.Image) bool {
	if a.Bounds().Size() != b.Bounds().Size() {
		return false
	}
	ab, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, a1 := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			if r1>>8 != r2>>8 || g1>>8 != g2>>8 || b1>>8 != b2>>8 || a1>>8 != a2>>8 {
				return false
			}
		}
	}
	return true
}

func TestContainerWalkersSurviveCorruption(t *testing.T) {
	seeds := map[Format][]byte{
		JPEG: insertAfterSOI(readTestdata(t, "progressive.jpg"), exifSegment(6), jpegSegment(0xFE, []byte("c"))),
		PNG:  insertAfterIHDR(encPNG(t, photo(8, 8, 1)), pngChunk("eXIf", exifTIFF(3)), pngChunk("tEXt", []byte("a\x00b"))),
		GIF:  encGIF(t, photo(8, 8, 2)),
		WebP: readTestdata(t, "lossless_alpha_exif6.webp"),
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for f, seed := range seeds {
		for range 3000 {
			b := append([]byte{}, seed...)
			for range 1 + rng.IntN(4) {
				b[rng.IntN(len(b))] = byte(rng.Uint32())
			}
			b = b[:rng.IntN(len(b)+1)]
			_, _ = strip(f, b)
			_, _ = readMeta(f, b, 8, 8)
		}
	}
}
