package workers

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/jobs"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// TestExpireEvidenceJob runs the expiry job on a moving clock: evidence past its
// valid-until day becomes expired with one evidence.expired each; evidence within the
// reminder window gets exactly one evidence.expiring however often the job runs; evidence
// further out, or without a validity end, is left alone until its time comes.
func TestExpireEvidenceJob(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	ctx := context.Background()
	now := time.Date(2026, 6, 10, 8, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	_, err := pool.Exec(ctx, `INSERT INTO users (id, username, email) VALUES ('u_author', 'author', 'author@example.com')`)
	require.NoError(t, err)
	for _, ev := range []struct{ name, state, until string }{
		{"ev_past", "claimed", "2026-06-09"}, {"ev_today", "in_progress", "2026-06-10"}, {"ev_soon", "in_review", "2026-06-24"},
		{"ev_later", "in_progress", "2026-06-25"}, {"ev_open", "in_progress", ""},
	} {
		_, err = pool.Exec(ctx, `INSERT INTO evidence (id, name, author_id, state, valid_until) VALUES ($1, $2, 'u_author', $3, nullif($4, '')::date)`,
			assess.NewID(assess.PrefixEvidence, now), ev.name, ev.state, ev.until)
		require.NoError(t, err)
	}

	db := postgres.New(pool, clock)
	w := &ExpireEvidenceWorker{Service: services.New(db).Evidence, Maintenance: db, Logger: quiet, Now: clock, WorkerName: "t"}
	job := &river.Job[jobs.ExpireEvidenceArgs]{JobRow: &rivertype.JobRow{ID: 1, Kind: jobs.ExpireEvidenceArgs{}.Kind()},
		Args: jobs.ExpireEvidenceArgs{ReminderDays: 14}}
	require.NoError(t, w.Work(ctx, job))
	require.NoError(t, w.Work(ctx, job)) // idempotent

	states := func() []string {
		return column(t, ctx, pool, "SELECT name || '=' || state FROM evidence ORDER BY name")
	}
	events := func(typ string) []string {
		return column(t, ctx, pool, "SELECT data->>'name' FROM events WHERE type = '"+typ+"' ORDER BY data->>'name'")
	}
	require.Equal(t, []string{"ev_later=in_progress", "ev_open=in_progress", "ev_past=expired", "ev_soon=in_review", "ev_today=in_progress"}, states())
	require.Equal(t, []string{"ev_past"}, events("evidence.expired"))
	require.Equal(t, []string{"ev_soon", "ev_today"}, events("evidence.expiring"))
	require.Equal(t, []string{"claimed"}, column(t, ctx, pool, "SELECT data->>'previousState' FROM events WHERE type = 'evidence.expired'"))

	// A day later: ev_today has passed, ev_later enters the window.
	now = now.Add(24 * time.Hour)
	require.NoError(t, w.Work(ctx, job))
	require.Equal(t, []string{"ev_later=in_progress", "ev_open=in_progress", "ev_past=expired", "ev_soon=in_review", "ev_today=expired"}, states())
	require.Equal(t, []string{"ev_past", "ev_today"}, events("evidence.expired"))
	require.Equal(t, []string{"ev_later", "ev_soon", "ev_today"}, events("evidence.expiring"))

	// No reminders with 0 days; expiry still runs.
	now = now.Add(30 * 24 * time.Hour)
	job.Args.ReminderDays = 0
	require.NoError(t, w.Work(ctx, job))
	require.Equal(t, []string{"ev_later", "ev_past", "ev_soon", "ev_today"}, events("evidence.expired"))
	require.Len(t, events("evidence.expiring"), 3)

	var runs int
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM maintenance_runs WHERE job = 'maintenance.expire_evidence'").Scan(&runs))
	require.Equal(t, 4, runs)
}

// TestExpireEvidenceIsScheduled checks the client registers the expiry as a periodic job
// that runs on start.
func TestExpireEvidenceIsScheduled(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	ctx := context.Background()
	db := postgres.New(pool, nil)
	c, err := NewClient(pool, Config{RunWorkers: true, Maintenance: db, Evidence: services.New(db).Evidence, Logger: quiet, Name: "worker-e"})
	require.NoError(t, err)
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() { _ = Stop(c, 5*time.Second) })
	require.Eventually(t, func() bool {
		var runs int
		err := pool.QueryRow(ctx, "SELECT count(*) FROM maintenance_runs WHERE job = 'maintenance.expire_evidence'").Scan(&runs)
		return err == nil && runs == 1
	}, 15*time.Second, 100*time.Millisecond)
}
