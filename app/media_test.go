package app_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

func testJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	img.Set(0, 0, color.White)
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSweepRemovesWhatUnfinishedUploadsLeft: a crash mid-upload leaves a
// record marked as uploading and some of its files; a failed cleanup, files
// whose record is gone. No one reads them, and Sweep removes them, leaving
// finished uploads whole.
func TestSweepRemovesWhatUnfinishedUploadsLeft(t *testing.T) {
	w := newWorld(t)
	done, err := w.app.Media.Upload(w.ctx, w.admin(), app.UploadInput{FileName: "done.jpg", Data: testJPEG(t, 400, 300)})
	w.must(err)
	crashed := &calendar.Post{Type: calendar.PostTypeAttachment, Status: calendar.StatusUploading, Slug: "crashed", Title: "crashed",
		Author: w.admin().User.ID, Date: time.Now().Add(-time.Minute), Modified: time.Now().Add(-time.Minute)}
	w.must(w.store.Posts().Insert(w.ctx, crashed))
	_, err = w.app.CatchUp(w.ctx) // the index learns of it as a restart would
	w.must(err)
	files := w.store.Files()
	leftovers := map[string]int64{"2026/11/crashed.jpg": crashed.ID, "2026/11/crashed-150x150.jpg": crashed.ID,
		"2026/11/orphan.jpg": 9999, "2026/11/unlisted.jpg": done.ID}
	for name, owner := range leftovers {
		w.must(files.PutFile(w.ctx, name, owner, []byte("partial")))
	}
	if _, err := w.app.Media.Get(w.ctx, w.admin(), crashed.ID); calendar.AsError(err).Kind != calendar.KindNotFound {
		t.Fatalf("an unfinished upload reads as %v, want not found", err)
	}
	for name := range leftovers {
		if f, err := w.app.Media.OpenFile(w.ctx, name); err == nil || calendar.AsError(err).Kind != calendar.KindNotFound {
			if f != nil {
				f.Close()
			}
			t.Fatalf("leftover %s is served (%v)", name, err)
		}
	}

	records, removed, err := w.app.Media.Sweep(w.ctx, time.Now())
	w.must(err)
	if records != 1 || removed != len(leftovers) {
		t.Fatalf("Sweep removed %d records and %d files, want 1 and %d", records, removed, len(leftovers))
	}
	stored, err := files.ListFiles(w.ctx, time.Now().Add(time.Hour))
	w.must(err)
	if len(stored) != len(done.MediaDetails.Sizes) { // the finished upload: its sizes, "full" among them
		t.Fatalf("after the sweep %d files are stored: %v", len(stored), stored)
	}
	f, err := w.app.Media.OpenFile(w.ctx, done.MediaDetails.File)
	w.must(err)
	f.Close()
}

// TestSweepLeavesRecentUploadsToTheirWriters: what is newer than the instant
// may be another replica's upload in progress.
func TestSweepLeavesRecentUploadsToTheirWriters(t *testing.T) {
	w := newWorld(t)
	writing := &calendar.Post{Type: calendar.PostTypeAttachment, Status: calendar.StatusUploading, Slug: "writing", Title: "writing",
		Date: time.Now(), Modified: time.Now()}
	w.must(w.store.Posts().Insert(w.ctx, writing))
	_, err := w.app.CatchUp(w.ctx)
	w.must(err)
	w.must(w.store.Files().PutFile(w.ctx, "2026/11/writing.jpg", writing.ID, []byte("so far")))
	records, files, err := w.app.Media.Sweep(w.ctx, time.Now().Add(-app.SweepGrace))
	w.must(err)
	if records != 0 || files != 0 {
		t.Fatalf("Sweep removed %d records and %d files of an upload in progress", records, files)
	}
}
