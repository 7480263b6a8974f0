package controllers

import (
	"net/netip"
	"time"

	"calendar/app"
)

// NewSideloaderAllowing is the sideloader with another address rule, so tests
// can fetch from servers on the loopback interface.
func NewSideloaderAllowing(timeout time.Duration, allow func(netip.AddrPort) bool) app.Fetcher {
	return newSideloader(timeout, allow)
}
