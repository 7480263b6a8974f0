package app_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// The media library's rules, without HTTP: what an upload is kept as (its
// sizes, names, type, texts), who may upload, edit and delete, what is
// refused, what a list finds. Its routes' HTTP is controllers'
// (media_alone_test.go).

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

// upload stores an image as the administrator.
func (w *world) upload(name string, data []byte) app.AttachmentView {
	w.t.Helper()
	a, err := w.app.Media.Upload(w.ctx, w.admin(), app.UploadInput{FileName: name, Data: data})
	w.must(err)
	return a
}

// served is the file a URL of the library serves, with its type; nil when
// none is served there.
func (w *world) served(url string) ([]byte, string) {
	w.t.Helper()
	f, err := w.app.Media.OpenFile(w.ctx, strings.TrimPrefix(url, "http://x/uploads/"))
	if err != nil {
		if e := calendar.AsError(err); e == nil || e.Kind != calendar.KindNotFound {
			w.t.Fatalf("serving %s: %v", url, err)
		}
		return nil, ""
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	w.must(err)
	return data, f.MIME
}

func sizeNamed(sizes app.MediaDetailsSizes, name string) app.MediaDetailsSize {
	for _, s := range sizes {
		if s.Name == name {
			return s
		}
	}
	return app.MediaDetailsSize{}
}

func sizeNames(sizes app.MediaDetailsSizes) []string {
	var out []string
	for _, s := range sizes {
		out = append(out, s.Name)
	}
	return out
}

func TestAnUploadIsKeptInWordPressSizesNamedAfterItsFile(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.upload("Affiche du Festival.JPG", photo(t, 1200, 900))
	if a.MIMEType != "image/jpeg" || a.MediaType != "image" || a.Status != "inherit" || a.Type != "attachment" || a.Title.Rendered != "affiche-du-festival" {
		t.Fatalf("attachment = %+v", a)
	}
	d := a.MediaDetails
	if d.Width != 1200 || d.Height != 900 || !regexp.MustCompile(`^\d{4}/\d{2}/affiche-du-festival\.jpg$`).MatchString(d.File) {
		t.Fatalf("media_details = %+v", d)
	}
	want := map[string][2]int{"thumbnail": {150, 150}, "medium": {300, 225}, "medium_large": {768, 576}, "large": {1024, 768}, "full": {1200, 900}}
	if len(d.Sizes) != len(want) {
		t.Fatalf("sizes %v, want %v", sizeNames(d.Sizes), want)
	}
	for name, wh := range want {
		size := sizeNamed(d.Sizes, name)
		if size.Width != wh[0] || size.Height != wh[1] || size.MIMEType != "image/jpeg" {
			t.Fatalf("size %s = %+v, want %v", name, size, wh)
		}
		data, mime := w.served(size.SourceURL)
		cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || format != "jpeg" || mime != "image/jpeg" || cfg.Width != wh[0] || cfg.Height != wh[1] {
			t.Fatalf("file of %s: %s %dx%d served as %q (%v), want jpeg %v", name, format, cfg.Width, cfg.Height, mime, err, wh)
		}
		switch served := int64(len(data)); {
		case name == "full" && (size.FileSize != 0 || d.FileSize != served):
			// WordPress writes full apart from the metadata, which has the file's size.
			t.Fatalf("full has filesize %v, media_details %v, want none and %v", size.FileSize, d.FileSize, served)
		case name != "full" && size.FileSize != served:
			t.Fatalf("size %s filesize = %v, served %v bytes", name, size.FileSize, served)
		}
	}
	if sizeNamed(d.Sizes, "full").SourceURL != a.SourceURL {
		t.Fatalf("the full size is not source_url %v", a.SourceURL)
	}
	got, err := w.app.Media.Get(w.ctx, visitor, a.ID)
	w.must(err)
	if got.SourceURL != a.SourceURL {
		t.Fatalf("read back %+v", got)
	}
}

// What the library serves is what a finished attachment lists: nothing
// else under its folder, nothing outside it.
func TestOnlyTheFilesOfAnAttachmentAreServed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.upload("poster.jpg", photo(t, 40, 30))
	for _, name := range []string{"2026/11/never-uploaded.jpg", "../calendar.db", "../../etc/passwd", "calendar.db"} {
		if data, _ := w.served("http://x/uploads/" + name); data != nil {
			t.Errorf("%s is served", name)
		}
	}
}

func TestAnUploadTakesItsTextFieldsAndAnEditOnlyThoseSent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, err := w.app.Media.Upload(w.ctx, w.admin(), app.UploadInput{FileName: "stage.png", Data: pngImage(t, 320, 200),
		MediaFields: app.MediaFields{Title: ptr("The stage"), AltText: ptr("An empty stage, lit"), Caption: ptr("Before the show"), Description: ptr("Taken at noon")}})
	w.must(err)
	if a.AltText != "An empty stage, lit" || a.MIMEType != "image/png" || a.Slug != "the-stage" || a.Title.Rendered != "The stage" ||
		a.Caption.Rendered != "<p>Before the show</p>" || a.Description.Rendered != "<p>Taken at noon</p>" {
		t.Fatalf("attachment = %+v", a)
	}
	edited, err := w.app.Media.Update(w.ctx, w.admin(), a.ID, app.MediaFields{AltText: ptr("A stage")})
	w.must(err)
	if edited.AltText != "A stage" || edited.Title.Rendered != "The stage" || edited.Caption.Rendered != "<p>Before the show</p>" {
		t.Fatalf("after editing alt_text: %+v", edited)
	}
}

func TestNoFileServedCarriesTheCamerasMetadataAndEveryOneIsUpright(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, tc := range []struct {
		name        string
		orientation uint16
		w, h        int
		rotated     bool
	}{
		{"as shot", 1, 640, 480, false},
		{"turned a quarter", 6, 480, 640, true},
	} {
		a := w.upload("holiday.jpg", withExif(photo(t, 640, 480), tc.orientation))
		d := a.MediaDetails
		if d.Width != tc.w || d.Height != tc.h {
			t.Fatalf("%s: dimensions %vx%v, want %vx%v (upright)", tc.name, d.Width, d.Height, tc.w, tc.h)
		}
		if got := strings.Contains(d.File, "-rotated."); got != tc.rotated {
			t.Fatalf("%s: file %v: -rotated is %v, want %v", tc.name, d.File, got, tc.rotated)
		}
		for _, size := range d.Sizes {
			data, _ := w.served(size.SourceURL)
			if bytes.Contains(data, []byte(gpsMarker)) || bytes.Contains(data, []byte("Exif\x00")) {
				t.Fatalf("%s: size %s still carries the EXIF block", tc.name, size.Name)
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
			if err != nil || cfg.Width != cfg.Height && (cfg.Width > cfg.Height) != (tc.w > tc.h) {
				t.Fatalf("%s: size %s is %dx%d (%v): not upright", tc.name, size.Name, cfg.Width, cfg.Height, err)
			}
		}
	}
}

func TestWhoMayUploadEditAndDeleteMedia(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	jpg := photo(t, 200, 150)
	author := w.callers[calendar.RoleAuthor]
	other, err := w.app.Users.Create(w.ctx, w.admin(), app.UserInput{Login: "other", Role: calendar.RoleAuthor})
	w.must(err)
	otherUser, err := w.app.Users.AuthenticateToken(w.ctx, "", other.ApplicationPassword)
	w.must(err)
	anotherAuthor := app.Caller{User: otherUser, Root: visitor.Root}
	refused := func(what string, err error, kind calendar.Kind, code string) {
		t.Helper()
		if e := calendar.AsError(err); e == nil || e.Kind != kind || e.Code != code {
			t.Errorf("%s: %v, want %s", what, err, code)
		}
	}
	for name, c := range map[string]struct {
		caller app.Caller
		kind   calendar.Kind
	}{"a visitor": {visitor, calendar.KindUnauthorized}, "a contributor": {w.callers[calendar.RoleContributor], calendar.KindForbidden},
		"a subscriber": {w.callers[calendar.RoleSubscriber], calendar.KindForbidden}} {
		_, err := w.app.Media.Receive(w.ctx, c.caller) // before the body is read
		refused(name+" asking to send a file", err, c.kind, "rest_cannot_create")
		refused(name+" uploading", get(w.app.Media.Upload(w.ctx, c.caller, app.UploadInput{FileName: "a.jpg", Data: jpg})), c.kind, "rest_cannot_create")
	}
	release, err := w.app.Media.Receive(w.ctx, author)
	w.must(err)
	release()
	mine, err := w.app.Media.Upload(w.ctx, author, app.UploadInput{FileName: "mine.jpg", Data: jpg})
	w.must(err)
	refused("another author editing it", get(w.app.Media.Update(w.ctx, anotherAuthor, mine.ID, app.MediaFields{Title: ptr("taken")})),
		calendar.KindForbidden, "rest_cannot_edit")
	refused("another author deleting it", get(w.app.Media.Delete(w.ctx, anotherAuthor, mine.ID, true)), calendar.KindForbidden, "rest_cannot_delete")
	_, err = w.app.Media.Update(w.ctx, w.callers[calendar.RoleEditor], mine.ID, app.MediaFields{Title: ptr("Edited")})
	w.must(err)
	refused("a delete to the trash", get(w.app.Media.Delete(w.ctx, author, mine.ID, false)), calendar.KindNotImplemented, "rest_trash_not_supported")
	_, err = w.app.Media.Delete(w.ctx, author, mine.ID, true)
	w.must(err)
	refused("reading it deleted", get(w.app.Media.Get(w.ctx, visitor, mine.ID)), calendar.KindNotFound, "rest_post_invalid_id")
	if data, _ := w.served(mine.SourceURL); data != nil {
		t.Error("the deleted upload's file is still served")
	}
}

func TestBadUploadsAreRefusedByWhatTheyHold(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *app.Settings) { s.MaxUpload = 200 << 10 })
	for _, tc := range []struct {
		name, file string
		data       []byte
		kind       calendar.Kind
		code       string
	}{
		{"a text named .jpg", "photo.jpg", []byte("<?php echo 'hi'; ?>"), calendar.KindInvalid, "rest_upload_invalid_type"},
		{"an SVG", "logo.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), calendar.KindInvalid, "rest_upload_invalid_type"},
		{"a truncated JPEG", "cut.jpg", photo(t, 300, 300)[:400], calendar.KindInvalid, "rest_upload_invalid_type"},
		{"a decompression bomb", "bomb.png", pngHeader(60000, 60000), calendar.KindInvalid, "rest_upload_image_too_large"},
		{"more than the limit", "big.jpg", bytes.Repeat([]byte{0xFF}, 300<<10), calendar.KindTooLarge, "rest_upload_file_too_big"},
		{"no file", "empty.jpg", nil, calendar.KindInvalid, "rest_upload_no_data"},
	} {
		_, err := w.app.Media.Upload(w.ctx, w.admin(), app.UploadInput{FileName: tc.file, Data: tc.data})
		if e := calendar.AsError(err); e == nil || e.Kind != tc.kind || e.Code != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
	}
	page, err := w.app.Media.List(w.ctx, w.admin(), app.MediaFilter{})
	w.must(err)
	stored, err := w.store.Files().ListFiles(w.ctx, time.Now().Add(time.Hour))
	w.must(err)
	if page.Total != 0 || len(stored) != 0 {
		t.Fatalf("refused uploads left %d attachments and %d files", page.Total, len(stored))
	}
}

func TestFileNamesAreCleanedAndNeverReused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	jpg := photo(t, 100, 80)
	for i, tc := range []struct{ sent, stored string }{
		{"../../etc/passwd.jpg", "passwd.jpg"},
		{"poster.png", "poster.jpg"}, // the extension is the content's
		{"poster.jpg", "poster-1.jpg"},
		{`C:\photos\Été 2026 – Nuit.jpeg`, "ete-2026-nuit.jpg"},
		{"..jpg", "image.jpg"},
	} {
		f := w.upload(tc.sent, jpg).MediaDetails.File
		if !regexp.MustCompile(`^\d{4}/\d{2}/` + regexp.QuoteMeta(tc.stored) + `$`).MatchString(f) {
			t.Fatalf("upload %d (%s) stored as %q, want yyyy/mm/%s", i, tc.sent, f, tc.stored)
		}
	}
}

// A thousand poster.jpg of the month (squatted here straight in the store)
// leave the next poster.jpg a name of its own, and names in other scripts
// are kept apart rather than all becoming image.jpg.
func TestNamesTakenByEarlierUploadsCostAFewTriesNotARefusal(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	folder := time.Now().UTC().Format("2006/01/")
	for n := range 1001 {
		name := folder + "poster.jpg"
		if n > 0 {
			name = folder + fmt.Sprintf("poster-%d.jpg", n)
		}
		w.must(w.store.Files().PutFile(w.ctx, name, 999999, []byte("x")))
	}
	jpg := photo(t, 60, 40)
	if f := w.upload("poster.jpg", jpg).MediaDetails.File; !regexp.MustCompile(`^\d{4}/\d{2}/poster-[a-z0-9]{6}\.jpg$`).MatchString(f) {
		t.Fatalf("stored as %q, want poster- and a random suffix", f)
	}
	names := map[string]bool{}
	for _, name := range []string{"ポスター.jpg", "海報.jpg", "плакат.jpg", "ポスター.jpg"} {
		f := path.Base(w.upload(name, jpg).MediaDetails.File)
		if strings.HasPrefix(f, "image.") || strings.HasPrefix(f, "image-1.") || names[f] {
			t.Fatalf("%s stored as %q (so far %v): names in other scripts must stay apart", name, f, names)
		}
		names[f] = true
	}
}

func TestTheLibraryListsSearchesAndCounts(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	jpg := photo(t, 60, 40)
	w.upload("jazz-night.jpg", jpg)
	w.upload("rock-night.jpg", jpg)
	author := w.callers[calendar.RoleAuthor]
	_, err := w.app.Media.Upload(w.ctx, author, app.UploadInput{FileName: "jazz-brunch.jpg", Data: jpg})
	w.must(err)
	for _, tc := range []struct {
		name  string
		f     app.MediaFilter
		want  string
		total int
	}{
		{"newest first", app.MediaFilter{}, "jazz-brunch,rock-night,jazz-night", 3},
		{"a search", app.MediaFilter{Search: ptr("jazz")}, "jazz-brunch,jazz-night", 2},
		{"an author", app.MediaFilter{Authors: []int64{author.User.ID}}, "jazz-brunch", 1},
		{"a page", app.MediaFilter{Page: app.PageRequest{Page: 2, PerPage: 2}}, "jazz-night", 3},
	} {
		page, err := w.app.Media.List(w.ctx, visitor, tc.f)
		w.must(err)
		var got []string
		for _, a := range page.Items {
			got = append(got, a.Slug)
		}
		if strings.Join(got, ",") != tc.want || page.Total != tc.total {
			t.Errorf("%s: %v of %d, want %s of %d", tc.name, got, page.Total, tc.want, tc.total)
		}
	}
	if page, err := w.app.Media.List(w.ctx, visitor, app.MediaFilter{Page: app.PageRequest{PerPage: 2}}); err != nil || page.TotalPages != 2 {
		t.Fatalf("two pages of two: %+v (%v)", page, err)
	}
}

// Every type taken keeps its own full file; sizes of a WebP are JPEG when it
// is opaque and PNG when it is not, those of a GIF are PNG; the type is the
// content's, whatever the name says.
func TestEachImageTypeIsServedAsItselfWithSizesBrowsersShow(t *testing.T) {
	t.Parallel()
	webp := func(name string) []byte {
		raw, err := os.ReadFile("imaging/testdata/" + name)
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
	w := newWorld(t)
	for _, tc := range []struct {
		name, mime, sizeMIME string
		data                 []byte
	}{
		{"opaque.webp", "image/webp", "image/jpeg", webp("lossy_opaque.webp")},
		{"clear.webp", "image/webp", "image/png", webp("lossless_alpha.webp")},
		{"anim.gif", "image/gif", "image/png", gifData.Bytes()},
		{"photo.png", "image/jpeg", "image/jpeg", photo(t, 400, 300)}, // the name says PNG, the content JPEG
	} {
		a := w.upload(tc.name, tc.data)
		full, thumb := sizeNamed(a.MediaDetails.Sizes, "full"), sizeNamed(a.MediaDetails.Sizes, "thumbnail")
		if a.MIMEType != tc.mime || full.MIMEType != tc.mime || thumb.MIMEType != tc.sizeMIME {
			t.Fatalf("%s: %v, full %+v, thumbnail %+v; want %s with %s sizes", tc.name, a.MIMEType, full, thumb, tc.mime, tc.sizeMIME)
		}
		for _, size := range []app.MediaDetailsSize{full, thumb} {
			if data, mime := w.served(size.SourceURL); data == nil || mime != size.MIMEType {
				t.Fatalf("%s: %s served as %q", tc.name, size.File, mime)
			}
		}
	}
}

// jsonKeys are the keys of a JSON object, in order.
func jsonKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// jsonAt is the JSON of v at a path of keys.
func jsonAt(t *testing.T, v any, path ...string) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range path {
		var object map[string]json.RawMessage
		if err := json.Unmarshal(raw, &object); err != nil || object[key] == nil {
			t.Fatalf("no %q in %s (%v)", key, raw, err)
		}
		raw = object[key]
	}
	return raw
}

// keysAre checks the keys of the JSON of v at a path, in order.
func keysAre(t *testing.T, v any, want []string, path ...string) {
	t.Helper()
	if got := jsonKeys(t, jsonAt(t, v, path...)); !slices.Equal(got, want) {
		t.Fatalf("%v has %v, want %v", path, got, want)
	}
}
