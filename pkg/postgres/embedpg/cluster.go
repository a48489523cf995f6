package embedpg

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// clusterState is what a data directory holds before start.
type clusterState int

const (
	clusterMissing    clusterState = iota // no pgdata (or an empty one): run initdb
	clusterIncomplete                     // pgdata without PG_VERSION: not ours to use or delete
	clusterPresent                        // a cluster of the binaries' major version
)

const (
	pgDataName = "pgdata"
	// initdbTempName is where initdb writes; it is renamed to pgdata only when
	// initdb succeeded, so "pgdata exists" always means "initdb finished" and a
	// first start interrupted mid-initdb is redone from scratch.
	initdbTempName = "pgdata.initdb-tmp"
)

// inspectCluster classifies dataDir/pgdata without modifying anything, and
// refuses a cluster of another major version: its files must stay untouched
// until the user decides how to upgrade.
func inspectCluster(pgData, binDir, version string) (clusterState, error) {
	raw, err := os.ReadFile(filepath.Join(pgData, "PG_VERSION"))
	if err == nil {
		dataMajor := strings.TrimSpace(string(raw))
		if binMajor := majorVersion(version); dataMajor != binMajor {
			return 0, &detailedError{sentinel: ErrVersionMismatch, msg: fmt.Sprintf(
				"embedded database: the data in %s was created by PostgreSQL %s, but the binaries in %s are %s; "+
					"set PG_BIN_DIR to PostgreSQL %s binaries, or migrate the data (pg_upgrade, or pg_dump and restore). "+
					"The data was NOT modified", pgData, dataMajor, binDir, version, dataMajor)}
		}
		return clusterPresent, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("embedpg: read PG_VERSION: %w", err)
	}
	entries, err := os.ReadDir(pgData)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return clusterMissing, nil
	case err != nil:
		return 0, fmt.Errorf("embedpg: read %s: %w", pgData, err)
	case len(entries) == 0:
		return clusterMissing, nil
	default:
		return clusterIncomplete, nil
	}
}

// clearInitdbDebris prepares dataDir for initdb. A leftover temporary initdb
// directory never held user data and is removed; an incomplete pgdata (from
// an older layout or made by hand) is moved aside, never deleted.
func clearInitdbDebris(dataDir string, state clusterState, logger *slog.Logger) error {
	tmp := filepath.Join(dataDir, initdbTempName)
	if _, err := os.Lstat(tmp); err == nil {
		logger.Warn("embedded postgres: removing the remains of an interrupted initdb", "dir", tmp)
		if err := os.RemoveAll(tmp); err != nil {
			return fmt.Errorf("embedpg: remove interrupted initdb directory: %w", err)
		}
	}
	pgData := filepath.Join(dataDir, pgDataName)
	switch state {
	case clusterIncomplete:
		aside := fmt.Sprintf("%s.incomplete-%s", pgData, time.Now().UTC().Format("20060102T150405Z"))
		logger.Warn("embedded postgres: data directory has no PG_VERSION (interrupted first start?); moving it aside and initialising a new cluster",
			"from", pgData, "to", aside)
		if err := os.Rename(pgData, aside); err != nil {
			return fmt.Errorf("embedpg: move incomplete %s aside: %w", pgData, err)
		}
	case clusterMissing:
		// An empty pgdata is removed so the rename after initdb can take its place.
		if err := os.Remove(pgData); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("embedpg: remove empty %s: %w", pgData, err)
		}
	}
	return nil
}

// initCluster runs initdb into a temporary directory and renames it to
// pgdata. Trust auth is safe because the only listener is a 0700 socket
// directory; --locale=C works everywhere, musl included.
func initCluster(ctx context.Context, dataDir, binDir string, owner *runAs, logFile *os.File) error {
	tmp := filepath.Join(dataDir, initdbTempName)
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "initdb"),
		"-D", tmp, "-U", superuser, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-instructions")
	cmd.Dir = dataDir
	cmd.Env = childEnv()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// initdb is killed with us: the temporary directory makes that harmless.
	cmd.SysProcAttr = childProcAttr(owner, signalKill)

	offset := fileSize(logFile)
	fmt.Fprintf(logFile, "%s embedpg: running initdb in %s\n", time.Now().Format(time.RFC3339), tmp)
	proc, err := startProcess(cmd)
	if err == nil {
		<-proc.done
		err = proc.waitErr
	}
	if err != nil {
		return fmt.Errorf("embedded database: initdb failed: %w%s", err, formatLogTail(logFile.Name(), offset))
	}
	pgData := filepath.Join(dataDir, pgDataName)
	if err := os.Rename(tmp, pgData); err != nil {
		return fmt.Errorf("embedpg: move initialised cluster into place: %w", err)
	}
	return syncDir(dataDir)
}

// syncDir makes a rename durable before we rely on it.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("embedpg: open %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("embedpg: sync %s: %w", dir, err)
	}
	return nil
}

// childEnv is our environment without PG* and locale variables: the child's
// behaviour must not depend on the developer's shell (PGDATA, PGOPTIONS…), and
// the C locale keeps the log lines we match on in English.
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "PG") || strings.HasPrefix(name, "LC_") || name == "LANG" || name == "LANGUAGE" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C", "LANG=C")
}

func fileSize(f *os.File) int64 {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	return fi.Size()
}
