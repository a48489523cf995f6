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

// PurgeDeliveriesInterval is the default period of the delivery-log purge.
const PurgeDeliveriesInterval = time.Hour

// PurgeDeliveriesWorker deletes final deliveries older than each log's retention, and the
// events nothing refers to any more. A zero retention keeps that log.
type PurgeDeliveriesWorker struct {
	river.WorkerDefaults[jobs.PurgeDeliveriesArgs]
	Store assess.DeliveryStore
	// Maintenance, when set, records each run in the maintenance log.
	Maintenance assess.MaintenanceService
	Logger      *slog.Logger
	Now         func() time.Time
	WorkerName  string
}

// Work implements river.Worker. It is idempotent: running it twice deletes nothing more.
func (w *PurgeDeliveriesWorker) Work(ctx context.Context, job *river.Job[jobs.PurgeDeliveriesArgs]) error {
	started := w.Now()
	var total int64
	attrs := []any{slog.Int64("job_id", job.ID)}
	for _, k := range []struct {
		kind      string
		retention time.Duration
	}{
		{assess.DeliveryKindWebhook, job.Args.WebhookRetention},
		{assess.DeliveryKindChat, job.Args.ChatRetention},
		{assess.DeliveryKindEmail, job.Args.EmailRetention},
	} {
		if k.retention <= 0 {
			continue
		}
		n, err := w.Store.PurgeDeliveries(ctx, k.kind, started.Add(-k.retention))
		if err != nil {
			return fmt.Errorf("purge %s deliveries: %w", k.kind, err)
		}
		total += n
		attrs = append(attrs, slog.Int64(k.kind, n))
	}
	if r := job.Args.NotificationRetention; r > 0 {
		n, err := w.Store.PurgeReadNotifications(ctx, started.Add(-r))
		if err != nil {
			return err
		}
		total += n
		attrs = append(attrs, slog.Int64("notifications", n))
	}
	if w.Maintenance != nil {
		run := assess.MaintenanceRun{Job: job.Kind, StartedAt: started, FinishedAt: w.Now(), Affected: total, Worker: w.WorkerName}
		if err := w.Maintenance.RecordMaintenanceRun(ctx, run); err != nil {
			return fmt.Errorf("purge deliveries: record run: %w", err)
		}
	}
	w.Logger.InfoContext(ctx, "old deliveries purged", attrs...)
	return nil
}

// Timeout bounds one run so a stuck query cannot hold a worker slot forever.
func (w *PurgeDeliveriesWorker) Timeout(*river.Job[jobs.PurgeDeliveriesArgs]) time.Duration {
	return 5 * time.Minute
}
