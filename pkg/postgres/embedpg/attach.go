package embedpg

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

const attachPollInterval = 100 * time.Millisecond

// Attach is Start for CLI tools that may run next to the service. When no
// process owns the data directory it starts the server like Start (and the
// caller must Stop it). When another process owns it, Attach waits up to
// StartTimeout for that server to be ready and returns a Server connected to
// its socket; that Server's Stop does nothing, because the server is not ours.
func Attach(ctx context.Context, cfg Config) (*Server, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if !platformSupported {
		return nil, errUnsupported
	}
	held, _, err := lockHolder(c.DataDir)
	if err != nil {
		return nil, err
	}
	if !held {
		srv, err := start(ctx, c)
		if !errors.Is(err, ErrLocked) {
			return srv, err
		}
		// Another process took the lock between our check and our start.
	}
	return attachRunning(ctx, c)
}

// attachRunning polls the owner's cluster until it accepts connections to
// Config.Database; the owner may still be starting or creating the database.
func attachRunning(ctx context.Context, c Config) (*Server, error) {
	waitCtx, cancel := context.WithTimeout(ctx, c.StartTimeout)
	defer cancel()
	tick := time.NewTicker(attachPollInterval)
	defer tick.Stop()
	for {
		srv, err := tryAttach(waitCtx, c)
		if err == nil {
			return srv, nil
		}
		held, pid, lockErr := lockHolder(c.DataDir)
		if lockErr == nil && !held {
			// The owner stopped while we waited: the directory is ours now.
			return start(ctx, c)
		}
		select {
		case <-waitCtx.Done():
			return nil, &detailedError{sentinel: ErrLocked, msg: fmt.Sprintf(
				"embedded database: data directory %s is in use by another process%s whose server did not accept connections within %s: %v",
				c.DataDir, pidSuffix(pid), c.StartTimeout, err)}
		case <-tick.C:
		}
	}
}

func tryAttach(ctx context.Context, c Config) (*Server, error) {
	info, err := readPostmasterPID(filepath.Join(c.DataDir, pgDataName))
	if err != nil {
		return nil, err
	}
	if info.status != "ready" {
		return nil, fmt.Errorf("server status is %q", info.status)
	}
	if processState(info.pid) != procRunning {
		return nil, fmt.Errorf("postmaster pid %d is not running", info.pid)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, connString(info.socketDir, info.port, c.Database))
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	var banner string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&banner); err != nil {
		return nil, err
	}
	c.Logger.Info("embedded postgres attached to a server owned by another process",
		"data_dir", c.DataDir, "pid", info.pid, "socket_dir", info.socketDir)
	return &Server{
		logger:    c.Logger,
		dataDir:   c.DataDir,
		socketDir: info.socketDir,
		port:      info.port,
		database:  c.Database,
		version:   versionFromBanner(banner),
	}, nil
}

func pidSuffix(pid int) string {
	if pid <= 0 {
		return ""
	}
	return fmt.Sprintf(" (pid %d)", pid)
}

// postmasterInfo is the part of pgdata/postmaster.pid we use. Its line
// layout is stable since PostgreSQL 10: pid, data directory, start time,
// port, first socket directory, first listen address, shared memory key,
// status.
type postmasterInfo struct {
	pid       int
	port      int
	socketDir string
	status    string // "starting", "ready", "stopping", "standby"; empty until set
}

func readPostmasterPID(pgData string) (postmasterInfo, error) {
	raw, err := os.ReadFile(filepath.Join(pgData, "postmaster.pid"))
	if err != nil {
		return postmasterInfo{}, err
	}
	lines := strings.Split(string(raw), "\n")
	field := func(i int) string {
		if i < len(lines) {
			return strings.TrimSpace(lines[i])
		}
		return ""
	}
	var info postmasterInfo
	if info.pid, err = strconv.Atoi(field(0)); err != nil || info.pid <= 0 {
		return postmasterInfo{}, fmt.Errorf("embedpg: malformed postmaster.pid in %s", pgData)
	}
	info.port, _ = strconv.Atoi(field(3))
	info.socketDir = field(4)
	info.status = field(7)
	return info, nil
}

// connString is the DSN for a server listening on socketDir.
func connString(socketDir string, port int, db string) string {
	return fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable",
		quoteDSNValue(socketDir), port, superuser, quoteDSNValue(db))
}
