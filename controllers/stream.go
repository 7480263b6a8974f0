package controllers

import (
	"context"
	"io"
	"net/http"
	"time"
)

// streamBody is an answer too large to hold (a backup): written to the
// client as it is made, past the answer's buffer, so none of what needs the
// whole body applies to it (_fields, _envelope, the ETag and its 304); HEAD
// gets the headers alone, without the body being made.
type streamBody struct {
	contentType string
	// fileName, when set, makes the answer a download under that name.
	fileName string
	write    func(ctx context.Context, w io.Writer) error
}

// streamStall bounds how long one write of a streamed answer may wait for
// the client. The server's WriteTimeout bounds a whole answer, which a
// large archive may outlast: each write moves the deadline instead.
const streamStall = time.Minute

// stream sends s. An error before its first byte is returned, to be
// answered as any other; after it, the status is sent already, so the
// connection is cut (the client sees a broken transfer, not a whole-looking
// file) and the error logged.
func (api *API) stream(a *answer, r *http.Request, s streamBody) error {
	out := &streamWriter{rc: http.NewResponseController(a.w), begin: func() http.ResponseWriter {
		w := a.passThrough()
		w.Header().Set("Content-Type", s.contentType)
		if s.fileName != "" {
			w.Header().Set("Content-Disposition", `attachment; filename="`+s.fileName+`"`)
		}
		w.WriteHeader(http.StatusOK)
		return w
	}}
	if a.head {
		out.begin()
		return nil
	}
	err := s.write(r.Context(), out)
	if err != nil && out.w == nil {
		return err
	}
	if err != nil {
		log := api.logger(r).Error
		if r.Context().Err() != nil { // the client went away
			log = api.logger(r).Warn
		}
		log("a streamed answer failed: connection cut", "method", r.Method, "path", r.URL.Path, "error", err)
		panic(http.ErrAbortHandler)
	}
	if out.w == nil { // an empty body
		out.begin()
	}
	return nil
}

// streamWriter sends the headers with the first write, and gives each
// write streamStall to reach the client.
type streamWriter struct {
	w     http.ResponseWriter
	rc    *http.ResponseController
	begin func() http.ResponseWriter
}

func (s *streamWriter) Write(p []byte) (int, error) {
	if s.w == nil {
		s.w = s.begin()
	}
	_ = s.rc.SetWriteDeadline(time.Now().Add(streamStall)) // a writer without deadlines keeps none
	return s.w.Write(p)
}
