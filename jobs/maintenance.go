package jobs

import (
	"time"

	"github.com/riverqueue/river"
)

// PurgeLimitsArgs asks for expired rate-limit windows and idempotency keys to be deleted.
// Zero durations mean the defaults of the worker (assess.RateLimitWindowRetention and
// assess.IdempotencyKeyLifetime).
type PurgeLimitsArgs struct {
	// RateLimitRetention is how long a rate-limit window is kept after it started.
	RateLimitRetention time.Duration `json:"rateLimitRetention,omitempty"`
	// IdempotencyRetention is how long an idempotency key is kept after it was first used.
	IdempotencyRetention time.Duration `json:"idempotencyRetention,omitempty"`
}

// Kind implements river.JobArgs.
func (PurgeLimitsArgs) Kind() string { return "maintenance.purge_limits" }

// InsertOpts implements river.JobArgsWithInsertOpts: the maintenance queue, few attempts,
// since the next period purges again anyway.
func (PurgeLimitsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMaintenance, MaxAttempts: 3}
}
