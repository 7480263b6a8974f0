package controllers

import (
	"bytes"
	"net/url"

	"calendar/app/calendar"
)

// jsonp is the _jsonp callback a request asks its answer to be wrapped in,
// as WordPress serves it: /**/callback(<the JSON>) as JavaScript.
type jsonp struct {
	callback string // "" when none: an empty _jsonp is no callback, as in WordPress
	invalid  bool   // a name WordPress refuses: rest_callback_invalid
}

// parseJSONP reads _jsonp as PHP does (the last one wins; _jsonp[] is a
// list, never a name) and checks it as wp_check_jsonp_callback does:
// letters, digits, _ and . only.
func parseJSONP(query url.Values) jsonp {
	if _, list := query["_jsonp[]"]; list {
		return jsonp{invalid: true}
	}
	names := query["_jsonp"]
	if len(names) == 0 || names[len(names)-1] == "" {
		return jsonp{}
	}
	name := names[len(names)-1]
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.') {
			return jsonp{invalid: true}
		}
	}
	return jsonp{callback: name}
}

// wrap is the JSON body as the callback's call. The leading comment is
// WordPress' defence against content sniffing (Rosetta Flash).
func (j jsonp) wrap(body []byte) []byte {
	inner := bytes.TrimSpace(body)
	out := make([]byte, 0, len(inner)+len(j.callback)+6)
	out = append(out, "/**/"+j.callback+"("...)
	out = append(out, inner...)
	return append(out, ')')
}

func errCallbackInvalid() *calendar.Error {
	return calendar.NewError(calendar.KindInvalid, "rest_callback_invalid", "Invalid JSONP callback function.")
}
