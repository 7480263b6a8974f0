package imaging

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"runtime"
	"testing"
)

func TestProcessAcceptsEveryFormatByContent(t *testing.T) {
	paletted := image.NewPaletted(image.Rect(0, 0, 200, 160), color.Palette{color.Black, color.White, color.Transparent})
	for i := range paletted.Pix {
		paletted.Pix[i] = uint8(i % 3)
	}
	gray := image.NewGray16(image.Rect(0, 0, 180, 200))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i)
	}
	alpha := image.NewNRGBA(image.Rect(0, 0, 320, 200))
	for i := range alpha.Pix {
		alpha.Pix[i] = uint8(i * 7)
	}
	grayJPEG := image.NewGray(image.Rect(0, 0, 400, 100))
	// A first frame covering part of the logical screen.
	var partial bytes.Buffer
	frame := image.NewPaletted(image.Rect(10, 10, 110, 90), palette.Plan9)
	if err := gif.EncodeAll(&partial, &gif.GIF{Image: []*image.Paletted{frame}, Delay: []int{0},
		Config: image.Config{ColorModel: color.Palette(palette.Plan9), Width: 200, Height: 160}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		data      []byte
		format    Format
		w, h      int
		sizeMIME  string
		sizeCount int
	}{
		{"jpeg", encJPEG(t, photo(400, 300, 1), 90), JPEG, 400, 300, "image/jpeg", 2},
		{"gray jpeg", encJPEG(t, grayJPEG, 90), JPEG, 400, 100, "image/jpeg", 2},
		{"cmyk jpeg", readTestdata(t, "cmyk.jpg"), JPEG, 320, 240, "image/jpeg", 2},
		{"progressive jpeg", readTestdata(t, "progressive.jpg"), JPEG, 320, 240, "image/jpeg", 2},
		{"png with alpha", encPNG(t, alpha), PNG, 320, 200, "image/png", 2},
		{"paletted png", encPNG(t, paletted), PNG, 200, 160, "image/png", 1},
		{"16-bit gray png", encPNG(t, gray), PNG, 180, 200, "image/png", 1},
		{"gif", encGIF(t, photo(300, 200, 2)), GIF, 300, 200, "image/png", 1},
		{"gif with a partial first frame", partial.Bytes(), GIF, 200, 160, "image/png", 1},
		{"opaque webp", readTestdata(t, "lossy_opaque.webp"), WebP, 320, 240, "image/jpeg", 2},
		{"lossy webp with alpha", readTestdata(t, "lossy_alpha.webp"), WebP, 200, 160, "image/png", 1},
		{"lossless webp with alpha", readTestdata(t, "lossless_alpha.webp"), WebP, 200, 160, "image/png", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, w, h, err := Inspect(tc.data)
			if err != nil || f != tc.format || w != tc.w || h != tc.h {
				t.Fatalf("Inspect = %s %dx%d %v, want %s %dx%d", f, w, h, err, tc.format, tc.w, tc.h)
			}
			res, err := Process(tc.data, Limits{}, WordPressSizes)
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != tc.format || res.Rotated || res.Full.Width != tc.w || res.Full.Height != tc.h {
				t.Errorf("result %s rotated=%v full %dx%d", res.Format, res.Rotated, res.Full.Width, res.Full.Height)
			}
			if res.Full.MIME != tc.format.MIME() || res.Full.Ext != tc.format.Ext() {
				t.Errorf("full is %s .%s", res.Full.MIME, res.Full.Ext)
			}
			// These files carry no metadata, so stripping must change nothing.
			if !bytes.Equal(res.Full.Data, tc.data) {
				t.Errorf("full differs from a metadata-free original (%d vs %d bytes)", len(res.Full.Data), len(tc.data))
			}
			if len(res.Sizes) != tc.sizeCount {
				t.Fatalf("%d sizes, want %d", len(res.Sizes), tc.sizeCount)
			}
			for _, s := range res.Sizes {
				if s.MIME != tc.sizeMIME {
					t.Errorf("%s is %s, want %s", s.Name, s.MIME, tc.sizeMIME)
				}
				img := decodeAny(t, s.Data)
				if b := img.Bounds(); b.Dx() != s.Width || b.Dy() != s.Height {
					t.Errorf("%s claims %dx%d, holds %v", s.Name, s.Width, s.Height, b)
				}
			}
		})
	}
}

func TestProcessRejectsNonImages(t *testing.T) {
	jpg := encJPEG(t, photo(64, 48, 3), 90)
	tests := map[string][]byte{
		"empty":          {},
		"text":           []byte("hello, this is not an image\n"),
		"html":           []byte("<!doctype html><html><body><img src=x></body></html>"),
		"pdf":            []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n"),
		"svg":            []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`),
		"truncated jpeg": jpg[:len(jpg)/2],
		"jpeg magic":     []byte("\xff\xd8\xff\xe0"),
		"png signature":  []byte(pngSignature),
		"gif header":     []byte("GIF89a\x10\x00\x10\x00"),
		"riff garbage":   []byte("RIFF\x10\x00\x00\x00WEBPVP8 \x04\x00\x00\x00junk"),
		"zero width png": append([]byte(pngSignature), pngChunk("IHDR", []byte{0, 0, 0, 0, 0, 0, 0, 9, 8, 2, 0, 0, 0})...),
		// x/image/webp has no animation support.
		"animated webp": riff(vp8x(1<<1, 200, 160), riffChunk("ANIM", make([]byte, 6)),
			riffChunk("ANMF", append(make([]byte, 16), firstChunk(t, readTestdata(t, "lossless_alpha.webp"))...))),
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := Process(data, Limits{}, WordPressSizes); !errors.Is(err, ErrNotImage) {
				t.Errorf("err = %v, want ErrNotImage", err)
			}
		})
	}
}

// bigPNGHeader is a valid PNG signature and IHDR for a w x h RGB image, and
// no pixel data.
func bigPNGHeader(w, h uint32) []byte {
	ihdr := []byte{byte(w >> 24), byte(w >> 16), byte(w >> 8), byte(w), byte(h >> 24), byte(h >> 16), byte(h >> 8), byte(h), 8, 2, 0, 0, 0}
	return append([]byte(pngSignature), pngChunk("IHDR", ihdr)...)
}

func TestProcessRefusesTooManyPixelsBeforeDecoding(t *testing.T) {
	data := bigPNGHeader(60000, 60000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const runs = 20
	for range runs {
		if _, err := Process(data, Limits{MaxPixels: 50_000_000}, WordPressSizes); !errors.Is(err, ErrTooManyPixels) {
			t.Fatalf("err = %v, want ErrTooManyPixels", err)
		}
	}
	runtime.ReadMemStats(&after)
	if perRun := (after.TotalAlloc - before.TotalAlloc) / runs; perRun > 64<<10 {
		t.Errorf("refusal allocated %d bytes per call", perRun)
	}
}

func TestPixelCapCountsWidthTimesHeight(t *testing.T) {
	data := encPNG(t, image.NewGray(image.Rect(0, 0, 100, 100)))
	if _, err := Process(data, Limits{MaxPixels: 10000}, nil); err != nil {
		t.Errorf("exactly at the cap: %v", err)
	}
	if _, err := Process(data, Limits{MaxPixels: 9999}, nil); !errors.Is(err, ErrTooManyPixels) {
		t.Errorf("one pixel over the cap: %v", err)
	}
}

func TestSizesAreNeverUpscaled(t *testing.T) {
	tests := []struct {
		name string
		w, h int
		want []string // names and sizes, per WordPress' oracle
		dims [][2]int
	}{
		{"smaller than every box", 100, 80, nil, nil},
		{"taller than the thumbnail only", 100, 200, []string{"thumbnail"}, [][2]int{{100, 150}}},
		{"exactly the medium box", 300, 300, []string{"thumbnail"}, [][2]int{{150, 150}}},
		{"within a pixel of medium", 301, 200, []string{"thumbnail"}, [][2]int{{150, 150}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Process(encPNG(t, photo(tc.w, tc.h, 4)), Limits{}, WordPressSizes)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Sizes) != len(tc.want) {
				t.Fatalf("got %d sizes, want %v", len(res.Sizes), tc.want)
			}
			for i, s := range res.Sizes {
				if s.Name != tc.want[i] || s.Width != tc.dims[i][0] || s.Height != tc.dims[i][1] {
					t.Errorf("size %d is %s %dx%d, want %s %v", i, s.Name, s.Width, s.Height, tc.want[i], tc.dims[i])
				}
				if s.Width > tc.w || s.Height > tc.h {
					t.Errorf("%s %dx%d is larger than the %dx%d original", s.Name, s.Width, s.Height, tc.w, tc.h)
				}
			}
		})
	}
}

func TestSizesFollowWordPressOrderAndCropToTheCenter(t *testing.T) {
	// 600x300, left third red, middle green, right third blue: the square
	// thumbnail is cut from the middle, so it is mostly green.
	src := image.NewRGBA(image.Rect(0, 0, 600, 300))
	for y := 0; y < 300; y++ {
		for x := 0; x < 600; x++ {
			c := color.RGBA{255, 0, 0, 255}
			if x >= 200 && x < 400 {
				c = color.RGBA{0, 255, 0, 255}
			} else if x >= 400 {
				c = color.RGBA{0, 0, 255, 255}
			}
			src.SetRGBA(x, y, c)
		}
	}
	res, err := Process(encPNG(t, src), Limits{}, WordPressSizes)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range res.Sizes {
		names = append(names, s.Name)
	}
	if len(names) != 2 || names[0] != "medium" || names[1] != "thumbnail" {
		t.Fatalf("sizes %v, want [medium thumbnail]", names)
	}
	// The crop is x 150..450 of the source: red up to thumbnail x 25, blue
	// from 125. A crop from either edge would make x 30 or x 120 another color.
	thumb := decodeAny(t, res.Sizes[1].Data)
	for _, tc := range []struct {
		x       int
		r, g, b bool
	}{{10, true, false, false}, {30, false, true, false}, {75, false, true, false}, {120, false, true, false}, {140, false, false, true}} {
		r, g, b, _ := thumb.At(tc.x, 75).RGBA()
		if (r>>8 > 128) != tc.r || (g>>8 > 128) != tc.g || (b>>8 > 128) != tc.b {
			t.Errorf("thumbnail x=%d is %d,%d,%d", tc.x, r>>8, g>>8, b>>8)
		}
	}
}
