package imaging

import (
	"bytes"
	"image"
	"math/rand/v2"
	"runtime"
	"testing"

	"golang.org/x/image/draw"
)

// noise is w x h random pixels of each kind makeSizes scales from, its
// origin at (5, 7) as a sub-image's would be.
func noise(w, h int, seed uint64) []image.Image {
	r := rand.New(rand.NewPCG(seed, 1))
	rect := image.Rect(5, 7, 5+w, 7+h)
	rgba, nrgba, gray := image.NewRGBA(rect), image.NewNRGBA(rect), image.NewGray(rect)
	for i := range rgba.Pix {
		rgba.Pix[i], nrgba.Pix[i] = uint8(r.IntN(256)), uint8(r.IntN(256))
	}
	for i := 0; i < len(rgba.Pix); i += 4 { // premultiplied: no channel above alpha
		a := rgba.Pix[i+3]
		rgba.Pix[i], rgba.Pix[i+1], rgba.Pix[i+2] = min(rgba.Pix[i], a), min(rgba.Pix[i+1], a), min(rgba.Pix[i+2], a)
	}
	for i := range gray.Pix {
		gray.Pix[i] = uint8(r.IntN(256))
	}
	return []image.Image{rgba, nrgba, gray}
}

func TestScaleMakesDrawsCatmullRomPixelsToTheBit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		sw, sh int
		region image.Rectangle // within the source, from its origin
		dw, dh int
	}{
		{"halved", 64, 48, image.Rect(0, 0, 64, 48), 32, 24},
		{"shrunk by an odd ratio", 301, 199, image.Rect(0, 0, 301, 199), 150, 99},
		{"a thumbnail cut from the middle", 120, 80, image.Rect(20, 0, 100, 80), 15, 15},
		{"shrunk a lot", 1000, 30, image.Rect(0, 0, 1000, 30), 7, 3},
		{"narrowed only", 90, 60, image.Rect(0, 0, 90, 60), 31, 60},
		{"enlarged", 10, 7, image.Rect(0, 0, 10, 7), 33, 21},
		{"to one pixel", 9, 9, image.Rect(0, 0, 9, 9), 1, 1},
		{"from a one-pixel row", 500, 1, image.Rect(0, 0, 500, 1), 300, 1},
	} {
		for _, src := range noise(tc.sw, tc.sh, uint64(tc.sw*tc.sh)) {
			sr := tc.region.Add(src.Bounds().Min)
			want := image.NewRGBA(image.Rect(0, 0, tc.dw, tc.dh))
			draw.CatmullRom.Scale(want, want.Rect, src, sr, draw.Src, nil)
			got := image.NewRGBA(image.Rect(0, 0, tc.dw, tc.dh))
			scale(got, src, sr)
			if !bytes.Equal(got.Pix, want.Pix) {
				t.Errorf("%s, %T: the pixels differ from draw.CatmullRom.Scale's", tc.name, src)
			}
		}
	}
}

// The large size of a 2000x1500 image, for which draw's buffer is 49 MB (200
// MB for the 2048x2048 size of a 12-megapixel photo).
func TestScaleTakesWhatScaleBytesSays(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 2000, 1500))
	dst := image.NewRGBA(image.Rect(0, 0, 1024, 768))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	scale(dst, src, src.Bounds())
	runtime.ReadMemStats(&after)
	took, bound := int64(after.TotalAlloc-before.TotalAlloc), scaleBytes(1024, 768, 2000, 1500)
	if took > bound {
		t.Fatalf("scale allocated %d bytes, more than scaleBytes' %d", took, bound)
	}
	if bound > 2<<20 {
		t.Fatalf("scaleBytes is %d: more than the rows a kernel spans", bound)
	}
}
