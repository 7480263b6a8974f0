package controllers

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"

	"calendar/app"
)

// Conditional writes. The entity tag of an item is "<revision>-<hash>": the
// revision of the stored item (its change sequence), then a hash of the
// answer. If-None-Match on a read compares the whole tag, so an answer
// that changes (the venue inside an event renamed) is sent again;
// If-Match on a write names the revision only, so a write goes through
// exactly when the item itself is still as the client read it, whatever
// the answer embeds or whichever _fields it asked for. A weak tag (a proxy
// compressing answers weakens them) names its revision as well.

// revisioned is an answer that shows one stored item.
type revisioned interface{ Revision() int64 }

// itemETag is the entity tag of an answer that shows one item.
func itemETag(revision int64, body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + strconv.FormatInt(revision, 10) + "-" + hex.EncodeToString(sum[:8]) + `"`
}

// precondition reads If-Match (and, without it, If-Unmodified-Since) of a
// write to one item. Tags that are not ours match no revision; "*" matches
// any (the item exists, or the write answers 404 first); a date that is not
// an HTTP date is ignored, as RFC 9110 asks.
func precondition(r *http.Request) app.Precondition {
	var c app.Precondition
	if tags := r.Header.Values("If-Match"); len(tags) > 0 {
		c.Revisions = []int64{}
		for _, tag := range strings.Split(strings.Join(tags, ","), ",") {
			tag = strings.TrimSpace(tag)
			if tag == "*" {
				return app.Precondition{}
			}
			tag = strings.Trim(strings.TrimPrefix(tag, "W/"), `"`)
			revision, _, _ := strings.Cut(tag, "-")
			if n, err := strconv.ParseInt(revision, 10, 64); err == nil && n > 0 {
				c.Revisions = append(c.Revisions, n)
			}
		}
		return c
	}
	if since, err := http.ParseTime(r.Header.Get("If-Unmodified-Since")); err == nil {
		c.UnmodifiedSince = since
	}
	return c
}
