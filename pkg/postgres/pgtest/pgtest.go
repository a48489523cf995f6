// Package pgtest gives tests real PostgreSQL databases: one cluster per test process
// (TEST_DATABASE_URL when set, otherwise a private embedded cluster) and, per test, a
// fresh database cloned from a template that has every migration applied.
package pgtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/assay-dev/assay/migrations"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/embedpg"
)

// EnvURL names a connection string to an existing cluster (any database on it; the role
// must be allowed to create databases). The test script sets it to share one cluster
// between all test packages.
const EnvURL = "TEST_DATABASE_URL"

var (
	adminDSN string // connection string to the cluster's maintenance database
	template string // name of the migrated template database
)

// Main runs the tests of a package against a real cluster. Call it from TestMain.
func Main(m *testing.M) {
	os.Exit(Run(m))
}

// Run is Main without the exit: it returns the exit code, for a TestMain that checks
// something once every test has run.
func Run(m *testing.M) int {
	ctx := context.Background()
	if url := os.Getenv(EnvURL); url != "" {
		adminDSN = url
	} else {
		dir, err := os.MkdirTemp("/tmp", "assay-pgtest-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		_ = os.Chmod(dir, 0o755)
		srv, err := embedpg.Start(ctx, embedpg.Config{
			DataDir: dir, Database: "postgres",
			Settings: map[string]string{"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "300"},
			Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "pgtest: start embedded cluster:", err)
			return 1
		}
		defer func() { _ = srv.Stop(context.Background()) }()
		adminDSN = srv.ConnStringFor("postgres")
	}
	var err error
	if template, err = ensureTemplate(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest: template:", err)
		return 1
	}
	return m.Run()
}

// templateName changes whenever a migration changes, so stale templates are never used.
func templateName() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.FS, path)
		h.Write([]byte(path))
		h.Write(b)
		return err
	})
	return "assay_tmpl_" + hex.EncodeToString(h.Sum(nil))[:16], err
}

// ensureTemplate builds the template once per cluster; concurrent test processes
// serialise on an advisory lock and the template appears only fully migrated (it is
// built under another name and renamed).
func ensureTemplate(ctx context.Context) (string, error) {
	name, err := templateName()
	if err != nil {
		return "", err
	}
	conn, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(7243001)"); err != nil {
		return "", err
	}
	defer func() { _, _ = conn.Exec(ctx, "SELECT pg_advisory_unlock(7243001)") }()
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil || exists {
		return name, err
	}
	build := name + "_build"
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+build); err != nil {
		return "", err
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+build); err != nil {
		return "", err
	}
	pool, err := pgxpool.New(ctx, dsnFor(build))
	if err != nil {
		return "", err
	}
	_, err = postgres.Migrate(ctx, pool, slog.New(slog.NewTextHandler(io.Discard, nil)))
	pool.Close()
	if err != nil {
		return "", err
	}
	_, err = conn.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", build, name))
	return name, err
}

// dsnFor returns the admin connection string pointed at another database.
func dsnFor(db string) string {
	cfg, err := pgconn.ParseConfig(adminDSN)
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf("host=%s port=%d user=%s password='%s' dbname=%s sslmode=disable",
		cfg.Host, cfg.Port, cfg.User, cfg.Password, db)
}

// NewDatabase creates a migrated database for this test, dropped when the test ends, and
// returns its connection string.
func NewDatabase(t testing.TB) string {
	t.Helper()
	return newDatabase(t, template)
}

// NewEmptyDatabase creates an empty (unmigrated) database for this test.
func NewEmptyDatabase(t testing.TB) string {
	t.Helper()
	return newDatabase(t, "template0")
}

func newDatabase(t testing.TB, from string) string {
	if adminDSN == "" {
		t.Fatal("pgtest: call pgtest.Main from TestMain")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "t_" + hex.EncodeToString(b)
	conn, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		t.Fatalf("pgtest: connect: %v", err)
	}
	defer conn.Close(ctx)
	for attempt := 0; ; attempt++ {
		_, err = conn.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, from))
		var pgErr *pgconn.PgError
		// 55006: the template is briefly in use (another process copying it); retry.
		if err == nil || !errors.As(err, &pgErr) || pgErr.Code != "55006" || attempt > 50 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, adminDSN)
		if err != nil {
			t.Errorf("pgtest: drop %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name)); err != nil {
			t.Errorf("pgtest: drop %s: %v", name, err)
		}
	})
	return dsnFor(name)
}

// NewPool returns a pool on a fresh migrated database, closed when the test ends.
func NewPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), NewDatabase(t))
	if err != nil {
		t.Fatalf("pgtest: pool: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}
