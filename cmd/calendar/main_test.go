package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"calendar/repository/bolt"
	"calendar/repository/ferretdbtest"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	c, err := loadConfig(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || c.SiteURL != "http://127.0.0.1:8080" || c.DataDir != "./data" ||
		c.MongoURI != "" || c.MongoDB != "calendar" || c.TimeZone.String() != "UTC" || c.PerPage != 10 ||
		c.LogFormat != "json" || c.MetricsToken != "" || len(c.TrustedProxies) != 0 {
		t.Fatalf("defaults = %+v", c)
	}
}

func TestCORSOriginsAreAList(t *testing.T) {
	t.Parallel()
	c, err := loadConfig(nil, env(map[string]string{"CALENDAR_CORS_ORIGINS": "https://a.example, http://b.example:8080/"}), io.Discard)
	if err != nil || strings.Join(c.CORSOrigins, " ") != "https://a.example http://b.example:8080" {
		t.Fatalf("origins %q, %v", c.CORSOrigins, err)
	}
}

func TestTrustedProxiesAreAListOfAddressesAndNetworks(t *testing.T) {
	t.Parallel()
	c, err := loadConfig(nil, env(map[string]string{"CALENDAR_TRUSTED_PROXIES": " 10.0.0.1, 172.16.0.0/12 ,fd00::/8,"}), io.Discard)
	if err != nil || fmt.Sprint(c.TrustedProxies) != "[10.0.0.1/32 172.16.0.0/12 fd00::/8]" {
		t.Fatalf("proxies %v, %v", c.TrustedProxies, err)
	}
	c, err = loadConfig([]string{"-trusted-proxies", "2001:db8::1"}, env(map[string]string{"CALENDAR_TRUSTED_PROXIES": "10.0.0.1"}), io.Discard)
	if err != nil || fmt.Sprint(c.TrustedProxies) != "[2001:db8::1/128]" {
		t.Fatalf("the flag: proxies %v, %v", c.TrustedProxies, err)
	}
}

func TestABadTrustedProxyStopsStartUpNamingItAndTheEntry(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"proxy.example", "10.0.0.0/33", "10.0.0.1:8080", "fe80::1%eth0"} {
		_, err := loadConfig(nil, env(map[string]string{"CALENDAR_TRUSTED_PROXIES": "10.0.0.1, " + bad}), io.Discard)
		want := fmt.Sprintf("CALENDAR_TRUSTED_PROXIES: want addresses or CIDR networks (10.0.0.1, 10.0.0.0/8, fd00::/8), got %q", bad)
		if err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %s", bad, err, want)
		}
		_, err = loadConfig([]string{"-trusted-proxies", bad}, env(nil), io.Discard)
		if want := "-trusted-proxies (CALENDAR_TRUSTED_PROXIES): "; err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), bad) {
			t.Errorf("-trusted-proxies %s: err = %v, want it to start with %s and name the entry", bad, err, want)
		}
	}
}

func TestAFlagWinsOverTheEnvironment(t *testing.T) {
	t.Parallel()
	c, err := loadConfig([]string{"-per-page", "20", "-site-url", "https://cal.example/"},
		env(map[string]string{"CALENDAR_PER_PAGE": "30", "CALENDAR_TIMEZONE": "Europe/Paris"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.PerPage != 20 || c.SiteURL != "https://cal.example" || c.TimeZone.String() != "Europe/Paris" {
		t.Fatalf("config = %+v", c)
	}
}

func TestTheLanguagesAreThoseTheIndexCanStemInEachOnce(t *testing.T) {
	t.Parallel()
	c, err := loadConfig([]string{"-languages", " FR, de "}, env(nil), io.Discard)
	if err != nil || strings.Join(c.Languages, ",") != "fr,de" {
		t.Fatalf("languages %v, err %v", c.Languages, err)
	}
	for _, bad := range []string{"fr,fr", "french", "pl"} {
		if _, err := loadConfig(nil, env(map[string]string{"CALENDAR_LANGUAGES": bad}), io.Discard); err == nil || !strings.HasPrefix(err.Error(), "CALENDAR_LANGUAGES: ") {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
}

func TestABadSettingStopsStartUpNamingIt(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"CALENDAR_ADDR":           "8080",
		"CALENDAR_SITE_URL":       "ftp://x",
		"CALENDAR_MONGODB_URI":    "postgres://x",
		"CALENDAR_MONGODB_DB":     "a.b",
		"CALENDAR_TIMEZONE":       "Mars/Olympus",
		"CALENDAR_PER_PAGE":       "51",
		"CALENDAR_ADMIN_PASSWORD": "short",
		"CALENDAR_LOG_FORMAT":     "xml",
		"CALENDAR_METRICS_TOKEN":  "short",
		"CALENDAR_CORS_ORIGINS":   "https://ok.example, front.example",
		"CALENDAR_LANGUAGES":      "fr,tlh",
	}
	for name, value := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := loadConfig(nil, env(map[string]string{name: value}), io.Discard)
			if err == nil || !strings.HasPrefix(err.Error(), name+":") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line starting with %s:", err, name)
			}
		})
	}
	if _, err := loadConfig([]string{"-per-page", "abc"}, env(nil), io.Discard); err == nil {
		t.Fatal("a bad flag value was accepted")
	}
}

func freeAddr(t *testing.T) string { return ferretdbtest.FreeAddr(t) }

func TestTheServiceServesOnTheEmbeddedStoreAndShutsDownCleanly(t *testing.T) {
	t.Parallel()
	var logs strings.Builder
	dir := t.TempDir()
	addr, stop := serveInProcess(t, map[string]string{"CALENDAR_DATA_DIR": dir}, &syncWriter{b: &logs})
	req, _ := http.NewRequest("GET", "http://"+addr+"/vendor/events/v1", nil)
	req.Header.Set("X-Request-ID", "main-test-1")
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
	}
	if err := stop(); err != nil { // a shutdown that hangs is stopped by go test's -timeout
		t.Fatalf("run returned %v", err)
	}
	var password, accessed bool
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("a log line is not JSON: %v\n%s", err, line)
		}
		password = password || entry["login"] == "admin" && entry["application_password"] != nil
		accessed = accessed || entry["msg"] == "request" && entry["request_id"] == "main-test-1" && entry["route"] == "/vendor/events/v1"
	}
	if !password || !accessed {
		t.Fatalf("admin password logged: %v, access line of the request: %v; logs:\n%s", password, accessed, logs.String())
	}
	// The store was closed: it opens again at once (bbolt holds a file lock while open).
	s, err := bolt.Open(dir)
	if err != nil {
		t.Fatalf("store not released on shutdown: %v", err)
	}
	s.Close(context.Background())
}

// A stop asked while the service starts (SIGTERM as the index fills, before
// the admin is made) is a clean stop, not a failed start: run returns nil.
func TestAStopAskedWhileStartingIsACleanStop(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	logs := &syncWriter{b: &strings.Builder{}}
	if err := run(ctx, nil, env(map[string]string{"CALENDAR_ADDR": freeAddr(t), "CALENDAR_DATA_DIR": t.TempDir()}), logs); err != nil {
		t.Fatalf("run returned %v; logs:\n%s", err, logs.String())
	}
	if !strings.Contains(logs.String(), "stopped while starting") {
		t.Errorf("no line saying the start was stopped:\n%s", logs.String())
	}
}

func TestTheSearchBudgetIsASettingWithinBounds(t *testing.T) {
	t.Parallel()
	for value, want := range map[string]string{"": "5s", "250ms": "250ms", "2m": "2m0s"} {
		c, err := loadConfig(nil, env(map[string]string{"CALENDAR_SEARCH_BUDGET": value}), io.Discard)
		if err != nil || c.SearchBudget.String() != want {
			t.Errorf("%q: budget %v, %v; want %s", value, c.SearchBudget, err, want)
		}
	}
	for _, bad := range []string{"99ms", "11m", "soon", "-1s"} {
		_, err := loadConfig(nil, env(map[string]string{"CALENDAR_SEARCH_BUDGET": bad}), io.Discard)
		if err == nil || !strings.Contains(err.Error(), "CALENDAR_SEARCH_BUDGET: want a duration from 100ms to 10m") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
