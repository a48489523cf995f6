package workers

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/assay-dev/assay/pkg/metrics"
)

// jobMetrics is a River worker middleware that counts every worked job by kind and
// outcome and observes how long it ran.
type jobMetrics struct {
	river.MiddlewareDefaults
	obs Observer
}

// Work implements rivertype.WorkerMiddleware.
func (m *jobMetrics) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) (err error) {
	started := time.Now()
	defer func() {
		if p := recover(); p != nil {
			m.obs.ObserveJob(job.Kind, JobOutcome(job, errors.New("panic")), time.Since(started))
			panic(p) // River recovers it and fails the attempt
		}
		m.obs.ObserveJob(job.Kind, JobOutcome(job, err), time.Since(started))
	}()
	return doInner(ctx)
}

// JobOutcome is how River settles a job attempt that returned err: completed, snoozed,
// cancelled, retried (attempts remain) or failed (the last attempt; River discards it).
func JobOutcome(job *rivertype.JobRow, err error) string {
	var cancel *rivertype.JobCancelError
	var snooze *rivertype.JobSnoozeError
	switch {
	case err == nil:
		return metrics.JobCompleted
	case errors.As(err, &snooze):
		return metrics.JobSnoozed
	case errors.As(err, &cancel):
		return metrics.JobCancelled
	case job.Attempt >= job.MaxAttempts:
		return metrics.JobFailed
	default:
		return metrics.JobRetried
	}
}
