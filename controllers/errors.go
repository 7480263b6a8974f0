package controllers

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-fuego/fuego"

	"calendar/app/calendar"
)

// kinds is what each kind of app error answers with: its HTTP status, and
// what the OpenAPI document says of it. Both come from here, so the
// document lists what the service answers.
var kinds = map[calendar.Kind]struct {
	status int
	doc    string
}{
	calendar.KindInternal:           {http.StatusInternalServerError, "Unexpected failure"},
	calendar.KindInvalid:            {http.StatusBadRequest, "Invalid or missing parameters, malformed body"},
	calendar.KindUnauthorized:       {http.StatusUnauthorized, "Missing or wrong credentials"},
	calendar.KindForbidden:          {http.StatusForbidden, "Signed in but not allowed, or an item the caller may not read"},
	calendar.KindNotFound:           {http.StatusNotFound, "No such item"},
	calendar.KindConflict:           {http.StatusConflict, "Other requests kept changing the same item (or the work is already running); try again"},
	calendar.KindGone:               {http.StatusGone, "Already in the trash"},
	calendar.KindTooLarge:           {http.StatusRequestEntityTooLarge, "Body over its limit (1 MiB, an upload's own)"},
	calendar.KindThrottled:          {http.StatusTooManyRequests, "Too many wrong passwords, from this address or on this post from all; see Retry-After"},
	calendar.KindUnavailable:        {http.StatusServiceUnavailable, "Not now (the store, the index, a search's time budget, uploads in flight); see Retry-After"},
	calendar.KindNotImplemented:     {http.StatusNotImplemented, "Not supported by this item or this store"},
	calendar.KindPreconditionFailed: {http.StatusPreconditionFailed, "If-Match or If-Unmodified-Since names a version the item is no longer at"},
}

// statusOf is the HTTP status an error answers with.
func statusOf(e *calendar.Error) int {
	if k, ok := kinds[e.Kind]; ok {
		return k.status
	}
	return http.StatusInternalServerError
}

// errorJSON is the WordPress shape: {"code","message","data":{"status",...}}.
func errorJSON(e *calendar.Error) ([]byte, error) {
	data := make(map[string]any, len(e.Data)+1)
	for k, v := range e.Data {
		data[k] = v
	}
	data["status"] = statusOf(e)
	return json.Marshal(struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	}{e.Code, e.Message, data})
}

// The errors of the HTTP layer itself.

// errNoRoute is WordPress' answer to an unknown path or method.
func errNoRoute() *calendar.Error {
	return calendar.NewError(calendar.KindNotFound, "rest_no_route", "No route was found matching the URL and request method.")
}

// errInvalidJSON is the answer to a JSON body that does not parse.
func errInvalidJSON(cause error) *calendar.Error {
	e := calendar.NewError(calendar.KindInvalid, "rest_invalid_json", "Invalid JSON body passed.").
		With("json_error_code", 4).With("json_error_message", "Syntax error")
	e.Cause = cause
	return e
}

// errBodyTooLarge is the answer to a body over the size limit.
func errBodyTooLarge(limit int64) *calendar.Error {
	return calendar.NewError(calendar.KindTooLarge, "rest_body_too_large",
		fmt.Sprintf("The request body is larger than the limit of %d bytes.", limit))
}

// errFileTooLarge answers a form whose file part is over its bound (the
// media library's own code for a file too large).
func errFileTooLarge(limit int64) *calendar.Error {
	return calendar.NewError(calendar.KindTooLarge, "rest_upload_file_too_big",
		fmt.Sprintf("The file is larger than the limit of %d bytes.", limit)).With("param", "file").With("max_bytes", limit)
}

// errFromFramework turns an error fuego made (a 4xx of its own) into ours.
func errFromFramework(err error) error {
	var withStatus fuego.ErrorWithStatus
	if _, ours := err.(*calendar.Error); ours || !errors.As(err, &withStatus) || withStatus.StatusCode() >= 500 {
		return err
	}
	kind := calendar.KindInvalid
	if withStatus.StatusCode() == http.StatusNotFound {
		kind = calendar.KindNotFound
	}
	return calendar.NewError(kind, "rest_invalid_request", err.Error())
}

// ErrorBody documents the error shape every failure answers with.
type ErrorBody struct {
	Code    string `json:"code" example:"rest_invalid_param"`
	Message string `json:"message" example:"Invalid parameter(s): page"`
	Data    struct {
		Status  int               `json:"status" example:"400"`
		Params  map[string]string `json:"params,omitempty"`
		Details map[string]any    `json:"details,omitempty"`
	} `json:"data"`
}

// errorsOf are the kinds of error an operation can answer: any of them a
// bad request, a wrong credential, a refusal, a body too large, the throttle,
// a failure or an unavailable store; one of an item its absence, a read a
// page past the last (the plugin's archives); a write a
// race lost; a delete what is in the trash already; a write of an item a
// stale precondition. A route adds what only it answers (mayAnswer).
func errorsOf(method string, item bool) []calendar.Kind {
	out := []calendar.Kind{calendar.KindInvalid, calendar.KindUnauthorized, calendar.KindForbidden,
		calendar.KindTooLarge, calendar.KindThrottled, calendar.KindInternal, calendar.KindUnavailable}
	if item || method == http.MethodGet { // an item missing, or a list's page past its last
		out = append(out, calendar.KindNotFound)
	}
	if method != http.MethodGet {
		out = append(out, calendar.KindConflict)
	}
	if method == http.MethodDelete {
		out = append(out, calendar.KindGone)
	}
	if item && method != http.MethodGet {
		out = append(out, calendar.KindPreconditionFailed)
	}
	return out
}

// mayAnswer documents kinds of error a route answers beyond errorsOf.
func mayAnswer(extra ...calendar.Kind) fuego.RouteOption {
	return func(r *fuego.BaseRoute) {
		for _, k := range extra {
			documentError(r, k)
		}
	}
}

// documentErrors documents the errors of an operation, and for a read the
// 304 its conditional form answers.
func documentErrors(method string, item bool) fuego.RouteOption {
	return func(r *fuego.BaseRoute) {
		for _, k := range errorsOf(method, item) {
			documentError(r, k)
		}
		if method == http.MethodGet { // no body
			if r.Operation.Responses == nil {
				r.Operation.Responses = openapi3.NewResponses()
			}
			r.Operation.Responses.Set(strconv.Itoa(http.StatusNotModified), &openapi3.ResponseRef{Value: openapi3.NewResponse().
				WithDescription("Not modified since the ETag (If-None-Match) or the date (If-Modified-Since) sent")})
		}
	}
}

func documentError(r *fuego.BaseRoute, k calendar.Kind) {
	fuego.OptionAddResponse(kinds[k].status, kinds[k].doc, fuego.Response{Type: ErrorBody{}, ContentTypes: []string{"application/json"}})(r)
}
