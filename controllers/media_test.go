package controllers_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// photo is a JPEG of w×h with a gradient, so resampling has something to do.
func photo(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), 128, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// gpsMarker is written in the GPS block of withExif: a served file that holds
// it still carries where the photo was taken.
const gpsMarker = "GPS-48.8584N-2.2945E"

// withExif inserts an EXIF block (APP1) into a JPEG: the orientation, and a
// GPS IFD whose latitude reference field carries gpsMarker.
func withExif(jpg []byte, orientation uint16) []byte {
	le := binary.LittleEndian
	var tiff bytes.Buffer
	tiff.WriteString("II")
	_ = binary.Write(&tiff, le, uint16(42))
	_ = binary.Write(&tiff, le, uint32(8)) // IFD0 right after the header
	entry := func(tag, typ uint16, count, value uint32) {
		_ = binary.Write(&tiff, le, tag)
		_ = binary.Write(&tiff, le, typ)
		_ = binary.Write(&tiff, le, count)
		_ = binary.Write(&tiff, le, value)
	}
	// IFD0: 2 entries, at 8; then the GPS IFD at 8+2+2*12+4 = 38, with one
	// ASCII entry whose text follows it at 38+2+12+4 = 56.
	_ = binary.Write(&tiff, le, uint16(2))
	entry(0x0112, 3, 1, uint32(orientation)) // Orientation, SHORT
	entry(0x8825, 4, 1, 38)                  // GPSInfo IFD pointer
	_ = binary.Write(&tiff, le, uint32(0))
	_ = binary.Write(&tiff, le, uint16(1))
	entry(0x0001, 2, uint32(len(gpsMarker)+1), 56) // GPSLatitudeRef, ASCII, at 56
	_ = binary.Write(&tiff, le, uint32(0))
	tiff.WriteString(gpsMarker + "\x00")
	payload := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	app1 := []byte{0xFF, 0xE1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}
	out := append([]byte{}, jpg[:2]...) // SOI
	out = append(out, app1...)
	out = append(out, payload...)
	return append(out, jpg[2:]...)
}

// rawUpload sends a file as the whole body, named by Content-Disposition.
func rawUpload(name, contentType string, data []byte) option {
	return func(r *http.Request) {
		body(contentType, string(data))(r)
		r.Header.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	}
}

// formUpload sends a file as the multipart field "file", with text fields.
func formUpload(name string, data []byte, fields map[string]string) option {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	part, _ := w.CreateFormFile("file", name)
	_, _ = part.Write(data)
	_ = w.Close()
	return body(w.FormDataContentType(), b.String())
}

const mediaPath = "/vendor/events/v1/media"

// upload posts an image as admin and returns the attachment.
func (s *service) upload(name string, data []byte, opts ...option) map[string]any {
	s.t.Helper()
	res := s.do("POST", mediaPath, append([]option{asAdmin(), rawUpload(name, "image/jpeg", data)}, opts...)...)
	res.expectStatus(s.t, http.StatusCreated)
	return res.object(s.t)
}

// fetch gets a URL the service wrote (a file of the library).
func (s *service) fetch(url string, opts ...option) *response {
	s.t.Helper()
	return s.do("GET", strings.TrimPrefix(url, s.URL), opts...)
}

func details(t *testing.T, attachment map[string]any) (map[string]any, map[string]any) {
	t.Helper()
	d, _ := attachment["media_details"].(map[string]any)
	sizes, _ := d["sizes"].(map[string]any)
	if d == nil || sizes == nil {
		t.Fatalf("no media_details.sizes: %v", attachment)
	}
	return d, sizes
}

func TestAnUploadIsKeptInWordPressSizesAndServedAsItsOwnType(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		a := s.upload("Affiche du Festival.JPG", photo(t, 1200, 900))
		if a["mime_type"] != "image/jpeg" || a["media_type"] != "image" || a["status"] != "inherit" || a["type"] != "attachment" {
			t.Fatalf("attachment = %v", a)
		}
		if title, _ := a["title"].(map[string]any); title["rendered"] != "affiche-du-festival" {
			t.Fatalf("title = %v, want the file's name", a["title"])
		}
		d, sizes := details(t, a)
		if d["width"] != 1200.0 || d["height"] != 900.0 || !strings.HasSuffix(d["file"].(string), "/affiche-du-festival.jpg") {
			t.Fatalf("media_details = %v", d)
		}
		want := map[string][2]float64{"thumbnail": {150, 150}, "medium": {300, 225}, "medium_large": {768, 576},
			"large": {1024, 768}, "full": {1200, 900}}
		for name, wh := range want {
			size, _ := sizes[name].(map[string]any)
			if size["width"] != wh[0] || size["height"] != wh[1] || size["mime_type"] != "image/jpeg" {
				t.Fatalf("size %s = %v, want %v", name, size, wh)
			}
			res := s.fetch(size["source_url"].(string))
			res.expectStatus(t, http.StatusOK)
			cfg, format, err := image.DecodeConfig(bytes.NewReader(res.Body))
			if err != nil || format != "jpeg" || float64(cfg.Width) != wh[0] || float64(cfg.Height) != wh[1] {
				t.Fatalf("file of %s: %s %dx%d (%v), want jpeg %v", name, format, cfg.Width, cfg.Height, err, wh)
			}
			switch served := float64(len(res.Body)); {
			case name == "full" && (size["filesize"] != nil || d["filesize"] != served):
				// WordPress writes full apart from the metadata, which has the file's size.
				t.Fatalf("full has filesize %v, media_details %v, want none and %v", size["filesize"], d["filesize"], served)
			case name != "full" && size["filesize"] != served:
				t.Fatalf("size %s filesize = %v, served %v bytes", name, size["filesize"], served)
			}
			for h, v := range map[string]string{"Content-Type": "image/jpeg", "X-Content-Type-Options": "nosniff", "Cache-Control": "public, max-age=31536000"} {
				if res.Header.Get(h) != v {
					t.Fatalf("%s of %s = %q, want %q", h, name, res.Header.Get(h), v)
				}
			}
		}
		if sizes["full"].(map[string]any)["source_url"] != a["source_url"] {
			t.Fatalf("full size %v is not source_url %v", sizes["full"], a["source_url"])
		}
		got := s.do("GET", fmt.Sprintf("%s/%v", mediaPath, a["id"]))
		got.expectStatus(t, http.StatusOK)
		if got.object(t)["source_url"] != a["source_url"] {
			t.Fatalf("read back %s", got.Body)
		}
	})
}

func TestUploadedFilesAnswerConditionalAndRangeRequests(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		a := s.upload("poster.jpg", photo(t, 400, 300))
		full := s.fetch(a["source_url"].(string))
		etag := full.Header.Get("ETag")
		if etag == "" || full.Header.Get("Last-Modified") == "" {
			t.Fatalf("no ETag or Last-Modified: %v", full.Header)
		}
		s.fetch(a["source_url"].(string), header("If-None-Match", etag)).expectStatus(t, http.StatusNotModified)
		part := s.fetch(a["source_url"].(string), header("Range", "bytes=10-19"))
		part.expectStatus(t, http.StatusPartialContent)
		if !bytes.Equal(part.Body, full.Body[10:20]) {
			t.Fatalf("range 10-19 = %x, want %x", part.Body, full.Body[10:20])
		}
		// A thousand one-byte ranges: the whole file once, not a part per byte.
		var many []string
		for i := range 1000 {
			many = append(many, fmt.Sprintf("%d-%d", i, i))
		}
		multi := s.fetch(a["source_url"].(string), header("Range", "bytes="+strings.Join(many, ",")))
		if multi.Status != http.StatusOK || !bytes.Equal(multi.Body, full.Body) {
			t.Fatalf("many ranges: %d with %d bytes, want the %d-byte file whole", multi.Status, len(multi.Body), len(full.Body))
		}
		head := s.do("HEAD", strings.TrimPrefix(a["source_url"].(string), s.URL))
		if head.Status != http.StatusOK || len(head.Body) != 0 || head.Header.Get("Content-Length") != fmt.Sprint(len(full.Body)) {
			t.Fatalf("HEAD: %d, %d bytes, Content-Length %q", head.Status, len(head.Body), head.Header.Get("Content-Length"))
		}
		s.do("GET", "/uploads/2026/11/never-uploaded.jpg").expectError(t, http.StatusNotFound, "rest_no_route")
		s.do("GET", "/uploads/../calendar.db").expectError(t, http.StatusNotFound, "rest_no_route")
	})
}

func TestAFormUploadTakesItsTextFields(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		res := s.do("POST", mediaPath, asAdmin(), formUpload("stage.png", pngImage(t, 320, 200), map[string]string{
			"title": "The stage", "alt_text": "An empty stage, lit", "caption": "Before the show", "description": "Taken at noon"}))
		res.expectStatus(t, http.StatusCreated)
		a := res.object(t)
		if a["alt_text"] != "An empty stage, lit" || a["mime_type"] != "image/png" || a["slug"] != "the-stage" {
			t.Fatalf("attachment = %s", res.Body)
		}
		for key, want := range map[string]string{"title": "The stage", "caption": "<p>Before the show</p>", "description": "<p>Taken at noon</p>"} {
			if got := a[key].(map[string]any)["rendered"]; got != want {
				t.Fatalf("%s.rendered = %q, want %q", key, got, want)
			}
		}
		if res.Header.Get("Location") == "" {
			t.Fatal("no Location header")
		}
		edited := s.do("POST", fmt.Sprintf("%s/%v", mediaPath, a["id"]), asAdmin(), jsonBody(map[string]string{"alt_text": "A stage"}))
		edited.expectStatus(t, http.StatusOK)
		if m := edited.object(t); m["alt_text"] != "A stage" || m["title"].(map[string]any)["rendered"] != "The stage" {
			t.Fatalf("after editing alt_text: %s", edited.Body)
		}
	})
}

func pngImage(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestNoFileServedCarriesTheCamerasMetadataAndEveryOneIsUpright(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		for _, tc := range []struct {
			name        string
			orientation uint16
			w, h        float64
			rotated     bool
		}{
			{"as shot", 1, 640, 480, false},
			{"turned a quarter", 6, 480, 640, true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				a := s.upload("holiday.jpg", withExif(photo(t, 640, 480), tc.orientation))
				d, sizes := details(t, a)
				if d["width"] != tc.w || d["height"] != tc.h {
					t.Fatalf("dimensions %vx%v, want %vx%v (upright)", d["width"], d["height"], tc.w, tc.h)
				}
				if got := strings.Contains(d["file"].(string), "-rotated."); got != tc.rotated {
					t.Fatalf("file %v: -rotated is %v, want %v", d["file"], got, tc.rotated)
				}
				for name, size := range sizes {
					served := s.fetch(size.(map[string]any)["source_url"].(string))
					served.expectStatus(t, http.StatusOK)
					if bytes.Contains(served.Body, []byte(gpsMarker)) || bytes.Contains(served.Body, []byte("Exif\x00")) {
						t.Fatalf("size %s still carries the EXIF block", name)
					}
					cfg, _, err := image.DecodeConfig(bytes.NewReader(served.Body))
					if err != nil || cfg.Width != cfg.Height && (cfg.Width > cfg.Height) != (tc.w > tc.h) {
						t.Fatalf("size %s is %dx%d (%v): not upright", name, cfg.Width, cfg.Height, err)
					}
				}
			})
		}
	})
}

func TestWhoMayUploadEditAndDeleteMedia(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		_, author := s.createUser("author", calendar.RoleAuthor)
		_, other := s.createUser("other", calendar.RoleAuthor)
		_, contributor := s.createUser("contributor", calendar.RoleContributor)
		_, subscriber := s.createUser("subscriber", calendar.RoleSubscriber)
		_, editor := s.createUser("editor", calendar.RoleEditor)
		jpg := photo(t, 200, 150)
		s.do("POST", mediaPath, rawUpload("a.jpg", "image/jpeg", jpg)).expectError(t, http.StatusUnauthorized, "rest_cannot_create")
		for login, password := range map[string]string{"contributor": contributor, "subscriber": subscriber} {
			s.do("POST", mediaPath, basic(login, password), rawUpload("a.jpg", "image/jpeg", jpg)).expectError(t, http.StatusForbidden, "rest_cannot_create")
		}
		res := s.do("POST", mediaPath, basic("author", author), rawUpload("mine.jpg", "image/jpeg", jpg))
		res.expectStatus(t, http.StatusCreated)
		item := fmt.Sprintf("%s/%v", mediaPath, res.object(t)["id"])
		s.do("POST", item, basic("other", other), jsonBody(map[string]string{"title": "taken"})).expectError(t, http.StatusForbidden, "rest_cannot_edit")
		s.do("DELETE", item+"?force=true", basic("other", other)).expectError(t, http.StatusForbidden, "rest_cannot_delete")
		s.do("POST", item, basic("editor", editor), jsonBody(map[string]string{"title": "Edited"})).expectStatus(t, http.StatusOK)
		s.do("DELETE", item, basic("author", author)).expectError(t, http.StatusNotImplemented, "rest_trash_not_supported")
		s.do("DELETE", item+"?force=true", basic("author", author)).expectStatus(t, http.StatusOK)
		s.do("GET", item).expectError(t, http.StatusNotFound, "rest_post_invalid_id")
	})
}

func TestBadUploadsAreRefusedByWhatTheyHold(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(set *app.Settings) { set.MaxUpload = 200 << 10 }, func(t *testing.T, s *service) {
		bomb := pngHeader(60000, 60000)
		cases := []struct {
			name   string
			opt    option
			status int
			code   string
		}{
			{"a text named .jpg", rawUpload("photo.jpg", "image/jpeg", []byte("<?php echo 'hi'; ?>")), 400, "rest_upload_invalid_type"},
			{"an SVG", rawUpload("logo.svg", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)), 400, "rest_upload_invalid_type"},
			{"a truncated JPEG", rawUpload("cut.jpg", "image/jpeg", photo(t, 300, 300)[:400]), 400, "rest_upload_invalid_type"},
			{"a decompression bomb", rawUpload("bomb.png", "image/png", bomb), 400, "rest_upload_image_too_large"},
			{"more than the limit", rawUpload("big.jpg", "image/jpeg", bytes.Repeat([]byte{0xFF}, 300<<10)), 413, "rest_body_too_large"},
			{"no file", rawUpload("empty.jpg", "image/jpeg", nil), 400, "rest_upload_no_data"},
			{"no name", body("image/jpeg", string(photo(t, 20, 20))), 400, "rest_upload_no_content_disposition"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				s.do("POST", mediaPath, asAdmin(), tc.opt).expectError(t, tc.status, tc.code)
			})
		}
		list := s.do("GET", mediaPath, asAdmin())
		list.expectStatus(t, http.StatusOK)
		if n := len(list.list(t)); n != 0 || list.Header.Get("X-WP-Total") != "0" {
			t.Fatalf("refused uploads left %d attachments: %s", n, list.Body)
		}
	})
}

// pngHeader is the start of a PNG whose header claims w×h: what a
// decompression bomb looks like before its pixels.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8 bits, RGBA
	_ = binary.Write(&b, binary.BigEndian, uint32(13))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestFileNamesAreCleanedAndNeverReused(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		jpg := photo(t, 100, 80)
		var files []string
		for _, name := range []string{"../../etc/passwd.jpg", "poster.png", "poster.jpg", `C:\photos\Été 2026 – Nuit.jpeg`, "..jpg"} {
			d, _ := details(t, s.upload(name, jpg))
			files = append(files, d["file"].(string))
		}
		want := []string{"passwd.jpg", "poster.jpg", "poster-1.jpg", "ete-2026-nuit.jpg", "image.jpg"}
		for i, f := range files {
			if !strings.HasSuffix(f, "/"+want[i]) || strings.Count(f, "/") != 2 || strings.Contains(f, "..") {
				t.Fatalf("upload %d stored as %q, want yyyy/mm/%s", i, f, want[i])
			}
		}
	})
}

// TestNamesTakenByEarlierUploadsCostAFewTriesNotARefusal: a thousand
// poster.jpg of the month (squatted here straight in the store) leave the
// next poster.jpg a name of its own, and names in other scripts are kept
// apart rather than all becoming image.jpg.
func TestNamesTakenByEarlierUploadsCostAFewTriesNotARefusal(t *testing.T) {
	t.Parallel()
	s := startService(t)
	folder := time.Now().UTC().Format("2006/01/")
	for n := range 1001 {
		name := folder + "poster.jpg"
		if n > 0 {
			name = folder + fmt.Sprintf("poster-%d.jpg", n)
		}
		if err := s.store.Files().PutFile(context.Background(), name, 999999, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	jpg := photo(t, 60, 40)
	d, _ := details(t, s.upload("poster.jpg", jpg))
	if f := d["file"].(string); !regexp.MustCompile(`^\d{4}/\d{2}/poster-[a-z0-9]{6}\.jpg$`).MatchString(f) {
		t.Fatalf("stored as %q, want poster- and a random suffix", f)
	}
	names := map[string]bool{}
	for _, name := range []string{"ポスター.jpg", "海報.jpg", "плакат.jpg", "ポスター.jpg"} {
		d, _ := details(t, s.upload(name, jpg))
		f := path.Base(d["file"].(string))
		if strings.HasPrefix(f, "image.") || strings.HasPrefix(f, "image-1.") || names[f] {
			t.Fatalf("%s stored as %q (so far %v): names in other scripts must stay apart", name, f, names)
		}
		names[f] = true
	}
}

func TestTheLibraryListsSearchesAndCounts(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		authorID, author := s.createUser("author", calendar.RoleAuthor)
		jpg := photo(t, 60, 40)
		s.upload("jazz-night.jpg", jpg)
		s.upload("rock-night.jpg", jpg)
		res := s.do("POST", mediaPath, basic("author", author), rawUpload("jazz-brunch.jpg", "image/jpeg", jpg))
		res.expectStatus(t, http.StatusCreated)
		for _, tc := range []struct {
			query string
			want  []string
		}{
			{"", []string{"jazz-brunch", "rock-night", "jazz-night"}},
			{"?search=jazz", []string{"jazz-brunch", "jazz-night"}},
			{"?author=" + formatFloat(authorID), []string{"jazz-brunch"}},
			{"?per_page=2&page=2", []string{"jazz-night"}},
		} {
			list := s.do("GET", mediaPath+tc.query)
			list.expectStatus(t, http.StatusOK)
			var got []string
			for _, a := range list.list(t) {
				got = append(got, a["slug"].(string))
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("GET media%s = %v, want %v", tc.query, got, tc.want)
			}
		}
		if list := s.do("GET", mediaPath+"?per_page=2"); list.Header.Get("X-WP-Total") != "3" || list.Header.Get("X-WP-TotalPages") != "2" {
			t.Fatalf("totals headers: %v", list.Header)
		}
	})
}

func TestTheDocDescribesUploadsAndTheirShape(t *testing.T) {
	t.Parallel()
	s := startService(t)
	doc := s.do("GET", "/vendor/events/v1/doc").object(t)
	upload := doc["paths"].(map[string]any)["/media"].(map[string]any)["post"].(map[string]any)
	content := upload["requestBody"].(map[string]any)["content"].(map[string]any)
	for _, mediaType := range []string{"image/jpeg", "image/png", "image/gif", "image/webp", "multipart/form-data"} {
		if content[mediaType] == nil {
			t.Fatalf("POST /media documents no %s body: %v", mediaType, content)
		}
	}
	file := content["multipart/form-data"].(map[string]any)["schema"].(map[string]any)["properties"].(map[string]any)["file"].(map[string]any)
	if file["format"] != "binary" {
		t.Fatalf("the form's file = %v, want a binary string", file)
	}
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	attachment, _ := schemas["AttachmentView"].(map[string]any)
	image, _ := schemas["ImageView"].(map[string]any)
	for schema, keys := range map[string][]string{"AttachmentView": {"id", "source_url", "media_details", "alt_text", "mime_type"},
		"ImageView": {"url", "id", "width", "height", "filesize", "sizes"}} {
		props, _ := map[string]map[string]any{"AttachmentView": attachment, "ImageView": image}[schema]["properties"].(map[string]any)
		for _, k := range keys {
			if props[k] == nil {
				t.Fatalf("schema %s has no %s: %v", schema, k, props)
			}
		}
	}
	// Sizes are kept in order as Go lists, and written as objects by size name.
	details, _ := schemas["MediaDetails"].(map[string]any)
	for schema, sizes := range map[string]any{"ImageView": image["properties"].(map[string]any)["sizes"],
		"MediaDetails": details["properties"].(map[string]any)["sizes"]} {
		if s, _ := sizes.(map[string]any); s["type"] != "object" || s["additionalProperties"] == nil {
			t.Fatalf("%s.sizes = %v, want an object of sizes", schema, sizes)
		}
	}
}

// Every type taken keeps its own full file; sizes of a WebP are JPEG when it
// is opaque and PNG when it is not, those of a GIF are PNG.
func TestEachImageTypeIsServedAsItselfWithSizesBrowsersShow(t *testing.T) {
	t.Parallel()
	webp := func(name string) []byte {
		raw, err := os.ReadFile("../app/imaging/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	var gifData bytes.Buffer
	paletted := image.NewPaletted(image.Rect(0, 0, 400, 300), palette.Plan9)
	for i := range paletted.Pix {
		paletted.Pix[i] = uint8(i % 200)
	}
	if err := gif.Encode(&gifData, paletted, nil); err != nil {
		t.Fatal(err)
	}
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		for _, tc := range []struct {
			name, mime, sizeMIME string
			data                 []byte
		}{
			{"opaque.webp", "image/webp", "image/jpeg", webp("lossy_opaque.webp")},
			{"clear.webp", "image/webp", "image/png", webp("lossless_alpha.webp")},
			{"anim.gif", "image/gif", "image/png", gifData.Bytes()},
			{"photo.png", "image/jpeg", "image/jpeg", photo(t, 400, 300)}, // the name says PNG, the content JPEG
		} {
			a := s.upload(tc.name, tc.data)
			_, sizes := details(t, a)
			full, _ := sizes["full"].(map[string]any)
			thumb, _ := sizes["thumbnail"].(map[string]any)
			if a["mime_type"] != tc.mime || full["mime_type"] != tc.mime || thumb["mime_type"] != tc.sizeMIME {
				t.Fatalf("%s: %v, full %v, thumbnail %v; want %s with %s sizes", tc.name, a["mime_type"], full, thumb, tc.mime, tc.sizeMIME)
			}
			for _, size := range []map[string]any{full, thumb} {
				res := s.fetch(size["source_url"].(string))
				if res.Status != http.StatusOK || res.Header.Get("Content-Type") != size["mime_type"] {
					t.Fatalf("%s: %s served %d as %q", tc.name, size["file"], res.Status, res.Header.Get("Content-Type"))
				}
			}
		}
	})
}
