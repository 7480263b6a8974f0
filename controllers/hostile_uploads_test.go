package controllers_test

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// Uploads as an adversary sends them: anonymously, in large forms, many at
// once, as images whose pixels cost far more than their bytes. Each test
// fails on the code before the upload budget.

// rawRequest sends a request's head on its own connection (and body, when
// given) and returns the connection and a reader of the answer.
func (s *service) rawRequest(t *testing.T, head string, body []byte) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(2 * time.Minute)) // a hang guard, not a measure
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write(body); err != nil {
		t.Fatal(err)
	}
	return conn, bufio.NewReader(conn)
}

func multipartHead(path string, length int, auth string) string {
	return "POST " + path + " HTTP/1.1\r\nHost: x\r\n" + auth +
		"Content-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: " + fmt.Sprint(length) + "\r\n\r\n"
}

func basicHeader(login, password string) string {
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth(login, password)
	return "Authorization: " + req.Header.Get("Authorization") + "\r\n"
}

// A body is read only from a caller who may send it: an upload's from one
// who may upload, a body to the admin namespace from a signed-in caller.
// Whatever its type (the method override once read JSON, urlencoded and
// untyped bodies whole, before the credentials), the refusal comes at once,
// with the body neither awaited (six bytes of ten megabytes sent) nor read
// (all of it sent).
func TestNoBodyIsReadBeforeItsCallerMaySendIt(t *testing.T) {
	t.Parallel()
	s := startService(t)
	_, password := s.createUser("reader", calendar.RoleSubscriber)
	subscriber := basicHeader("reader", password)
	const upload, adminBody = 10 << 20, 900 << 10
	for _, c := range []struct {
		name, method, path, contentType, auth string
		length, status                        int
		code                                  string
	}{
		{"an anonymous JSON upload", "POST", mediaPath, "application/json", "", upload, 401, "rest_cannot_create"},
		{"an anonymous urlencoded upload", "POST", mediaPath, "application/x-www-form-urlencoded", "", upload, 401, "rest_cannot_create"},
		{"an anonymous untyped upload", "POST", mediaPath, "", "", upload, 401, "rest_cannot_create"},
		{"an anonymous multipart upload", "POST", mediaPath, "multipart/form-data; boundary=XYZ", "", upload, 401, "rest_cannot_create"},
		{"an anonymous image", "POST", mediaPath, "image/jpeg", "", upload, 401, "rest_cannot_create"},
		{"a subscriber's JSON upload", "POST", mediaPath, "application/json", subscriber, upload, 403, "rest_cannot_create"},
		{"an upload made a list by ?_method is bounded as a list", "POST", mediaPath + "?_method=GET", "application/json", "", upload, 413, "rest_body_too_large"},
		{"an anonymous user creation", "POST", adminPath + "/users", "application/json", "", adminBody, 401, "rest_not_logged_in"},
		{"an anonymous role change", "POST", adminPath + "/users/1", "application/x-www-form-urlencoded", "", adminBody, 401, "rest_not_logged_in"},
		{"an anonymous application password", "POST", adminPath + "/users/me/application-passwords", "", "", adminBody, 401, "rest_not_logged_in"},
	} {
		head := c.method + " " + c.path + " HTTP/1.1\r\nHost: x\r\n" + c.auth + "Content-Length: " + fmt.Sprint(c.length) + "\r\n"
		if c.contentType != "" {
			head += "Content-Type: " + c.contentType + "\r\n"
		}
		head += "\r\n"
		t.Run(c.name+", six bytes sent", func(t *testing.T) {
			_, answer := s.rawRequest(t, head, []byte(`{"_me`))
			expectRawError(t, answer, c.status, c.code)
		})
		t.Run(c.name+", all of it sent", func(t *testing.T) {
			before := s.received.Load()
			answer := s.sendWithoutWaiting(t, head, bytes.Repeat([]byte("a"), c.length))
			expectRawError(t, answer, c.status, c.code)
			if read := s.received.Load() - before; read > 256<<10 {
				t.Fatalf("the service read %d bytes of a refused body of %d", read, c.length)
			}
		})
	}
}

// sendWithoutWaiting sends a request on its own connection, its body in the
// background (the service may answer and close before taking it all), and
// returns a reader of the answer.
func (s *service) sendWithoutWaiting(t *testing.T, head string, body []byte) *bufio.Reader {
	t.Helper()
	conn, answer := s.rawRequest(t, head, nil)
	go func() { _, _ = conn.Write(body) }() // ends when the connection closes
	return answer
}

func expectRawError(t *testing.T, answer *bufio.Reader, status int, code string) {
	t.Helper()
	res, err := http.ReadResponse(answer, nil)
	if err != nil {
		t.Fatalf("no answer before the body: %v", err)
	}
	defer res.Body.Close()
	var e struct{ Code string }
	_ = json.NewDecoder(res.Body).Decode(&e)
	if res.StatusCode != status || e.Code != code {
		t.Fatalf("answered %d %q, want %d %q", res.StatusCode, e.Code, status, code)
	}
}

func TestAFormUploadLeavesNothingOnDisk(t *testing.T) {
	s := startService(t)
	_, password := s.createUser("reader", calendar.RoleSubscriber)
	spill := t.TempDir()
	t.Setenv("TMPDIR", spill) // where parsed form files would go
	junk := make([]byte, 3<<20)
	_, _ = rand.Read(junk)
	for _, c := range []struct {
		name   string
		cred   []option
		status int
	}{
		{"anonymous", nil, http.StatusUnauthorized},
		{"a subscriber", []option{basic("reader", password)}, http.StatusForbidden},
		{"the administrator, with a file that is no image", []option{asAdmin()}, http.StatusBadRequest},
	} {
		res := s.do("POST", mediaPath, append(c.cred, formUpload("junk.png", junk, map[string]string{"title": "x"}))...)
		if res.Status != c.status {
			t.Fatalf("%s: status %d, want %d: %s", c.name, res.Status, c.status, res.Body)
		}
	}
	if left, _ := os.ReadDir(spill); len(left) != 0 {
		t.Fatalf("uploads left %d files in the temporary directory: %v", len(left), left)
	}
}

func TestUploadsBeyondThoseInFlightWaitThenAre503(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, func(set *app.Settings) { set.UploadsInFlight, set.UploadWait = 1, 300*time.Millisecond }, noConfig)
	img := photo(t, 200, 150)
	part := "--XYZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
	form := append(append([]byte(part), img...), "\r\n--XYZ--\r\n"...)
	// The first upload holds the only place while its body comes slowly.
	first, answer := s.rawRequest(t, multipartHead(mediaPath, len(form), basicHeader("admin", adminPassword)), form[:len(form)/2])
	waitUntil(t, func() bool { // until the service holds it (its body is being read)
		res := s.do("POST", mediaPath, asAdmin(), rawUpload("b.jpg", "image/jpeg", img))
		return res.Status == http.StatusServiceUnavailable
	})
	res := s.do("POST", mediaPath, asAdmin(), rawUpload("b.jpg", "image/jpeg", img))
	res.expectError(t, http.StatusServiceUnavailable, "rest_upload_busy")
	if res.Header.Get("Retry-After") == "" {
		t.Fatal("a 503 without Retry-After")
	}
	if _, err := first.Write(form[len(form)/2:]); err != nil {
		t.Fatal(err)
	}
	if done, err := http.ReadResponse(answer, nil); err != nil || done.StatusCode != http.StatusCreated {
		t.Fatalf("the first upload: %v %v", done, err)
	}
	s.upload("c.jpg", img) // room again
}

// deepPNG is a 16-bit RGBA PNG of 2500×2500: 55 KB (its pixels are all
// alike), eight bytes a pixel once decoded. It is kept made (Go's png.Encode
// of image.NewRGBA64 of that size): encoding it under the race detector
// takes longer than the rest of the test.
func deepPNG(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/deep-2500x2500-rgba64.png")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := png.DecodeConfig(bytes.NewReader(data)); err != nil || c.Width != 2500 || c.Height != 2500 || c.ColorModel != color.NRGBA64Model {
		t.Fatalf("testdata/deep-2500x2500-rgba64.png is not what its name says: %+v %v", c, err)
	}
	return data
}

func TestAnImageIsRefusedWhenDecodingItNeedsMoreMemoryThanTheUploadBudget(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, func(set *app.Settings) { set.UploadMemory = 64 << 20 }, noConfig)
	small := deepPNG(t) // 6 megapixels, 50 MB as 16-bit RGBA: the pixel cap lets it through
	if len(small) > 1<<20 {
		t.Fatalf("the test image is %d bytes", len(small))
	}
	res := s.do("POST", mediaPath, asAdmin(), rawUpload("deep.png", "image/png", small))
	e := res.expectError(t, http.StatusBadRequest, "rest_upload_image_too_large")
	if !strings.Contains(e["message"].(string), "MB") {
		t.Fatalf("the message does not say what it needs: %v", e["message"])
	}
	s.upload("photo.jpg", photo(t, 800, 600)) // what fits goes through
}

// junkBeforeScans is a progressive JPEG with a stray byte after its
// quantization tables, which the decoder skips (where a walk of the layout
// stops), and one of its scans repeated three hundred times: each scan
// costs a pass over every block of the image, whatever its size in bytes.
func junkBeforeScans(t *testing.T) []byte {
	t.Helper()
	jpg, err := os.ReadFile("../app/imaging/testdata/progressive.jpg")
	if err != nil {
		t.Fatal(err)
	}
	dqt := bytes.Index(jpg, []byte{0xFF, 0xDB})
	dqtEnd := dqt + 2 + int(binary.BigEndian.Uint16(jpg[dqt+2:]))
	// The last scan: its header, then entropy-coded data up to EOI.
	last := bytes.LastIndex(jpg, []byte{0xFF, 0xDA})
	eoi := bytes.LastIndex(jpg, []byte{0xFF, 0xD9})
	out := append(append(append([]byte{}, jpg[:dqtEnd]...), 0x00), jpg[dqtEnd:eoi]...)
	for range 300 {
		out = append(out, jpg[last:eoi]...)
	}
	return append(out, 0xFF, 0xD9)
}

func TestAJPEGsScansAreCountedAsItsDecoderReadsThem(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.do("POST", mediaPath, asAdmin(), rawUpload("scans.jpg", "image/jpeg", junkBeforeScans(t))).
		expectError(t, http.StatusBadRequest, "rest_upload_invalid_type")
}

func TestAnImageThatDecodesPastItsTimeIsRefused(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, func(set *app.Settings) { set.DecodeTime = time.Nanosecond }, noConfig)
	s.do("POST", mediaPath, asAdmin(), rawUpload("photo.jpg", "image/jpeg", photo(t, 400, 300))).
		expectError(t, http.StatusBadRequest, "rest_upload_image_too_complex")
}
