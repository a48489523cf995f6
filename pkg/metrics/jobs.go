package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Job outcomes, as River settles a worked job.
const (
	JobCompleted = "completed" // finished without error
	JobRetried   = "retried"   // failed; River will try again
	JobFailed    = "failed"    // failed on its last attempt (discarded)
	JobCancelled = "cancelled" // cancelled by the worker or remotely
	JobSnoozed   = "snoozed"   // postponed without using an attempt
)

// Delivery outcomes. An attempt succeeds or fails; a delivery ends succeeded, failed
// (after its last attempt) or skipped (destination or channel switched off).
const (
	DeliverySucceeded = "succeeded"
	DeliveryFailed    = "failed"
	DeliverySkipped   = "skipped"
)

// JobMetrics holds the River job and delivery collectors. Register it with
// Metrics.Register; a nil *JobMetrics ignores observations.
type JobMetrics struct {
	jobs             *prometheus.CounterVec
	jobDuration      *prometheus.HistogramVec
	deliveries       *prometheus.CounterVec
	attempts         *prometheus.CounterVec
	deliveryDuration *prometheus.HistogramVec
}

// NewJobMetrics returns unregistered job and delivery collectors.
func NewJobMetrics() *JobMetrics {
	return &JobMetrics{
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "jobs_total", Help: "Background jobs worked, by kind and outcome (completed, retried, failed, cancelled, snoozed).",
		}, []string{"kind", "outcome"}),
		jobDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "job_duration_seconds", Help: "Time one background job attempt took, by kind.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300},
		}, []string{"kind"}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "deliveries_total", Help: "Deliveries that reached a final state, by channel (webhook, slack, teams, mattermost, email) and outcome (succeeded, failed, skipped).",
		}, []string{"channel", "outcome"}),
		attempts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "delivery_attempts_total", Help: "Delivery attempts, by channel and outcome (succeeded, failed).",
		}, []string{"channel", "outcome"}),
		deliveryDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "delivery_duration_seconds", Help: "Time one delivery attempt took (HTTP request or SMTP conversation), by channel.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"channel"}),
	}
}

// Describe implements prometheus.Collector.
func (m *JobMetrics) Describe(ch chan<- *prometheus.Desc) {
	for _, c := range m.collectors() {
		c.Describe(ch)
	}
}

// Collect implements prometheus.Collector.
func (m *JobMetrics) Collect(ch chan<- prometheus.Metric) {
	for _, c := range m.collectors() {
		c.Collect(ch)
	}
}

func (m *JobMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.jobs, m.jobDuration, m.deliveries, m.attempts, m.deliveryDuration}
}

// ObserveJob records one worked job attempt.
func (m *JobMetrics) ObserveJob(kind, outcome string, elapsed time.Duration) {
	if m == nil {
		return
	}
	m.jobs.WithLabelValues(kind, outcome).Inc()
	m.jobDuration.WithLabelValues(kind).Observe(elapsed.Seconds())
}

// ObserveDeliveryAttempt records one attempt (succeeded or failed) and its duration.
func (m *JobMetrics) ObserveDeliveryAttempt(channel, outcome string, elapsed time.Duration) {
	if m == nil {
		return
	}
	m.attempts.WithLabelValues(channel, outcome).Inc()
	m.deliveryDuration.WithLabelValues(channel).Observe(elapsed.Seconds())
}

// ObserveDelivery records a delivery reaching its final state.
func (m *JobMetrics) ObserveDelivery(channel, outcome string) {
	if m == nil {
		return
	}
	m.deliveries.WithLabelValues(channel, outcome).Inc()
}
