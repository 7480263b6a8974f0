package imaging

import (
	"testing"
)

// BenchmarkProcess4000x3000JPEG is a 12-megapixel camera upload through
// the default WordPress sizes. Run:
//
//	go test ./app/imaging -run '^$' -bench Process4000x3000JPEG -benchtime 10x
func BenchmarkProcess4000x3000JPEG(b *testing.B) {
	data := encJPEG(b, photo(4000, 3000, 42), 90)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Process(data, Limits{}, WordPressSizes); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProcess4000x3000JPEGRotated adds EXIF orientation 6, the usual
// phone portrait, so the full file is turned and re-encoded too.
func BenchmarkProcess4000x3000JPEGRotated(b *testing.B) {
	data := insertAfterSOI(encJPEG(b, photo(4000, 3000, 42), 90), exifSegment(6))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Process(data, Limits{}, WordPressSizes); err != nil {
			b.Fatal(err)
		}
	}
}
