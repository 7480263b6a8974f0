package controllers

import (
	"encoding/json"
	"fmt"

	"calendar/app"
)

// The readers that several resources share, turning a request's checked
// parameters (CheckArgs has run with the route's declarations) into the app's
// typed requests; each resource's own readers are beside its routes. What the
// plugin's validators check of a parameter's shape is declared on its Arg
// and checked by CheckArgs; what needs the domain (dates, existing terms and
// posts, permissions) the app checks.

func stringParam(v Values, name string) *string {
	if s, ok := v.String(name); ok {
		return &s
	}
	return nil
}

func intParam(v Values, name string) *int64 {
	if i, ok := v.Int(name); ok {
		return &i
	}
	return nil
}

func boolParam(v Values, name string) *bool {
	if b, ok := v.Bool(name); ok {
		return &b
	}
	return nil
}

func numberParam(v Values, name string) *float64 {
	if f, ok := v[name].(float64); ok {
		return &f
	}
	return nil
}

func stringsParam(v Values, name string) *[]string {
	if l, ok := v.Strings(name); ok {
		return &l
	}
	return nil
}

func intsParam(v Values, name string) *[]int64 {
	if l, ok := v.Ints(name); ok {
		return &l
	}
	return nil
}

// readPage reads page and per_page, which CheckArgs has bounded (pageArgs).
func readPage(v Values) app.PageRequest {
	page, _ := v.Int("page")
	perPage, _ := v.Int("per_page")
	return app.PageRequest{Page: int(page), PerPage: int(perPage)}
}

func readNear(v Values) app.NearInput {
	n := app.NearInput{Lat: numberParam(v, "geoloc_lat"), Lng: numberParam(v, "geoloc_lng"), Radius: numberParam(v, "geoloc_radius")}
	n.Unit, _ = v.String("geoloc_unit")
	n.Place, n.Bounds = stringParam(v, "near"), stringParam(v, "geo_bounds")
	return n
}

// imageParam reads an image sent as an attachment ID (a number or digits) or
// a URL; another shape is kept as text, which the service refuses by name.
func imageParam(v Values) *string {
	switch raw := v["image"].(type) {
	case nil:
		return nil
	case string:
		return &raw
	default:
		s := fmt.Sprint(raw)
		return &s
	}
}

// readPostFields reads the fields every post write takes; titleParam names the
// title (title, venue or organizer).
func readPostFields(v Values, titleParam string) app.PostFields {
	f := app.PostFields{Title: stringParam(v, titleParam), Description: stringParam(v, "description"),
		Excerpt: stringParam(v, "excerpt"), Password: stringParam(v, "password"), Image: imageParam(v),
		Author: intParam(v, "author"), Date: stringParam(v, "date"), DateUTC: stringParam(v, "date_utc")}
	if m, ok := v["custom_fields"].(map[string]any); ok {
		f.CustomFields = make(map[string]any, len(m))
		for key, value := range m {
			f.CustomFields[key] = numbersAsText(value)
		}
	}
	f.Status, _ = v.String("status")
	return f
}

// numbersAsText writes the numbers of a JSON value (json.Number, as the
// body's decoder keeps them) as their text, which the use cases read as
// any value a form sends.
func numbersAsText(v any) any {
	switch x := v.(type) {
	case json.Number:
		return x.String()
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = numbersAsText(item)
		}
		return out
	}
	return v
}
