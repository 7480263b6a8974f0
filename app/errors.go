package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Error is the one error type of the service. It carries the WordPress REST error
// shape: a machine code, a human message, the HTTP status and optional extra data
// (params, details, term_id...) that clients read under "data".
type Error struct {
	Code    string
	Message string
	Status  int
	Data    map[string]any
	// Cause is kept for logs only; it never reaches a client.
	Cause error
	// RetryAfter, when set, is sent as the Retry-After header.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s (%v)", e.Code, e.Message, e.Cause)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Cause }

// StatusCode lets the HTTP framework read the status without knowing our type.
func (e *Error) StatusCode() int { return e.Status }

// MarshalJSON writes {"code","message","data":{"status",...}}.
func (e *Error) MarshalJSON() ([]byte, error) {
	data := make(map[string]any, len(e.Data)+1)
	for k, v := range e.Data {
		data[k] = v
	}
	data["status"] = e.Status
	return json.Marshal(struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	}{e.Code, e.Message, data})
}

// NewError builds an error with the given status, code and message.
func NewError(status int, code, message string) *Error {
	return &Error{Code: code, Message: message, Status: status}
}

// With returns a copy of the error carrying one more data key.
func (e *Error) With(key string, value any) *Error {
	c := *e
	c.Data = make(map[string]any, len(e.Data)+1)
	for k, v := range e.Data {
		c.Data[k] = v
	}
	c.Data[key] = value
	return &c
}

// AsError turns any error into an *Error; unknown errors become a 500 that hides
// the cause from the client.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, ErrConflict) { // another writer took a unique value meanwhile
		return &Error{Code: "rest_conflict", Message: "Another request changed the same item meanwhile; try again.", Status: http.StatusConflict, Cause: err}
	}
	if errors.Is(err, ErrUnavailable) {
		return &Error{Code: "store_unavailable", Message: "The data store is not reachable; try again shortly.", Status: http.StatusServiceUnavailable, Cause: err}
	}
	return &Error{Code: "internal_error", Message: "The server could not complete the request.", Status: http.StatusInternalServerError, Cause: err}
}

// Storage outcomes the backends report; app turns them into client errors.
var (
	ErrNotFound    = errors.New("not found")
	ErrConflict    = errors.New("unique key already taken")
	ErrUnavailable = errors.New("store unavailable")
)

// ErrNoRoute is WordPress' answer to an unknown path or method.
func ErrNoRoute() *Error {
	return NewError(http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.")
}

// ErrForbidden is WordPress' permission failure: 401 for anonymous callers, 403 otherwise.
func ErrForbidden(actor *User) *Error {
	status := http.StatusForbidden
	if actor == nil {
		status = http.StatusUnauthorized
	}
	return NewError(status, "rest_forbidden", "Sorry, you are not allowed to do that.")
}

// ErrIncorrectPassword is the answer to a malformed or wrong credential, on any route.
func ErrIncorrectPassword() *Error {
	return NewError(http.StatusUnauthorized, "incorrect_password", "The provided password is an invalid application password.")
}

// ErrInvalidJSON is the answer to a JSON body that does not parse.
func ErrInvalidJSON(cause error) *Error {
	return NewError(http.StatusBadRequest, "rest_invalid_json", "Invalid JSON body passed.").
		With("json_error_code", 4).With("json_error_message", "Syntax error").
		withCause(cause)
}

// ErrBodyTooLarge is the answer to a body over the size limit.
func ErrBodyTooLarge(limit int64) *Error {
	return NewError(http.StatusRequestEntityTooLarge, "rest_body_too_large",
		fmt.Sprintf("The request body is larger than the limit of %d bytes.", limit))
}

// ErrMissingParams lists required parameters that were not sent.
func ErrMissingParams(names []string) *Error {
	return NewError(http.StatusBadRequest, "rest_missing_callback_param",
		"Missing parameter(s): "+strings.Join(names, ", ")).With("params", names)
}

// InvalidParams collects per-parameter failures into one rest_invalid_param error,
// in the order they were found.
type InvalidParams struct {
	names   []string
	reasons map[string]string
	details map[string]any
}

// Add records that a parameter is invalid; detail may be nil.
func (p *InvalidParams) Add(name, reason string, detail any) {
	if p.reasons == nil {
		p.reasons = map[string]string{}
		p.details = map[string]any{}
	}
	if _, seen := p.reasons[name]; !seen {
		p.names = append(p.names, name)
	}
	p.reasons[name] = reason
	if detail != nil {
		p.details[name] = detail
	}
}

// Err returns the collected error, or nil when nothing was added.
func (p *InvalidParams) Err() error {
	if len(p.names) == 0 {
		return nil
	}
	var details any = p.details
	if len(p.details) == 0 {
		details = []any{} // WordPress sends an empty array here
	}
	return NewError(http.StatusBadRequest, "rest_invalid_param",
		"Invalid parameter(s): "+strings.Join(p.names, ", ")).
		With("params", p.reasons).With("details", details)
}

// ErrInvalidParam is a rest_invalid_param error about one parameter.
func ErrInvalidParam(name, reason string) error {
	var p InvalidParams
	p.Add(name, reason, nil)
	return p.Err()
}

func (e *Error) withCause(cause error) *Error {
	e.Cause = cause
	return e
}
