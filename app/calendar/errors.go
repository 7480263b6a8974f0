package calendar

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Kind is what went wrong, as the domain says it; the HTTP layer gives each
// kind its status.
type Kind int

const (
	KindInternal           Kind = iota // a bug or a failure of the service itself
	KindInvalid                        // a parameter, or the request, is wrong
	KindUnauthorized                   // no caller, or a wrong credential
	KindForbidden                      // the caller may not
	KindNotFound                       // no such thing
	KindConflict                       // another write changed the same thing meanwhile
	KindGone                           // already gone (in the trash)
	KindTooLarge                       // more than the service takes
	KindThrottled                      // too many attempts: wait
	KindUnavailable                    // not now: the store, the index, a search's time budget
	KindNotImplemented                 // asks for what this kind of item does not do
	KindPreconditionFailed             // a conditional write names a version the item is no longer at
)

// Error is the one error type of the service. It carries the WordPress REST error
// shape: a machine code, a human message, its kind, and optional extra data
// (params, details, term_id...) that clients read under "data".
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Data    map[string]any
	// Cause is kept for logs only; it never reaches a client.
	Cause error
	// RetryAfter, when set, is how long the caller should wait before trying again.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s (%v)", e.Code, e.Message, e.Cause)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Cause }

// NewError builds an error of the kind with its code and message.
func NewError(kind Kind, code, message string) *Error {
	return &Error{Kind: kind, Code: code, Message: message}
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
	if errors.Is(err, ErrConflict) || errors.Is(err, ErrStale) { // another writer took a unique value, or kept changing the item
		return &Error{Kind: KindConflict, Code: "rest_conflict", Message: "Another request changed the same item meanwhile; try again.", Cause: err}
	}
	if errors.Is(err, ErrNotFound) { // a record deleted by another request while this one wrote it: its retry gets the item's own answer
		return &Error{Kind: KindConflict, Code: "rest_conflict", Message: "Another request deleted the same item meanwhile; try again.", Cause: err}
	}
	if errors.Is(err, ErrUnavailable) {
		return &Error{Kind: KindUnavailable, Code: "store_unavailable", Message: "The data store is not reachable; try again shortly.", Cause: err,
			RetryAfter: 5 * time.Second} // a restarted server or an election takes seconds
	}
	return &Error{Kind: KindInternal, Code: "internal_error", Message: "The server could not complete the request.", Cause: err}
}

// Storage outcomes the backends report; app turns them into client errors.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("unique key already taken")
	// ErrStale: a compare-and-swap found the record at another revision than
	// the one its writer read.
	ErrStale       = errors.New("the record changed since it was read")
	ErrUnavailable = errors.New("store unavailable")
)

// ErrForbidden is WordPress' permission failure: 401 for anonymous callers, 403 otherwise.
func ErrForbidden(actor *User) *Error {
	kind := KindForbidden
	if actor == nil {
		kind = KindUnauthorized
	}
	return NewError(kind, "rest_forbidden", "Sorry, you are not allowed to do that.")
}

// ForbiddenAs is ErrForbidden under the code and message of one endpoint.
func ForbiddenAs(actor *User, code, message string) *Error {
	e := ErrForbidden(actor)
	e.Code, e.Message = code, message
	return e
}

// ErrNotLoggedIn is the answer to an anonymous caller on a route that is only
// for signed-in ones (WordPress' users/me).
func ErrNotLoggedIn() *Error {
	return NewError(KindUnauthorized, "rest_not_logged_in", "You are not currently logged in.")
}

// ErrIncorrectPassword is the answer to a malformed or wrong credential, on any route.
func ErrIncorrectPassword() *Error {
	return NewError(KindUnauthorized, "incorrect_password", "The provided password is an invalid application password.")
}

// ErrMissingParams lists required parameters that were not sent.
func ErrMissingParams(names []string) *Error {
	return NewError(KindInvalid, "rest_missing_callback_param",
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
	return NewError(KindInvalid, "rest_invalid_param",
		"Invalid parameter(s): "+strings.Join(p.names, ", ")).
		With("params", p.reasons).With("details", details)
}

// ErrSearchTooBroad is the answer to an event search whose words are parts
// of more indexed words than it may read (MaxSearchTerms), fragment the one
// it ran out at: longer words are parts of fewer.
func ErrSearchTooBroad(fragment string) error {
	return ErrInvalidParam("search", fmt.Sprintf("The search's words are parts of more indexed words than one search may read (%d; it ran out at %q): search with longer or fewer words.", MaxSearchTerms, fragment))
}

// ErrTooBroad is the cause of ErrFacetSearchTooBroad, for errors.Is: a caller
// that searches several facets at once (suggestions) leaves out the one
// whose search was refused.
var ErrTooBroad = errors.New("more values may match than one search reads")

// ErrFacetSearchTooBroad refuses a facet search (q) that would read more
// than MaxSearchTerms words and values to find its matches.
func ErrFacetSearchTooBroad(typed string) error {
	err := ErrInvalidParam("q", fmt.Sprintf("More of the facet's values may match %q than one search reads (%d words and values): type more letters.", typed, MaxSearchTerms)).(*Error)
	err.Cause = ErrTooBroad
	return err
}

// ErrInvalidParam is a rest_invalid_param error about one parameter.
func ErrInvalidParam(name, reason string) error {
	var p InvalidParams
	p.Add(name, reason, nil)
	return p.Err()
}
