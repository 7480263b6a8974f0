package controllers

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeValuesPrecedence(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		method, url string
		contentType string
		body        string
		path        map[string]string
		want        Values
	}{
		{"JSON beats form-less query", "POST", "/x?a=query&b=query", "application/json", `{"a":"json"}`, nil,
			Values{"a": "json", "b": "query"}},
		{"JSON null falls through to the query", "POST", "/x?a=query", "application/json", `{"a":null}`, nil,
			Values{"a": "query"}},
		{"form beats query", "PUT", "/x?a=query", "application/x-www-form-urlencoded; charset=UTF-8", "a=form", nil,
			Values{"a": "form"}},
		{"form body without a content type", "POST", "/x", "", "a=form", nil, Values{"a": "form"}},
		{"the path beats the query and the body", "POST", "/x?id=7", "application/json", `{"slug": "t", "a": 1}`, map[string]string{"id": "5", "slug": "s"},
			Values{"id": "5", "slug": "s", "a": json.Number("1")}},
		{"JSON numbers keep their text", "POST", "/x", "application/json", `{"n": 12345678901234567890}`, nil,
			Values{"n": json.Number("12345678901234567890")}},
		{"a GET with a form body ignores it", "GET", "/x?a=q", "application/x-www-form-urlencoded", "a=form", nil,
			Values{"a": "q"}},
		{"bad escapes in the query keep what parses", "GET", "/x?a=%zz&b=ok", "", "", nil, Values{"b": "ok"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(c.method, c.url, strings.NewReader(c.body))
			if c.contentType != "" {
				r.Header.Set("Content-Type", c.contentType)
			}
			got, err := decodeValues(r, c.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

func TestPHPFormKeys(t *testing.T) {
	t.Parallel()
	cases := []struct {
		query string
		want  map[string]any
	}{
		{"a[]=1&a[]=2", map[string]any{"a": []any{"1", "2"}}},
		{"a=1,2", map[string]any{"a": "1,2"}},
		{"a=1&a=2", map[string]any{"a": "2"}},
		{"venue[venue]=Hall&venue[city]=Lyon", map[string]any{"venue": map[string]any{"venue": "Hall", "city": "Lyon"}}},
		{"a[0]=x&a[1]=y", map[string]any{"a": map[string]any{"0": "x", "1": "y"}}},
		{"o[x][y]=1", map[string]any{"o": map[string]any{"x": map[string]any{"y": "1"}}}},
		{"a[b=1", map[string]any{"a[b": "1"}},
		{"[x]=1", map[string]any{"[x]": "1"}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/x?"+c.query, nil)
			got, err := decodeValues(r, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(map[string]any(got), c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

func TestAPanicIsA500InTheErrorShape(t *testing.T) {
	t.Parallel()
	api := &API{cfg: Config{Logger: discardLogger()}}
	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/x", nil)
	func() {
		defer api.recoverPanic(w, r)
		panic("boom")
	}()
	if w.Code != 500 {
		t.Fatalf("status = %d, want 500", w.Code)
	}
	var body map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body["code"] != "internal_error" ||
		body["data"].(map[string]any)["status"] != float64(500) {
		t.Fatalf("body = %s", w.Body)
	}
}
