package imaging

import (
	"errors"
	"image"
	"runtime"
	"testing"
	"time"
)

// The two JPEG photos are wider than every WordPress size (the second once
// turned upright), so every size is made; the two PNGs are wider than large.
func TestCostBoundsWhatProcessAllocates(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"a 2100x900 JPEG photo", encJPEG(t, photo(2100, 900, 4), 90)},
		{"a JPEG of 900x2100 turned upright by EXIF", insertAfterSOI(encJPEG(t, photo(900, 2100, 5), 90), exifSegment(6))},
		{"a 1100x825 PNG", encPNG(t, photo(1100, 825, 2))},
		{"a progressive JPEG", readTestdata(t, "progressive.jpg")},
		{"a 16-bit PNG", encPNG(t, image.NewRGBA64(image.Rect(0, 0, 1100, 700)))},
		{"a lossless WebP", readTestdata(t, "lossless_alpha.webp")},
		{"a lossy WebP", readTestdata(t, "lossy_opaque.webp")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cost, err := Cost(tc.data, WordPressSizes)
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			if _, err := Process(tc.data, Limits{}, WordPressSizes); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			allocated := int64(after.TotalAlloc - before.TotalAlloc)
			if allocated > cost {
				t.Fatalf("Process allocated %d bytes, more than its cost of %d", allocated, cost)
			}
			t.Logf("allocated %d MB, cost %d MB", allocated>>20, cost>>20)
		})
	}
}

func TestCostCountsBytesPerPixelNotPixels(t *testing.T) {
	cost := func(data []byte) int64 {
		c, err := Cost(data, WordPressSizes)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	deep, flat := cost(encPNG(t, image.NewRGBA64(image.Rect(0, 0, 1000, 1000)))), cost(encPNG(t, image.NewRGBA(image.Rect(0, 0, 1000, 1000))))
	if deep < flat+4_000_000 {
		t.Fatalf("a 16-bit PNG costs %d, an 8-bit one of the same size %d: 4 more bytes a pixel are missing", deep, flat)
	}
}

func TestDecodingGivesUpAtItsDeadline(t *testing.T) {
	for _, name := range []string{"progressive.jpg", "lossy_opaque.webp"} {
		data := readTestdata(t, name)
		if _, err := Process(data, Limits{Deadline: time.Now().Add(-time.Second)}, nil); !errors.Is(err, ErrTooSlow) {
			t.Errorf("%s past its deadline: err = %v, want ErrTooSlow", name, err)
		}
		if _, err := Process(data, Limits{Deadline: time.Now().Add(time.Hour)}, nil); err != nil {
			t.Errorf("%s within its deadline: %v", name, err)
		}
	}
}
