package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// WebhookSender posts a delivery (the HTTP layer implements it, under the
// egress policy: controllers.NewWebhookSender).
type WebhookSender interface {
	// Send POSTs body with headers to url, follows no redirect, reads at
	// most calendar.MaxWebhookResponseBytes of the answer and gives up at
	// ctx's end. It answers the status and the start of the answer's body;
	// an error when none came (one wrapping ErrFetchRefused when the policy
	// refused the destination).
	Send(ctx context.Context, url string, headers map[string]string, body []byte) (status int, answer string, err error)
	// Check refuses a URL the policy would never reach (its host an address
	// the policy refuses), so a subscription can be refused when made.
	Check(url string) error
}

// signature is the webhook-signature header of Standard Webhooks: a
// "v1,<base64 HMAC-SHA256 of id.timestamp.body>" for each key, space-separated
// (a receiver may hold either key during a rotation).
func signature(keys []string, id string, at time.Time, body []byte) string {
	var parts []string
	for _, k := range keys {
		secret, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(k, "whsec_"))
		if err != nil {
			continue // never: the service makes its secrets
		}
		mac := hmac.New(sha256.New, secret)
		mac.Write([]byte(id + "." + strconv.FormatInt(at.Unix(), 10) + "."))
		mac.Write(body)
		parts = append(parts, "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	return strings.Join(parts, " ")
}

// signedHeaders are the headers of one delivery.
func signedHeaders(keys []string, id string, at time.Time, body []byte) map[string]string {
	return map[string]string{
		"webhook-id":        id,
		"webhook-timestamp": strconv.FormatInt(at.Unix(), 10),
		"webhook-signature": signature(keys, id, at, body),
		"Content-Type":      "application/json",
	}
}
