package main

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestOutboundAllowedNetworksAreAListAndABadOneStopsStartUp(t *testing.T) {
	t.Parallel()
	c, err := loadConfig(nil, env(nil), io.Discard)
	if err != nil || len(c.OutboundAllowed) != 0 {
		t.Fatalf("by default %v, %v: public addresses only", c.OutboundAllowed, err)
	}
	c, err = loadConfig(nil, env(map[string]string{"CALENDAR_OUTBOUND_ALLOWED_NETWORKS": "127.0.0.0/8, 10.1.2.3"}), io.Discard)
	if err != nil || fmt.Sprint(c.OutboundAllowed) != "[127.0.0.0/8 10.1.2.3/32]" {
		t.Fatalf("networks %v, %v", c.OutboundAllowed, err)
	}
	_, err = loadConfig([]string{"-outbound-allowed-networks", "intranet"}, env(nil), io.Discard)
	if want := "-outbound-allowed-networks (CALENDAR_OUTBOUND_ALLOWED_NETWORKS): "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err %v, want it to start with %s", err, want)
	}
}

func TestTheWebhookRetryScheduleIsAListOfPauses(t *testing.T) {
	t.Parallel()
	c, err := loadConfig(nil, env(nil), io.Discard)
	if err != nil || fmt.Sprint(c.WebhookRetrySchedule) != "[5s 5m0s 30m0s 2h0m0s 5h0m0s 10h0m0s 10h0m0s]" {
		t.Fatalf("by default %v, %v", c.WebhookRetrySchedule, err)
	}
	c, err = loadConfig([]string{"-webhook-retry-schedule", "10ms, 1s"}, env(nil), io.Discard)
	if err != nil || fmt.Sprint(c.WebhookRetrySchedule) != "[10ms 1s]" {
		t.Fatalf("the flag: %v, %v", c.WebhookRetrySchedule, err)
	}
	for _, bad := range []string{"5s,,5m", "soon", "0s", "25h", strings.Repeat("1s,", 20) + "1s"} {
		_, err := loadConfig(nil, env(map[string]string{"CALENDAR_WEBHOOK_RETRY_SCHEDULE": bad}), io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), "CALENDAR_WEBHOOK_RETRY_SCHEDULE: ") {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}

func TestTheChangesRetentionIsDaysOrADuration(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{"": "2160h0m0s", "30d": "720h0m0s", "36h": "36h0m0s"} {
		c, err := loadConfig(nil, env(map[string]string{"CALENDAR_CHANGES_RETENTION": raw}), io.Discard)
		if err != nil || c.ChangesRetention.String() != want {
			t.Errorf("%q: %v, %v; want %s", raw, c.ChangesRetention, err, want)
		}
	}
	for _, bad := range []string{"soon", "0d", "30m", "4000d"} {
		if _, err := loadConfig(nil, env(map[string]string{"CALENDAR_CHANGES_RETENTION": bad}), io.Discard); err == nil || !strings.HasPrefix(err.Error(), "CALENDAR_CHANGES_RETENTION: ") {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}
