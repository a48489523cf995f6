package main

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

func TestMain(m *testing.M) {
	if os.Getenv(envChild) != "" {
		os.Exit(runChild())
	}
	pgtest.Main(m)
}

func TestWorkerRefusesOutdatedSchema(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewEmptyDatabase(t)
	err := run(context.Background(), []string{"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + dsn}, io.Discard)
	require.Error(t, err)
	require.Contains(t, err.Error(), "assay-ctl migrate")
}

// TestTwoWorkersRunPeriodicJobOnce runs two worker processes' worth of wiring against
// one database: the start-up run of the session cleanup happens once, not twice.
func TestTwoWorkersRunPeriodicJobOnce(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	env := []string{"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + dsn, "SHUTDOWN_TIMEOUT=5s"}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	for range 2 {
		go func() { done <- run(ctx, env, io.Discard) }()
	}
	conn, err := pgx.Connect(context.Background(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	count := func() int {
		var n int
		require.NoError(t, conn.QueryRow(context.Background(), "SELECT count(*) FROM maintenance_runs WHERE job = 'maintenance.cleanup_sessions'").Scan(&n))
		return n
	}
	require.Eventually(t, func() bool { return count() >= 1 }, 30*time.Second, 100*time.Millisecond)
	time.Sleep(2 * time.Second)
	require.Equal(t, 1, count())
	cancel()
	for range 2 {
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(20 * time.Second):
			t.Fatal("worker did not stop")
		}
	}
}
