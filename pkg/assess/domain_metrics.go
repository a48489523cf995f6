package assess

import (
	"context"
	"time"
)

// DomainMetrics is the organisation-wide snapshot behind the domain gauges of /metrics
// (docs/deployment.md, "Metrics"): computed every METRICS_DOMAIN_REFRESH_INTERVAL by one
// leader-elected job and kept in the database, so every process exports the same figures.
// Unlike the dashboard it is not scoped to a caller: /metrics is for operators.
type DomainMetrics struct {
	Assessments       []StateCount `json:"assessments"`
	Evidence          []StateCount `json:"evidence"`
	Attestations      []StateCount `json:"attestations"`
	UsersActive       int          `json:"usersActive"`
	UsersInactive     int          `json:"usersInactive"`
	DeliveriesPending []StateCount `json:"deliveriesPending" doc:"Deliveries pending or retrying, by channel"`
	// RefreshedAt is when the snapshot was computed; zero before the first run.
	RefreshedAt time.Time `json:"-"`
}

// DomainMetricsService computes and reads the snapshot.
type DomainMetricsService interface {
	// RefreshDomainMetrics computes the snapshot now and keeps it.
	RefreshDomainMetrics(ctx context.Context) (DomainMetrics, error)
	// DomainMetrics reads the kept snapshot (zero, with RefreshedAt zero, before the first).
	DomainMetrics(ctx context.Context) (DomainMetrics, error)
}
