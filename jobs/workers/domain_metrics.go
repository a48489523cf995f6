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

// RefreshDomainMetricsWorker computes the domain gauges' snapshot (assess.DomainMetrics)
// and keeps it in the database, where every process's /metrics reads it.
type RefreshDomainMetricsWorker struct {
	river.WorkerDefaults[jobs.RefreshDomainMetricsArgs]
	Service assess.DomainMetricsService
	Logger  *slog.Logger
}

// Work implements river.Worker; running it twice only computes the same counts again.
func (w *RefreshDomainMetricsWorker) Work(ctx context.Context, job *river.Job[jobs.RefreshDomainMetricsArgs]) error {
	m, err := w.Service.RefreshDomainMetrics(ctx)
	if err != nil {
		return fmt.Errorf("refresh domain metrics: %w", err)
	}
	w.Logger.DebugContext(ctx, "domain metrics refreshed", slog.Int("users", m.UsersActive+m.UsersInactive), slog.Int64("job_id", job.ID))
	return nil
}

// Timeout bounds one run.
func (w *RefreshDomainMetricsWorker) Timeout(*river.Job[jobs.RefreshDomainMetricsArgs]) time.Duration {
	return time.Minute
}

// refreshDomainMetricsJob schedules the refresh every interval (and at start) on the elected
// leader, unique per period.
func refreshDomainMetricsJob(interval time.Duration) *river.PeriodicJob {
	args := jobs.RefreshDomainMetricsArgs{}
	return river.NewPeriodicJob(
		river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) {
			opts := args.InsertOpts()
			opts.UniqueOpts = river.UniqueOpts{ByPeriod: interval}
			return args, &opts
		},
		&river.PeriodicJobOpts{RunOnStart: true, ID: args.Kind()},
	)
}
