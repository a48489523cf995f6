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

// CollectBlobsInterval is the period of the blob collector.
const CollectBlobsInterval = 5 * time.Minute

// collectBatch is how many objects one step of the collector deletes.
const collectBatch = 100

// CollectBlobsWorker deletes queued objects from their storage provider in batches until
// none is due or the run's time is up. Objects it cannot delete stay queued for a later run.
type CollectBlobsWorker struct {
	river.WorkerDefaults[jobs.CollectBlobsArgs]
	Collector   assess.BlobCollector
	Maintenance assess.MaintenanceService
	Logger      *slog.Logger
	Now         func() time.Time
	WorkerName  string
}

// Work implements river.Worker. It is idempotent: deleting a deleted object succeeds.
func (w *CollectBlobsWorker) Work(ctx context.Context, job *river.Job[jobs.CollectBlobsArgs]) error {
	started := w.Now()
	total := 0
	for {
		n, err := w.Collector.CollectBlobGarbage(ctx, collectBatch)
		total += n
		if err != nil {
			return fmt.Errorf("collect blobs: %w", err)
		}
		if n < collectBatch {
			break
		}
	}
	run := assess.MaintenanceRun{Job: job.Kind, StartedAt: started, FinishedAt: w.Now(), Affected: int64(total), Worker: w.WorkerName}
	if err := w.Maintenance.RecordMaintenanceRun(ctx, run); err != nil {
		return fmt.Errorf("collect blobs: record run: %w", err)
	}
	if total > 0 {
		w.Logger.InfoContext(ctx, "stored objects of deleted attachments collected", slog.Int("deleted", total), slog.Int64("job_id", job.ID))
	}
	return nil
}

// Timeout bounds one run; what is left waits for the next period.
func (w *CollectBlobsWorker) Timeout(*river.Job[jobs.CollectBlobsArgs]) time.Duration {
	return 10 * time.Minute
}
