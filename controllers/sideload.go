package controllers

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"time"

	"calendar/app"
)

const (
	sideloadAgent        = "calendar-sideload/1"
	sideloadMaxRedirects = 5
)

// NewSideloader returns the app.Fetcher the service uses when sideloading
// is on: the egress policy's, following a few redirects (each one's
// connection checked by the policy again).
func NewSideloader(timeout time.Duration, egress *Egress) app.Fetcher {
	return &sideloader{client: egress.client(timeout, sideloadMaxRedirects)}
}

// sideloader fetches over a client of the egress policy.
type sideloader struct{ client *http.Client }

func (s *sideloader) Fetch(ctx context.Context, rawURL string, maxBytes int64) ([]byte, error) {
	req, err := outboundGet(ctx, rawURL, sideloadAgent)
	if err != nil {
		return nil, err
	}
	res, err := s.client.Do(req)
	if err != nil {
		return nil, outboundError(err)
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, fmt.Errorf("%w: %s answered %s", app.ErrFetchFailed, res.Request.URL.Host, res.Status)
	}
	if res.ContentLength > maxBytes {
		return nil, fmt.Errorf("%w: %d bytes announced, %d allowed", app.ErrFetchTooLarge, res.ContentLength, maxBytes)
	}
	limit := maxBytes
	if limit < math.MaxInt64 {
		limit++ // one byte more tells a body over the limit
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, limit))
	if err != nil {
		return nil, outboundError(err)
	}
	if int64(len(body)) > maxBytes {
		return nil, fmt.Errorf("%w: more than %d bytes", app.ErrFetchTooLarge, maxBytes)
	}
	return body, nil
}

// outboundGet is a GET of rawURL as the service's own requests make it: an
// http or https URL with a host (else app.ErrFetchRefused), naming agent.
// The egress policy's client then checks where it connects.
func outboundGet(ctx context.Context, rawURL, agent string) (*http.Request, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", app.ErrFetchRefused, err)
	}
	if err := checkScheme(u); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", app.ErrFetchRefused, err)
	}
	req.Header.Set("User-Agent", agent)
	return req, nil
}

func checkScheme(u *url.URL) error {
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: %q is not an http or https URL", app.ErrFetchRefused, u.Redacted())
	}
	return nil
}
