package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/assay-dev/assay/cmd/internal/boot"
	"github.com/assay-dev/assay/jobs/workers"
	"github.com/assay-dev/assay/pkg/app"
	"github.com/assay-dev/assay/pkg/config"
	"github.com/assay-dev/assay/pkg/httpapi"
	"github.com/assay-dev/assay/pkg/metrics"
	"github.com/assay-dev/assay/pkg/notify"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/identity"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/pkg/postgres/work"
	"github.com/assay-dev/assay/pkg/secret"
	"github.com/assay-dev/assay/standards/starter"
	"github.com/assay-dev/assay/web"
)

// options are the inputs of run; tests set Listen to "127.0.0.1:0" and read the address
// from Ready.
type options struct {
	Environ []string
	Stdout  io.Writer
	Listen  string            // overrides ":PORT"
	Ready   func(addr string) // called once the listener accepts connections
	// QueryTracer observes every database query of the server (tests).
	QueryTracer pgx.QueryTracer
	// Observer receives an observation of every request, besides the metrics (tests
	// record the answers with it).
	Observer httpapi.RequestObserver
	// StarterStandards holds the starter set's documents (app.ImportConfig.Starter); nil:
	// those built into the binary, starter.Files(). Tests give a copy of the catalogue, or
	// an empty folder for a build without them.
	StarterStandards fs.FS
}

// run boots the whole server and blocks until ctx is cancelled, then shuts down in order:
// stop accepting requests, let in-flight ones finish, stop the workers, close the database.
func run(ctx context.Context, opts options) error {
	started := time.Now()
	cfg, err := config.FromEnviron(opts.Environ)
	if err != nil {
		return err
	}
	log := boot.Logger(cfg, opts.Stdout)
	boot.ApplyMemory(ctx, cfg, log)
	db, err := boot.OpenDatabase(ctx, cfg, log, boot.Exclusive, "assay-server", opts.QueryTracer)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := boot.PrepareSchema(ctx, db.Pool, log, cfg.MigrateOnStart); err != nil {
		return err
	}
	accounts := &identity.Config{
		PasswordMinLength: cfg.PasswordMinLength, MaxFailedLogins: cfg.LoginMaxFailedAttempts, LockoutDuration: cfg.LoginLockoutDuration,
		Hasher: secret.NewHasher(secret.DefaultArgon2, 0),
	}
	if cfg.PasswordHIBPCheckEnabled {
		accounts.Breaches = &secret.BreachChecker{BaseURL: cfg.PasswordHIBPAPIURL, Timeout: cfg.PasswordHIBPTimeout, Logger: log}
	}
	store := postgres.New(db.Pool, nil).WithAcquireTimeout(cfg.DBAcquireTimeout).
		ConfigureDeliveries(boot.DeliveryConfig(cfg)).WithCredentialCache(cfg.CredentialCacheTTL).WithUnreadCountCache(cfg.UnreadCountCacheTTL)
	if err := boot.LoadKeys(ctx, store, cfg, log); err != nil {
		return err
	}
	boot.WarnAppURL(ctx, cfg, log)
	files, storageHealth, err := boot.Attachments(ctx, store, cfg, log)
	if err != nil {
		return err
	}
	listenCtx, stopListening := context.WithCancel(ctx)
	defer stopListening()
	go store.ListenChanges(listenCtx, log)
	svc := services.NewWith(store, services.Config{Identity: accounts, RationaleMinWords: cfg.AssessmentRationaleMinWords,
		DashboardCacheTTL: cacheTTL(cfg.DashboardCache), SearchCacheTTL: cacheTTL(cfg.SearchCache),
		Attestations: work.AttestationConfig{AppURL: cfg.AppURL, ToolVersion: boot.Version}})
	if err := svc.Roles.SyncBuiltinRoles(ctx); err != nil {
		return err
	}
	sessionKey := sessionKey(ctx, cfg, store, log)
	if err := svc.Invites.ReconcileRegistrationMode(ctx, string(cfg.RegistrationMode)); err != nil {
		return err
	}

	var m *metrics.Metrics
	if cfg.MetricsEnabled {
		m = metrics.New(cfg.MetricsPrefix)
		// The domain gauges: the snapshot the leader's refresh job keeps (read per scrape).
		if err := errors.Join(m.RegisterPool(db.Pool), m.Register(metrics.NewDomainCollector(svc.DomainMetrics.DomainMetrics))); err != nil {
			return err
		}
	}
	wcfg := boot.WorkersConfig(cfg, store, files, log)
	wcfg.RunWorkers = cfg.RunWorkers
	if m != nil && cfg.RunWorkers { // in-process workers export their job and delivery metrics here
		jm := metrics.NewJobMetrics()
		if err := m.Register(jm); err != nil {
			return err
		}
		wcfg.Metrics = jm
	}
	river, err := workers.NewClient(db.Pool, wcfg)
	if err != nil {
		return err
	}
	if cfg.RunWorkers {
		if err := river.Start(ctx); err != nil {
			return fmt.Errorf("start in-process workers: %w", err)
		}
		defer func() { _ = workers.Stop(river, cfg.ShutdownTimeout) }()
		log.InfoContext(ctx, "workers running in-process (RUN_WORKERS=true)")
	}

	deps := httpapi.Deps{Logger: log, Database: store, Setup: store, Encryption: svc.Encryption, Identity: svc.Identity,
		APIKeys: svc.APIKeys, Audit: svc.Audit, Users: svc.Users, Roles: svc.Roles, Invites: svc.Invites,
		Notifications: svc.Notifications, Rules: svc.Rules, Webhooks: svc.Webhooks, Chat: svc.Chat,
		Deliveries: svc.Deliveries, Email: svc.Email, PasswordReset: svc.PasswordReset,
		Standards: svc.Standards, Transfer: svc.Transfer, Entities: svc.Entities, Projects: svc.Projects, Demo: svc.Demo, Tags: svc.Tags,
		People: svc.Users, Assessments: svc.Assessments, Results: svc.Results, Evidence: svc.Evidence, Attachments: files, Claims: svc.Claims, Attestations: svc.Attestations, PlatformKeys: svc.PlatformKeys,
		WorkNotes: svc.WorkNotes, Reports: svc.Reports}
	deps.Storage = storageHealth
	if deps.Web, err = fs.Sub(web.Dist, "dist"); err != nil {
		return err
	}
	if m != nil {
		deps.Metrics, deps.Observer = m.Handler(cfg.MetricsToken), m
	}
	if opts.Observer != nil {
		deps.Observer = observers{deps.Observer, opts.Observer}
	}
	deps.RateLimit = limits(listenCtx, cfg, db.Pool, sessionKey, log)
	// Imports by URL and the standards feed download through the webhooks' outbound guard,
	// within the request's deadline.
	fetcher := notify.NewFetcher(notify.HTTPConfig{Timeout: 10 * time.Second, AllowNetworks: cfg.OutboundAllowNetworks,
		UserAgent: notify.UserAgent(boot.Version), Logger: log})
	starterFS := opts.StarterStandards
	if starterFS == nil {
		starterFS = starter.Files()
	}
	starterBuiltIn := true
	if n, of := starterDocumentsPresent(starterFS), len(starter.Manifest()); n < of {
		starterBuiltIn = false
		log.InfoContext(ctx, "the starter standards are not all built into this binary: the setup wizard imports the others "+
			"from the standards feed (scripts/fetch-starter-standards.sh before the build puts them in)", "built_in", n, "of", of)
	}
	deps.StandardImports = app.NewStandardImports(svc.Transfer, fetcher,
		app.ImportConfig{FeedURL: cfg.StandardsFeedURL, MaxBytes: cfg.StandardsImportMaxBytes, Starter: starterFS})
	deps.AttestationImports = app.NewAttestationImports(svc.AttestationImports, svc.PlatformKeys, fetcher, cfg.StandardsImportMaxBytes)
	deps.AttestationImportRecords = svc.AttestationImports
	deps.Dashboard = svc.Dashboard
	deps.DashboardLayouts = svc.DashboardLayouts
	deps.Search = svc.Search
	deps.Insight = svc.Insight
	api := httpapi.New(httpapi.Config{
		Version: boot.Version, StartedAt: started, CORSOrigins: cfg.CORSOrigins, TrustProxyHops: cfg.TrustProxyHops,
		MaxBodyBytes: cfg.APIMaxBodyBytes, UploadMaxBytes: cfg.UploadMaxFileSize, RequestTimeout: cfg.RequestTimeout, StorageProvider: string(cfg.StorageProvider), PasswordMinLength: cfg.PasswordMinLength,
		SessionKey: sessionKey, SessionLifetime: cfg.JWTExpiry, SecureCookie: cfg.SecureCookie, RegistrationMode: string(cfg.RegistrationMode),
		AppOrigins:              append([]string{originOf(cfg.AppURL)}, cfg.CORSOrigins...),
		StandardsImportMaxBytes: cfg.StandardsImportMaxBytes, ResponseCacheBytes: cfg.ResponseCacheMaxBytes,
		StarterStandardsBuiltIn: starterBuiltIn, HoldsSigningKeys: !store.Keyring().Passthrough(),
	}, deps)
	return serve(ctx, cfg, opts, log, api, started)
}

func serve(ctx context.Context, cfg *config.Config, opts options, log *slog.Logger, h http.Handler, started time.Time) error {
	addr := opts.Listen
	if addr == "" {
		addr = net.JoinHostPort(cfg.BindAddress, strconv.Itoa(cfg.Port))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s (PORT): %w", addr, err)
	}
	ln = httpapi.EnvelopeListener(ln, log)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	go boot.ReleaseStartMemory()
	log.InfoContext(ctx, "listening", slog.String("addr", ln.Addr().String()), slog.String("open", openURL(ln.Addr())),
		slog.Duration("startup", time.Since(started)), slog.String("database", string(cfg.DatabaseProvider)))
	if opts.Ready != nil {
		opts.Ready(ln.Addr().String())
	}
	select {
	case err := <-errc:
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down", slog.Duration("timeout", cfg.ShutdownTimeout))
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// sessionKey returns the key that signs session cookies: JWT_SECRET, or the secret
// generated on first run and kept (encrypted when a master key is set) in app_config.
// When neither can be had the service still starts; sign-in is then unavailable.
func sessionKey(ctx context.Context, cfg *config.Config, store *postgres.DB, log *slog.Logger) []byte {
	if cfg.JWTSecret != "" {
		return []byte(cfg.JWTSecret)
	}
	s, err := store.JWTSecret(ctx)
	if err != nil {
		log.ErrorContext(ctx, "the stored session-signing secret cannot be read; sign-in is unavailable until the master key is restored or JWT_SECRET is set",
			slog.String("error", err.Error()))
		return nil
	}
	log.InfoContext(ctx, "JWT_SECRET not set: using the secret generated on first run and kept in app_config (set JWT_SECRET for multi-replica deployments)")
	return []byte(s)
}

// originOf reduces a URL to its origin (scheme://host[:port]).
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.Scheme + "://" + u.Host
}

// rateFlushInterval is how often the per-credential counts of this server are added to the
// shared counters.
const rateFlushInterval = 250 * time.Millisecond

// limits chains the API's shared limits: the per-credential budget (counted locally and
// reconciled in batches until ctx ends), the sign-in limit per client IP (counted exactly;
// off when NODE_ENV=test) and idempotent replay of creating POSTs (their bodies kept as an
// HMAC under a key derived from secret, the session key every replica shares).
func limits(ctx context.Context, cfg *config.Config, pool *pgxpool.Pool, secret []byte, log *slog.Logger) func(http.Handler) http.Handler {
	limiter := postgres.NewRateLimiter(pool, nil)
	batched := postgres.NewBatchedRateLimiter(pool, nil, rateFlushInterval, log)
	go batched.Run(ctx)
	chain := []func(http.Handler) http.Handler{httpapi.RateLimit(batched, cfg.RateLimitPerMinute, log)}
	if !cfg.IsTest() {
		chain = append(chain, httpapi.AuthRateLimit(limiter, log))
	}
	chain = append(chain, httpapi.Idempotency(postgres.NewIdempotencyStore(pool, nil), secret, cfg.APIMaxBodyBytes, log))
	return func(h http.Handler) http.Handler {
		for i := len(chain) - 1; i >= 0; i-- {
			h = chain[i](h)
		}
		return h
	}
}

// observers passes each observation to every non-nil observer.
type observers []httpapi.RequestObserver

func (o observers) ObserveHTTP(route, method string, status int, elapsed time.Duration) {
	for _, obs := range o {
		if obs != nil {
			obs.ObserveHTTP(route, method, status, elapsed)
		}
	}
}

// openURL is the address to open in a browser for a listener: localhost for a wildcard
// or loopback address.
func openURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return ""
	}
	if ip, err := netip.ParseAddr(host); err == nil && (ip.IsUnspecified() || ip.IsLoopback()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// starterDocumentsPresent counts the starter documents fsys has, by name: their digests are
// checked when they are imported (starter.Documents), and reading them here would copy
// half a megabyte of embedded data into the heap at every start.
func starterDocumentsPresent(fsys fs.FS) int {
	n := 0
	for _, d := range starter.Manifest() {
		if _, err := fs.Stat(fsys, d.Path); err == nil {
			n++
		}
	}
	return n
}

// cacheTTL is a configured cache duration as the services take it: 0 (never kept) becomes
// negative, since their 0 means their default.
func cacheTTL(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}
