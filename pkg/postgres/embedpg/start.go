package embedpg

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5"
)

// errUnsupported is returned by Start and Attach where the manager cannot run.
var errUnsupported = errors.New("embedded database: DATABASE_PROVIDER=pglite is supported on Linux only; " +
	"use an external server instead (DATABASE_PROVIDER=postgres with DATABASE_URL)")

// Start starts the embedded cluster, initialising it on first use, and
// returns once Config.Database accepts connections. It owns the data
// directory exclusively until Stop: a second Start fails with ErrLocked.
// Nothing in the data directory is created or changed before the binaries,
// the version guard and the directory permissions have been checked.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if !platformSupported {
		return nil, errUnsupported
	}
	return start(ctx, c)
}

func start(ctx context.Context, c Config) (*Server, error) {
	began := time.Now()
	ctx, cancel := context.WithTimeout(ctx, c.StartTimeout)
	defer cancel()

	binDir, err := findBinaries(c.BinDir, c.candidatesFunc)
	if err != nil {
		return nil, err
	}
	version, err := binaryVersion(ctx, binDir)
	if err != nil {
		return nil, err
	}
	owner, err := resolveRunAs(c.RunAsUser)
	if err != nil {
		return nil, err
	}
	if owner != nil {
		if err := checkTraversable(c.DataDir, owner); err != nil {
			return nil, err
		}
	}
	dataDir, err := createDataDir(c.DataDir)
	if err != nil {
		return nil, err
	}
	lock, err := acquireLock(dataDir)
	if err != nil {
		return nil, err
	}
	s := &Server{logger: c.Logger, dataDir: dataDir, port: serverPort, database: c.Database,
		version: version, lock: lock, stopGrace: c.stopGrace}
	initialized, err := s.boot(ctx, c, binDir, owner)
	if err != nil {
		s.abortStart()
		return nil, err
	}
	uid, userName := os.Getuid(), ""
	if owner != nil {
		uid, userName = int(owner.uid), owner.name
	} else if u, err := user.Current(); err == nil {
		userName = u.Username
	}
	c.Logger.Info("embedded postgres ready",
		"data_dir", dataDir, "version", version, "bin_dir", binDir, "pid", s.proc.pid,
		"uid", uid, "user", userName, "initialized", initialized, "socket_dir", s.socketDir,
		"duration", time.Since(began).Round(time.Millisecond))
	return s, nil
}

// boot does the work of Start once the lock is held: version guard, socket
// and ownership set-up, initdb when needed, server start, database creation.
func (s *Server) boot(ctx context.Context, c Config, binDir string, owner *runAs) (initialized bool, err error) {
	pgData := filepath.Join(s.dataDir, pgDataName)
	state, err := inspectCluster(pgData, binDir, s.version)
	if err != nil {
		return false, err
	}
	if err := s.prepareSocketDir(owner); err != nil {
		return false, err
	}
	logFile, err := os.OpenFile(filepath.Join(s.dataDir, "postgres.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return false, fmt.Errorf("embedpg: open server log: %w", err)
	}
	// The children keep their own descriptors; ours is only needed here.
	defer logFile.Close()
	if owner != nil {
		if err := chownTree(s.dataDir, owner); err != nil {
			return false, err
		}
	}
	if err := clearInitdbDebris(s.dataDir, state, c.Logger); err != nil {
		return false, err
	}
	if state != clusterPresent {
		if err := initCluster(ctx, s.dataDir, binDir, owner, logFile); err != nil {
			return false, err
		}
	}
	l := &launcher{binDir: binDir, pgData: pgData, socketDir: s.socketDir, owner: owner,
		settings: c.Settings, logFile: logFile, logger: c.Logger}
	if s.proc, err = l.start(ctx); err != nil {
		return false, err
	}
	created, err := ensureDatabase(ctx, s.ConnStringFor("postgres"), c.Database)
	if err != nil {
		return false, err
	}
	if created && state == clusterPresent {
		c.Logger.Warn("embedded postgres: created the missing application database (interrupted first start?)", "database", c.Database)
	}
	return state != clusterPresent, nil
}

// prepareSocketDir uses DataDir/run unless the socket path would not fit in
// sun_path (108 bytes on Linux), in which case it falls back to a private
// temporary directory that Stop removes.
func (s *Server) prepareSocketDir(owner *runAs) error {
	run := filepath.Join(s.dataDir, "run")
	if socketFits(run) {
		if err := os.Mkdir(run, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("embedpg: create socket directory: %w", err)
		}
		s.socketDir = run
		return os.Chmod(run, 0o700)
	}
	for _, base := range []string{os.TempDir(), "/tmp"} {
		dir, err := os.MkdirTemp(base, "embedpg-")
		if err != nil {
			continue
		}
		if !socketFits(dir) {
			os.Remove(dir)
			continue
		}
		s.socketDir, s.tempSocketDir = dir, dir
		if owner == nil {
			return nil
		}
		if err := checkTraversable(dir, owner); err != nil {
			return err
		}
		return os.Lchown(dir, int(owner.uid), int(owner.gid))
	}
	return fmt.Errorf("embedded database: the socket path under %s is longer than the %d bytes a unix socket allows, "+
		"and no short temporary directory is available; use a shorter data directory path", run, maxSocketPathLen)
}

func socketFits(dir string) bool {
	return len(filepath.Join(dir, fmt.Sprintf(".s.PGSQL.%d", serverPort))) <= maxSocketPathLen
}

// ensureDatabase creates the application database when missing. It runs on
// every start, which also repairs a first start interrupted after initdb.
func ensureDatabase(ctx context.Context, dsn, name string) (created bool, err error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return false, fmt.Errorf("embedpg: connect to the new server: %w", err)
	}
	defer conn.Close(context.Background())
	var exists bool
	err = conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists)
	if err != nil {
		return false, fmt.Errorf("embedpg: look up database %q: %w", name, err)
	}
	if exists {
		return false, nil
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return false, fmt.Errorf("embedpg: create database %q: %w", name, err)
	}
	return true, nil
}

// abortStart undoes a failed Start: stop the server if it runs, drop the
// temporary socket directory, release the lock.
func (s *Server) abortStart() {
	if s.proc != nil {
		if err := s.proc.shutdown(context.Background(), 5*time.Second, s.logger); err != nil {
			s.logger.Warn("embedded postgres: stop after failed start", "error", err)
		}
	}
	if s.tempSocketDir != "" {
		_ = os.RemoveAll(s.tempSocketDir)
	}
	_ = s.lock.release()
}
