package workers

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/jobs"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestCleanupSessionsDeletesOnlyLongExpired(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	_, err := pool.Exec(ctx, `INSERT INTO users (id, username, email) VALUES ('u_1', 'a', 'a@example.com')`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO sessions (id, user_id, expires_at) VALUES
		('s_old', 'u_1', $1), ('s_recent', 'u_1', $2), ('s_live', 'u_1', $3)`,
		now.Add(-48*time.Hour), now.Add(-time.Hour), now.Add(time.Hour))
	require.NoError(t, err)

	w := &CleanupSessionsWorker{Service: postgres.New(pool, nil), Logger: quiet, Now: func() time.Time { return now }, WorkerName: "t"}
	job := &river.Job[jobs.CleanupSessionsArgs]{
		JobRow: &rivertype.JobRow{ID: 1, Kind: jobs.CleanupSessionsArgs{}.Kind()},
		Args:   jobs.CleanupSessionsArgs{RetainExpired: 24 * time.Hour},
	}
	require.NoError(t, w.Work(ctx, job))
	require.NoError(t, w.Work(ctx, job)) // idempotent

	var left []string
	rows, err := pool.Query(ctx, "SELECT id FROM sessions ORDER BY id")
	require.NoError(t, err)
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		left = append(left, id)
	}
	require.Equal(t, []string{"s_live", "s_recent"}, left)

	var runs, affected int64
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*), sum(affected) FROM maintenance_runs").Scan(&runs, &affected))
	require.Equal(t, int64(2), runs)
	require.Equal(t, int64(1), affected)
}

// TestPeriodicJobRunsOncePerIntervalWithTwoWorkers starts two clients, each with its own
// pool as two worker processes would have, and checks the periodic job ran once per
// interval, not once per worker.
func TestPeriodicJobRunsOncePerIntervalWithTwoWorkers(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	ctx := context.Background()
	const interval = time.Second
	var pools []*pgxpool.Pool
	var clients []*river.Client[pgx.Tx]
	for i := range 2 {
		pool, err := pgxpool.New(ctx, dsn)
		require.NoError(t, err)
		t.Cleanup(pool.Close)
		pools = append(pools, pool)
		c, err := NewClient(pool, Config{
			RunWorkers: true, Maintenance: postgres.New(pool, nil), Logger: quiet,
			SessionCleanupInterval: interval, SessionRetainExpired: time.Hour, Name: []string{"worker-a", "worker-b"}[i],
		})
		require.NoError(t, err)
		require.NoError(t, c.Start(ctx))
		clients = append(clients, c)
	}
	const window = 5500 * time.Millisecond
	time.Sleep(window)
	for _, c := range clients {
		require.NoError(t, Stop(c, 5*time.Second))
	}
	var runs int
	require.NoError(t, pools[0].QueryRow(ctx,
		"SELECT count(*) FROM maintenance_runs WHERE job = 'maintenance.cleanup_sessions'").Scan(&runs))
	// One leader enqueues: at most one run per interval in the window (plus the run on
	// start). Two independent schedulers would have produced about twice as many.
	require.GreaterOrEqual(t, runs, 2)
	require.LessOrEqual(t, runs, int(window/interval)+1)
}
