package controllers

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
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

// Arg declares one parameter of a route, its whole contract: what the
// namespace index and the OpenAPI document show (both derive from these
// fields), and what CheckArgs enforces before any permission check or use
// case. Its bounds name the numbers of the vocabulary's table
// (app/calendar/bounds.go), never literals.
type Arg struct {
	Name        string
	Type        string
	Items       string // item type of an array
	Description string
	Required    bool
	Default     any
	Enum        []string
	// EnumPrefix, when set, admits beside Enum every value made of it and
	// a name of a custom field (facets=cf.<key>, checked by the use case
	// against the declarations); the documents then state the values as a
	// pattern (enumPattern) rather than an enum.
	EnumPrefix string
	// Example is what the OpenAPI document shows a client may send, which
	// Swagger UI's "Try it out" fills in and sends: only a value that is
	// valid alone and beside the operation's other examples and defaults,
	// so no optional filter has one (a search, two categories and a place
	// together matched nothing, or named terms that do not exist); a
	// parameter of several shapes has one, or Swagger UI sends "string".
	Example any

	// MaxBytes bounds a string's length in bytes (a mixed parameter's, when
	// it is sent as a string); maxLength in the index and the document.
	MaxBytes int
	// NotEmpty refuses "" and "0": the plugin's non-empty string validator
	// (PHP's empty()); minLength 1.
	NotEmpty bool
	// Min and Max bound a number or an integer (nil: no bound on that side);
	// ExclusiveMin refuses Min itself. minimum, maximum, exclusiveMinimum.
	Min, Max     *float64
	ExclusiveMin bool
	// Clamp reads a larger integer as Clamp instead of refusing it (per_page,
	// as the plugin's sanitiser does); maximum.
	Clamp int
	// MaxItems bounds a list's items (a mixed parameter's, when it is sent as
	// a list); 0 is calendar.MaxListItems for an array. maxItems.
	MaxItems int
	// Needs names a parameter that must come with this one (geoloc_lat needs
	// geoloc_lng); Excludes, those that may not (near excludes geoloc_lat and
	// geoloc_lng).
	Needs    string
	Excludes []string
}

// inEnum reports whether s is one of the Arg's values.
func (a Arg) inEnum(s string) bool {
	if name, ok := strings.CutPrefix(s, a.EnumPrefix); ok && a.EnumPrefix != "" {
		return calendar.FieldKeyPattern.MatchString(name)
	}
	return contains(a.Enum, s)
}

// enumPattern is the regular expression of an Arg's values when it has
// an EnumPrefix.
func (a Arg) enumPattern() string {
	quoted := make([]string, len(a.Enum))
	for i, e := range a.Enum {
		quoted[i] = regexp.QuoteMeta(e)
	}
	return "^(" + strings.Join(quoted, "|") + "|" + regexp.QuoteMeta(a.EnumPrefix) + strings.Trim(calendar.FieldKeyPattern.String(), "^$") + ")$"
}

// bound is a number of the vocabulary's table as Min or Max.
func bound[N int | int64 | float64](n N) *float64 {
	f := float64(n)
	return &f
}

// maxItems is the bound on a list's items: its own, or every list's.
func (a Arg) maxItems() int {
	if a.MaxItems == 0 && a.Type == TypeArray {
		return calendar.MaxListItems
	}
	return a.MaxItems
}

// CheckArgs enforces the declared parameters in WordPress order: missing required
// ones first (rest_missing_callback_param), then, each parameter in its turn,
// its type and enum (rest_invalid_param, details rest_invalid_type), its
// bounds (details rest_too_long, rest_out_of_bounds, rest_too_many_items, as
// WordPress' schema words them), its emptiness and its pairs; one failure per
// parameter, the first. It replaces each present value by its canonical Go
// type, a clamped integer by its clamp.
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
		if value, ok := checkBounds(a, value, &bad); ok && checkPresence(a, value, v, &bad) {
			v[a.Name] = value
		}
	}
	return bad.Err()
}

// checkBounds enforces a coerced value's bounds; it returns the value as the
// route reads it (clamped), and false when a bound refuses it.
func checkBounds(a Arg, value any, bad *calendar.InvalidParams) (any, bool) {
	switch x := value.(type) {
	case string:
		if a.MaxBytes > 0 && len(x) > a.MaxBytes {
			bad.AddTooLong(a.Name, a.MaxBytes)
			return nil, false
		}
	case int64:
		if reason := outOfRange(a, float64(x)); reason != "" {
			bad.AddSchemaFailure(a.Name, "rest_out_of_bounds", reason)
			return nil, false
		}
		if a.Clamp > 0 && x > int64(a.Clamp) {
			return int64(a.Clamp), true
		}
	case float64:
		if reason := outOfRange(a, x); reason != "" {
			bad.AddSchemaFailure(a.Name, "rest_out_of_bounds", reason)
			return nil, false
		}
	}
	if max := a.maxItems(); max > 0 && listLength(value) > max {
		bad.AddTooManyItems(a.Name, max)
		return nil, false
	}
	return value, true
}

// listLength is how many items a checked value holds as a list (a mixed
// parameter's raw list too); -1 when it is no list.
func listLength(value any) int {
	switch x := value.(type) {
	case []string:
		return len(x)
	case []int64:
		return len(x)
	case []any:
		return len(x)
	case map[string]any: // an object's members
		return len(x)
	}
	return -1
}

// outOfRange is WordPress' reason for a number beyond Min or Max, "" when it
// is within them.
func outOfRange(a Arg, x float64) string {
	low := a.Min != nil && (x < *a.Min || a.ExclusiveMin && x == *a.Min)
	high := a.Max != nil && x > *a.Max
	if !low && !high {
		return ""
	}
	switch {
	case a.Min != nil && a.Max != nil:
		return calendar.BetweenReason(a.Name, *a.Min, *a.Max, a.ExclusiveMin)
	case a.Min != nil && a.ExclusiveMin:
		return fmt.Sprintf("%s must be greater than %s", a.Name, whole(*a.Min))
	case a.Min != nil:
		return fmt.Sprintf("%s must be greater than or equal to %s", a.Name, whole(*a.Min))
	}
	return fmt.Sprintf("%s must be less than or equal to %s", a.Name, whole(*a.Max))
}

// whole writes a bound as WordPress' %d does.
func whole(f float64) string { return strconv.FormatInt(int64(f), 10) }

// checkPresence enforces what a parameter's being sent asks of the request:
// a value that says something (NotEmpty), the parameter it needs, none of
// those it excludes. It reports whether the value passed.
func checkPresence(a Arg, value any, v Values, bad *calendar.InvalidParams) bool {
	if s, ok := value.(string); ok && a.NotEmpty && (s == "" || s == "0") {
		bad.Add(a.Name, a.Name+" must be a non-empty string.", nil)
		return false
	}
	if a.Needs != "" && !v.Has(a.Needs) {
		bad.AddUnpaired(a.Name, a.Needs)
		return false
	}
	for _, other := range a.Excludes {
		if v.Has(other) {
			bad.Add(a.Name, fmt.Sprintf("%s and %s exclude each other: send one of them.", a.Name, strings.Join(a.Excludes, "/")), nil)
			return false
		}
	}
	return true
}

func coerce(a Arg, raw any) (any, string) {
	notOfType := fmt.Sprintf("%s is not of type %s.", a.Name, a.Type)
	switch a.Type {
	case TypeString:
		s, ok := raw.(string)
		if !ok {
			return nil, notOfType
		}
		if len(a.Enum) > 0 && !a.inEnum(s) {
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
		if l, ok := raw.([]any); ok && len(l) == 0 { // PHP's empty array: [] in JSON, an empty object too
			return map[string]any{}, ""
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
	if len(items) > a.maxItems() { // unread: checkBounds refuses it by its count alone
		return items, ""
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
		if len(a.Enum) > 0 && !a.inEnum(out[len(out)-1]) {
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
