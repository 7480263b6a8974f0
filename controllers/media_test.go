package controllers_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
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

// An upload over HTTP is served under /uploads/ as the library keeps it,
// through the real store: the whole path a client takes. What the library
// keeps (sizes, names, types, who may) is app's (app/media_uploads_test.go);
// the routes' HTTP, media_alone_test.go.
func TestAnUploadIsServedWhereItsAnswerSays(t *testing.T) {
	t.Parallel()
	s := startService(t)
	a := s.upload("poster.jpg", photo(t, 400, 300))
	_, sizes := details(t, a)
	for _, name := range []string{"full", "thumbnail"} {
		size := sizes[name].(map[string]any)
		res := s.fetch(size["source_url"].(string))
		res.expectStatus(t, http.StatusOK)
		cfg, format, err := image.DecodeConfig(bytes.NewReader(res.Body))
		if err != nil || format != "jpeg" || float64(cfg.Width) != size["width"] || res.Header.Get("Content-Type") != "image/jpeg" {
			t.Fatalf("%s: %s %dx%d as %q (%v), want %v", name, format, cfg.Width, cfg.Height, res.Header.Get("Content-Type"), err, size)
		}
	}
	got := s.do("GET", fmt.Sprintf("%s/%v", mediaPath, a["id"]))
	got.expectStatus(t, http.StatusOK)
	if got.object(t)["source_url"] != a["source_url"] {
		t.Fatalf("read back %s", got.Body)
	}
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
