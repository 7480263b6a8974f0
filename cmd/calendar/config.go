package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"calendar/app"
	"calendar/cmd/internal/conns"
	"calendar/cmd/internal/gc"
	"calendar/controllers"
	"calendar/index"
)

// Config is the whole configuration, read once at start.
type Config struct {
	Addr          string
	SiteURL       string
	SiteName      string
	DataDir       string
	MongoURI      string
	MongoDB       string
	TimeZone      *time.Location
	PerPage       int
	AdminPassword string
	SyncInterval  time.Duration
	LogFormat     string
	MetricsToken  string
	CORSOrigins   []string
	MaxUpload     int64
	UploadMemory  int64
	SeriesQuota   int
	SearchBudget  time.Duration
	Sideload      bool
	// Languages are those the index stems in, the site's first.
	Languages []string
	// MaxConns, MaxConnsPerAddr and MaxConnsPerNetwork bound the client
	// connections held at once, in total, from one address and from one
	// network, an IPv6 /64 (package conns).
	MaxConns, MaxConnsPerAddr, MaxConnsPerNetwork int
	// TrustedProxies are the reverse proxies whose forwarding headers name
	// the client (controllers/client.go); the per-address bound spares them.
	TrustedProxies controllers.TrustedProxies
	// ChangesRetention is how long the change feed keeps deletes.
	ChangesRetention time.Duration
	// WebhookRetrySchedule is the pause before each retry of a failed
	// webhook delivery; past the last the subscription is disabled.
	WebhookRetrySchedule []time.Duration
	// OutboundAllowed are the networks besides public addresses that the
	// service's own requests may reach (sideloading, webhooks).
	OutboundAllowed []netip.Prefix
	// flagged are the settings given as flags, by environment name: an
	// error names what the operator typed.
	flagged map[string]string
	// indexVersions are the mapping versions the index is opened as
	// (index.ThisRelease when zero): tests start the service as a later
	// release would, to upgrade an index built by this one.
	indexVersions index.Versions
	// appSettings, when set, changes the app's settings: tests hold a
	// rebuild with it.
	appSettings func(*app.Settings)
}

// name is how the operator gave a setting: its flag when one was given,
// its environment variable otherwise.
func (c Config) name(env string) string {
	if flag, ok := c.flagged[env]; ok {
		return "-" + flag + " (" + env + ")"
	}
	return env
}

// setting is one configuration value: an environment variable and its flag.
type setting struct {
	env, flag, def, usage string
}

var settings = []setting{
	{"CALENDAR_ADDR", "addr", "127.0.0.1:8080", "address to listen on, host:port"},
	{"CALENDAR_SITE_URL", "site-url", "", "home URL written into responses (default http://{CALENDAR_ADDR})"},
	{"CALENDAR_SITE_NAME", "site-name", "", "the site's name, as calendar apps show its iCalendar feed (default: the site URL's host)"},
	{"CALENDAR_DATA_DIR", "data-dir", "./data", "directory of the embedded store and the search index"},
	{"CALENDAR_MONGODB_URI", "mongodb-uri", "", "MongoDB connection string; when empty the embedded store is used"},
	{"CALENDAR_MONGODB_DB", "mongodb-db", "calendar", "MongoDB database name"},
	{"CALENDAR_TIMEZONE", "timezone", "UTC", "site time zone, an IANA name"},
	{"CALENDAR_PER_PAGE", "per-page", "10", "default page size of lists, 1 to 50"},
	{"CALENDAR_ADMIN_PASSWORD", "admin-password", "", "password of user admin, created on first start (generated and logged once when empty)"},
	{"CALENDAR_SYNC_INTERVAL", "sync-interval", "1s", "how often the index applies changes other replicas made"},
	{"CALENDAR_LOG_FORMAT", "log-format", "json", "log format: json (one object a line) or text"},
	{"CALENDAR_METRICS_TOKEN", "metrics-token", "", "when set, /metrics asks for it as a Bearer credential"},
	{"CALENDAR_CORS_ORIGINS", "cors-origins", "", "comma-separated origins (https://example.org) browsers may call the API from; empty: any, as WordPress"},
	{"CALENDAR_MAX_UPLOAD", "max-upload", "10MiB", "largest image the media library takes: bytes, or with KiB or MiB"},
	{"CALENDAR_SEARCH_BUDGET", "search-budget", "5s", "how long one index search may take before it is answered 503 search_timeout, 100ms to 10m"},
	{"CALENDAR_SERIES_QUOTA", "series-quota", "5000", "occurrences one account's series writes may make an hour (administrators: no bound); 0: no bound"},
	{"CALENDAR_UPLOAD_MEMORY", "upload-memory", strconv.Itoa(gc.DefaultUploadMemory>>20) + "MiB", "memory processing uploads may take at once, and so the most one image may need (about 39 megapixels for a photo at 384MiB): bytes, or with KiB or MiB"},
	{"CALENDAR_SIDELOAD_IMAGES", "sideload-images", "false", "true: an image URL of another site is fetched once into the media library (public addresses only)"},
	{"CALENDAR_LANGUAGES", "languages", "",
		"comma-separated languages (fr, de, en...) whose stems and stop words a relevance search uses, the site's first; a request under /{lang}/ uses its own when listed; a change rebuilds the index"},
	{"CALENDAR_MAX_CONNS", "max-conns", strconv.Itoa(conns.DefaultTotal(conns.OpenFileLimit())),
		"most client connections held at once, by default 3/4 of the open-file limit up to 10000; connections that have sent no whole request yet hold 3/4 of them at most; past it one that has not sent its request is closed to make room, or else the oldest idle keep-alive one, or else the new one"},
	{"CALENDAR_MAX_CONNS_PER_ADDR", "max-conns-per-addr", "256",
		"most connections held at once from one client address (past it one of its own is closed to make room, or else the new one); a proxy in -trusted-proxies is not held to it"},
	{"CALENDAR_MAX_CONNS_PER_NETWORK", "max-conns-per-network", "1024",
		"most connections held at once from one network, an IPv6 /64 (an IPv4 address is a network of its own), as -max-conns-per-addr"},
	{"CALENDAR_CHANGES_RETENTION", "changes-retention", "90d",
		"how long the change feed ({api}/changes, webhooks) keeps deletes, in days (90d) or as a duration (720h); a sync from an older point is answered 410 rest_sync_expired"},
	{"CALENDAR_WEBHOOK_RETRY_SCHEDULE", "webhook-retry-schedule", "5s,5m,30m,2h,5h,10h,10h",
		"comma-separated pauses before each retry of a failed webhook delivery (each with ±20% jitter); after the last one fails the subscription is disabled"},
	{"CALENDAR_OUTBOUND_ALLOWED_NETWORKS", "outbound-allowed-networks", "",
		"comma-separated addresses or CIDR networks (127.0.0.0/8, 10.0.0.0/8) that the service's own requests (sideloaded images, webhook deliveries) may reach besides public addresses; empty: public addresses only"},
	{"CALENDAR_TRUSTED_PROXIES", "trusted-proxies", "",
		"comma-separated addresses or CIDR networks (10.0.0.1, 10.0.0.0/8, fd00::/8) of reverse proxies: from them the client is the address X-Forwarded-For (or Forwarded) names, and -max-conns-per-addr does not bound them; empty: those headers are ignored"},
}

// loadConfig reads the environment, then the flags (a flag wins), and checks
// every value. An error names the setting in one line; -h is flag.ErrHelp,
// after the usage is written.
func loadConfig(args []string, getenv func(string) string, usage io.Writer) (Config, error) {
	c, rest, err := loadConfigArgs(args, getenv, usage)
	if err == nil && len(rest) > 0 {
		return Config{}, fmt.Errorf("unexpected argument %q", rest[0])
	}
	return c, err
}

// loadConfigArgs is loadConfig for a command that takes arguments after its
// flags: it returns them.
func loadConfigArgs(args []string, getenv func(string) string, usage io.Writer) (Config, []string, error) {
	fs := flag.NewFlagSet("calendar", flag.ContinueOnError)
	fs.SetOutput(usage)
	fs.Usage = func() { writeUsage(fs) }
	raw := map[string]*string{}
	for _, s := range settings {
		value := s.def
		if v := getenv(s.env); v != "" {
			value = v
		}
		raw[s.env] = fs.String(s.flag, value, s.usage+" ["+s.env+"]")
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, nil, err
	}
	get := func(env string) string { return strings.TrimSpace(*raw[env]) }

	c := Config{
		Addr: get("CALENDAR_ADDR"), SiteURL: get("CALENDAR_SITE_URL"), SiteName: get("CALENDAR_SITE_NAME"), DataDir: get("CALENDAR_DATA_DIR"),
		MongoURI: get("CALENDAR_MONGODB_URI"), MongoDB: get("CALENDAR_MONGODB_DB"), AdminPassword: *raw["CALENDAR_ADMIN_PASSWORD"],
		LogFormat: strings.ToLower(get("CALENDAR_LOG_FORMAT")), MetricsToken: get("CALENDAR_METRICS_TOKEN"),
		flagged: map[string]string{},
	}
	fs.Visit(func(f *flag.Flag) {
		for _, s := range settings {
			if s.flag == f.Name {
				c.flagged[s.env] = s.flag
			}
		}
	})
	err := c.check(get)
	return c, fs.Args(), err
}

// check reads and checks the values that are not plain strings.
func (c *Config) check(get func(env string) string) error {
	fail := func(env, format string, args ...any) error {
		return fmt.Errorf("%s: "+format, append([]any{c.name(env)}, args...)...)
	}
	if _, port, err := net.SplitHostPort(c.Addr); err != nil || port == "" {
		return fail("CALENDAR_ADDR", "want host:port, got %q", c.Addr)
	}
	if c.SiteURL == "" {
		c.SiteURL = "http://" + c.Addr
	}
	u, err := url.Parse(c.SiteURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fail("CALENDAR_SITE_URL", "want an http(s) URL without query or fragment, got %q", c.SiteURL)
	}
	c.SiteURL = strings.TrimSuffix(c.SiteURL, "/")
	if c.DataDir == "" {
		return fail("CALENDAR_DATA_DIR", "must not be empty")
	}
	if c.MongoURI != "" && !strings.HasPrefix(c.MongoURI, "mongodb://") && !strings.HasPrefix(c.MongoURI, "mongodb+srv://") {
		return fail("CALENDAR_MONGODB_URI", "want a mongodb:// or mongodb+srv:// URI")
	}
	if c.MongoDB == "" || strings.ContainsAny(c.MongoDB, `/\. "$`) {
		return fail("CALENDAR_MONGODB_DB", "not a valid database name: %q", c.MongoDB)
	}
	tz := get("CALENDAR_TIMEZONE")
	if c.TimeZone, err = time.LoadLocation(tz); err != nil || tz == "" || strings.EqualFold(tz, "local") {
		return fail("CALENDAR_TIMEZONE", "unknown time zone %q", tz)
	}
	if c.PerPage, err = strconv.Atoi(get("CALENDAR_PER_PAGE")); err != nil || c.PerPage < 1 || c.PerPage > 50 {
		return fail("CALENDAR_PER_PAGE", "want an integer from 1 to 50, got %q", get("CALENDAR_PER_PAGE"))
	}
	if c.SyncInterval, err = time.ParseDuration(get("CALENDAR_SYNC_INTERVAL")); err != nil || c.SyncInterval < 10*time.Millisecond || c.SyncInterval > time.Hour {
		return fail("CALENDAR_SYNC_INTERVAL", "want a duration from 10ms to 1h, got %q", get("CALENDAR_SYNC_INTERVAL"))
	}
	if p := c.AdminPassword; p != "" && len(strings.Join(strings.Fields(p), "")) < app.MinAdminPasswordLength {
		return fail("CALENDAR_ADMIN_PASSWORD", "must have at least %d characters besides spaces", app.MinAdminPasswordLength)
	}
	if c.LogFormat != "json" && c.LogFormat != "text" {
		return fail("CALENDAR_LOG_FORMAT", "want json or text, got %q", c.LogFormat)
	}
	if t := c.MetricsToken; t != "" && (len(t) < minMetricsToken || strings.ContainsAny(t, " \t")) {
		return fail("CALENDAR_METRICS_TOKEN", "want at least %d characters and no spaces", minMetricsToken)
	}
	if c.MaxUpload, err = byteSize(get("CALENDAR_MAX_UPLOAD")); err != nil || c.MaxUpload < 1<<10 || c.MaxUpload > 1<<30 {
		return fail("CALENDAR_MAX_UPLOAD", "want a size from 1KiB to 1024MiB (bytes, or with KiB or MiB), got %q", get("CALENDAR_MAX_UPLOAD"))
	}
	if c.SearchBudget, err = time.ParseDuration(get("CALENDAR_SEARCH_BUDGET")); err != nil || c.SearchBudget < 100*time.Millisecond || c.SearchBudget > 10*time.Minute {
		return fail("CALENDAR_SEARCH_BUDGET", "want a duration from 100ms to 10m, got %q", get("CALENDAR_SEARCH_BUDGET"))
	}
	if c.SeriesQuota, err = strconv.Atoi(get("CALENDAR_SERIES_QUOTA")); err != nil || c.SeriesQuota < 0 {
		return fail("CALENDAR_SERIES_QUOTA", "want a whole number, 0 or more, got %q", get("CALENDAR_SERIES_QUOTA"))
	}
	if c.UploadMemory, err = byteSize(get("CALENDAR_UPLOAD_MEMORY")); err != nil || c.UploadMemory < 16<<20 || c.UploadMemory > 64<<30 {
		return fail("CALENDAR_UPLOAD_MEMORY", "want a size from 16MiB to 65536MiB (bytes, or with KiB or MiB), got %q", get("CALENDAR_UPLOAD_MEMORY"))
	}
	if c.Sideload, err = strconv.ParseBool(get("CALENDAR_SIDELOAD_IMAGES")); err != nil {
		return fail("CALENDAR_SIDELOAD_IMAGES", "want true or false, got %q", get("CALENDAR_SIDELOAD_IMAGES"))
	}
	for _, lang := range strings.Split(get("CALENDAR_LANGUAGES"), ",") {
		if lang = strings.ToLower(strings.TrimSpace(lang)); lang == "" {
			continue
		}
		if !slices.Contains(index.Languages, lang) || slices.Contains(c.Languages, lang) {
			return fail("CALENDAR_LANGUAGES", "want some of %s, each once, got %q", strings.Join(index.Languages, ", "), lang)
		}
		c.Languages = append(c.Languages, lang)
	}
	if err := c.checkConnLimits(get, fail); err != nil {
		return err
	}
	if c.TrustedProxies, err = controllers.ParseTrustedProxies(get("CALENDAR_TRUSTED_PROXIES")); err != nil {
		return fail("CALENDAR_TRUSTED_PROXIES", "%v", err)
	}
	if c.ChangesRetention, err = days(get("CALENDAR_CHANGES_RETENTION")); err != nil || c.ChangesRetention < time.Hour || c.ChangesRetention > 3650*24*time.Hour {
		return fail("CALENDAR_CHANGES_RETENTION", "want a duration from 1h to 3650d (90d, 720h), got %q", get("CALENDAR_CHANGES_RETENTION"))
	}
	if c.WebhookRetrySchedule, err = retrySchedule(get("CALENDAR_WEBHOOK_RETRY_SCHEDULE")); err != nil {
		return fail("CALENDAR_WEBHOOK_RETRY_SCHEDULE", "want 1 to %d durations from 1ms to 24h, comma-separated (5s,5m,30m), got %q", maxRetries, get("CALENDAR_WEBHOOK_RETRY_SCHEDULE"))
	}
	if c.OutboundAllowed, err = controllers.ParseNetworks(get("CALENDAR_OUTBOUND_ALLOWED_NETWORKS")); err != nil {
		return fail("CALENDAR_OUTBOUND_ALLOWED_NETWORKS", "%v", err)
	}
	for _, origin := range strings.Split(get("CALENDAR_CORS_ORIGINS"), ",") {
		if origin = strings.TrimSpace(origin); origin == "" {
			continue
		}
		u, err := url.Parse(origin)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.TrimSuffix(u.Path, "/") != "" || u.RawQuery != "" {
			return fail("CALENDAR_CORS_ORIGINS", "want origins such as https://example.org, got %q", origin)
		}
		c.CORSOrigins = append(c.CORSOrigins, strings.TrimSuffix(origin, "/"))
	}
	return nil
}

// days reads 90d, or a duration Go reads (720h).
func days(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		d, err := strconv.Atoi(strings.TrimSpace(n))
		return time.Duration(d) * 24 * time.Hour, err
	}
	return time.ParseDuration(s)
}

// maxRetries bounds the retry schedule of webhook deliveries.
const maxRetries = 20

// retrySchedule reads 5s,5m,30m.
func retrySchedule(list string) ([]time.Duration, error) {
	var out []time.Duration
	for _, part := range strings.Split(list, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(part))
		if err != nil || d < time.Millisecond || d > 24*time.Hour {
			return nil, fmt.Errorf("not a pause: %q", part)
		}
		out = append(out, d)
	}
	if len(out) > maxRetries {
		return nil, fmt.Errorf("%d pauses", len(out))
	}
	return out, nil
}

// maxConnsBound is the largest connection bound taken when the open-file
// limit is unknown or unlimited.
const maxConnsBound = 1_000_000

// checkConnLimits reads the connection bounds: neither may exceed the files
// the process may open, or the bound would not keep them.
func (c *Config) checkConnLimits(get func(env string) string, fail func(env, format string, args ...any) error) error {
	upper, why := maxConnsBound, ""
	if files := conns.OpenFileLimit(); files > 0 && files < upper {
		upper, why = files, " (the files the process may open)"
	}
	var err error
	if c.MaxConns, err = strconv.Atoi(get("CALENDAR_MAX_CONNS")); err != nil || c.MaxConns < 1 || c.MaxConns > upper {
		return fail("CALENDAR_MAX_CONNS", "want an integer from 1 to %d%s, got %q", upper, why, get("CALENDAR_MAX_CONNS"))
	}
	for _, b := range []struct {
		env   string
		bound *int
	}{{"CALENDAR_MAX_CONNS_PER_ADDR", &c.MaxConnsPerAddr}, {"CALENDAR_MAX_CONNS_PER_NETWORK", &c.MaxConnsPerNetwork}} {
		if *b.bound, err = strconv.Atoi(get(b.env)); err != nil || *b.bound < 1 || *b.bound > upper {
			return fail(b.env, "want an integer from 1 to %d%s, got %q", upper, why, get(b.env))
		}
	}
	return nil
}

// byteSize reads 10485760, 10240KiB or 10MiB.
func byteSize(s string) (int64, error) {
	unit := int64(1)
	for suffix, n := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20} {
		if num, ok := strings.CutSuffix(s, suffix); ok {
			s, unit = strings.TrimSpace(num), n
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > 1<<40/unit {
		return 0, fmt.Errorf("not a size: %q", s)
	}
	return n * unit, nil
}

// minMetricsToken keeps the metrics token out of guessing range: /metrics is
// not behind the rate limit of wrong credentials.
const minMetricsToken = 16

// newLogger writes the service's log in the configured format.
func newLogger(format string, out io.Writer) *slog.Logger {
	if format == "text" {
		return slog.New(slog.NewTextHandler(out, nil))
	}
	return slog.New(slog.NewJSONHandler(out, nil))
}
