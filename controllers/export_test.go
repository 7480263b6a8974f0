package controllers

import (
	"net/http"
	"net/netip"
	"time"

	"calendar/app"
)

// NewSideloaderAllowing is the sideloader with another address rule, so tests
// can fetch from servers on the loopback interface.
func NewSideloaderAllowing(timeout time.Duration, allow func(netip.AddrPort) bool) app.Fetcher {
	return newSideloader(timeout, allow)
}

// TermService and Accounts are the narrow interfaces the term routes and
// credentials use, for tests that mount the term routes on them alone.
type (
	TermService = termService
	Accounts    = accounts
)

// NewTermsAlone is the HTTP layer with one taxonomy's routes (plural:
// "categories" or "tags") over svc and nothing else: the small world of the
// term routes' HTTP tests.
func NewTermsAlone(cfg Config, users Accounts, plural string, svc TermService) http.Handler {
	api := newAPI(cfg, users)
	api.mountRoot(EventsNamespace)
	mountTerms(api, plural, svc, CategoryList{})
	api.documented()
	return api
}
