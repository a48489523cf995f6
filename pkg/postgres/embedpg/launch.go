package embedpg

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

const (
	readyPollInterval = 50 * time.Millisecond
	// A killed postmaster stays a zombie until reaped and its backends need a
	// moment to exit; postgres refuses to start until then, so a few retries
	// turn a crash of app and server into a slower start instead of an error.
	startRetryDelay   = 500 * time.Millisecond
	maxStartAttempts  = 20
	orphanStopTimeout = 30 * time.Second
)

// launcher starts postgres for one cluster and waits until it serves queries.
type launcher struct {
	binDir    string
	pgData    string // symlink-free, as postgres reports it in /proc/<pid>/cwd
	socketDir string
	owner     *runAs
	settings  map[string]string
	logFile   *os.File
	logger    *slog.Logger
}

// command builds the postgres invocation. The settings here are enforced on
// the command line so that nothing in postgresql.conf can open a TCP
// listener next to trust authentication or move the socket.
func (l *launcher) command() *exec.Cmd {
	args := []string{"-D", l.pgData,
		"-c", "listen_addresses=",
		"-c", "unix_socket_directories=" + quoteListElement(l.socketDir),
		"-c", "unix_socket_permissions=0700",
		"-c", "port=" + strconv.Itoa(serverPort),
	}
	names := make([]string, 0, len(l.settings))
	for name := range l.settings {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		args = append(args, "-c", name+"="+l.settings[name])
	}
	cmd := exec.Command(filepath.Join(l.binDir, "postgres"), args...)
	cmd.Dir = l.pgData
	cmd.Env = childEnv()
	// An *os.File, not a pipe: with a pipe the log was lost once we died.
	cmd.Stdout, cmd.Stderr = l.logFile, l.logFile
	cmd.SysProcAttr = childProcAttr(l.owner, signalFast)
	return cmd
}

// quoteListElement quotes a directory for a comma-separated GUC list.
func quoteListElement(dir string) string {
	if strings.ContainsAny(dir, ", \t\"") {
		return `"` + strings.ReplaceAll(dir, `"`, `""`) + `"`
	}
	return dir
}

// start runs postgres until it is ready, retrying while a crashed previous
// server still blocks the data directory.
func (l *launcher) start(ctx context.Context) (*serverProcess, error) {
	for attempt := 1; ; attempt++ {
		if err := l.stopOrphan(ctx); err != nil {
			return nil, err
		}
		offset := fileSize(l.logFile)
		p, err := startProcess(l.command())
		if err != nil {
			return nil, fmt.Errorf("embedpg: start %s: %w", filepath.Join(l.binDir, "postgres"), err)
		}
		err = l.waitReady(ctx, p, offset)
		if err == nil {
			return p, nil
		}
		exit, ok := errorsAsEarlyExit(err)
		if !ok {
			return nil, err
		}
		reason := l.transientReason(exit)
		if reason == "" || attempt == maxStartAttempts {
			return nil, fmt.Errorf("%w\n  (full log: %s)", err, l.logFile.Name())
		}
		l.logger.Info("embedded postgres: a previous server is still releasing the data directory; retrying",
			"reason", reason, "attempt", attempt, "data_dir", filepath.Dir(l.pgData))
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w\n  (full log: %s)", err, l.logFile.Name())
		case <-time.After(startRetryDelay):
		}
	}
}

// transientReason says why a failed start is worth retrying, or "" when it
// is not: the data directory is blocked by a previous server that is dead
// but not yet gone (an unreaped postmaster, or backends still attached to its
// shared memory), or by our own orphan that is still shutting down.
func (l *launcher) transientReason(exit *earlyExitError) string {
	if strings.Contains(exit.logTail, "pre-existing shared memory block") {
		return "backends of the previous server are still exiting"
	}
	if !strings.Contains(exit.logTail, `lock file "postmaster.pid" already exists`) {
		return ""
	}
	info, err := readPostmasterPID(l.pgData)
	if err != nil {
		return "postmaster.pid changed while starting"
	}
	switch {
	case processState(info.pid) == procZombie:
		return fmt.Sprintf("the previous postmaster (pid %d) has not been reaped yet", info.pid)
	case processState(info.pid) == procGone:
		return fmt.Sprintf("the previous postmaster (pid %d) exited meanwhile", info.pid)
	case l.isOurPostmaster(info.pid):
		return fmt.Sprintf("the previous postmaster (pid %d) is still shutting down", info.pid)
	default:
		return ""
	}
}

// waitReady waits until postmaster.pid names our child as ready and one
// connection succeeds; the pid check keeps us from mistaking a previous
// server for ours. It stops the child when ctx ends first.
func (l *launcher) waitReady(ctx context.Context, p *serverProcess, offset int64) error {
	tick := time.NewTicker(readyPollInterval)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			return &earlyExitError{waitErr: p.waitErr, logTail: readLogSince(l.logFile.Name(), offset, 20)}
		case <-ctx.Done():
			_ = p.shutdown(context.Background(), time.Second, l.logger)
			return fmt.Errorf("embedded database: postgres did not become ready: %w%s",
				ctx.Err(), formatLogTail(l.logFile.Name(), offset))
		case <-tick.C:
			if l.ready(ctx, p.pid) {
				return nil
			}
		}
	}
}

func (l *launcher) ready(ctx context.Context, pid int) bool {
	info, err := readPostmasterPID(l.pgData)
	if err != nil || info.pid != pid || info.status != "ready" {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, connString(l.socketDir, serverPort, "postgres"))
	if err != nil {
		return false
	}
	_ = conn.Close(ctx)
	return true
}

// stopOrphan stops a postmaster still serving our data directory from a
// previous run of ours, which we can tell because we hold the lock. On Linux
// Pdeathsig has usually asked it to shut down already; we wait for that.
func (l *launcher) stopOrphan(ctx context.Context) error {
	info, err := readPostmasterPID(l.pgData)
	if err != nil || processState(info.pid) != procRunning || !l.isOurPostmaster(info.pid) {
		return nil
	}
	l.logger.Warn("embedded postgres: stopping a server left running by a previous process", "pid", info.pid)
	if err := signalProcess(info.pid, signalFast); err != nil {
		return fmt.Errorf("embedded database: stop the previous server (pid %d) of %s: %w", info.pid, l.pgData, err)
	}
	deadline := time.NewTimer(orphanStopTimeout)
	defer deadline.Stop()
	for processState(info.pid) == procRunning {
		select {
		case <-ctx.Done():
			return fmt.Errorf("embedded database: waiting for the previous server (pid %d) to stop: %w", info.pid, ctx.Err())
		case <-deadline.C:
			return fmt.Errorf("embedded database: the previous server (pid %d) of %s did not stop within %s; stop it and retry",
				info.pid, l.pgData, orphanStopTimeout)
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil
}

func (l *launcher) isOurPostmaster(pid int) bool {
	cwd, err := processCwd(pid)
	return err == nil && cwd == l.pgData
}
