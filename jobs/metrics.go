package jobs

import "github.com/riverqueue/river"

// RefreshDomainMetricsArgs asks for the domain gauges' snapshot to be computed again.
type RefreshDomainMetricsArgs struct{}

// Kind implements river.JobArgs.
func (RefreshDomainMetricsArgs) Kind() string { return "maintenance.refresh_domain_metrics" }

// InsertOpts implements river.JobArgsWithInsertOpts: the maintenance queue, one attempt —
// the next period computes it again anyway.
func (RefreshDomainMetricsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMaintenance, MaxAttempts: 1}
}
