package controllers_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
)

// The media library's routes and files on their small world: what is HTTP
// (an upload's body and name, the fields, the gate before the body is read,
// the bare list with its totals, the files' headers and ranges). What the
// library does with an upload is app's (app/media_rules_test.go).

// recordedMedia is the media library of the small world, and its upload gate.
type recordedMedia struct {
	recorder
	page *app.Page[app.AttachmentView]
	// files are the files it serves, by name; gateErr what the gate answers.
	files   map[string][]byte
	gateErr error
}

var aloneAttachment = app.AttachmentView{ID: 5, Slug: "recorded", MIMEType: "image/jpeg"}

func (r *recordedMedia) MaxUpload() int64 { return 1 << 20 }

func (r *recordedMedia) Receive(_ context.Context, caller app.Caller) (func(), error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, "Receive")
	r.caller = caller
	if r.gateErr != nil {
		return nil, r.gateErr
	}
	return func() {}, nil
}

func (r *recordedMedia) List(_ context.Context, caller app.Caller, f app.MediaFilter) (*app.Page[app.AttachmentView], error) {
	if err := r.record("List", caller, f); err != nil {
		return nil, err
	}
	if r.page != nil {
		return r.page, nil
	}
	return &app.Page[app.AttachmentView]{Page: 1, PerPage: 10}, nil
}

func (r *recordedMedia) Upload(_ context.Context, caller app.Caller, in app.UploadInput) (app.AttachmentView, error) {
	return aloneAttachment, r.record("Upload", caller, in)
}

func (r *recordedMedia) Get(_ context.Context, caller app.Caller, id int64) (app.AttachmentView, error) {
	return aloneAttachment, r.record("Get", caller, id)
}

func (r *recordedMedia) Update(_ context.Context, caller app.Caller, id int64, f app.MediaFields) (app.AttachmentView, error) {
	return aloneAttachment, r.record("Update", caller, id, f)
}

func (r *recordedMedia) Delete(_ context.Context, caller app.Caller, id int64, force bool) (app.Deleted[app.AttachmentView], error) {
	return app.Deleted[app.AttachmentView]{Deleted: true, Previous: aloneAttachment}, r.record("Delete", caller, id, force)
}

// filesWritten is when every file of the small world was written.
var filesWritten = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func (r *recordedMedia) OpenFile(_ context.Context, name string) (*app.ServedFile, error) {
	if err := r.record("OpenFile", app.Caller{}, name); err != nil {
		return nil, err
	}
	data, ok := r.files[name]
	if !ok {
		return nil, calendar.NewError(calendar.KindNotFound, "rest_no_route", "No route was found matching the URL and request method.")
	}
	return &app.ServedFile{StoredFile: storedFile{bytes.NewReader(data), calendar.FileInfo{Name: name, Owner: 5,
		Size: int64(len(data)), Written: filesWritten}}, MIME: "image/jpeg"}, nil
}

// storedFile is a file of the small world's store.
type storedFile struct {
	*bytes.Reader
	info calendar.FileInfo
}

func (f storedFile) Close() error            { return nil }
func (f storedFile) Info() calendar.FileInfo { return f.info }

func mediaAlone(t *testing.T, svc *recordedMedia) *service {
	t.Helper()
	return serveAlone(t, func(cfg controllers.Config) http.Handler {
		return controllers.NewMediaAlone(cfg, oneEditor{}, svc, svc)
	})
}

func TestTheMediaListReadsItsParametersAndAnswersABareArrayWithItsTotals(t *testing.T) {
	t.Parallel()
	svc := &recordedMedia{page: &app.Page[app.AttachmentView]{Items: []app.AttachmentView{aloneAttachment}, Page: 2, PerPage: 1, Total: 3, TotalPages: 3}}
	s := mediaAlone(t, svc)
	for query, want := range map[string]app.MediaFilter{
		"":                                    {},
		"page=2&per_page=1&search=jazz":       {Page: app.PageRequest{Page: 2, PerPage: 1}, Search: ptr("jazz")},
		"author=3&author=4":                   {Authors: []int64{3, 4}},
		"author[]=3&per_page=500":             {Page: app.PageRequest{PerPage: calendar.MaxPerPage}, Authors: []int64{3}},
		"author=3,4&search=night&unknown=yes": {Search: ptr("night"), Authors: []int64{3, 4}},
	} {
		res := s.do("GET", aloneAPI+"/media?"+query)
		res.expectStatus(t, http.StatusOK)
		if got := svc.got()[0].(app.MediaFilter); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: the service was asked %s, want %s", query, show(got), show(want))
		}
		if list := res.list(t); len(list) != 1 || list[0]["id"] != 5.0 {
			t.Errorf("%q: the list %s, want the page's items as a bare array", query, res.Body)
		}
		link := res.Header.Get("Link")
		if res.Header.Get("X-WP-Total") != "3" || res.Header.Get("X-WP-TotalPages") != "3" ||
			!strings.Contains(link, `rel="prev"`) || !strings.Contains(link, `rel="next"`) || !strings.Contains(link, s.URL+aloneAPI+"/media/?") {
			t.Errorf("%q: headers %v", query, res.Header)
		}
	}
}

func TestAnUploadHandsTheServiceTheFileItsNameAndItsFields(t *testing.T) {
	t.Parallel()
	jpg := []byte("\xff\xd8 not decoded here \xff\xd9")
	for _, tc := range []struct {
		name string
		path string
		opt  option
		want app.UploadInput
	}{
		{"the raw body named by Content-Disposition", "/media?title=Poster&alt_text=A+poster", rawUpload("Affiche du Festival.JPG", "image/jpeg", jpg),
			app.UploadInput{FileName: "Affiche du Festival.JPG", Data: jpg, MediaFields: app.MediaFields{Title: ptr("Poster"), AltText: ptr("A poster")}}},
		{"a form's file and fields", "/media", formUpload("stage.png", jpg, map[string]string{"title": "The stage", "caption": "Before", "description": "Noon"}),
			app.UploadInput{FileName: "stage.png", Data: jpg, MediaFields: app.MediaFields{Title: ptr("The stage"), Caption: ptr("Before"), Description: ptr("Noon")}}},
		{"a form without a file", "/media", formUpload("", nil, map[string]string{"alt_text": "nothing"}),
			app.UploadInput{Data: []byte{}, MediaFields: app.MediaFields{AltText: ptr("nothing")}}},
	} {
		svc := &recordedMedia{}
		s := mediaAlone(t, svc)
		res := s.do("POST", aloneAPI+tc.path, bearer("editor-token"), tc.opt)
		res.expectStatus(t, http.StatusCreated)
		if svc.called() != "Receive,Upload" {
			t.Errorf("%s: the service was asked %s, want the gate, then the upload", tc.name, svc.called())
			continue
		}
		got := svc.got()[0].(app.UploadInput)
		if got.Data == nil {
			got.Data = []byte{}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: the service was given %q %q %s, want %q %q %s", tc.name, got.FileName, got.Data, show(got.MediaFields),
				tc.want.FileName, tc.want.Data, show(tc.want.MediaFields))
		}
		if loc := res.Header.Get("Location"); loc != s.URL+aloneAPI+"/media/5" {
			t.Errorf("%s: Location %q", tc.name, loc)
		}
		if svc.asked().User != theEditor {
			t.Errorf("%s: the caller was %+v", tc.name, svc.asked())
		}
	}
}

// The gate is asked before the body is read: what it refuses is answered
// without the library being asked, and a body over the library's limit is
// refused before anything.
func TestAnUploadPassesTheGateBeforeItsBodyIsRead(t *testing.T) {
	t.Parallel()
	jpeg := rawUpload("a.jpg", "image/jpeg", []byte("\xff\xd8"))
	busy := &calendar.Error{Kind: calendar.KindUnavailable, Code: "rest_upload_busy", Message: "Busy.", RetryAfter: time.Second}
	for _, tc := range []struct {
		name    string
		gateErr error
		opts    []option
		status  int
		code    string
		calls   string
	}{
		{"the gate refuses", calendar.NewError(calendar.KindUnauthorized, "rest_cannot_create", "No."), []option{jpeg}, 401, "rest_cannot_create", "Receive"},
		{"the gate is busy", busy, []option{jpeg, bearer("editor-token")}, 503, "rest_upload_busy", "Receive"},
		{"over the limit", nil, []option{bearer("editor-token"), rawUpload("big.jpg", "image/jpeg", bytes.Repeat([]byte{1}, 2<<20))}, 413, "rest_body_too_large", ""},
		{"a raw body without a name, from one who may upload", nil, []option{bearer("editor-token"), body("image/jpeg", "\xff\xd8")}, 400,
			"rest_upload_no_content_disposition", "Receive"},
	} {
		svc := &recordedMedia{gateErr: tc.gateErr}
		s := mediaAlone(t, svc)
		res := s.do("POST", aloneAPI+"/media", tc.opts...)
		res.expectError(t, tc.status, tc.code)
		if svc.called() != tc.calls {
			t.Errorf("%s: the service was asked %q, want %q", tc.name, svc.called(), tc.calls)
		}
		if tc.status == 503 && res.Header.Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After", tc.name)
		}
	}
	// Without a name, one who may not upload hears it from the library, as WordPress checks the permission first.
	svc := &recordedMedia{}
	s := mediaAlone(t, svc)
	s.do("POST", aloneAPI+"/media", body("image/jpeg", "\xff\xd8")).expectStatus(t, http.StatusCreated)
	if svc.called() != "Receive,Upload" {
		t.Errorf("an anonymous unnamed upload: the service was asked %q", svc.called())
	}
}

func TestAnAttachmentIsReadEditedAndDeletedByThePathsID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method, path, body string
		call               string
		given              []any
	}{
		{"GET", "/media/12?id=13", "", "Get", []any{int64(12)}},
		{"POST", "/media/12", `{"alt_text":"A stage","title":"","id":13}`, "Update", []any{int64(12), app.MediaFields{AltText: ptr("A stage"), Title: ptr("")}}},
		{"PATCH", "/media/12", "caption=Before&description=Noon", "Update", []any{int64(12), app.MediaFields{Caption: ptr("Before"), Description: ptr("Noon")}}},
		{"DELETE", "/media/12", "", "Delete", []any{int64(12), false}},
		{"DELETE", "/media/12?force=true", "", "Delete", []any{int64(12), true}},
	} {
		svc := &recordedMedia{}
		s := mediaAlone(t, svc)
		contentType := "application/json"
		if !strings.HasPrefix(tc.body, "{") {
			contentType = "application/x-www-form-urlencoded"
		}
		s.do(tc.method, aloneAPI+tc.path, bearer("editor-token"), body(contentType, tc.body)).expectStatus(t, http.StatusOK)
		if svc.called() != tc.call || !reflect.DeepEqual(svc.got(), tc.given) {
			t.Errorf("%s %s: the service was asked %s %s, want %s %s", tc.method, tc.path, svc.called(), showAll(svc.got()), tc.call, showAll(tc.given))
		}
	}
}

// showAll writes what a call was given, typed requests with their pointers followed.
func showAll(given []any) string {
	var out []string
	for _, g := range given {
		if f, ok := g.(app.MediaFields); ok {
			out = append(out, show(f))
			continue
		}
		out = append(out, fmt.Sprint(g))
	}
	return strings.Join(out, " ")
}

func TestABadMediaRequestIsRefusedBeforeTheServiceIsAsked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "/media?per_page=0", "", 400, "rest_invalid_param"},
		{"GET", "/media?author=someone", "", 400, "rest_invalid_param"},
		{"GET", "/media/x1", "", 404, "rest_no_route"},
		{"PATCH", "/media/3", `{"title":`, 400, "rest_invalid_json"},
		{"DELETE", "/media/3?force=maybe", "", 400, "rest_invalid_param"},
	} {
		svc := &recordedMedia{}
		s := mediaAlone(t, svc)
		s.do(tc.method, aloneAPI+tc.path, bearer("editor-token"), body("application/json", tc.body)).expectError(t, tc.status, tc.code)
		if calls := svc.called(); calls != "" {
			t.Errorf("%s %s: the service was asked %s", tc.method, tc.path, calls)
		}
	}
}

func TestEachErrorOfTheMediaLibraryLeavesWithItsStatusInThePluginsShape(t *testing.T) {
	t.Parallel()
	svc := &recordedMedia{}
	s := mediaAlone(t, svc)
	expectEachKind(t, &svc.recorder, s, request{"GET", aloneAPI + "/media"}, request{"GET", aloneAPI + "/media/3"},
		request{"DELETE", aloneAPI + "/media/3"})
}

// A file is served as its own type, never sniffed, kept a year, with an
// ETag, conditional requests and one range (several ranges: the whole file).
func TestAFileIsServedWithItsTypeItsCacheAndOneRange(t *testing.T) {
	t.Parallel()
	data := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	svc := &recordedMedia{files: map[string][]byte{"2030/01/poster.jpg": data}}
	s := mediaAlone(t, svc)
	const file = "/uploads/2030/01/poster.jpg"
	full := s.do("GET", file)
	full.expectStatus(t, http.StatusOK)
	if !bytes.Equal(full.Body, data) || svc.got()[0] != "2030/01/poster.jpg" {
		t.Fatalf("served %q for %v", full.Body, svc.got())
	}
	for h, want := range map[string]string{"Content-Type": "image/jpeg", "X-Content-Type-Options": "nosniff",
		"Cache-Control": "public, max-age=31536000", "Content-Security-Policy": "default-src 'none'; sandbox",
		"Last-Modified": filesWritten.Format(http.TimeFormat)} {
		if full.Header.Get(h) != want {
			t.Errorf("%s = %q, want %q", h, full.Header.Get(h), want)
		}
	}
	etag := full.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	s.do("GET", file, header("If-None-Match", etag)).expectStatus(t, http.StatusNotModified)
	s.do("GET", file, header("If-Modified-Since", filesWritten.Format(http.TimeFormat))).expectStatus(t, http.StatusNotModified)
	part := s.do("GET", file, header("Range", "bytes=10-19"))
	if part.Status != http.StatusPartialContent || string(part.Body) != "abcdefghij" {
		t.Fatalf("range 10-19: %d %q", part.Status, part.Body)
	}
	var many []string
	for i := range 100 {
		many = append(many, fmt.Sprintf("%d-%d", i%30, i%30))
	}
	if multi := s.do("GET", file, header("Range", "bytes="+strings.Join(many, ","))); multi.Status != http.StatusOK || !bytes.Equal(multi.Body, data) {
		t.Fatalf("many ranges: %d with %d bytes, want the file whole", multi.Status, len(multi.Body))
	}
	head := s.do("HEAD", file)
	if head.Status != http.StatusOK || len(head.Body) != 0 || head.Header.Get("Content-Length") != fmt.Sprint(len(data)) {
		t.Fatalf("HEAD: %d, %d bytes, Content-Length %q", head.Status, len(head.Body), head.Header.Get("Content-Length"))
	}
	s.do("POST", file).expectError(t, http.StatusNotFound, "rest_no_route")
	s.do("GET", "/uploads/2030/01/never-uploaded.jpg").expectError(t, http.StatusNotFound, "rest_no_route")
	if got := svc.called(); strings.Count(got, "OpenFile") != 7 {
		t.Errorf("the files asked: %s, want one for each GET and HEAD, none for the POST", got)
	}
}
