// Package boot holds the start-up steps shared by the three binaries: logger, database
// (embedded or external) and schema checks. It is wiring only and is imported by cmd/*.
package boot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/config"
	"github.com/assay-dev/assay/pkg/logging"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/embedpg"
)

// Version is the build version, set with -ldflags "-X .../cmd/internal/boot.Version=…".
var Version = "dev"

// Logger returns the JSON logger at the configured level and makes it slog's default.
func Logger(cfg *config.Config, w io.Writer) *slog.Logger {
	log := logging.New(w, cfg.LogLevel).With(slog.String("service_version", Version))
	slog.SetDefault(log)
	return log
}

// Mode says how a binary uses an embedded database directory.
type Mode int

const (
	// Exclusive starts the embedded cluster and refuses when another process holds it.
	Exclusive Mode = iota
	// Attach joins a cluster another process of ours is running, or starts one.
	Attach
)

// Database is an open pool and, in embedded mode, the cluster behind it.
type Database struct {
	Pool     *pgxpool.Pool
	embedded *embedpg.Server
}

// OpenDatabase connects as configured: DATABASE_PROVIDER=pglite runs (or attaches to) the
// private PostgreSQL server in PGLITE_DATA_DIR; postgres connects to DATABASE_URL.
// tracer, when given, observes every query (tests count the queries of a request).
func OpenDatabase(ctx context.Context, cfg *config.Config, log *slog.Logger, mode Mode, appName string, tracer ...pgx.QueryTracer) (*Database, error) {
	d := &Database{}
	dsn := cfg.DatabaseURL
	if cfg.Embedded() {
		ecfg := embedpg.Config{
			DataDir: cfg.PGliteDataDir, BinDir: cfg.PGBinDir, RunAsUser: cfg.PGRunAsUser, Logger: log,
		}
		start := embedpg.Start
		if mode == Attach {
			start = embedpg.Attach
		}
		srv, err := start(ctx, ecfg)
		if err != nil {
			return nil, err
		}
		d.embedded = srv
		dsn = srv.ConnString()
	}
	pool, err := postgres.OpenPool(ctx, dsn, postgres.PoolConfig{
		MaxConns: cfg.DBMaxConns, MinConns: cfg.DBMinConns, ApplicationName: appName,
		StatementTimeout: cfg.DBStatementTimeout, ConnectTimeout: cfg.DBConnectTimeout, KeepAlive: cfg.DBKeepAlive,
		Tracer: firstOf(tracer),
	})
	if err != nil {
		d.Close()
		return nil, err
	}
	d.Pool = pool
	return d, nil
}

// Close closes the pool and stops an embedded cluster this process started.
func (d *Database) Close() {
	if d.Pool != nil {
		d.Pool.Close()
	}
	if d.embedded != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
		defer cancel()
		if err := d.embedded.Stop(ctx); err != nil {
			slog.Default().Error("embedded database stop", slog.String("error", err.Error()))
		}
	}
}

// PrepareSchema migrates when asked to, and otherwise refuses to go on with a schema
// older than the code.
func PrepareSchema(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger, migrate bool) error {
	if migrate {
		res, err := postgres.Migrate(ctx, pool, log)
		if err != nil {
			return err
		}
		log.InfoContext(ctx, "database schema ready", slog.Int("version", res.Version),
			slog.Int("applied", len(res.Applied)), slog.Int("river_applied", len(res.RiverVersions)))
		return nil
	}
	return postgres.CheckSchema(ctx, pool)
}

// Describe turns start-up errors into the text an operator needs on stderr.
func Describe(err error) string {
	var ve *config.ValidationError
	if errors.As(err, &ve) {
		return ve.Error()
	}
	return fmt.Sprintf("error: %v", err)
}

// LoadKeys loads the encryption keyring into store and reports its state: passthrough
// without a master key, and the key versions a wrong master key cannot open.
func LoadKeys(ctx context.Context, store *postgres.DB, cfg *config.Config, log *slog.Logger) error {
	keys, err := store.LoadKeyring(ctx, cfg.MasterKey, assess.SystemActor)
	if err != nil {
		return fmt.Errorf("encryption keys: %w", err)
	}
	switch {
	case keys.Passthrough():
		log.WarnContext(ctx, "MASTER_ENCRYPTION_KEY is not set: secrets are stored in plaintext (passthrough mode); see docs/encryption.md")
	case len(keys.Unusable()) > 0:
		log.ErrorContext(ctx, "the master key cannot open some encryption key versions: records encrypted under them cannot be read until the right MASTER_ENCRYPTION_KEY is configured",
			slog.Any("unusable_versions", keys.Unusable()))
	default:
		log.InfoContext(ctx, "encryption at rest enabled", slog.Int("key_version", keys.Current()))
	}
	return nil
}

// WarnAppURL warns when APP_URL is not set: the links in e-mails and chat messages and the
// URLs written into signed attestations (the issuer's key set, evidence links) then name
// this machine's loopback address, which nobody else reaches and a signature keeps for good.
func WarnAppURL(ctx context.Context, cfg *config.Config, log *slog.Logger) {
	if cfg.IsSet("APP_URL") {
		return
	}
	log.WarnContext(ctx, "APP_URL is not set: links in e-mails and the URLs written into signed attestations use "+cfg.AppURL+
		", which only this machine reaches; set APP_URL to the address users open (docs/configuration.md)", slog.String("app_url", cfg.AppURL))
}

func firstOf(tracers []pgx.QueryTracer) pgx.QueryTracer {
	if len(tracers) == 0 {
		return nil
	}
	return tracers[0]
}
