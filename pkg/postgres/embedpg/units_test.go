//go:build linux

package embedpg

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"
)

func TestVersionParsing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		banner, version, major string
	}{
		{"postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)\n", "15.18", "15"},
		{"postgres (PostgreSQL) 17.2", "17.2", "17"},
		{"postgres (PostgreSQL) 18devel", "18devel", "18"},
		{"postgres (PostgreSQL) 9.6.24", "9.6.24", "9.6"},
		{"15.18 (Debian 15.18-0+deb12u1)", "15.18", "15"}, // SHOW server_version
	}
	for _, tt := range tests {
		version := versionFromBanner(tt.banner)
		require.Equal(t, tt.version, version, tt.banner)
		require.Equal(t, tt.major, majorVersion(version), tt.banner)
	}
}

func TestGlobNewestFirstOrdersByVersionNotByName(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, v := range []string{"9.6", "10", "16", "15"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, v, "bin"), 0o755))
	}
	got := globNewestFirst(filepath.Join(root, "*", "bin"))
	want := []string{"16", "15", "10", "9.6"}
	for i, v := range want {
		want[i] = filepath.Join(root, v, "bin")
	}
	require.Equal(t, want, got)
}

func TestConnStringSurvivesUnusualPaths(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{"/srv/data/run", "/home/a user/it's here/run", `/odd\dir/run`} {
		cfg, err := pgconn.ParseConfig(connString(dir, 5432, "my db"))
		require.NoError(t, err, dir)
		require.Equal(t, dir, cfg.Host)
		require.Equal(t, "my db", cfg.Database)
		require.Equal(t, "postgres", cfg.User)
		require.Equal(t, uint16(5432), cfg.Port)
	}
}

func TestConfigDefaultsAndReservedSettings(t *testing.T) {
	t.Parallel()
	c, err := Config{DataDir: "relative/data"}.withDefaults()
	require.NoError(t, err)
	require.True(t, filepath.IsAbs(c.DataDir))
	require.Equal(t, "assay", c.Database)
	require.Equal(t, 60*time.Second, c.StartTimeout)
	require.NotNil(t, c.Logger)

	_, err = Config{}.withDefaults()
	require.ErrorContains(t, err, "DataDir is required")
	for _, name := range []string{"port", "listen_addresses", "Unix_Socket_Directories"} {
		_, err = Config{DataDir: "/x", Settings: map[string]string{name: "1"}}.withDefaults()
		require.ErrorContains(t, err, "cannot be overridden", name)
	}
	_, err = Config{DataDir: "/x", Settings: map[string]string{"fsync=off -c x": "1"}}.withDefaults()
	require.ErrorContains(t, err, "invalid setting name")
}

func TestReadPostmasterPID(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	content := "4242\n/data/pgdata\n1763830000\n5432\n/data/run\n\n  5432001    131072\nready   \n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "postmaster.pid"), []byte(content), 0o600))
	info, err := readPostmasterPID(dir)
	require.NoError(t, err)
	require.Equal(t, postmasterInfo{pid: 4242, port: 5432, socketDir: "/data/run", status: "ready"}, info)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "postmaster.pid"), []byte("4242\n/data/pgdata\n"), 0o600))
	info, err = readPostmasterPID(dir)
	require.NoError(t, err)
	require.Empty(t, info.status, "a server that is still starting has no status line yet")
}

func TestCanSearch(t *testing.T) {
	t.Parallel()
	owner := &runAs{name: "postgres", uid: 101, gid: 104}
	tests := []struct {
		mode     os.FileMode
		uid, gid uint32
		want     bool
	}{
		{0o755, 0, 0, true},
		{0o700, 0, 0, false},
		{0o750, 0, 104, true},
		{0o750, 0, 0, false},
		{0o700, 101, 0, true},
		{0o077, 101, 104, false}, // the owner bits apply to the owner, even if others may enter
	}
	for _, tt := range tests {
		dir := t.TempDir()
		require.NoError(t, os.Chmod(dir, tt.mode))
		if os.Geteuid() == 0 {
			require.NoError(t, os.Chown(dir, int(tt.uid), int(tt.gid)))
		} else if tt.uid != uint32(os.Getuid()) {
			continue // cannot give files away without root
		}
		fi, err := os.Stat(dir)
		require.NoError(t, err)
		require.Equal(t, tt.want, canSearch(fi, owner), "mode %v owner %d:%d", tt.mode, tt.uid, tt.gid)
		require.NoError(t, os.Chmod(dir, 0o700)) // let t.TempDir clean up as non-root
	}
}
