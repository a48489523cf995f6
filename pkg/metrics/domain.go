package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/assay-dev/assay/pkg/assess"
)

// DomainCollector exports the domain gauges: the snapshot one leader-elected job computes
// every METRICS_DOMAIN_REFRESH_INTERVAL (assess.DomainMetrics), read at each scrape (one row).
// Before the first snapshot, or when it cannot be read, only the refresh timestamp (0) and
// the read-error gauge are exported, so a dashboard shows "no data" rather than zeros.
type DomainCollector struct {
	read func(context.Context) (assess.DomainMetrics, error)

	assessments, evidence, attestations, users, deliveries, refreshed, readError *prometheus.Desc
}

// NewDomainCollector returns the collector of the snapshot read reads.
func NewDomainCollector(read func(context.Context) (assess.DomainMetrics, error)) *DomainCollector {
	return &DomainCollector{
		read:         read,
		assessments:  prometheus.NewDesc("assessments", "Assessments by state.", []string{"state"}, nil),
		evidence:     prometheus.NewDesc("evidence", "Evidence by state.", []string{"state"}, nil),
		attestations: prometheus.NewDesc("attestations", "Attestations by state.", []string{"state"}, nil),
		users:        prometheus.NewDesc("users", "User accounts, active or not.", []string{"active"}, nil),
		deliveries:   prometheus.NewDesc("deliveries_pending", "Deliveries pending or retrying, by channel.", []string{"channel"}, nil),
		refreshed:    prometheus.NewDesc("domain_metrics_refreshed_timestamp_seconds", "When the domain gauges were computed (Unix time; 0: not yet).", nil, nil),
		readError:    prometheus.NewDesc("domain_metrics_read_error", "1 when the domain gauges could not be read at this scrape.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *DomainCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.assessments, c.evidence, c.attestations, c.users, c.deliveries, c.refreshed, c.readError} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *DomainCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	m, err := c.read(ctx)
	failed := 0.0
	if err != nil {
		failed = 1
	}
	ch <- prometheus.MustNewConstMetric(c.readError, prometheus.GaugeValue, failed)
	if err != nil || m.RefreshedAt.IsZero() {
		ch <- prometheus.MustNewConstMetric(c.refreshed, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.refreshed, prometheus.GaugeValue, float64(m.RefreshedAt.Unix()))
	for _, s := range []struct {
		desc  *prometheus.Desc
		items []assess.StateCount
	}{{c.assessments, m.Assessments}, {c.evidence, m.Evidence}, {c.attestations, m.Attestations}, {c.deliveries, m.DeliveriesPending}} {
		for _, it := range s.items {
			ch <- prometheus.MustNewConstMetric(s.desc, prometheus.GaugeValue, float64(it.Count), it.State)
		}
	}
	ch <- prometheus.MustNewConstMetric(c.users, prometheus.GaugeValue, float64(m.UsersActive), "true")
	ch <- prometheus.MustNewConstMetric(c.users, prometheus.GaugeValue, float64(m.UsersInactive), "false")
}
