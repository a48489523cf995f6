// Package postgres is the kit of the PostgreSQL store (pgx v5): the pool and DB, the
// transaction kit (Change, Tx), the list mechanism, driver errors as domain errors, the
// audit log, events with their fan-out and deliveries, encryption of fields at rest, the
// credential and unread caches, and the migrations runner. The domain services of package
// assess are built on it in the area packages identity, catalogue, work and delivery, which
// import only the kit; package services composes them.
package postgres

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/secret"
)

// PoolConfig sizes the connection pool and bounds its waits.
type PoolConfig struct {
	MaxConns        int32  // upper bound of open connections
	MinConns        int32  // connections kept open when idle
	ApplicationName string // shown in pg_stat_activity
	// StatementTimeout is the server-side statement_timeout of every connection (0: the
	// server's default).
	StatementTimeout time.Duration
	// ConnectTimeout bounds opening a connection unless the connection string sets
	// connect_timeout (default 10 s).
	ConnectTimeout time.Duration
	// KeepAlive is the TCP keep-alive period of connections (0: Go's default, 15 s).
	KeepAlive time.Duration
	// Tracer observes every query when set.
	Tracer pgx.QueryTracer
}

// OpenPool connects to dsn and verifies the connection with a ping.
func OpenPool(ctx context.Context, dsn string, cfg PoolConfig) (*pgxpool.Pool, error) {
	pc, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("database: parse connection string: %w", err)
	}
	if cfg.MaxConns > 0 {
		pc.MaxConns = cfg.MaxConns
	}
	pc.MinConns = cfg.MinConns
	if !strings.Contains(dsn, "connect_timeout") {
		pc.ConnConfig.ConnectTimeout = cmp.Or(cfg.ConnectTimeout, 10*time.Second)
	}
	dialer := &net.Dialer{Timeout: pc.ConnConfig.ConnectTimeout, KeepAlive: cfg.KeepAlive}
	pc.ConnConfig.DialFunc = dialer.DialContext
	pc.ConnConfig.Tracer = cfg.Tracer
	if cfg.StatementTimeout > 0 {
		pc.ConnConfig.RuntimeParams["statement_timeout"] = strconv.FormatInt(cfg.StatementTimeout.Milliseconds(), 10)
	}
	if cfg.ApplicationName != "" {
		pc.ConnConfig.RuntimeParams["application_name"] = cfg.ApplicationName
	}
	// No JIT compilation unless the connection string asks for it: the service's queries
	// are short, and an overestimated plan (a recursive walk of a requirement tree when a
	// large standard skews the statistics) crosses jit_above_cost and spends hundreds of
	// milliseconds compiling what runs in a few (make bench, assessment-workspace: 654 ms
	// with JIT, 21 ms without, docs/performance.md).
	if _, set := pc.ConnConfig.RuntimeParams["jit"]; !set {
		pc.ConnConfig.RuntimeParams["jit"] = "off"
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("database: cannot connect to %s:%d: %w", pc.ConnConfig.Host, pc.ConnConfig.Port, err)
	}
	return pool, nil
}

// DB is what every service of the store shares: the pool, the clock, the keyring, the
// delivery configuration, the job client and the caches.
type DB struct {
	Pool      *pool
	Now       func() time.Time
	Keys      *secret.Keyring
	fields    []EncryptedField
	SetupSeen *atomic.Bool // once true it stays true: users are never all deleted
	Delivery  DeliveryConfig
	jobs      *river.Client[pgx.Tx] // insert-only: delivery jobs join the change's transaction
	Creds     *credentialCache      // resolved principals; nil: no cache
	RoleNames *roleNames            // role id → name, for reads of users (rolenames.go)
	Unread    *unreadCache          // unread-notification counts (unreadcache.go)
}

// New returns a DB on pool. now is the clock (time.Now when nil); the store reads it to
// the microsecond, the precision PostgreSQL keeps, so that a record a change answers with
// carries the same times as every later read of it (pgx drops the nanoseconds when it
// sends a time).
func New(p *pgxpool.Pool, now func() time.Time) *DB {
	if now == nil {
		now = time.Now
	}
	clock := now
	now = func() time.Time { return clock().Truncate(time.Microsecond) }
	return &DB{Pool: &pool{Pool: p}, Now: now, Keys: secret.NewKeyring(nil, nil), fields: EncryptedFields, SetupSeen: &atomic.Bool{},
		Delivery: defaultDeliveryConfig(), jobs: newInsertOnlyClient(p),
		RoleNames: &roleNames{}, Unread: newUnreadCache(0, now)}
}

// PgxPool returns the underlying pgx pool (for River and metrics).
func (db *DB) PgxPool() *pgxpool.Pool { return db.Pool.Pool }

// WithAcquireTimeout bounds the wait for a free pooled connection (DB_ACQUIRE_TIMEOUT):
// past it a call fails with 503 service_unavailable instead of queueing on.
func (db *DB) WithAcquireTimeout(d time.Duration) *DB {
	db.Pool.acquireTimeout = d
	return db
}

// CheckHealth runs a trivial query through the pool, bounded by a short timeout so a
// stuck database turns health into 503 instead of a hanging request.
func (db *DB) CheckHealth(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var one int
	return db.Pool.QueryRow(ctx, "SELECT 1").Scan(&one)
}

// SetupComplete reports whether any user exists.
func (db *DB) SetupComplete(ctx context.Context) (bool, error) {
	if db.SetupSeen.Load() {
		return true, nil
	}
	var exists bool
	if err := db.Pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM users)").Scan(&exists); err != nil {
		return false, fmt.Errorf("setup state: %w", err)
	}
	if exists {
		db.SetupSeen.Store(true)
	}
	return exists, nil
}

// AppConfigJWTSecret is the app_config key of the generated session-signing secret.
const AppConfigJWTSecret = "jwt_secret"

// jwtSecretAAD binds the stored JWT secret to its row.
var jwtSecretAAD = EncryptedFields[0].AAD(AppConfigJWTSecret)

// JWTSecret returns the session-signing secret stored in app_config, generating and
// storing one (sealed through the keyring) on first use. Concurrent first starts of
// several replicas agree on a single value: the insert does nothing on conflict and
// everybody reads back the winner.
func (db *DB) JWTSecret(ctx context.Context) (string, error) {
	stored, err := db.appConfig(ctx, AppConfigJWTSecret)
	if errors.Is(err, pgx.ErrNoRows) {
		if err := db.generateJWTSecret(ctx); err != nil {
			return "", err
		}
		stored, err = db.appConfig(ctx, AppConfigJWTSecret)
	}
	if err != nil {
		return "", fmt.Errorf("read JWT secret: %w", err)
	}
	plain, err := db.Keys.Open(ctx, jwtSecretAAD, stored)
	return string(plain), err
}

// generateJWTSecret stores a fresh secret unless another process stored one first.
func (db *DB) generateJWTSecret(ctx context.Context) error {
	buf := make([]byte, 48)
	if _, err := rand.Read(buf); err != nil {
		return err
	}
	sealed, err := db.Keys.Seal(ctx, jwtSecretAAD, []byte(hex.EncodeToString(buf)))
	if err != nil {
		return err
	}
	_, err = db.Pool.Exec(ctx, "INSERT INTO app_config (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
		AppConfigJWTSecret, sealed)
	if err != nil {
		return fmt.Errorf("store generated JWT secret: %w", err)
	}
	return nil
}

func (db *DB) appConfig(ctx context.Context, key string) (string, error) {
	var value string
	err := db.Pool.QueryRow(ctx, "SELECT value FROM app_config WHERE key = $1", key).Scan(&value)
	return value, err
}

// PurgeExpiredSessions implements assess.MaintenanceService.
func (db *DB) PurgeExpiredSessions(ctx context.Context, olderThan time.Time) (int64, error) {
	tag, err := db.Pool.Exec(ctx, "DELETE FROM sessions WHERE expires_at < $1", olderThan)
	if err != nil {
		return 0, fmt.Errorf("purge expired sessions: %w", err)
	}
	return tag.RowsAffected(), nil
}

// RecordMaintenanceRun implements assess.MaintenanceService.
func (db *DB) RecordMaintenanceRun(ctx context.Context, run assess.MaintenanceRun) error {
	_, err := db.Pool.Exec(ctx,
		`INSERT INTO maintenance_runs (job, started_at, finished_at, affected, worker) VALUES ($1, $2, $3, $4, $5)`,
		run.Job, run.StartedAt, run.FinishedAt, run.Affected, run.Worker)
	return err
}

var (
	_ assess.SetupService       = (*DB)(nil)
	_ assess.HealthChecker      = (*DB)(nil)
	_ assess.MaintenanceService = (*DB)(nil)
)
