package controllers

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"calendar/app"
)

const (
	importAgent        = "calendar-import/1"
	importMaxRedirects = 5
	// ImportTimeout bounds one fetch of a source, its redirects included.
	ImportTimeout = 30 * time.Second
)

// NewImportFetcher is the app.ImportFetcher of the service: the egress
// policy's client (every connection, each redirect's too, to a public
// address or an opened network), conditional (If-None-Match,
// If-Modified-Since), within its time and the run's bytes.
func NewImportFetcher(timeout time.Duration, egress *Egress) app.ImportFetcher {
	return &importFetcher{client: egress.client(timeout, importMaxRedirects)}
}

type importFetcher struct{ client *http.Client }

func (f *importFetcher) FetchSource(ctx context.Context, rawURL string, cond app.FetchConditions, maxBytes int64) (*app.Fetched, error) {
	req, err := outboundGet(ctx, rawURL, importAgent)
	if err != nil {
		return nil, err
	}
	if cond.Accept != "" {
		req.Header.Set("Accept", cond.Accept)
	}
	if cond.ETag != "" {
		req.Header.Set("If-None-Match", cond.ETag)
	}
	if cond.LastModified != "" {
		req.Header.Set("If-Modified-Since", cond.LastModified)
	}
	res, err := f.client.Do(req)
	if err != nil {
		return nil, outboundError(err)
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusNotModified {
		return &app.Fetched{NotModified: true}, nil
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, fmt.Errorf("%w: %s answered %s", app.ErrFetchFailed, res.Request.URL.Host, res.Status)
	}
	if res.ContentLength > maxBytes {
		return nil, fmt.Errorf("%w: %d bytes announced, %d allowed", app.ErrFetchTooLarge, res.ContentLength, maxBytes)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, maxBytes+1))
	if err != nil {
		return nil, outboundError(err)
	}
	if int64(len(body)) > maxBytes {
		return nil, fmt.Errorf("%w: more than %d bytes", app.ErrFetchTooLarge, maxBytes)
	}
	return &app.Fetched{Body: body, ETag: res.Header.Get("ETag"), LastModified: res.Header.Get("Last-Modified"),
		ContentType: res.Header.Get("Content-Type")}, nil
}
