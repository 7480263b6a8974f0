package controllers

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

const webhookAgent = "calendar-webhooks/1"

// NewWebhookSender is the app.WebhookSender of the service: deliveries
// under the egress policy, no redirect followed (a 3xx is a failure), each
// within timeout, the receiver's answer read up to
// calendar.MaxWebhookResponseBytes.
func NewWebhookSender(egress *Egress, timeout time.Duration) app.WebhookSender {
	return &webhookSender{egress: egress, client: egress.client(timeout, 0)}
}

type webhookSender struct {
	egress *Egress
	client *http.Client
}

func (s *webhookSender) Send(ctx context.Context, rawURL string, headers map[string]string, body []byte) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, bytes.NewReader(body))
	if err != nil {
		return 0, "", fmt.Errorf("%w: %v", app.ErrFetchRefused, err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("User-Agent", webhookAgent)
	res, err := s.client.Do(req)
	if err != nil {
		return 0, "", outboundError(err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, calendar.MaxWebhookResponseBytes))
	return res.StatusCode, string(answer), nil
}

// Check refuses a URL whose host is an address, or localhost, that the
// policy refuses; a name is resolved only when a delivery connects (and
// checked then).
func (s *webhookSender) Check(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return err
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		host = "127.0.0.1"
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return nil // a name: checked at each connection
	}
	if !s.egress.allow(netip.AddrPortFrom(a, 0)) {
		return fmt.Errorf("%s is not a public address", u.Hostname())
	}
	return nil
}
