package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/embedpg"
)

// TestCommandsAttachToRunningEmbeddedServer holds the embedded data directory as a
// running server would, and runs the operator commands against the same directory: they
// attach to its cluster instead of being refused.
func TestCommandsAttachToRunningEmbeddedServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an embedded cluster")
	}
	t.Parallel()
	dir, err := os.MkdirTemp("/tmp", "assay-ctl-attach-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	dataDir := filepath.Join(dir, "pglite")
	owner, err := embedpg.Start(context.Background(), embedpg.Config{
		DataDir: dataDir, Settings: map[string]string{"fsync": "off"}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = owner.Stop(context.Background()) })

	env := []string{"DATABASE_PROVIDER=pglite", "PGLITE_DATA_DIR=" + dataDir, "MASTER_ENCRYPTION_KEY=" + keyA}
	out, err := execute(t, env, "migrate")
	require.NoError(t, err, out)
	require.Contains(t, out, "up to date")
	out, err = execute(t, env, "rotate-encryption-key")
	require.NoError(t, err, out)
	require.Contains(t, out, "key version 2 is current")
	st := status(t, env)
	require.Equal(t, 2, st.CurrentVersion)
}
