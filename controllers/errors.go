package controllers

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/go-fuego/fuego"

	"calendar/app/calendar"
)

// kindStatus is the HTTP status of each kind of app error.
var kindStatus = map[calendar.Kind]int{
	calendar.KindInternal:           http.StatusInternalServerError,
	calendar.KindInvalid:            http.StatusBadRequest,
	calendar.KindUnauthorized:       http.StatusUnauthorized,
	calendar.KindForbidden:          http.StatusForbidden,
	calendar.KindNotFound:           http.StatusNotFound,
	calendar.KindConflict:           http.StatusConflict,
	calendar.KindGone:               http.StatusGone,
	calendar.KindTooLarge:           http.StatusRequestEntityTooLarge,
	calendar.KindThrottled:          http.StatusTooManyRequests,
	calendar.KindUnavailable:        http.StatusServiceUnavailable,
	calendar.KindNotImplemented:     http.StatusNotImplemented,
	calendar.KindPreconditionFailed: http.StatusPreconditionFailed,
}

// statusOf is the HTTP status an error answers with.
func statusOf(e *calendar.Error) int {
	if status, ok := kindStatus[e.Kind]; ok {
		return status
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

func errorResponses() []fuego.RouteOption {
	var opts []fuego.RouteOption
	for code, text := range map[int]string{
		http.StatusBadRequest:            "Invalid or missing parameters, malformed body",
		http.StatusUnauthorized:          "Missing or wrong credentials",
		http.StatusForbidden:             "Signed in but not allowed",
		http.StatusNotFound:              "No such route",
		http.StatusRequestEntityTooLarge: "Body over 1 MiB",
		http.StatusTooManyRequests:       "Too many attempts: wrong passwords from this address, or on this post from all; see Retry-After",
		http.StatusInternalServerError:   "Unexpected failure",
	} {
		opts = append(opts, fuego.OptionAddResponse(code, text, fuego.Response{Type: ErrorBody{}, ContentTypes: []string{"application/json"}}))
	}
	return opts
}
