package postgres

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/assay-dev/assay/migrations"
)

// migrationLockKey is the advisory lock that serialises migration runs across replicas
// and the ctl command ("assay:mg" as a number, so it cannot clash with River's locks).
const migrationLockKey int64 = 0x61737361793a6d67

var migrationName = regexp.MustCompile(`^(\d{4})_[a-z0-9_]+\.sql$`)

// Migration is one embedded SQL migration.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// MigrateResult says what a migration run did.
type MigrateResult struct {
	RiverVersions []int // River migrations applied in this run
	Applied       []Migration
	Version       int // application schema version after the run
}

// LoadMigrations parses the embedded migration files, sorted by version. A file with a
// malformed name or a duplicate version is a programming error reported here.
func LoadMigrations(fsys fs.FS) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var out []Migration
	seen := map[int]string{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		m := migrationName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("migration file %q: name must look like 0001_description.sql", e.Name())
		}
		v, _ := strconv.Atoi(m[1])
		if prev, dup := seen[v]; dup {
			return nil, fmt.Errorf("migration version %d used twice (%s, %s)", v, prev, e.Name())
		}
		seen[v] = e.Name()
		body, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: v, Name: e.Name(), SQL: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// Migrate applies River's migrations and then every pending application migration, each
// in its own transaction, while holding an advisory lock so concurrent starters wait for
// each other instead of racing. Running it again is a no-op.
func Migrate(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) (MigrateResult, error) {
	var res MigrateResult
	all, err := LoadMigrations(migrations.FS)
	if err != nil {
		return res, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return res, fmt.Errorf("migrate: acquire connection: %w", err)
	}
	defer conn.Release()
	// Migrations (and waiting for another replica's) may outlast DB_STATEMENT_TIMEOUT.
	if _, err := conn.Exec(ctx, "SET statement_timeout = 0"); err != nil {
		return res, fmt.Errorf("migrate: %w", err)
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), "RESET statement_timeout") }()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLockKey); err != nil {
		return res, fmt.Errorf("migrate: take advisory lock: %w", err)
	}
	defer func() {
		// A fresh context: the lock must be released even when ctx was cancelled.
		_, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLockKey)
	}()

	if res.RiverVersions, err = migrateRiver(ctx, pool, log); err != nil {
		return res, err
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return res, fmt.Errorf("migrate: create schema_migrations: %w", err)
	}
	applied, err := appliedVersions(ctx, conn.Conn())
	if err != nil {
		return res, err
	}
	for _, m := range all {
		if applied[m.Version] {
			continue
		}
		if err := applyOne(ctx, conn.Conn(), m); err != nil {
			return res, err
		}
		log.InfoContext(ctx, "migration applied", slog.Int("version", m.Version), slog.String("name", m.Name))
		res.Applied = append(res.Applied, m)
	}
	if len(all) > 0 {
		res.Version = all[len(all)-1].Version
	}
	return res, nil
}

// migrateRiver applies River's pending migrations. River runs each version in its own
// transaction on the pool (a version may add an enum value the next one uses); the
// caller's advisory lock keeps concurrent starters out meanwhile.
func migrateRiver(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) ([]int, error) {
	migrator, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("migrate: river: %w", err)
	}
	out, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if err != nil {
		return nil, fmt.Errorf("migrate: river: %w", err)
	}
	applied := make([]int, 0, len(out.Versions))
	for _, v := range out.Versions {
		applied = append(applied, v.Version)
	}
	return applied, nil
}

func appliedVersions(ctx context.Context, conn *pgx.Conn) (map[int]bool, error) {
	rows, err := conn.Query(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("migrate: read schema_migrations: %w", err)
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return nil, err
	}
	out := make(map[int]bool, len(versions))
	for _, v := range versions {
		out[v] = true
	}
	return out, nil
}

func applyOne(ctx context.Context, conn *pgx.Conn, m Migration) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, m.SQL); err != nil {
		return fmt.Errorf("migration %s: %w", m.Name, err)
	}
	if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.Version, m.Name); err != nil {
		return fmt.Errorf("migration %s: record: %w", m.Name, err)
	}
	return tx.Commit(ctx)
}
