package app

import (
	"context"
	"errors"
)

// Fetcher downloads a remote image once, for sideloading an image URL into the
// media library. Implementations refuse addresses that are not public
// (private, loopback, link-local...), every redirect's included, and stop at
// maxBytes and at their time limit.
type Fetcher interface {
	Fetch(ctx context.Context, rawURL string, maxBytes int64) ([]byte, error)
}

// Why a request to another site failed (a fetch to sideload, a webhook
// delivery), as errors.Is tells them apart.
var (
	ErrFetchRefused  = errors.New("the egress policy refuses the address (public addresses only, and the networks the operator opened)")
	ErrFetchTooLarge = errors.New("the file is larger than the upload limit")
	ErrFetchFailed   = errors.New("the request failed")
)
