// Package jobs declares the arguments of every River job the service runs. The kinds are
// stable strings: they are stored in the river_job table and must survive renames.
package jobs

import (
	"time"

	"github.com/riverqueue/river"
)

// QueueMaintenance is the queue of periodic housekeeping jobs.
const QueueMaintenance = "maintenance"

// CleanupSessionsArgs asks for expired sessions (and terminal invites) to be purged.
type CleanupSessionsArgs struct {
	// RetainExpired is how long an expired session is kept (for audit) before deletion.
	RetainExpired time.Duration `json:"retainExpired"`
	// InviteRetention is how long a consumed, revoked or expired invite is kept; 0 keeps them.
	InviteRetention time.Duration `json:"inviteRetention,omitempty"`
}

// Kind implements river.JobArgs.
func (CleanupSessionsArgs) Kind() string { return "maintenance.cleanup_sessions" }

// InsertOpts implements river.JobArgsWithInsertOpts: the job goes to the maintenance queue
// and is not retried at length, the next period will run it again anyway.
func (CleanupSessionsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMaintenance, MaxAttempts: 3}
}
