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

// PurgeLimitsInterval is the period of the purge of rate-limit windows and idempotency keys.
const PurgeLimitsInterval = 10 * time.Minute

// PurgeLimitsWorker deletes rate-limit windows and idempotency keys past their retention.
// Requests already ignore expired rows; the purge only keeps the tables small.
type PurgeLimitsWorker struct {
	river.WorkerDefaults[jobs.PurgeLimitsArgs]
	Service    assess.LimitsMaintenance
	Logger     *slog.Logger
	Now        func() time.Time
	WorkerName string
}

// Work implements river.Worker. It is idempotent: running it twice deletes nothing more.
func (w *PurgeLimitsWorker) Work(ctx context.Context, job *river.Job[jobs.PurgeLimitsArgs]) error {
	windows, keys := job.Args.RateLimitRetention, job.Args.IdempotencyRetention
	if windows <= 0 {
		windows = assess.RateLimitWindowRetention
	}
	if keys <= 0 {
		keys = assess.IdempotencyKeyLifetime
	}
	started := w.Now()
	nWindows, err := w.Service.PurgeRateLimitWindows(ctx, started.Add(-windows))
	if err != nil {
		return fmt.Errorf("purge limits: %w", err)
	}
	nKeys, err := w.Service.PurgeIdempotencyKeys(ctx, started.Add(-keys))
	if err != nil {
		return fmt.Errorf("purge limits: %w", err)
	}
	run := assess.MaintenanceRun{
		Job: job.Kind, StartedAt: started, FinishedAt: w.Now(), Affected: nWindows + nKeys, Worker: w.WorkerName,
	}
	if err := w.Service.RecordMaintenanceRun(ctx, run); err != nil {
		return fmt.Errorf("purge limits: record run: %w", err)
	}
	w.Logger.InfoContext(ctx, "expired rate-limit windows and idempotency keys purged",
		slog.Int64("windows", nWindows), slog.Int64("idempotency_keys", nKeys), slog.Int64("job_id", job.ID))
	return nil
}

// Timeout bounds one run so a stuck query cannot hold a worker slot forever.
func (w *PurgeLimitsWorker) Timeout(*river.Job[jobs.PurgeLimitsArgs]) time.Duration {
	return 5 * time.Minute
}
