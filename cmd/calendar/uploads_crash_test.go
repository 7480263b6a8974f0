package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"calendar/app/calendar"
	"calendar/repository/bolt"
)

// TestAnUploadIsWholeOrAbsentAfterACrash: a child service takes concurrent
// uploads and is killed with SIGKILL mid-stream. After a restart every
// acknowledged upload is there with every file, and nothing an unfinished
// upload wrote is left: no record marked as uploading, no file that no
// attachment lists.
func TestAnUploadIsWholeOrAbsentAfterACrash(t *testing.T) {
	t.Parallel()
	long(t)
	dir, addr := t.TempDir(), freeAddr(t)
	c := startChild(t, dir, addr)
	jpg := gradientJPEG(t, 1040, 700) // over 1024 wide: the sizes up to large are made, and full
	var mu sync.Mutex
	var acked []float64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				req, _ := http.NewRequest("POST", "http://"+addr+"/vendor/events/v1/media", bytes.NewReader(jpg))
				req.SetBasicAuth("admin", childPassword)
				req.Header.Set("Content-Type", "image/jpeg")
				req.Header.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="crash-%d-%d.jpg"`, w, i))
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					return // the service is gone
				}
				var m map[string]any
				_ = json.NewDecoder(res.Body).Decode(&m)
				res.Body.Close()
				if res.StatusCode == http.StatusCreated {
					mu.Lock()
					acked = append(acked, m["id"].(float64))
					mu.Unlock()
				}
			}
		}()
	}
	c.killOnce(t, 6, func() int { mu.Lock(); defer mu.Unlock(); return len(acked) })
	close(stop)
	wg.Wait()

	c = startChild(t, dir, addr)
	for _, id := range acked {
		var a map[string]any
		if status, err := getJSON(fmt.Sprintf("http://%s/vendor/events/v1/media/%v", addr, id), &a); status != http.StatusOK || err != nil {
			t.Fatalf("acknowledged upload %v answers %d (%v) after the restart", id, status, err)
		}
		sizes := a["media_details"].(map[string]any)["sizes"].(map[string]any)
		if len(sizes) != 5 {
			t.Fatalf("acknowledged upload %v has sizes %v", id, sizes)
		}
		for name, size := range sizes {
			url := size.(map[string]any)["source_url"].(string)
			res, err := http.Get(url)
			if err != nil {
				t.Fatal(err)
			}
			served, _ := io.ReadAll(res.Body)
			res.Body.Close()
			want := size.(map[string]any)["filesize"]
			if name == "full" { // as WordPress, the metadata's size of the file, not the size's
				want = a["media_details"].(map[string]any)["filesize"]
			}
			if res.StatusCode != http.StatusOK || float64(len(served)) != want {
				t.Fatalf("upload %v size %s: %d, %d bytes", id, name, res.StatusCode, len(served))
			}
		}
	}
	waitFor(t, func() bool { return strings.Contains(c.logs.String(), "swept unfinished uploads") }, func() string {
		return "the sweep at start; logs:\n" + c.logs.String()
	})
	for _, line := range strings.Split(c.logs.String(), "\n") {
		if strings.Contains(line, "swept unfinished uploads") {
			t.Log(line) // what the crash left, for the record
		}
	}
	c.stop(t)
	checkNoUnfinishedUpload(t, dir)
	t.Logf("%d acknowledged uploads checked", len(acked))
}

// checkNoUnfinishedUpload: every stored file belongs to a finished attachment
// that lists it, and no record is still marked as uploading.
func checkNoUnfinishedUpload(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	store, err := bolt.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(ctx)
	files, err := store.Files().ListFiles(ctx, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for after := int64(0); ; {
		posts, err := store.Posts().Scan(ctx, after, 500)
		if err != nil {
			t.Fatal(err)
		}
		if len(posts) == 0 {
			break
		}
		for _, p := range posts {
			after = p.ID
			if p.Status == calendar.StatusUploading {
				t.Errorf("record %d is still marked as uploading", p.ID)
			}
			if p.Media != nil {
				listed[p.Media.File] = true
				for _, s := range p.Media.Sizes {
					listed[s.File] = true
				}
			}
		}
	}
	for _, f := range files {
		if !listed[f.Name] {
			t.Errorf("file %s (owner %d) belongs to no finished upload", f.Name, f.Owner)
		}
	}
}

func gradientJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), uint8(x ^ y), 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
