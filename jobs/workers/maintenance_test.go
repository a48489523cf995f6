package workers

import (
	"context"
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

func TestPurgeLimitsDeletesOnlyExpiredRows(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	_, err := pool.Exec(ctx, `INSERT INTO rate_limit_counters (key, window_start, count) VALUES
		('cred:old', $1, 5), ('auth:10.0.0.1', $2, 3), ('cred:now', $3, 1)`,
		now.Add(-2*time.Hour), now.Add(-15*time.Minute), now.Truncate(time.Minute))
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO idempotency_keys (scope, endpoint, key, request_hash, status, created_at, completed_at) VALUES
		('cred:a', 'POST /api/v1/things', 'expired', '\x00', 201, $1, $1),
		('cred:a', 'POST /api/v1/things', 'stuck', '\x00', NULL, $2, NULL),
		('cred:a', 'POST /api/v1/things', 'recent', '\x00', 201, $3, $3)`,
		now.Add(-25*time.Hour), now.Add(-24*time.Hour-time.Second), now.Add(-23*time.Hour))
	require.NoError(t, err)

	w := &PurgeLimitsWorker{Service: postgres.New(pool, nil), Logger: quiet, Now: func() time.Time { return now }, WorkerName: "t"}
	job := &river.Job[jobs.PurgeLimitsArgs]{
		JobRow: &rivertype.JobRow{ID: 1, Kind: jobs.PurgeLimitsArgs{}.Kind()},
		Args:   jobs.PurgeLimitsArgs{}, // zero retentions: the defaults, 1 h and 24 h
	}
	require.NoError(t, w.Work(ctx, job))
	require.NoError(t, w.Work(ctx, job)) // idempotent

	require.Equal(t, []string{"auth:10.0.0.1", "cred:now"}, column(t, ctx, pool, "SELECT key FROM rate_limit_counters ORDER BY key"))
	require.Equal(t, []string{"recent"}, column(t, ctx, pool, "SELECT key FROM idempotency_keys ORDER BY key"))

	var runs, affected int64
	require.NoError(t, pool.QueryRow(ctx,
		"SELECT count(*), sum(affected) FROM maintenance_runs WHERE job = 'maintenance.purge_limits'").Scan(&runs, &affected))
	require.Equal(t, int64(2), runs)
	require.Equal(t, int64(3), affected)
}

// TestPurgeLimitsIsScheduled checks the client registers the purge as a periodic job that
// runs on start.
func TestPurgeLimitsIsScheduled(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	ctx := context.Background()
	c, err := NewClient(pool, Config{RunWorkers: true, Maintenance: postgres.New(pool, nil), Logger: quiet, Name: "worker-a"})
	require.NoError(t, err)
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() { _ = Stop(c, 5*time.Second) })
	require.Eventually(t, func() bool {
		var runs int
		err := pool.QueryRow(ctx, "SELECT count(*) FROM maintenance_runs WHERE job = 'maintenance.purge_limits'").Scan(&runs)
		return err == nil && runs == 1
	}, 15*time.Second, 100*time.Millisecond)
}

// column returns the text column of query's rows.
func column(t *testing.T, ctx context.Context, pool *pgxpool.Pool, query string) []string {
	t.Helper()
	rows, err := pool.Query(ctx, query)
	require.NoError(t, err)
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return out
}
