package controllers

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"calendar/app/calendar"
)

func TestToBoolTheWordPressWay(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in     any
		want   bool
		wantOK bool
	}{
		{true, true, true}, {false, false, true},
		{"true", true, true}, {"TRUE", true, true}, {"1", true, true},
		{"false", false, true}, {"False", false, true}, {"0", false, true},
		{json.Number("1"), true, true}, {json.Number("0"), false, true},
		{"yes", false, false}, {"", false, false}, {json.Number("2"), false, false}, {[]any{}, false, false},
	}
	for _, c := range cases {
		got, ok := ToBool(c.in)
		if got != c.want || ok != c.wantOK {
			t.Errorf("ToBool(%#v) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.wantOK)
		}
	}
}

func TestToIntTheWordPressWay(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in     any
		want   int64
		wantOK bool
	}{
		{"7", 7, true}, {" 7 ", 7, true}, {"-3", -3, true}, {"7.0", 7, true}, {"7e2", 700, true},
		{json.Number("42"), 42, true}, {"7.5", 0, false}, {"abc", 0, false}, {"", 0, false},
		{"99999999999999999999", 0, false}, {"NaN", 0, false}, {"Inf", 0, false}, {true, 0, false},
	}
	for _, c := range cases {
		got, ok := ToInt(c.in)
		if got != c.want || ok != c.wantOK {
			t.Errorf("ToInt(%#v) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.wantOK)
		}
	}
}

func TestToListAcceptsTheThreeForms(t *testing.T) {
	t.Parallel()
	for _, in := range []any{[]any{"a", "b"}, "a, b", " a ,, b ,", map[string]any{"0": "a", "1": "b"}} {
		got, ok := ToList(in)
		if !ok || !reflect.DeepEqual(got, []any{"a", "b"}) {
			t.Errorf("ToList(%#v) = %#v, %v", in, got, ok)
		}
	}
}

func TestCheckArgs(t *testing.T) {
	t.Parallel()
	args := []Arg{
		{Name: "page", Type: TypeInteger},
		{Name: "flag", Type: TypeBoolean},
		{Name: "name", Type: TypeString, Required: true},
		{Name: "ids", Type: TypeArray, Items: TypeInteger},
		{Name: "order", Type: TypeString, Enum: []string{"asc", "desc"}},
	}
	t.Run("coerces present values to their Go types", func(t *testing.T) {
		v := Values{"page": "2", "flag": "false", "name": "x", "ids": "1,2", "order": "asc"}
		if err := CheckArgs(v, args); err != nil {
			t.Fatal(err)
		}
		want := Values{"page": int64(2), "flag": false, "name": "x", "ids": []int64{1, 2}, "order": "asc"}
		if !reflect.DeepEqual(v, want) {
			t.Fatalf("got %#v", v)
		}
	})
	t.Run("missing required parameters come first", func(t *testing.T) {
		err := CheckArgs(Values{"page": "x"}, args)
		var e *calendar.Error
		if !errors.As(err, &e) || e.Code != "rest_missing_callback_param" || e.Kind != calendar.KindInvalid {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("type failures name each parameter", func(t *testing.T) {
		err := CheckArgs(Values{"name": json.Number("5"), "flag": "maybe", "ids": "1,x", "order": "up"}, args)
		var e *calendar.Error
		if !errors.As(err, &e) || e.Code != "rest_invalid_param" {
			t.Fatalf("err = %v", err)
		}
		params := e.Data["params"].(map[string]string)
		for _, name := range []string{"name", "flag", "ids", "order"} {
			if params[name] == "" {
				t.Fatalf("no reason for %s in %v", name, params)
			}
		}
		if params["flag"] != "flag is not of type boolean." {
			t.Fatalf("flag reason = %q", params["flag"])
		}
		if e.Message != "Invalid parameter(s): flag, name, ids, order" {
			t.Fatalf("message = %q", e.Message)
		}
	})
	t.Run("lists are bounded", func(t *testing.T) {
		long := make([]any, calendar.MaxListItems+1)
		for i := range long {
			long[i] = "1"
		}
		if err := CheckArgs(Values{"name": "x", "ids": long}, args); err == nil {
			t.Fatal("a list over the bound was accepted")
		}
	})
}
