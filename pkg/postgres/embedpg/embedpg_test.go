//go:build linux

package embedpg

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// testDataDir returns a not yet existing data directory. It lives under /tmp
// because t.TempDir's directories are 0700 and, when the tests run as root,
// the postgres uid could not enter them.
func testDataDir(t *testing.T) string {
	t.Helper()
	base, err := os.MkdirTemp("/tmp", "embedpg-test-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(base, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	return filepath.Join(base, "data")
}

// testConfig trades durability for speed; crash recovery still works
// because the tests kill processes, not the machine.
func testConfig(t *testing.T) Config {
	t.Helper()
	return Config{
		DataDir:      testDataDir(t),
		Settings:     map[string]string{"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"},
		StartTimeout: 60 * time.Second,
		Logger:       slog.New(slog.NewTextHandler(testLogWriter{t}, nil)),
	}
}

type testLogWriter struct{ t *testing.T }

func (w testLogWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// startServer starts a server that is stopped when the test ends.
func startServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	srv, err := Start(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, srv.Stop(context.Background())) })
	return srv
}

func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func execSQL(t *testing.T, dsn string, sql string, args ...any) {
	t.Helper()
	conn := connect(t, dsn)
	_, err := conn.Exec(context.Background(), sql, args...)
	require.NoError(t, err)
	require.NoError(t, conn.Close(context.Background()))
}

func queryStrings(t *testing.T, dsn string, sql string) []string {
	t.Helper()
	conn := connect(t, dsn)
	rows, err := conn.Query(context.Background(), sql)
	require.NoError(t, err)
	values, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	require.NoError(t, conn.Close(context.Background()))
	return values
}

func TestStartStopRestartKeepsData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := testConfig(t)

	srv, err := Start(ctx, cfg)
	require.NoError(t, err)
	require.Contains(t, srv.ConnString(), "host="+filepath.Join(cfg.DataDir, "run")+" ")
	require.Contains(t, srv.ConnString(), "dbname=assay")
	require.Equal(t, "15", majorVersion(srv.Version()), "this machine has PostgreSQL 15 binaries")
	require.Equal(t, []string{"assay"}, queryStrings(t, srv.ConnString(), "SELECT current_database()::text"))
	execSQL(t, srv.ConnString(), "CREATE TABLE note (body text)")
	execSQL(t, srv.ConnString(), "INSERT INTO note VALUES ($1)", "kept across restarts")
	assertServerNotRoot(t, cfg.DataDir)

	require.NoError(t, srv.Stop(ctx))
	require.NoError(t, srv.Stop(ctx), "Stop is idempotent")
	require.NoFileExists(t, filepath.Join(cfg.DataDir, "pgdata", "postmaster.pid"), "fast shutdown removes it")

	srv = startServer(t, cfg)
	require.Equal(t, []string{"kept across restarts"}, queryStrings(t, srv.ConnString(), "SELECT body FROM note"))
	require.FileExists(t, filepath.Join(cfg.DataDir, "postgres.log"))
}

// assertServerNotRoot checks, when the tests run as root, that postgres runs
// as the unprivileged postgres user and owns its files.
func assertServerNotRoot(t *testing.T, dataDir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	pg, err := user.Lookup("postgres")
	require.NoError(t, err)
	info, err := readPostmasterPID(filepath.Join(dataDir, "pgdata"))
	require.NoError(t, err)
	status, err := os.ReadFile("/proc/" + strconv.Itoa(info.pid) + "/status")
	require.NoError(t, err)
	require.Contains(t, string(status), fmt.Sprintf("Uid:\t%s\t%s", pg.Uid, pg.Uid))
	fi, err := os.Stat(filepath.Join(dataDir, "pgdata"))
	require.NoError(t, err)
	require.Equal(t, pg.Uid, strconv.Itoa(int(fi.Sys().(*syscall.Stat_t).Uid)))
}

func TestSecondStartIsLockedAndAttachSharesTheServer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := testConfig(t)
	srv := startServer(t, cfg)
	execSQL(t, srv.ConnString(), "CREATE TABLE note (body text)")

	_, err := Start(ctx, cfg)
	require.ErrorIs(t, err, ErrLocked)
	require.Contains(t, err.Error(), fmt.Sprintf("data directory %s is in use by another process (pid %d)", cfg.DataDir, os.Getpid()))

	attached, err := Attach(ctx, cfg)
	require.NoError(t, err)
	require.Equal(t, srv.ConnString(), attached.ConnString())
	require.Equal(t, srv.Version(), attached.Version())
	execSQL(t, attached.ConnString(), "INSERT INTO note VALUES ('written through the attached server')")
	require.Equal(t, []string{"written through the attached server"}, queryStrings(t, srv.ConnString(), "SELECT body FROM note"))

	require.NoError(t, attached.Stop(ctx))
	require.Equal(t, []string{"1"}, queryStrings(t, srv.ConnString(), "SELECT count(*)::text FROM note"),
		"stopping an attached server leaves the owner's server running")

	require.NoError(t, srv.Stop(ctx))
	owned, err := Attach(ctx, cfg)
	require.NoError(t, err, "with the lock free, Attach starts the server itself")
	require.Equal(t, []string{"1"}, queryStrings(t, owned.ConnString(), "SELECT count(*)::text FROM note"))
	_, err = Start(ctx, cfg)
	require.ErrorIs(t, err, ErrLocked, "a server started by Attach owns the lock")
	require.NoError(t, owned.Stop(ctx))
	require.NoFileExists(t, filepath.Join(cfg.DataDir, "pgdata", "postmaster.pid"), "its Stop really stops it")
}

func TestStartRepairsAnInterruptedFirstStart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := testConfig(t)
	// Debris of a first start killed during initdb, in both layouts.
	pgData := filepath.Join(cfg.DataDir, "pgdata")
	require.NoError(t, os.MkdirAll(pgData, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(pgData, "user-file"), []byte("keep me"), 0o600))
	require.NoError(t, os.MkdirAll(filepath.Join(cfg.DataDir, initdbTempName, "base"), 0o700))

	srv, err := Start(ctx, cfg)
	require.NoError(t, err)
	aside, err := filepath.Glob(pgData + ".incomplete-*")
	require.NoError(t, err)
	require.Len(t, aside, 1, "the incomplete directory is moved aside, not deleted")
	kept, err := os.ReadFile(filepath.Join(aside[0], "user-file"))
	require.NoError(t, err)
	require.Equal(t, "keep me", string(kept))
	require.NoDirExists(t, filepath.Join(cfg.DataDir, initdbTempName))

	// A first start interrupted after initdb leaves a cluster without the
	// application database; the next start creates it.
	execSQL(t, srv.ConnStringFor("postgres"), "DROP DATABASE assay")
	require.NoError(t, srv.Stop(ctx))
	srv = startServer(t, cfg)
	require.Equal(t, []string{"assay"}, queryStrings(t, srv.ConnString(), "SELECT current_database()::text"))
}

func TestStartFallsBackToATemporarySocketDirForLongPaths(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := testConfig(t)
	cfg.DataDir = filepath.Join(cfg.DataDir, strings.Repeat("long-directory-name/", 5))
	require.False(t, socketFits(filepath.Join(cfg.DataDir, "run")))

	srv, err := Start(ctx, cfg)
	require.NoError(t, err)
	require.NotContains(t, srv.ConnString(), cfg.DataDir)
	require.Equal(t, []string{"assay"}, queryStrings(t, srv.ConnString(), "SELECT current_database()::text"))

	attached, err := Attach(ctx, cfg)
	require.NoError(t, err)
	require.Equal(t, srv.ConnString(), attached.ConnString(), "Attach finds the socket through postmaster.pid")

	socketDir := srv.tempSocketDir
	require.DirExists(t, socketDir)
	require.NoError(t, srv.Stop(ctx))
	require.NoDirExists(t, socketDir, "Stop removes the temporary socket directory")
}

func TestStopEscalatesWhenTheContextIsDone(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	if os.Geteuid() == 0 {
		cfg.RunAsUser = "nobody" // also covers an explicitly configured account
	}
	srv, err := Start(context.Background(), cfg)
	require.NoError(t, err)
	if os.Geteuid() == 0 {
		nobody, err := user.Lookup("nobody")
		require.NoError(t, err)
		status, err := os.ReadFile("/proc/" + strconv.Itoa(srv.proc.pid) + "/status")
		require.NoError(t, err)
		require.Contains(t, string(status), "Uid:\t"+nobody.Uid+"\t")
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	require.NoError(t, srv.Stop(cancelled), "an immediate shutdown still stops the server")
	serverLog, err := os.ReadFile(filepath.Join(cfg.DataDir, "postgres.log"))
	require.NoError(t, err)
	require.Contains(t, string(serverLog), "received immediate shutdown request")

	srv = startServer(t, cfg)
	require.Equal(t, []string{"assay"}, queryStrings(t, srv.ConnString(), "SELECT current_database()::text"))
}
