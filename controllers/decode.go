package controllers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"calendar/app/calendar"
)

// MaxBodyBytes is the largest request body the service reads, but for an
// upload to the media library, which may be as large as its limit, and a
// little more for a form's envelope and fields.
const MaxBodyBytes = 1 << 20

// uploadRoute is the route of uploads, once the request's path is the route
// it asks for (readdress: no language segment, no /wp-json).
var uploadRoute = regexp.MustCompile(`^/` + regexp.QuoteMeta(EventsNamespace) + `/media/?$`)

// bodyLimit is the largest body the request may send: an upload's limit for
// an upload (a POST to the upload route once its method is overridden), else
// MaxBodyBytes.
func (api *API) bodyLimit(r *http.Request) int64 {
	if api.isUpload(r) {
		return api.uploads.MaxUpload() + 64<<10
	}
	return MaxBodyBytes
}

// isUpload reports whether the request sends a file to the media library.
func (api *API) isUpload(r *http.Request) bool {
	return api.uploads != nil && r.Method == http.MethodPost && uploadRoute.MatchString(r.URL.Path)
}

// sourcesRoute are the routes of import sources, once the request's path is
// the route it asks for.
var sourcesRoute = regexp.MustCompile(`^/` + regexp.QuoteMeta(AdminNamespace) + `/imports(/.*)?$`)

// isSourceBody reports whether the request sends a body to the routes of
// import sources (a source's fields, and a csv source's file), read only
// from a caller who may import (bounded by MaxBodyBytes as any body).
func (api *API) isSourceBody(r *http.Request) bool {
	return api.sources != nil && hasBody(r) && sourcesRoute.MatchString(r.URL.Path)
}

// decodeValues merges the parameters of a request, first source wins: JSON body,
// form body (urlencoded with any charset, or multipart), query string; the
// path's values win over all of them (WordPress lets an id in the query or
// the body name another item than the path: DELETE /users/11?id=12 would
// delete user 12). A JSON null counts as absent, as in WordPress. A plain
// key repeated in a query string or a form is a list when args declare it an
// array (a=1&a=2, what OpenAPI's default style sends), else its last value.
func decodeValues(r *http.Request, path map[string]string, args []Arg) (Values, error) {
	lists := arrayNames(args)
	body, err := decodeBody(r, lists, textFileBytes(args))
	if err != nil {
		return nil, err
	}
	query, _ := url.ParseQuery(r.URL.RawQuery) // like PHP, keep what parses
	sources := []map[string]any{body, phpForm(query, lists)}
	values := Values{}
	for _, src := range sources {
		for k, v := range src {
			if v != nil && !values.Has(k) {
				values[k] = v
			}
		}
	}
	for k, v := range path {
		values[k] = v
	}
	return values, nil
}

// arrayNames are the parameters args declare as arrays.
func arrayNames(args []Arg) map[string]bool {
	names := map[string]bool{}
	for _, a := range args {
		if a.Type == TypeArray {
			names[a.Name] = true
		}
	}
	return names
}

// textFileBytes is the bound of a file a route takes as its text parameter
// "file" (a csv source's), 0 when it takes none: a form's file part is then
// that parameter, read up to its bound.
func textFileBytes(args []Arg) int64 {
	for _, a := range args {
		if a.Name == "file" && a.Type == TypeString && a.MaxBytes > 0 {
			return int64(a.MaxBytes)
		}
	}
	return 0
}

// decodeBody reads a JSON or form body; lists names the parameters a
// repeated form key sends as a list (phpForm); textFile, when above 0, is
// the bound of a form's file part read as the text parameter "file".
func decodeBody(r *http.Request, lists map[string]bool, textFile int64) (map[string]any, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	mediaType, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case mediaType == "application/json" || strings.HasSuffix(mediaType, "+json"):
		return decodeJSON(r.Body)
	case mediaType == "multipart/form-data":
		return decodeMultipart(r, params["boundary"], lists, textFile)
	case isWrite(r.Method) && dispositionName(r) != "":
		return decodeRawUpload(r)
	case (mediaType == "application/x-www-form-urlencoded" || mediaType == "") && isWrite(r.Method):
		raw, err := readAll(r.Body)
		if err != nil {
			return nil, err
		}
		form, _ := url.ParseQuery(string(raw))
		return phpForm(form, lists), nil
	}
	return nil, nil
}

func readAll(body io.Reader) ([]byte, error) {
	raw, err := io.ReadAll(body)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, errBodyTooLarge(tooLarge.Limit)
	case err != nil: // most often a body shorter than its Content-Length
		return nil, errUnreadableBody(err)
	}
	return raw, nil
}

// errUnreadableBody is the answer to a body that could not be read whole.
func errUnreadableBody(cause error) error {
	e := calendar.NewError(calendar.KindInvalid, "rest_invalid_body", "The request body could not be read whole (it may be shorter than its Content-Length).")
	e.Cause = cause
	return e
}

func decodeJSON(body io.Reader) (map[string]any, error) {
	raw, err := readAll(body)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, errInvalidJSON(err)
	}
	if dec.More() {
		return nil, errInvalidJSON(errors.New("data after the JSON value"))
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, errInvalidJSON(errors.New("the JSON body is not an object"))
	}
	return obj, nil
}

// decodeMultipart reads a form part by part, in memory: its fields (at
// most MaxBodyBytes together) and the first file sent as "file" (bounded
// by the request's own limit), which the upload route reads as an upload
// and a route taking its file as text (textFile above 0: its bound) as the
// text parameter "file"; other files are skipped unread. Nothing is
// written to disk, so nothing is left behind whatever the request turns
// out to be.
func decodeMultipart(r *http.Request, boundary string, lists map[string]bool, textFile int64) (map[string]any, error) {
	if boundary == "" {
		return nil, calendar.NewError(calendar.KindInvalid, "rest_invalid_body", "Invalid multipart body passed: no boundary.")
	}
	parts := multipart.NewReader(r.Body, boundary)
	values := map[string][]string{}
	var file *upload
	fieldBytes := int64(0)
	for {
		part, err := parts.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, multipartError(err)
		}
		name := part.FormName()
		switch {
		case part.FileName() != "" || name == "file":
			if name != "file" || file != nil {
				continue // not ours to read: NextPart skips it
			}
			data, err := readFilePart(part, textFile)
			if err != nil {
				return nil, err
			}
			file = &upload{name: part.FileName(), data: data}
		case name != "":
			raw, err := readAll(io.LimitReader(part, MaxBodyBytes-fieldBytes+1))
			if err != nil {
				return nil, err
			}
			if fieldBytes += int64(len(raw)); fieldBytes > MaxBodyBytes {
				return nil, errBodyTooLarge(MaxBodyBytes)
			}
			values[name] = append(values[name], string(raw))
		}
	}
	form := phpForm(values, lists)
	switch {
	case file != nil && textFile > 0:
		form["file"] = string(file.data)
	case file != nil:
		form["file"] = *file
	}
	return form, nil
}

// readFilePart reads a form's file part: up to bound bytes when above 0
// (413 past it, the rest unread), else as far as the request's own limit.
func readFilePart(part io.Reader, bound int64) ([]byte, error) {
	if bound <= 0 {
		return readAll(part)
	}
	data, err := readAll(io.LimitReader(part, bound+1))
	if err == nil && int64(len(data)) > bound {
		return nil, errFileTooLarge(bound)
	}
	return data, err
}

func multipartError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return errBodyTooLarge(tooLarge.Limit)
	}
	e := calendar.NewError(calendar.KindInvalid, "rest_invalid_body", "Invalid multipart body passed.")
	e.Cause = err
	return e
}

// upload is a file sent to the media library.
type upload struct {
	name string
	data []byte
}

// decodeRawUpload reads a file sent as the whole body, named by its
// Content-Disposition (WordPress' way for the media endpoint).
func decodeRawUpload(r *http.Request) (map[string]any, error) {
	data, err := readAll(r.Body)
	if err != nil {
		return nil, err
	}
	return map[string]any{"file": upload{name: dispositionName(r), data: data}}, nil
}

func dispositionName(r *http.Request) string {
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Disposition"))
	if err != nil {
		return ""
	}
	return params["filename"]
}

// isUnnamedRawBody: a body that is neither JSON nor a form, without the
// Content-Disposition that names an upload.
func isUnnamedRawBody(r *http.Request) bool {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case r.ContentLength == 0, mediaType == "", mediaType == "application/x-www-form-urlencoded", mediaType == "multipart/form-data",
		mediaType == "application/json", strings.HasSuffix(mediaType, "+json"):
		return false
	}
	return dispositionName(r) == ""
}

// phpForm reads form keys the way PHP does: a[]=1&a[]=2 is a list, a[k]=v and
// a[k][j]=v are nested objects, a repeated plain key keeps its last value;
// but a plain key that lists names is read as a[]: a=1&a=2 is the list
// [1, 2] (a single a=1,2 stays a string, which the array reader splits).
// The lists are bounded where they are checked (calendar.MaxListItems).
func phpForm(form map[string][]string, lists map[string]bool) map[string]any {
	out := map[string]any{}
	for key, vals := range form {
		if len(vals) == 0 {
			continue
		}
		name, path := splitBrackets(key)
		if name == "" {
			continue
		}
		if len(path) == 0 && lists[name] && len(vals) > 1 {
			path = []string{""}
		}
		if len(path) == 0 {
			out[name] = vals[len(vals)-1]
			continue
		}
		for _, v := range vals {
			setPath(out, name, path, v)
		}
	}
	return out
}

// splitBrackets splits "a[b][]" into "a" and ["b", ""].
func splitBrackets(key string) (string, []string) {
	open := strings.IndexByte(key, '[')
	if open <= 0 || !strings.HasSuffix(key, "]") {
		return key, nil
	}
	name, rest := key[:open], key[open:]
	var path []string
	for len(rest) > 0 {
		if rest[0] != '[' {
			return key, nil
		}
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return key, nil
		}
		path = append(path, rest[1:end])
		rest = rest[end+1:]
	}
	return name, path
}

// setPath stores value at container[name][path...]; an empty segment appends.
func setPath(container map[string]any, name string, path []string, value string) {
	seg := path[0]
	if len(path) == 1 {
		if seg == "" {
			list, _ := container[name].([]any)
			container[name] = append(list, value)
			return
		}
		child, ok := container[name].(map[string]any)
		if !ok {
			child = map[string]any{}
			container[name] = child
		}
		child[seg] = value
		return
	}
	if seg == "" { // a[][k]=v: each value starts a new object in the list
		list, _ := container[name].([]any)
		item := map[string]any{}
		setPath(item, "x", path[1:], value)
		container[name] = append(list, item["x"])
		return
	}
	child, ok := container[name].(map[string]any)
	if !ok {
		child = map[string]any{}
		container[name] = child
	}
	setPath(child, seg, path[1:], value)
}

// isWrite reports whether WordPress reads a form body for the method.
func isWrite(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// overrideMethod turns a POST into the method named by ?_method, else by the
// X-HTTP-Method-Override header, as WordPress reads them, for clients that
// can only send GET and POST; it reads nothing of the body. Only from POST,
// so that no link can delete. It reports whether one of them named a method.
func overrideMethod(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	method := r.URL.Query().Get("_method")
	if method == "" {
		method = r.Header.Get("X-HTTP-Method-Override")
	}
	return setMethod(r, method)
}

// overrideMethodFromBody turns a POST into the method a _method field of its
// JSON or urlencoded body names (beyond WordPress, for forms that cannot set
// a query). It is called once the caller is known, on a route whose body is
// read anyway and bounded by MaxBodyBytes: never on the upload route, whose
// body is read only from a caller who may upload.
func overrideMethodFromBody(r *http.Request) {
	if r.Method == http.MethodPost {
		setMethod(r, bodyMethod(r))
	}
}

func setMethod(r *http.Request, method string) bool {
	method = strings.ToUpper(strings.TrimSpace(method))
	if !methodToken.MatchString(method) {
		return false
	}
	r.Method = method
	return true
}

var methodToken = regexp.MustCompile(`^[A-Z]{1,16}$`)

// bodyMethod reads _method from a JSON or urlencoded body with the one
// decoder, then puts the body back for the handler (with the read error,
// such as a body too large). Other bodies (forms with files, uploads) are
// not read here.
func bodyMethod(r *http.Request) string {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	json := mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")
	if r.Body == nil || r.Body == http.NoBody || !json && mediaType != "application/x-www-form-urlencoded" && mediaType != "" ||
		dispositionName(r) != "" {
		return ""
	}
	raw, err := io.ReadAll(r.Body)
	replay := func() io.ReadCloser {
		return io.NopCloser(io.MultiReader(bytes.NewReader(raw), errorReader{err}))
	}
	r.Body = replay()
	if err != nil || !bytes.Contains(raw, []byte("_method")) { // most bodies name no method: decoded once, by the handler
		return ""
	}
	peek := r.Clone(r.Context())
	peek.Body = replay()
	fields, _ := decodeBody(peek, nil, 0)
	method, _ := fields["_method"].(string)
	r.Body = replay()
	return method
}

// errorReader ends a replayed body with the error reading it ended with.
type errorReader struct{ err error }

func (e errorReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}
