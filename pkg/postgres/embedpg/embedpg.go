// Package embedpg runs a private PostgreSQL server as a child process, for
// DATABASE_PROVIDER=pglite (documented as "embedded PostgreSQL").
//
// The server is real PostgreSQL from binaries installed on the host, so SQL,
// migrations and River behave exactly as in production. It listens only on a
// unix socket inside the data directory (mode 0700), which is what makes the
// trust authentication written by initdb safe. Nothing is ever downloaded.
//
// Layout under Config.DataDir:
//
//	pgdata/        the cluster (PGDATA)
//	run/           the socket directory
//	postgres.log   server output, appended across runs
//	lock           flock held by the owning process for the life of the Server
package embedpg

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Sentinel errors. The errors returned by this package carry a detailed,
// user-facing message and wrap one of these, so callers can branch with
// errors.Is while still printing err.Error() as is.
var (
	// ErrBinariesNotFound reports that no directory holding both initdb and
	// postgres was found; the message explains how to install them.
	ErrBinariesNotFound = errors.New("embedpg: PostgreSQL server binaries not found")
	// ErrLocked reports that another process owns the data directory.
	ErrLocked = errors.New("embedpg: data directory is in use by another process")
	// ErrVersionMismatch reports that the cluster was created by a different
	// PostgreSQL major version than the binaries found; the data is left as is.
	ErrVersionMismatch = errors.New("embedpg: data directory and binaries have different PostgreSQL major versions")
)

// detailedError carries a complete user-facing message while still matching
// its sentinel with errors.Is, so the message is not prefixed twice.
type detailedError struct {
	sentinel error
	msg      string
}

func (e *detailedError) Error() string { return e.msg }
func (e *detailedError) Unwrap() error { return e.sentinel }

const (
	defaultDatabase     = "assay"
	defaultStartTimeout = 60 * time.Second
	// superuser is the role initdb creates; the socket's 0700 mode is the
	// access control, so there is no password.
	superuser = "postgres"
	// serverPort only names the socket file (.s.PGSQL.5432): there is no TCP listener.
	serverPort = 5432
)

// reservedSettings are owned by the manager: changing them would open a TCP
// listener with trust auth or move the socket away from ConnString.
var reservedSettings = map[string]bool{
	"port":                    true,
	"listen_addresses":        true,
	"unix_socket_directories": true,
	"unix_socket_permissions": true,
}

var settingName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)

// Config configures an embedded cluster. Only DataDir is required.
type Config struct {
	// DataDir holds the cluster (DataDir/pgdata), the socket (DataDir/run),
	// the server log (DataDir/postgres.log) and the ownership lock (DataDir/lock).
	DataDir string
	// BinDir is an explicit directory holding initdb and postgres (the caller
	// reads PG_BIN_DIR into it). When set, it must contain them: a wrong
	// explicit setting is reported instead of silently using other binaries.
	BinDir string
	// RunAsUser is the account postgres runs as when this process is root
	// (postgres refuses to run as root). Default: "postgres", else "nobody".
	// Ignored when not running as root.
	RunAsUser string
	// Database is created when missing, on every start. Default "assay".
	Database string
	// Settings are extra server settings passed as -c name=value, e.g.
	// fsync=off in tests. port, listen_addresses and unix_socket_* are reserved.
	Settings map[string]string
	// StartTimeout bounds initdb plus server start-up. Default 60s.
	StartTimeout time.Duration
	// Logger receives start/stop lines. Default slog.Default().
	Logger *slog.Logger

	// candidatesFunc replaces the default binary search path; tests use it
	// to simulate a host without PostgreSQL.
	candidatesFunc func() []string
	// stopGrace is how long a fast shutdown may take before SIGQUIT; zero
	// means 30s.
	stopGrace time.Duration
}

// withDefaults validates c and fills in defaults; DataDir becomes absolute.
func (c Config) withDefaults() (Config, error) {
	if c.DataDir == "" {
		return c, errors.New("embedpg: Config.DataDir is required")
	}
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return c, fmt.Errorf("embedpg: resolve data directory: %w", err)
	}
	c.DataDir = abs
	if c.Database == "" {
		c.Database = defaultDatabase
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = defaultStartTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.candidatesFunc == nil {
		c.candidatesFunc = defaultCandidates
	}
	if c.stopGrace <= 0 {
		c.stopGrace = 30 * time.Second
	}
	for name := range c.Settings {
		if !settingName.MatchString(name) {
			return c, fmt.Errorf("embedpg: invalid setting name %q", name)
		}
		if reservedSettings[strings.ToLower(name)] {
			return c, fmt.Errorf("embedpg: setting %q is managed by embedpg and cannot be overridden", name)
		}
	}
	return c, nil
}

// Server is a running embedded cluster, or a connection point to one owned
// by another process (see Attach). It is safe for concurrent use.
type Server struct {
	logger    *slog.Logger
	dataDir   string
	socketDir string
	port      int
	database  string
	version   string

	// proc and lock are nil for a Server attached to another process's cluster.
	proc *serverProcess
	lock *dirLock
	// tempSocketDir is set when the socket path was too long for sun_path and
	// a private temporary directory is used instead; Stop removes it.
	tempSocketDir string
	stopGrace     time.Duration

	stopOnce sync.Once
	stopErr  error
}

// ConnString returns a keyword/value DSN for Config.Database, usable by pgx,
// pgxpool and River exactly like an external server's URL.
func (s *Server) ConnString() string { return s.ConnStringFor(s.database) }

// ConnStringFor returns a DSN for database db on the same server, e.g. for
// tests that create one database per test from a template.
func (s *Server) ConnStringFor(db string) string {
	return connString(s.socketDir, s.port, db)
}

// Version returns the server version, e.g. "15.18": of the binaries for a
// started server, as reported by the server for an attached one.
func (s *Server) Version() string { return s.version }

// Stop shuts the server down with a fast shutdown (SIGINT, which checkpoints),
// escalating to SIGQUIT after ~30s or when ctx is done, and to SIGKILL if that
// fails too. It then releases the data-directory lock. Calling Stop again
// returns the first result. For an attached Server, Stop does nothing.
func (s *Server) Stop(ctx context.Context) error {
	s.stopOnce.Do(func() { s.stopErr = s.stop(ctx) })
	return s.stopErr
}

func (s *Server) stop(ctx context.Context) error {
	if s.proc == nil {
		return nil
	}
	began := time.Now()
	err := s.proc.shutdown(ctx, s.stopGrace, s.logger)
	if s.tempSocketDir != "" {
		if rmErr := os.RemoveAll(s.tempSocketDir); rmErr != nil {
			s.logger.Warn("embedded postgres: remove temporary socket directory", "dir", s.tempSocketDir, "error", rmErr)
		}
	}
	err = errors.Join(err, s.lock.release())
	s.logger.Info("embedded postgres stopped", "data_dir", s.dataDir, "duration", time.Since(began).Round(time.Millisecond))
	return err
}

// quoteDSNValue quotes a keyword/value DSN value when needed; paths with
// spaces are legal data directories.
func quoteDSNValue(v string) string {
	if v != "" && !strings.ContainsAny(v, " '\\\t\n") {
		return v
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}
