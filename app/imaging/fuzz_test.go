package imaging

import (
	"errors"
	"image"
	"image/color"
	"testing"
)

// FuzzProcess feeds hostile bytes through the whole pipeline. Run it by hand:
//
//	go test ./app/imaging -run '^$' -fuzz FuzzProcess -fuzztime 30s
func FuzzProcess(f *testing.F) {
	f.Add(encJPEG(f, photo(40, 30, 1), 80))
	f.Add(insertAfterSOI(encJPEG(f, photo(24, 16, 2), 80), exifSegment(6)))
	f.Add(encPNG(f, photo(20, 12, 3)))
	f.Add(insertAfterIHDR(encPNG(f, photo(8, 8, 4)), pngChunk("eXIf", exifTIFF(5))))
	f.Add(encGIF(f, photo(16, 16, 5)))
	f.Add(encPNG(f, image.NewPaletted(image.Rect(0, 0, 9, 7), []color.Color{color.Black, color.White})))
	for _, name := range []string{"lossy_opaque.webp", "lossy_alpha.webp", "lossless_alpha.webp", "lossless_alpha_exif6.webp", "progressive.jpg"} {
		f.Add(readTestdata(f, name))
	}
	small := []SizeSpec{{"thumbnail", 8, 8, true}, {"medium", 12, 0, false}}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Process(data, Limits{MaxPixels: 1 << 16}, small)
		if err != nil {
			if !errors.Is(err, ErrNotImage) && !errors.Is(err, ErrTooManyPixels) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		if len(res.Full.Data) == 0 || res.Full.Width <= 0 || res.Full.Height <= 0 {
			t.Fatalf("empty full file: %+v", res.Full)
		}
		// Stripping must leave a file that still announces the same image.
		if f, w, h, err := Inspect(res.Full.Data); err != nil || w != res.Full.Width || h != res.Full.Height {
			t.Fatalf("full file no longer inspects: %s %dx%d %v (want %dx%d)", f, w, h, err, res.Full.Width, res.Full.Height)
		}
		for _, s := range res.Sizes {
			if s.Width <= 0 || s.Height <= 0 || s.Width > res.Full.Width || s.Height > res.Full.Height {
				t.Fatalf("size %s is %dx%d from %dx%d", s.Name, s.Width, s.Height, res.Full.Width, res.Full.Height)
			}
		}
	})
}
