package controllers

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"calendar/app/calendar"
)

// FuzzDecodeValues: no request body, content type or query string makes the
// decoder panic, and every failure is a 400 or a 413 in the error shape.
func FuzzDecodeValues(f *testing.F) {
	seeds := []struct{ method, contentType, query, body string }{
		{"POST", "application/json", "a=1", `{"a": [1, {"b": null}], "c": "\u00e9"}`},
		{"POST", "application/json; charset=UTF-8", "", `{bad`},
		{"PUT", "application/x-www-form-urlencoded; charset=ISO-8859-1", "x[]=1&x[]=2", "venue[venue]=A&venue[city]=B&a[][b]=c"},
		{"POST", "multipart/form-data; boundary=xyz", "", "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--xyz--\r\n"},
		{"POST", "multipart/form-data", "", "no boundary"},
		{"DELETE", "", "%zz=1&[=2&a[b=3", "force=true"},
		{"GET", "application/vnd.api+json", "q=%00", `[1,2,3]`},
		{"POST", "application/json", "", strings.Repeat("[", 10000)},
	}
	for _, s := range seeds {
		f.Add(s.method, s.contentType, s.query, s.body)
	}
	f.Fuzz(func(t *testing.T, method, contentType, query, body string) {
		if !validMethod(method) {
			method = "POST"
		}
		r := httptest.NewRequest(method, "/x", strings.NewReader(body))
		r.URL.RawQuery = query
		if contentType != "" {
			r.Header.Set("Content-Type", contentType)
		}
		w := httptest.NewRecorder()
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		_, err := decodeValues(r, map[string]string{"id": "1"}, nil)
		if err == nil {
			return
		}
		var e *calendar.Error
		if !errors.As(err, &e) || (e.Kind != calendar.KindInvalid && e.Kind != calendar.KindTooLarge) || e.Code == "" {
			t.Fatalf("decode error %v is not a 400 or 413 in the error shape", err)
		}
	})
}

func validMethod(m string) bool {
	switch m {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS":
		return true
	}
	return false
}
