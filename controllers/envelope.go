package controllers

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
)

// envelopeHeaders are the headers a handler sets, which WordPress' _envelope
// moves into the body; the server's own (JSON, CORS, caching) stay outside.
var envelopeHeaders = []string{"X-WP-Total", "X-WP-TotalPages", "X-TEC-Total", "X-TEC-TotalPages",
	"Link", "Allow", "Location", "Retry-After"}

// envelope wraps an answer for clients that cannot read statuses or headers:
// {"body", "status", "headers"}, always sent with 200. As in WordPress, counts
// are numbers and no headers is [] (an empty PHP array).
func envelope(body []byte, status int, h http.Header) []byte {
	var headers []rawMember
	for _, name := range envelopeHeaders {
		v := headerAsWritten(h, name)
		if v == "" {
			continue
		}
		dropHeader(h, name)
		value := jsonString(v)
		if digitsOnly.MatchString(v) && len(v) < 16 {
			value = []byte(v)
		}
		headers = append(headers, rawMember{name, value})
	}
	inner := bytes.TrimSpace(body)
	switch {
	case len(inner) == 0:
		inner = []byte("null")
	case !strings.HasPrefix(h.Get("Content-Type"), "application/json"): // the feed: its text as a string
		inner = jsonString(string(body))
	}
	headersJSON := []byte("[]")
	if len(headers) > 0 {
		headersJSON = writeObject(headers)
	}
	out := writeObject([]rawMember{
		{"body", inner},
		{"status", []byte(strconv.Itoa(status))},
		{"headers", headersJSON},
	})
	return append(out, '\n')
}
