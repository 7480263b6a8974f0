package controllers

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// Values are the parameters of one request, merged from the JSON body, the form
// body, the query string and the path (first source wins). A value is a string,
// a json.Number, a bool, a []any or a map[string]any as decoded; CheckArgs turns
// declared parameters into their canonical Go types (string, int64, bool,
// float64, []string, []int64, map[string]any).
type Values map[string]any

// Has reports whether a parameter was sent with a non-null value.
func (v Values) Has(name string) bool { return v[name] != nil }

// String returns a checked string parameter.
func (v Values) String(name string) (string, bool) {
	s, ok := v[name].(string)
	return s, ok
}

// Int returns a checked integer parameter.
func (v Values) Int(name string) (int64, bool) {
	i, ok := v[name].(int64)
	return i, ok
}

// Bool returns a checked boolean parameter.
func (v Values) Bool(name string) (bool, bool) {
	b, ok := v[name].(bool)
	return b, ok
}

// Strings returns a checked list of strings.
func (v Values) Strings(name string) ([]string, bool) {
	s, ok := v[name].([]string)
	return s, ok
}

// Ints returns a checked list of integers.
func (v Values) Ints(name string) ([]int64, bool) {
	s, ok := v[name].([]int64)
	return s, ok
}

// The parameter types of the WordPress argument schema.
const (
	TypeString  = "string"
	TypeInteger = "integer"
	TypeNumber  = "number"
	TypeBoolean = "boolean"
	TypeArray   = "array"
	TypeObject  = "object"
	// TypeMixed takes several shapes (an ID, an object, a list); the service
	// reads it itself.
	TypeMixed = "mixed"
)

// MaxListLength bounds every list parameter, so no request can make the service
// allocate or query without limit.
const MaxListLength = 1000

// A boolReader reads a boolean the way one of WordPress' readers does: the
// words it takes for true and for false, in any case. A reader with no words
// for false reads everything else as false, never as an error.
type boolReader struct {
	truths, falses []string
	// trim: spaces around a word do not count; nonZero: any number but 0 is true.
	trim, nonZero bool
}

var (
	// restBool is WordPress' schema boolean (every declared boolean):
	// true/false, "true"/"false"/"1"/"0" in any case, the numbers 1 and 0;
	// anything else is not a boolean.
	restBool = boolReader{truths: []string{"true", "1"}, falses: []string{"false", "0"}}
	// truthyBool is the plugin's tribe_is_truthy (has_events,
	// only_with_upcoming): 1, enable, enabled, on, y, yes, true, or a number
	// other than 0.
	truthyBool = boolReader{truths: []string{"1", "enable", "enabled", "on", "y", "yes", "true"}, trim: true, nonZero: true}
	// filterBool is PHP's FILTER_VALIDATE_BOOLEAN (strict_dates): 1, true,
	// on, yes.
	filterBool = boolReader{truths: []string{"1", "true", "on", "yes"}, trim: true}
)

// read returns the value of raw, and whether it is a boolean to this reader.
func (b boolReader) read(raw any) (bool, bool) {
	var word string
	switch x := raw.(type) {
	case bool:
		return x, true
	case string:
		word = x
	case json.Number:
		if b.nonZero {
			f, err := x.Float64()
			return err == nil && f != 0, true
		}
		word = x.String()
	default:
		return false, b.falses == nil
	}
	if b.trim {
		word = strings.TrimSpace(word)
	}
	word = strings.ToLower(word)
	switch {
	case contains(b.truths, word):
		return true, true
	case b.falses == nil || contains(b.falses, word):
		return false, true
	}
	return false, false
}

// ToBool reads a boolean as WordPress' schema does (restBool).
func ToBool(raw any) (bool, bool) { return restBool.read(raw) }

// ToInt reads an integer the WordPress way: a JSON number or a numeric string whose
// value is whole ("7", "7.0", "7e2"), within the int64 range.
func ToInt(raw any) (int64, bool) {
	switch x := raw.(type) {
	case json.Number:
		return wordpress.WholeNumber(x.String())
	case string:
		return wordpress.WholeNumber(x)
	}
	return 0, false
}

// ToNumber reads a number from a JSON number or a numeric string.
func ToNumber(raw any) (float64, bool) {
	var s string
	switch x := raw.(type) {
	case json.Number:
		s = x.String()
	case string:
		s = strings.TrimSpace(x)
	default:
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// ToList reads a list sent as a JSON array, as a[]=1&a[]=2, or as "1, 2": items
// are trimmed and empty items dropped, as the plugin's list helper does.
func ToList(raw any) ([]any, bool) {
	switch x := raw.(type) {
	case []any:
		return x, true
	case map[string]any: // a[0]=x&a[1]=y arrives as a map
		out := make([]any, 0, len(x))
		for i := 0; i < len(x); i++ {
			item, ok := x[strconv.Itoa(i)]
			if !ok {
				return nil, false
			}
			out = append(out, item)
		}
		return out, true
	case string:
		var out []any
		for _, part := range strings.Split(x, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
		return out, true
	case json.Number:
		return []any{x}, true
	}
	return nil, false
}

// Arg declares one parameter of a route: what the namespace index and the OpenAPI
// document show, and what CheckArgs enforces before any permission check.
type Arg struct {
	Name        string
	Type        string
	Items       string // item type of an array
	Description string
	Required    bool
	Default     any
	Enum        []string
	// Example is a value the OpenAPI document shows (nil: none).
	Example any
}

// CheckArgs enforces the declared parameters in WordPress order: missing required
// ones first (rest_missing_callback_param), then types and enums
// (rest_invalid_param). It replaces each present value by its canonical Go type.
func CheckArgs(v Values, args []Arg) error {
	var missing []string
	for _, a := range args {
		if a.Required && !v.Has(a.Name) {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return calendar.ErrMissingParams(missing)
	}
	var bad calendar.InvalidParams
	for _, a := range args {
		if !v.Has(a.Name) {
			continue
		}
		value, reason := coerce(a, v[a.Name])
		if reason != "" {
			bad.Add(a.Name, reason, map[string]any{
				"code": "rest_invalid_type", "message": reason, "data": map[string]any{"param": a.Name},
			})
			continue
		}
		v[a.Name] = value
	}
	return bad.Err()
}

func coerce(a Arg, raw any) (any, string) {
	notOfType := fmt.Sprintf("%s is not of type %s.", a.Name, a.Type)
	switch a.Type {
	case TypeString:
		s, ok := raw.(string)
		if !ok {
			return nil, notOfType
		}
		if len(a.Enum) > 0 && !contains(a.Enum, s) {
			return nil, fmt.Sprintf("%s is not one of %s.", a.Name, strings.Join(a.Enum, ", "))
		}
		return s, ""
	case TypeInteger:
		if i, ok := ToInt(raw); ok {
			return i, ""
		}
	case TypeNumber:
		if f, ok := ToNumber(raw); ok {
			return f, ""
		}
	case TypeBoolean:
		if b, ok := ToBool(raw); ok {
			return b, ""
		}
	case TypeObject:
		if m, ok := raw.(map[string]any); ok {
			return m, ""
		}
	case TypeArray:
		return coerceList(a, raw)
	case TypeMixed:
		return raw, ""
	default:
		return raw, ""
	}
	return nil, notOfType
}

func coerceList(a Arg, raw any) (any, string) {
	items, ok := ToList(raw)
	if !ok {
		return nil, fmt.Sprintf("%s is not of type array.", a.Name)
	}
	if len(items) > MaxListLength {
		return nil, fmt.Sprintf("%s has more than %d items.", a.Name, MaxListLength)
	}
	itemType := a.Items
	if itemType == "" {
		itemType = TypeString
	}
	itemError := fmt.Sprintf("%s[%%d] is not of type %s.", a.Name, itemType)
	if itemType == TypeInteger {
		out := make([]int64, 0, len(items))
		for i, item := range items {
			n, ok := ToInt(item)
			if !ok {
				return nil, fmt.Sprintf(itemError, i)
			}
			out = append(out, n)
		}
		return out, ""
	}
	out := make([]string, 0, len(items))
	for i, item := range items {
		switch x := item.(type) {
		case string:
			out = append(out, x)
		case json.Number:
			out = append(out, x.String())
		default:
			return nil, fmt.Sprintf(itemError, i)
		}
		if len(a.Enum) > 0 && !contains(a.Enum, out[len(out)-1]) {
			return nil, fmt.Sprintf("%s[%d] is not one of %s.", a.Name, i, strings.Join(a.Enum, ", "))
		}
	}
	return out, ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
