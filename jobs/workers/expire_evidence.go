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

// ExpireEvidenceInterval is the default period of the evidence expiry job. Validity is
// counted in days, so an hour is prompt enough.
const ExpireEvidenceInterval = time.Hour

// ExpireEvidenceWorker marks evidence past its valid-until day as expired and sends the
// expiry reminders (assess.EvidenceExpiry, on the store's clock).
type ExpireEvidenceWorker struct {
	river.WorkerDefaults[jobs.ExpireEvidenceArgs]
	Service assess.EvidenceExpiry
	// Maintenance, when set, records each run in the maintenance log.
	Maintenance assess.MaintenanceService
	Logger      *slog.Logger
	Now         func() time.Time
	WorkerName  string
}

// Work implements river.Worker. It is idempotent: expired evidence stays expired and each
// reminder is marked when it is sent, so a second run changes nothing more.
func (w *ExpireEvidenceWorker) Work(ctx context.Context, job *river.Job[jobs.ExpireEvidenceArgs]) error {
	started := w.Now()
	run, err := w.Service.ExpireEvidence(ctx, job.Args.ReminderDays)
	if err != nil {
		return fmt.Errorf("expire evidence: %w", err)
	}
	if w.Maintenance != nil {
		mr := assess.MaintenanceRun{Job: job.Kind, StartedAt: started, FinishedAt: w.Now(), Affected: run.Expired + run.Reminded + run.AttestationsReminded, Worker: w.WorkerName}
		if err := w.Maintenance.RecordMaintenanceRun(ctx, mr); err != nil {
			return fmt.Errorf("expire evidence: record run: %w", err)
		}
	}
	w.Logger.InfoContext(ctx, "evidence expiry checked", slog.Int64("expired", run.Expired),
		slog.Int64("reminded", run.Reminded), slog.Int64("attestations_reminded", run.AttestationsReminded), slog.Int64("job_id", job.ID))
	return nil
}

// Timeout bounds one run so a stuck query cannot hold a worker slot forever.
func (w *ExpireEvidenceWorker) Timeout(*river.Job[jobs.ExpireEvidenceArgs]) time.Duration {
	return 5 * time.Minute
}
