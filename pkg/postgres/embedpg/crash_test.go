//go:build linux

package embedpg

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

const helperDataDirEnv = "EMBEDPG_HELPER_DATA_DIR"

// TestHelperProcess is the application in TestCrashRecovery: it starts the
// server, writes a row, reports the postmaster pid and waits to be killed.
func TestHelperProcess(t *testing.T) {
	dataDir := os.Getenv(helperDataDirEnv)
	if dataDir == "" {
		t.Skip("helper process for TestCrashRecovery")
	}
	ctx := context.Background()
	srv, err := Start(ctx, Config{DataDir: dataDir, Settings: map[string]string{"fsync": "off", "full_page_writes": "off"}})
	if err != nil {
		fmt.Println("ERROR", strings.ReplaceAll(err.Error(), "\n", " | "))
		os.Exit(1)
	}
	conn, err := pgx.Connect(ctx, srv.ConnString())
	if err == nil {
		_, err = conn.Exec(ctx, "CREATE TABLE note (body text); INSERT INTO note VALUES ('written before the crash')")
	}
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	fmt.Println("READY", srv.proc.pid)
	for {
		time.Sleep(time.Minute)
	}
}

func TestCrashRecovery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		killPostmaster bool
		wantLog        string
	}{
		// Pdeathsig turns the app's death into a fast shutdown of postgres.
		{name: "app killed", killPostmaster: false, wantLog: "database system was shut down at"},
		// An OOM kill of the whole container: WAL replay on the next start.
		{name: "app and postmaster killed", killPostmaster: true, wantLog: "automatic recovery in progress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t)
			runCrashingApp(t, cfg.DataDir, tt.killPostmaster)
			logBefore, err := os.ReadFile(filepath.Join(cfg.DataDir, "postgres.log"))
			require.NoError(t, err)

			srv := startServer(t, cfg)
			require.Equal(t, []string{"written before the crash"}, queryStrings(t, srv.ConnString(), "SELECT body FROM note"))
			logAfter, err := os.ReadFile(filepath.Join(cfg.DataDir, "postgres.log"))
			require.NoError(t, err)
			require.Contains(t, string(logAfter[len(logBefore):]), tt.wantLog)
		})
	}
}

// runCrashingApp runs TestHelperProcess and kills it with SIGKILL, and its
// postmaster too when killPostmaster is set. The postmaster goes first: if
// the app died first, Pdeathsig would start a clean shutdown.
func runCrashingApp(t *testing.T, dataDir string, killPostmaster bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperDataDirEnv+"="+dataDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})

	lines := helperReport(stdout)
	// stderr may be read only once the process is gone and its copier done.
	helperFailed := func(format string, args ...any) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf(format+"\nhelper stderr:\n%s", append(args, stderr.String())...)
	}
	var line string
	select {
	case line = <-lines:
	case <-time.After(60 * time.Second):
		helperFailed("helper process did not report readiness")
	}
	pidText, ok := strings.CutPrefix(line, "READY ")
	if !ok {
		helperFailed("helper process failed: %q", line)
	}
	pid, err := strconv.Atoi(pidText)
	require.NoError(t, err)
	info, err := readPostmasterPID(filepath.Join(dataDir, "pgdata"))
	require.NoError(t, err)
	require.Equal(t, pid, info.pid, "postmaster.pid names the helper's server")

	if killPostmaster {
		require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	}
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
}

// helperReport delivers the helper's READY or ERROR line, or closes the
// channel when the helper exits without one.
func helperReport(stdout io.Reader) <-chan string {
	lines := make(chan string, 1)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, "READY ") || strings.HasPrefix(line, "ERROR ") {
				lines <- line
				return
			}
		}
	}()
	return lines
}
