package app_test

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"testing"

	"calendar/app"
)

// BenchmarkUpload4000x3000JPEG is a 12-megapixel camera photo uploaded to
// the library on the embedded store: decoded, its six sizes made, every
// file written and synced, the record stored and indexed. Its peak memory is
// measured around the test binary (docs/benchmarks.md):
//
//	go test -c -o /tmp/app.test ./app && /usr/bin/time -v /tmp/app.test -test.run '^$' -test.bench Upload4000 -test.benchtime 10x -test.benchmem
func BenchmarkUpload4000x3000JPEG(b *testing.B) {
	store, idx := openStoreAndIndex(b)
	a := app.New(store, idx, app.Settings{SiteURL: "http://x", MaxUpload: 32 << 20})
	ctx := context.Background()
	if _, err := a.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		b.Fatal(err)
	}
	admin, err := a.Users.Authenticate(ctx, "", "admin", "a long enough password")
	if err != nil {
		b.Fatal(err)
	}
	data := cameraJPEG(b, 4000, 3000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Media.Upload(ctx, app.Caller{User: admin}, app.UploadInput{FileName: "photo.jpg", Data: data}); err != nil {
			b.Fatal(err)
		}
	}
}

// cameraJPEG is photo-like: smooth gradients with sensor noise, quality 90,
// so it compresses as a photo does (about 3 MB at 12 megapixels).
func cameraJPEG(b *testing.B, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			i := img.PixOffset(x, y)
			n := uint8(r.IntN(24))
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(x*200/w)+n, uint8(y*200/h)+n, uint8((x+y)*100/(w+h))+n, 255
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}
