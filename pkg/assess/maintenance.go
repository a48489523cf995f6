package assess

import (
	"context"
	"time"
)

// MaintenanceRun records one execution of a periodic maintenance job, so operators (and
// tests) can see that each job ran once per interval however many workers are running.
type MaintenanceRun struct {
	Job        string
	StartedAt  time.Time
	FinishedAt time.Time
	Affected   int64
	Worker     string
}

// MaintenanceService performs the housekeeping done by periodic jobs.
type MaintenanceService interface {
	// PurgeExpiredSessions deletes sessions that expired before olderThan and returns how
	// many were removed.
	PurgeExpiredSessions(ctx context.Context, olderThan time.Time) (int64, error)
	// PurgeTerminalInvites deletes invites that were consumed, revoked or expired before
	// olderThan.
	PurgeTerminalInvites(ctx context.Context, olderThan time.Time) (int64, error)
	// RecordMaintenanceRun stores one run of a periodic job.
	RecordMaintenanceRun(ctx context.Context, run MaintenanceRun) error
}
