package controllers

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultCacheMaxAge is how long shared caches may keep an anonymous read.
const DefaultCacheMaxAge = 60 * time.Second

// SendTimeout bounds the sending of an answer, from its first byte: the
// server's WriteTimeout (cmd/calendar), renewed when the answer is ready.
// The server starts that clock when it has read the request's headers, so
// a request that took longer to answer (a machine so loaded that writes
// waited a minute) had its work done, a write stored, and then its answer
// dropped with the connection: the client saw EOF, not knowing whether its
// write landed. The time to make an answer has bounds of its own (the
// search budget, the store's); this one is for a client that does not read.
const SendTimeout = 60 * time.Second

// answer holds a whole response until the handler is done, so that what
// depends on the complete body can be applied to it: the route's context,
// _fields, _embed, _envelope, _jsonp, the ETag and its 304, and HEAD. Bodies
// are bounded (pages of at most 50 items, MaxEmbedded answers embedded).
type answer struct {
	w      http.ResponseWriter
	r      *http.Request
	head   bool
	status int
	body   bytes.Buffer
	// listKey names the items of a list wrapper, which _fields filters one by one.
	listKey string
	// view keeps the fields of the context the request asked for (a term's
	// context=embed), before _fields.
	view     fieldTree
	fields   fieldTree
	embed    *embedRequest
	envelope bool
	// fetch answers the links _embed embeds, as the caller; nil for an
	// internal request's answer, which embeds nothing (as WordPress').
	fetch func(href string) ([]byte, bool)
	jsonp jsonp
	// apiLink is the Link header to the REST root, added last so that
	// _envelope leaves it outside, as WordPress sends it.
	apiLink string
	// revision is the stored revision of the one item the answer shows (0:
	// not one item); its entity tag carries it (conditional.go).
	revision int64
	// streamed: the handler wrote the body straight to the client (stream.go).
	streamed bool
}

// newAnswer reads the conventions a request asks for. HEAD is served as GET,
// as WordPress does, so both take exactly the same path through the checks.
func newAnswer(w http.ResponseWriter, r *http.Request) *answer {
	a := &answer{w: w, r: r}
	if r.Method == http.MethodHead {
		a.head = true
		r.Method = http.MethodGet
	}
	query := r.URL.Query()
	_, a.envelope = query["_envelope"]
	a.fields = parseFields(append(query["_fields"], query["_fields[]"]...))
	a.embed = parseEmbed(r.URL.RawQuery)
	a.jsonp = parseJSONP(query)
	return a
}

func (a *answer) Header() http.Header { return a.w.Header() }

func (a *answer) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
}

func (a *answer) Write(b []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return a.body.Write(b)
}

// passThrough hands the client's writer to a streamed answer, with the
// headers of the framework's own dropped as send drops them; send then
// leaves the answer alone.
func (a *answer) passThrough() http.ResponseWriter {
	a.streamed = true
	dropFrameworkHeaders(a.w.Header())
	a.addAPILink()
	return a.w
}

// dropFrameworkHeaders removes fuego's diagnostics: not part of the interface.
func dropFrameworkHeaders(h http.Header) {
	h.Del("X-Powered-By")
	h.Del("Server-Timing")
	h.Del("Trailer")
}

// addAPILink links the answer to the site index, as WordPress does before
// the route's own headers; a route's Link (a list's pages) replaces it there,
// since PHP's header() replaces a header sent before under the same name.
func (a *answer) addAPILink() {
	if a.apiLink != "" && a.w.Header().Get("Link") == "" {
		a.w.Header().Set("Link", a.apiLink)
	}
}

// reset forgets what was written, for an error that replaces the answer.
func (a *answer) reset() {
	a.status = 0
	a.body.Reset()
}

// send writes the answer out. Only successful reads get an ETag and may be
// cached; errors keep the headers they always had.
func (a *answer) send(maxAge time.Duration) {
	if a.streamed {
		return
	}
	status, body, h := a.status, a.body.Bytes(), a.w.Header()
	dropFrameworkHeaders(h)
	if status == 0 {
		status = http.StatusOK
	}
	ok := status >= 200 && status < 300
	head := a.head || a.r.Method == http.MethodHead
	read := (a.r.Method == http.MethodGet || head) && !isProbe(a.r.URL.Path)
	if ok {
		body = a.shape(body)
	}
	if read {
		h.Add("Vary", "Authorization, Accept")
		if ok && a.r.Header.Get("Authorization") == "" {
			h.Set("Cache-Control", publicCache(maxAge))
		}
	}
	if a.envelope {
		body, status = envelope(body, status, h), http.StatusOK
		h.Set("Content-Type", "application/json; charset=UTF-8")
	}
	a.addAPILink()
	if a.jsonp.callback != "" && len(bytes.TrimSpace(body)) > 0 && strings.HasPrefix(h.Get("Content-Type"), "application/json") {
		body = a.jsonp.wrap(body) // a JSON answer, the error's too, after _fields and _envelope
		h.Set("Content-Type", "application/javascript; charset=UTF-8")
	}
	if ok && a.revision != 0 {
		h.Set("ETag", itemETag(a.revision, body)) // writes too: the client's next If-Match
	}
	if read && ok {
		etag := strongETag(body)
		if a.revision != 0 {
			etag = itemETag(a.revision, body)
		}
		h.Set("ETag", etag)
		if notModified(a.r, etag, h.Get("Last-Modified")) {
			h.Del("Content-Type")
			a.sendWithin(SendTimeout)
			a.w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	a.sendWithin(SendTimeout)
	a.w.WriteHeader(status)
	if !head {
		_, _ = a.w.Write(body)
	}
}

// shape applies to a successful answer what its request asked of it, in
// WordPress' order: the route's context, then _fields (which keeps _links
// only when it names them, or names _embedded with _embed, as WordPress adds
// links to an answer only then), then _embed over the links that are left.
// HEAD is shaped too, so that its ETag is GET's.
func (a *answer) shape(body []byte) []byte {
	if a.view != nil {
		body = filterBody(body, a.view, "")
	}
	if a.fields != nil {
		body = filterBody(body, a.fields.withLinks(a.embed != nil), a.listKey)
	}
	if a.embed != nil && a.fetch != nil {
		body = embedLinks(body, a.embed, a.fetch)
	}
	return body
}

func publicCache(maxAge time.Duration) string {
	if maxAge < 0 {
		return "no-cache"
	}
	return "public, max-age=" + strconv.Itoa(int(maxAge/time.Second))
}

func strongETag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// notModified evaluates If-None-Match, or If-Modified-Since when no
// If-None-Match was sent (RFC 9110 13.2.2). Comparison is weak, as the RFC
// asks for If-None-Match, so a W/ prefix still matches.
func notModified(r *http.Request, etag, lastModified string) bool {
	if tags := r.Header.Values("If-None-Match"); len(tags) > 0 {
		for _, tag := range strings.Split(strings.Join(tags, ","), ",") {
			tag = strings.TrimSpace(tag)
			if tag == "*" || strings.TrimPrefix(tag, "W/") == etag {
				return true
			}
		}
		return false
	}
	since, err := http.ParseTime(r.Header.Get("If-Modified-Since"))
	if err != nil || lastModified == "" {
		return false
	}
	modified, err := http.ParseTime(lastModified)
	return err == nil && !modified.After(since)
}

// sendWithin gives the answer, now ready, d to reach the client (SendTimeout).
// A writer without a connection (a test's recorder, an internal request)
// has no deadline to move.
func (a *answer) sendWithin(d time.Duration) {
	_ = http.NewResponseController(a.w).SetWriteDeadline(time.Now().Add(d))
}
