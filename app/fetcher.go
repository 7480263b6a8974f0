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

// Why a fetch failed, as errors.Is tells them apart.
var (
	ErrFetchRefused  = errors.New("the address is not a public one")
	ErrFetchTooLarge = errors.New("the file is larger than the upload limit")
	ErrFetchFailed   = errors.New("the file could not be fetched")
)
