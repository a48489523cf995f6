package workers

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/assay-dev/assay/jobs"
	"github.com/assay-dev/assay/pkg/assess"
)

// CleanupSessionsWorker deletes sessions that expired longer ago than the retention.
type CleanupSessionsWorker struct {
	river.WorkerDefaults[jobs.CleanupSessionsArgs]
	Service    assess.MaintenanceService
	Logger     *slog.Logger
	Now        func() time.Time
	WorkerName string
}

// Work implements river.Worker. It is idempotent: running it twice deletes nothing more.
func (w *CleanupSessionsWorker) Work(ctx context.Context, job *river.Job[jobs.CleanupSessionsArgs]) error {
	started := w.Now()
	n, err := w.Service.PurgeExpiredSessions(ctx, started.Add(-job.Args.RetainExpired))
	if err != nil {
		return fmt.Errorf("cleanup sessions: %w", err)
	}
	if job.Args.InviteRetention > 0 {
		invites, err := w.Service.PurgeTerminalInvites(ctx, started.Add(-job.Args.InviteRetention))
		if err != nil {
			return fmt.Errorf("cleanup invites: %w", err)
		}
		n += invites
	}
	run := assess.MaintenanceRun{
		Job: job.Kind, StartedAt: started, FinishedAt: w.Now(), Affected: n, Worker: w.WorkerName,
	}
	if err := w.Service.RecordMaintenanceRun(ctx, run); err != nil {
		return fmt.Errorf("cleanup sessions: record run: %w", err)
	}
	w.Logger.InfoContext(ctx, "expired sessions purged", slog.Int64("deleted", n), slog.Int64("job_id", job.ID))
	return nil
}

// Timeout bounds one run so a stuck query cannot hold a worker slot forever.
func (w *CleanupSessionsWorker) Timeout(*river.Job[jobs.CleanupSessionsArgs]) time.Duration {
	return 5 * time.Minute
}
