//go:build linux

package embedpg

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStartWithoutBinariesExplainsWhatToInstall(t *testing.T) {
	t.Parallel()
	emptyBinDir := t.TempDir()
	tests := []struct {
		name       string
		binDir     string
		wantDetail string
	}{
		{name: "explicit directory without binaries", binDir: emptyBinDir, wantDetail: emptyBinDir + " (PG_BIN_DIR) does not contain"},
		{name: "nothing on the search path", binDir: "", wantDetail: "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t)
			cfg.BinDir = tt.binDir
			cfg.candidatesFunc = func() []string { return nil } // a host without PostgreSQL

			_, err := Start(context.Background(), cfg)
			require.ErrorIs(t, err, ErrBinariesNotFound)
			require.Contains(t, err.Error(), tt.wantDetail)
			require.Contains(t, err.Error(), "apt-get install postgresql")
			require.Contains(t, err.Error(), "DATABASE_PROVIDER=postgres DATABASE_URL=")
			require.NoDirExists(t, cfg.DataDir, "nothing is created before the binaries are found")
		})
	}
}

func TestFindBinariesOnThisHost(t *testing.T) {
	t.Parallel()
	dir, err := FindBinaries("")
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(dir, "initdb"))
	require.FileExists(t, filepath.Join(dir, "postgres"))

	parent, err := FindBinaries(filepath.Dir(dir))
	require.NoError(t, err, "PG_BIN_DIR may name the installation rather than its bin directory")
	require.Equal(t, dir, parent)
}

func TestStartRefusesDataOfAnotherMajorVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := testConfig(t)
	srv, err := Start(ctx, cfg)
	require.NoError(t, err)
	require.NoError(t, srv.Stop(ctx))

	versionFile := filepath.Join(cfg.DataDir, "pgdata", "PG_VERSION")
	original, err := os.ReadFile(versionFile)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(versionFile, []byte("99\n"), 0o600))

	_, err = Start(ctx, cfg)
	require.ErrorIs(t, err, ErrVersionMismatch)
	require.Contains(t, err.Error(), "created by PostgreSQL 99")
	require.Contains(t, err.Error(), "PG_BIN_DIR")
	require.Contains(t, err.Error(), "The data was NOT modified")
	got, err := os.ReadFile(versionFile)
	require.NoError(t, err)
	require.Equal(t, "99\n", string(got))
	require.NoFileExists(t, filepath.Join(cfg.DataDir, "pgdata", "postmaster.pid"), "no server was started")

	require.NoError(t, os.WriteFile(versionFile, original, 0o600))
	startServer(t, cfg) // the refusal released the lock and left the cluster usable
}

func TestStartAsRootRefusesAnUntraversableParent(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("the ownership switch happens only when running as root")
	}
	cfg := testConfig(t)
	private := filepath.Join(filepath.Dir(cfg.DataDir), "private")
	require.NoError(t, os.Mkdir(private, 0o700))
	cfg.DataDir = filepath.Join(private, "data")
	require.NoError(t, os.Mkdir(cfg.DataDir, 0o700))
	existing := filepath.Join(cfg.DataDir, "existing-file")
	require.NoError(t, os.WriteFile(existing, nil, 0o600))

	_, err := Start(context.Background(), cfg)
	require.Error(t, err)
	require.Contains(t, err.Error(), "cannot enter "+private+" (mode drwx------")
	require.Contains(t, err.Error(), `chmod o+x `+private)
	require.Contains(t, err.Error(), "run the service as a non-root user")
	for _, path := range []string{private, cfg.DataDir, existing} {
		fi, err := os.Stat(path)
		require.NoError(t, err)
		require.Zero(t, fi.Sys().(*syscall.Stat_t).Uid, "%s must not be chowned", path)
	}
	require.NoFileExists(t, filepath.Join(cfg.DataDir, "lock"), "nothing is created either")
}

func TestStartFailureShowsTheServerLog(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.Settings["shared_buffers"] = "lots"

	_, err := Start(context.Background(), cfg)
	require.Error(t, err)
	require.Contains(t, err.Error(), "postgres exited during start-up")
	require.Contains(t, err.Error(), `invalid value for parameter "shared_buffers": "lots"`)
	require.Contains(t, err.Error(), filepath.Join(cfg.DataDir, "postgres.log"))

	held, _, err := lockHolder(cfg.DataDir)
	require.NoError(t, err)
	require.False(t, held, "a failed Start releases the data directory")
}
