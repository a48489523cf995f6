package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// buildServer compiles this command once for the binary-level tests.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "assay-server")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, string(out))
	return bin
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

type proc struct {
	cmd  *exec.Cmd
	port int
	out  *syncBuffer
}

func startBinary(t *testing.T, bin, dataDir string) *proc {
	t.Helper()
	p := &proc{port: freePort(t), out: &syncBuffer{}}
	p.cmd = exec.Command(bin)
	p.cmd.Env = append(os.Environ(), "PGLITE_DATA_DIR="+dataDir, fmt.Sprintf("PORT=%d", p.port), "DATABASE_PROVIDER=pglite")
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	require.NoError(t, p.cmd.Start())
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	return p
}

func (p *proc) waitHealthy(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		res, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/api/health", p.port))
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("server not healthy:\n%s", p.out)
}

// TestEmbeddedSurvivesKill is the operator's story: data written, the process killed
// with SIGKILL, started again: the data is there. A second server on the same directory
// is refused with a message saying why, and SIGTERM ends the server cleanly.
func TestEmbeddedSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Parallel()
	bin := buildServer(t)
	dataDir, err := os.MkdirTemp("/tmp", "assay-embedded-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dataDir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dataDir) })
	pgDir := filepath.Join(dataDir, "pglite")

	dsn := fmt.Sprintf("host=%s port=5432 user=postgres dbname=assay sslmode=disable", filepath.Join(pgDir, "run"))

	// The processes belong to the test, not to a subtest: each outlives the step that
	// starts checking it.
	first := startBinary(t, bin, pgDir)
	step(t, "the server starts and data is written", func(t *testing.T) {
		first.waitHealthy(t)
		conn, err := pgx.Connect(context.Background(), dsn)
		require.NoError(t, err)
		defer conn.Close(context.Background())
		_, err = conn.Exec(context.Background(), "INSERT INTO app_config (key, value) VALUES ('kill_test', 'still here')")
		require.NoError(t, err)
	})

	second := startBinary(t, bin, pgDir)
	t.Run("a second server on the same data directory is refused, saying why", func(t *testing.T) {
		err := second.cmd.Wait()
		require.Error(t, err, "a second server on the same data directory must be refused")
		require.Contains(t, second.out.String(), "in use by another process")
	})

	require.NoError(t, first.cmd.Process.Signal(syscall.SIGKILL))
	_ = first.cmd.Wait()

	third := startBinary(t, bin, pgDir)
	step(t, "after SIGKILL a new server finds the data", func(t *testing.T) {
		third.waitHealthy(t)
		conn, err := pgx.Connect(context.Background(), dsn)
		require.NoError(t, err)
		defer conn.Close(context.Background())
		var v string
		require.NoError(t, conn.QueryRow(context.Background(), "SELECT value FROM app_config WHERE key = 'kill_test'").Scan(&v))
		require.Equal(t, "still here", v)
	})

	t.Run("SIGTERM stops the server cleanly", func(t *testing.T) {
		require.NoError(t, third.cmd.Process.Signal(syscall.SIGTERM))
		done := make(chan error, 1)
		go func() { done <- third.cmd.Wait() }()
		select {
		case err := <-done:
			require.NoError(t, err, third.out.String())
		case <-time.After(45 * time.Second):
			t.Fatal("server did not stop on SIGTERM")
		}
		require.Contains(t, third.out.String(), "embedded postgres stopped")
	})
}
