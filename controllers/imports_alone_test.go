package controllers_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
)

// The routes of import sources on their small world: what is HTTP (a
// source's body, JSON or a form with its csv file as a part, read only past
// the gate and within its bounds; a run refused while another goes; the
// runs as their route answers them). What a source and its runs do is
// app's (app/imports_test.go).

// recordedImports is the import service of the small world, and its gate.
type recordedImports struct {
	recorder
	gateErr error
	runs    []app.ImportRunView
}

func (r *recordedImports) Receive(_ context.Context, caller app.Caller) (func(), error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, "Receive")
	r.caller = caller
	if r.gateErr != nil {
		return nil, r.gateErr
	}
	return func() {}, nil
}

var aloneSource = app.ImportView{ID: 3, Kind: "csv", Categories: []string{}, Tags: []string{}}

func (r *recordedImports) List(_ context.Context, caller app.Caller) ([]app.ImportView, error) {
	return []app.ImportView{aloneSource}, r.record("List", caller)
}

func (r *recordedImports) Create(_ context.Context, caller app.Caller, in app.ImportInput) (*app.ImportView, error) {
	return &aloneSource, r.record("Create", caller, in)
}

func (r *recordedImports) Get(_ context.Context, caller app.Caller, id int64) (*app.ImportView, error) {
	return &aloneSource, r.record("Get", caller, id)
}

func (r *recordedImports) Update(_ context.Context, caller app.Caller, id int64, in app.ImportInput) (*app.ImportView, error) {
	return &aloneSource, r.record("Update", caller, id, in)
}

func (r *recordedImports) Delete(_ context.Context, caller app.Caller, id int64) (*app.DeletedImport, error) {
	return &app.DeletedImport{Deleted: true, Previous: aloneSource}, r.record("Delete", caller, id)
}

func (r *recordedImports) Run(_ context.Context, caller app.Caller, id int64) (*app.ImportRunView, error) {
	return &app.ImportRunView{ID: 1, Counts: map[string]int{}, Failed: []app.ImportFailedView{}}, r.record("Run", caller, id)
}

func (r *recordedImports) Runs(_ context.Context, caller app.Caller, id int64) ([]app.ImportRunView, error) {
	return r.runs, r.record("Runs", caller, id)
}

func (r *recordedImports) Preview(_ context.Context, caller app.Caller, id int64, in app.ImportInput) (*app.ImportPreview, error) {
	return &app.ImportPreview{Counts: map[string]int{}, Items: []app.ImportPreviewItem{}}, r.record("Preview", caller, id, in)
}

func importsAlone(t *testing.T, svc *recordedImports) *service {
	t.Helper()
	return serveAlone(t, func(cfg controllers.Config) http.Handler {
		return controllers.NewImportsAlone(cfg, oneEditor{}, svc)
	})
}

const aloneImports = "/vendor/admin/v1/imports"

// sourceForm is a multipart form of a source: its fields, then its file as
// the part "file" (none when file is nil).
func sourceForm(fields [][2]string, file []byte) option {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, f := range fields {
		_ = w.WriteField(f[0], f[1])
	}
	if file != nil {
		part, _ := w.CreateFormFile("file", "events.csv")
		_, _ = part.Write(file)
	}
	_ = w.Close()
	return body(w.FormDataContentType(), b.String())
}

const aloneCSV = "Event Name,Event Start Date\r\nPicnic,2030-06-01\r\n"

func TestASourceTakesItsCSVFileAsAFormPartOrAsAJSONField(t *testing.T) {
	t.Parallel()
	fields := [][2]string{{"kind", "csv"}, {"schedule", "daily"}, {"categories", "Parks"}, {"categories", "Food"}}
	want := app.ImportInput{Kind: ptr("csv"), Schedule: ptr("daily"), Categories: &[]string{"Parks", "Food"}, File: []byte(aloneCSV)}
	for _, tc := range []struct {
		name, path, call string
		opt              option
	}{
		{"a form's file part", aloneImports, "Create", sourceForm(fields, []byte(aloneCSV))},
		{"a JSON body's file field", aloneImports, "Create", jsonBody(map[string]any{"kind": "csv", "schedule": "daily",
			"categories": []string{"Parks", "Food"}, "file": aloneCSV})},
		{"a preview's form", aloneImports + "/preview", "Preview", sourceForm(fields, []byte(aloneCSV))},
	} {
		svc := &recordedImports{}
		s := importsAlone(t, svc)
		res := s.do("POST", tc.path, bearer("editor-token"), tc.opt)
		if res.Status >= 300 {
			t.Fatalf("%s: %d %s", tc.name, res.Status, res.Body)
		}
		if svc.called() != "Receive,"+tc.call {
			t.Errorf("%s: the service was asked %s, want the gate, then %s", tc.name, svc.called(), tc.call)
			continue
		}
		given := svc.got()
		got := given[len(given)-1].(app.ImportInput)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the service was given %s, want %s", tc.name, show(got), show(want))
		}
		if svc.asked().User != theEditor {
			t.Errorf("%s: the caller was %+v", tc.name, svc.asked())
		}
	}
}

// A source's body is read only from a caller the gate lets in, and only as
// far as its bounds: a file part over its bound is 413, a form that does
// not parse 400, each in the plugin's shape, and the service is asked for
// nothing past the gate.
func TestASourceBodyPassesTheGateThenItsBounds(t *testing.T) {
	t.Parallel()
	csvForm := func(file []byte) option { return sourceForm([][2]string{{"kind", "csv"}}, file) }
	truncated := func(r *http.Request) {
		csvForm([]byte(aloneCSV))(r)
		raw := new(bytes.Buffer)
		_, _ = raw.ReadFrom(r.Body)
		cut := raw.String()[:raw.Len()-20] // the closing boundary lost
		body(r.Header.Get("Content-Type"), cut)(r)
	}
	for _, tc := range []struct {
		name    string
		gateErr error
		opts    []option
		status  int
		code    string
		calls   string
	}{
		{"no credentials", nil, []option{csvForm([]byte(aloneCSV))}, 401, "rest_not_logged_in", ""},
		{"the gate refuses", calendar.NewError(calendar.KindForbidden, "rest_cannot_manage_imports", "No."),
			[]option{bearer("editor-token"), csvForm([]byte(aloneCSV))}, 403, "rest_cannot_manage_imports", "Receive"},
		{"a file part over its bound", nil, []option{bearer("editor-token"), csvForm(bytes.Repeat([]byte("a,b\r\n"), app.MaxImportFileBytes/5+1))},
			413, "rest_upload_file_too_big", "Receive"},
		{"a form cut short", nil, []option{bearer("editor-token"), truncated}, 400, "rest_invalid_body", "Receive"},
		{"a form without its boundary", nil, []option{bearer("editor-token"), body("multipart/form-data", "--x\r\n")}, 400, "rest_invalid_body", "Receive"},
		{"a body over the service's limit", nil, []option{bearer("editor-token"), csvForm(bytes.Repeat([]byte("a"), controllers.MaxBodyBytes))},
			413, "rest_body_too_large", ""},
	} {
		svc := &recordedImports{gateErr: tc.gateErr}
		s := importsAlone(t, svc)
		s.do("POST", aloneImports, tc.opts...).expectError(t, tc.status, tc.code)
		if svc.called() != tc.calls {
			t.Errorf("%s: the service was asked %q, want %q", tc.name, svc.called(), tc.calls)
		}
	}
}

// A run asked for while another goes is refused with the service's
// conflict, 409 in the plugin's shape (the rule: app's
// TestASourceRunsOnceAtATime).
func TestARunOfASourceAlreadyRunningIsA409(t *testing.T) {
	t.Parallel()
	svc := &recordedImports{}
	svc.failWith(calendar.NewError(calendar.KindConflict, "rest_import_running", "The source is being imported already; wait for its run to end."))
	s := importsAlone(t, svc)
	m := s.do("POST", aloneImports+"/3/run", bearer("editor-token")).expectError(t, http.StatusConflict, "rest_import_running")
	if len(m) != 3 || svc.called() != "Run" || fmt.Sprint(svc.got()) != "[3]" {
		t.Errorf("answer %v; the service was asked %s %v", m, svc.called(), svc.got())
	}
}

// A run that went past its time limit is listed ended, with why (the
// rule: app's TestARunPastItsTimeLimitEndsWithItsError).
func TestTheRunsOfASourceSayWhenEachEndedAndWhyOneFailed(t *testing.T) {
	t.Parallel()
	ended := "2030-06-01T10:10:00Z"
	svc := &recordedImports{runs: []app.ImportRunView{
		{ID: 2, Trigger: app.TriggerManual, Started: "2030-06-01T11:00:00Z", Counts: map[string]int{}, Failed: []app.ImportFailedView{}},
		{ID: 1, Trigger: app.TriggerScheduled, Started: "2030-06-01T10:00:00Z", Ended: &ended, Counts: map[string]int{app.OutcomeCreated: 4},
			Failed: []app.ImportFailedView{}, Error: "the run went past its time limit of 10m0s"},
	}}
	s := importsAlone(t, svc)
	res := s.do("GET", aloneImports+"/3/runs", bearer("editor-token"))
	res.expectStatus(t, http.StatusOK)
	runs := res.list(t)
	if len(runs) != 2 || runs[0]["ended"] != nil || runs[0]["error"] != "" {
		t.Fatalf("the run under way: %s", res.Body)
	}
	if past := runs[1]; past["ended"] != ended || past["error"] != "the run went past its time limit of 10m0s" ||
		past["counts"].(map[string]any)["created"] != 4.0 || past["trigger"] != "scheduled" {
		t.Errorf("the run past its time: %v", past)
	}
	if svc.called() != "Runs" || fmt.Sprint(svc.got()) != "[3]" || !strings.Contains(res.Header.Get("Content-Type"), "json") {
		t.Errorf("the service was asked %s %v", svc.called(), svc.got())
	}
}
