package main

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestRotatePlatformKey: the operator rotates the platform key from the command line; the
// retired keys stay (one active), and the rotation is in the audit log under the actor.
func TestRotatePlatformKey(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	env := []string{"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + dsn}
	for range 2 {
		out, err := execute(t, env, "rotate-platform-key", "--actor", "cli:ops")
		require.NoError(t, err)
		require.Contains(t, out, "is active; the previous key is retired")
	}
	conn, err := pgx.Connect(context.Background(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var keys, active, audited int
	require.NoError(t, conn.QueryRow(context.Background(), "SELECT count(*), count(*) FILTER (WHERE active) FROM platform_keys").Scan(&keys, &active))
	require.NoError(t, conn.QueryRow(context.Background(), "SELECT count(*) FROM audit_log WHERE action = 'platform_key.rotated' AND actor = 'cli:ops'").Scan(&audited))
	require.Equal(t, 3, keys, "the first key, created on first use, and two successors")
	require.Equal(t, 1, active)
	require.Equal(t, 2, audited)
}
