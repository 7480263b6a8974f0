package controllers

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"calendar/app/calendar"
)

// FuzzCheckArgs: any JSON value in any declared parameter type is coerced or
// rejected with a 400, never a panic.
func FuzzCheckArgs(f *testing.F) {
	for _, s := range []string{`"true"`, `1`, `1.5`, `"1e309"`, `[1,"a",null]`, `{"$gt": ""}`, `"a, b,, c"`, `null`, `"NaN"`, `[[[]]]`} {
		f.Add(s)
	}
	args := []Arg{
		{Name: "s", Type: TypeString}, {Name: "i", Type: TypeInteger}, {Name: "n", Type: TypeNumber},
		{Name: "b", Type: TypeBoolean}, {Name: "o", Type: TypeObject}, {Name: "l", Type: TypeArray},
		{Name: "li", Type: TypeArray, Items: TypeInteger}, {Name: "e", Type: TypeString, Enum: []string{"x"}},
	}
	f.Fuzz(func(t *testing.T, raw string) {
		dec := json.NewDecoder(strings.NewReader(raw))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			v = raw // not JSON: as a form value
		}
		values := Values{}
		for _, a := range args {
			values[a.Name] = v
		}
		if err := CheckArgs(values, args); err != nil {
			var e *calendar.Error
			if !errors.As(err, &e) || e.Kind != calendar.KindInvalid {
				t.Fatalf("CheckArgs(%q) = %v, want a 400", raw, err)
			}
		}
	})
}
