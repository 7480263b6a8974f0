// Command calendar serves the calendar API.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/cmd/internal/conns"
	"calendar/cmd/internal/gc"
	"calendar/controllers"
	"calendar/index"
	"calendar/repository/bolt"
	"calendar/repository/mongo"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	gc.Tune()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stderr)
	if errors.Is(err, flag.ErrHelp) { // -h: the usage is written, nothing went wrong
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "calendar:", err)
		os.Exit(1)
	}
}

// shutdownGrace is how long in-flight requests may take to finish on shutdown.
const shutdownGrace = 15 * time.Second

// headerTimeout bounds how long a client may take to send its request headers.
const headerTimeout = 10 * time.Second

// run serves until ctx ends, then shuts down gracefully; "reindex" as the
// first argument rebuilds the index instead, "verify" compares it with the
// store, "users" lists users or resets a password, "restore" fills an empty
// data directory from a backup, "version" (or -version) prints the build's
// version, "help" shows the usage. -h is flag.ErrHelp once the usage is
// written.
func run(ctx context.Context, args []string, getenv func(string) string, logOut io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "version", "-version", "--version":
			return printVersion(os.Stdout)
		case "reindex":
			return reindex(ctx, args[1:], getenv, logOut)
		case "verify":
			return verify(ctx, args[1:], getenv, logOut)
		case "users":
			return usersCommand(ctx, args[1:], getenv, os.Stdout, logOut)
		case "restore":
			return restore(args[1:], getenv, logOut)
		case "help":
			_, err := loadConfig([]string{"-h"}, getenv, logOut)
			return err
		}
	}
	cfg, err := loadConfig(args, getenv, logOut)
	if err != nil {
		return err
	}
	return serve(ctx, cfg, logOut)
}

// serve serves with the configuration until ctx ends, then shuts down
// gracefully.
func serve(ctx context.Context, cfg Config, logOut io.Writer) error {
	logger := newLogger(cfg.LogFormat, logOut)
	built := thisBuild()
	logger.Info("starting calendar", "version", built.Version, "commit", built.Commit, "go", built.GoVersion)
	gc.FitUploads(cfg.UploadMemory)
	// The address first: a first start must not create the admin, log its
	// only copy of the password, then fail on a port already taken.
	tcp, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("%s: %w", cfg.name("CALENDAR_ADDR"), err)
	}
	// A trusted proxy's connections carry every client behind it.
	limits := conns.Limits{Total: cfg.MaxConns, PerAddr: cfg.MaxConnsPerAddr, PerNetwork: cfg.MaxConnsPerNetwork,
		Exempt: cfg.TrustedProxies.Contains}
	ln := conns.NewListener(tcp, limits, logConnPressure(logger, cfg))
	defer ln.Close()

	store, backend, idx, err := openStoreAndIndex(ctx, cfg)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	defer func() {
		if err := idx.Close(); err != nil {
			logger.Warn("closing the index", "error", err)
		}
	}()

	egress := controllers.NewEgress(cfg.OutboundAllowed) // every request the service makes
	settings := app.Settings{SiteURL: cfg.SiteURL, SiteName: cfg.SiteName, TimeZone: cfg.TimeZone, PerPage: cfg.PerPage, MaxUpload: cfg.MaxUpload, UploadMemory: cfg.UploadMemory,
		SeriesQuota: seriesQuota(cfg.SeriesQuota), SearchBudget: cfg.SearchBudget, OnReindex: logReindex(logger, idx, versionsOf(cfg)), Languages: cfg.Languages}
	if cfg.Sideload {
		settings.Sideload = controllers.NewSideloader(sideloadTimeout, egress)
	}
	settings.ChangesRetention = cfg.ChangesRetention
	settings.Webhooks = app.WebhookSettings{Sender: controllers.NewWebhookSender(egress, app.DefaultWebhookTimeout),
		RetrySchedule: cfg.WebhookRetrySchedule}
	settings.Imports = app.ImportSettings{Fetcher: controllers.NewImportFetcher(controllers.ImportTimeout, egress),
		Log: func(format string, args ...any) { logger.Warn(fmt.Sprintf(format, args...)) }}
	if cfg.appSettings != nil {
		cfg.appSettings(&settings)
	}
	a := app.New(store, idx, settings)
	defer a.Stop() // before the index closes: a rebuild beside it ends first
	started := time.Now()
	syncCtx, stopSync := context.WithCancel(ctx)
	defer stopSync()
	syncDone := make(chan struct{})
	delivered := make(chan struct{})
	syncing := false // keepIndexTrue runs, or will once the index is filled
	// startFailed is what a start step's error makes of the start: a stop
	// asked meanwhile (SIGTERM while the index fills, before the admin is
	// made) is a clean stop, once the index's upkeep has ended; any other
	// error fails the start.
	startFailed := func(err error) error {
		if ctx.Err() == nil {
			return err
		}
		stopSync()
		if syncing {
			<-syncDone
		}
		logger.Info("stopped while starting", "step", err.Error())
		return nil
	}
	scheduled := make(chan struct{})
	keepIndexTrue := func() {
		defer close(syncDone)
		// Housekeeping ends before syncDone closes: the store and the index
		// close after it, and nothing of it outlives serve.
		housekept := make(chan struct{})
		go func() { defer close(housekept); housekeeping(syncCtx, a, logger, backend, started) }()
		defer func() { <-housekept }()
		// Custom fields: a change of their declarations brought to the
		// index, resumed where the last start left it; stopped with the rest.
		fieldsKept := make(chan struct{})
		go func() { defer close(fieldsKept); a.Fields.Run(syncCtx) }()
		defer func() { <-fieldsKept }()
		a.Sync(syncCtx, cfg.SyncInterval, func(err error) { logger.Warn("index catch-up failed", "error", err) })
	}
	if !idx.Fresh {
		why, err := a.IndexOfAnotherStore(ctx)
		if err != nil {
			return startFailed(fmt.Errorf("reading the index's checkpoint and the store's: %w", err))
		}
		if why != "" {
			if err := idx.Reset(why); err != nil {
				return fmt.Errorf("replacing an index of another store state: %w", err)
			}
		}
	}
	versions := versionsOf(cfg)
	if idx.Fresh {
		// Serve at once while the index fills from the store: readyz, and
		// everything that needs the index, answer 503 until it is whole.
		fill, err := a.BeginRebuild(idx.Why)
		if err != nil {
			return err
		}
		line := rebuildLine(idx.Cause, idx.Why, idx.Found, versions.Mapping, idx.FoundLanguages, versions.Languages, meanwhileNothing)
		syncing = true
		go func() {
			if err := rebuild(syncCtx, fill, logger, nil, line); err != nil {
				logger.Error("building the index failed: what needs it answers 503 until a rebuild ends well", "error", err)
			}
			keepIndexTrue()
		}()
	} else {
		n, err := a.CatchUp(ctx)
		if err != nil {
			return startFailed(fmt.Errorf("catching the index up with the store: %w", err))
		}
		logger.Info("index caught up with the store", "changes", n)
		syncing = true
		go keepIndexTrue()
		if idx.Outdated { // it serves meanwhile: the service is ready at once; logReindex says why
			// The index's causes are the app's reasons: mapping_version, languages.
			if _, err := a.StartReindex(idx.Cause, idx.Why); err != nil {
				logger.Error("building the new index failed to start: the old one serves on", "error", err)
			}
		}
	}
	if cfg.AdminPassword != "" {
		if existing, err := a.Users.Everyone(ctx); err == nil && len(existing) > 0 {
			logger.Warn("CALENDAR_ADMIN_PASSWORD is ignored: the store has users already; to recover access, stop the service and run: calendar users reset-password admin")
		}
	}
	generated, err := a.Users.EnsureAdmin(ctx, cfg.AdminPassword)
	if err != nil {
		return startFailed(fmt.Errorf("creating the admin user: %w", err))
	}
	if generated != "" {
		logger.Info("created user admin; its application password is shown only this once",
			"login", app.AdminLogin, "application_password", generated)
	}
	// A store with users but no administrator who can sign in (edited or
	// restored by hand) serves on, and says loudly how to get one back:
	// the start makes no administrator of its own accord, since a stale
	// CALENDAR_ADMIN_PASSWORD would then mint one.
	none, passwordless, err := a.Users.NoUsableAdministrator(ctx)
	if err != nil {
		return startFailed(fmt.Errorf("looking for an administrator: %w", err))
	}
	if none {
		command := recoveryCommand(passwordless)
		logger.Error("no administrator can sign in, so nobody can manage users: stop the service and run: "+command,
			"command", command)
	}

	api := controllers.New(controllers.Config{SiteURL: cfg.SiteURL, Logger: logger, MetricsToken: cfg.MetricsToken,
		CORSOrigins: cfg.CORSOrigins, TrustedProxies: cfg.TrustedProxies, Version: built.Version,
		Collectors: []prometheus.Collector{ln.Collector(), buildInfoMetric(built)}}, a)
	go func() { defer close(delivered); a.Webhooks.Run(syncCtx) }()     // once the routes lent it their filter reader
	go func() { defer close(scheduled); a.Imports.Schedule(syncCtx) }() // its runs end with the app (a.Stop)
	srv := &http.Server{
		Handler:           api,
		ReadHeaderTimeout: headerTimeout,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      controllers.SendTimeout, // renewed when an answer is ready: answer.go
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		ConnState:         ln.ConnState,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	logger.Info("serving", "addr", ln.Addr().String(), "site_url", cfg.SiteURL, "store", backend, "data_dir", cfg.DataDir)

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down: finishing in-flight requests")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	stopSync()
	<-syncDone
	<-delivered
	<-scheduled
	a.Imports.Stop() // the runs under way, before the store's last writes
	settleCtx, cancelSettle := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancelSettle()
	if err := a.CatchUpOnStop(settleCtx); err != nil {
		logger.Warn("catching the index up before stopping", "error", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("stopped")
	return nil
}

// seriesQuota is the setting as app.Settings reads it: 0 there is the
// default, and no bound is negative.
func seriesQuota(perHour int) int {
	if perHour == 0 {
		return -1
	}
	return perHour
}

// logConnPressure logs what the connection bounds did, at most once per
// conns.ReportEvery: refusals come in floods.
func logConnPressure(logger *slog.Logger, cfg Config) func(conns.Pressure) {
	return func(p conns.Pressure) {
		attrs := []any{"refused_per_address", p.RefusedPerAddr, "refused_per_network", p.RefusedPerNetwork,
			"refused_at_capacity", p.RefusedFull, "idle_closed", p.IdleClosed, "new_closed", p.NewClosed, "slow_closed", p.SlowClosed,
			"open", p.Open, "max_conns", cfg.MaxConns, "max_conns_per_addr", cfg.MaxConnsPerAddr, "max_conns_per_network", cfg.MaxConnsPerNetwork}
		if p.LastRefused.IsValid() {
			attrs = append(attrs, "last_refused_addr", p.LastRefused.String())
		}
		logger.Warn("connection limits reached", attrs...)
	}
}

// openStoreAndIndex opens the configured store, then the index beside it;
// on an error nothing is left open.
func openStoreAndIndex(ctx context.Context, cfg Config) (calendar.Store, string, *index.Live, error) {
	store, backend, err := openStore(ctx, cfg)
	if err != nil {
		return nil, "", nil, err
	}
	idx, err := index.OpenVersions(cfg.DataDir, versionsOf(cfg))
	if err != nil {
		store.Close(context.Background())
		return nil, "", nil, err
	}
	return store, backend, idx, nil
}

// versionsOf is the mapping versions the configuration opens the index as.
func versionsOf(cfg Config) index.Versions {
	versions := cfg.indexVersions
	if versions.Mapping == 0 {
		versions = index.ThisRelease
	}
	return versions.WithLanguages(cfg.Languages)
}

func openStore(ctx context.Context, cfg Config) (calendar.Store, string, error) {
	if cfg.MongoURI == "" {
		s, err := bolt.Open(cfg.DataDir)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", cfg.name("CALENDAR_DATA_DIR"), err)
		}
		return s, "embedded", nil
	}
	connectCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	s, err := mongo.Open(connectCtx, cfg.MongoURI, cfg.MongoDB)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", cfg.name("CALENDAR_MONGODB_URI"), err)
	}
	return s, "mongodb", nil
}

// reindex rebuilds the index from the store with the service stopped: the
// embedded store refuses a second process, and an index is one replica's own.
// (A running service rebuilds it beside the live one: POST
// {base_url}/vendor/admin/v1/reindex.)
func reindex(ctx context.Context, args []string, getenv func(string) string, logOut io.Writer) error {
	cfg, err := loadConfig(args, getenv, logOut)
	if err != nil {
		return err
	}
	logger := newLogger(cfg.LogFormat, logOut)
	store, _, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	versions := versionsOf(cfg)
	foundVersion, foundLanguages := index.Found(cfg.DataDir)
	if err := index.Remove(cfg.DataDir); err != nil {
		return err
	}
	idx, err := index.OpenVersions(cfg.DataDir, versions)
	if err != nil {
		return err
	}
	defer idx.Close()
	a := app.New(store, idx, app.Settings{SiteURL: cfg.SiteURL, TimeZone: cfg.TimeZone, PerPage: cfg.PerPage, Languages: cfg.Languages})
	var bar io.Writer
	if isTerminal(os.Stderr) {
		bar = os.Stderr
	}
	if foundVersion != 0 && !slices.Equal(foundLanguages, versions.Languages) {
		logger.Warn("the index replaced stemmed in other languages than this command's settings: run calendar reindex with the service's settings (CALENDAR_LANGUAGES), or its next start rebuilds the index again",
			"from_languages", languageNames(foundLanguages), "to_languages", languageNames(versions.Languages))
	}
	line := rebuildLine(app.ReindexRequested, "calendar reindex", foundVersion, versions.Mapping, foundLanguages, versions.Languages, meanwhileNoService)
	if err := rebuild(ctx, a.Rebuild, logger, bar, line); err != nil {
		return err
	}
	logger.Info("merging the index's segments")
	idx.Compacted() // a service merges them in the background; this command exits next
	return nil
}

func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
