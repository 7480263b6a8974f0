package controllers

import (
	"net/http"
	"strings"
)

// What a page on another origin may send and read, as WordPress has it, and
// what its conventions need beyond WordPress: conditional writes and reads
// (If-Match against lost updates, If-None-Match, If-Unmodified-Since,
// If-Modified-Since), a request ID to follow in the logs, the method
// override header; and every header of an answer that a client reads
// (totals under both names, the change feed's last sequence, page links,
// ETags, Retry-After of a 429 or a 503, the request ID, a created item's
// Location, the methods an item allows).
var (
	corsRequestHeaders = strings.Join([]string{
		"Authorization", "X-WP-Nonce", "Content-Disposition", "Content-MD5", "Content-Type",
		"If-Match", "If-None-Match", "If-Unmodified-Since", "If-Modified-Since",
		"X-Request-ID", "X-HTTP-Method-Override",
	}, ", ")
	corsExposedHeaders = strings.Join([]string{
		"X-WP-Total", "X-WP-TotalPages", "X-TEC-Total", "X-TEC-TotalPages", "X-Calendar-Last-Seq",
		"Link", "ETag", "Last-Modified", "Retry-After", "X-Request-ID", "Location", "Content-Disposition",
	}, ", ")
)

// setCORSHeaders lets pages of the allowed origins call the API with
// credentials: WordPress echoes any Origin; CORSOrigins narrows them.
func (api *API) setCORSHeaders(h http.Header, r *http.Request) {
	h.Set("Access-Control-Expose-Headers", corsExposedHeaders)
	h.Set("Access-Control-Allow-Headers", corsRequestHeaders)
	origin := r.Header.Get("Origin")
	if origin == "" {
		return
	}
	h.Add("Vary", "Origin")
	if api.allowsOrigin(origin) {
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Methods", "OPTIONS, GET, POST, PUT, PATCH, DELETE")
		h.Set("Access-Control-Allow-Credentials", "true")
	}
}

// allowsOrigin: every origin, as WordPress, unless CORSOrigins lists some.
func (api *API) allowsOrigin(origin string) bool {
	if len(api.cfg.CORSOrigins) == 0 {
		return true
	}
	for _, allowed := range api.cfg.CORSOrigins {
		if strings.EqualFold(strings.TrimSuffix(allowed, "/"), origin) {
			return true
		}
	}
	return false
}
