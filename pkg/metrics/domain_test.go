package metrics_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/metrics"
)

// TestDomainGauges: the snapshot is exported under the prefix, every state as its own
// series; before the first snapshot and on a failed read only the timestamp (0) and the
// error gauge are.
func TestDomainGauges(t *testing.T) {
	snapshot := assess.DomainMetrics{
		Assessments:       []assess.StateCount{{State: "new", Count: 3}, {State: "complete", Count: 0}},
		Evidence:          []assess.StateCount{{State: "in_review", Count: 2}},
		Attestations:      []assess.StateCount{{State: "sealed", Count: 1}},
		DeliveriesPending: []assess.StateCount{{State: "webhook", Count: 4}},
		UsersActive:       7, UsersInactive: 1,
		RefreshedAt: time.Unix(1764325200, 0),
	}
	var read func(context.Context) (assess.DomainMetrics, error)
	m := metrics.New("tst_")
	if err := m.Register(metrics.NewDomainCollector(func(ctx context.Context) (assess.DomainMetrics, error) { return read(ctx) })); err != nil {
		t.Fatal(err)
	}
	read = func(context.Context) (assess.DomainMetrics, error) { return snapshot, nil }
	want := `
# HELP tst_assessments Assessments by state.
# TYPE tst_assessments gauge
tst_assessments{state="complete"} 0
tst_assessments{state="new"} 3
# HELP tst_deliveries_pending Deliveries pending or retrying, by channel.
# TYPE tst_deliveries_pending gauge
tst_deliveries_pending{channel="webhook"} 4
# HELP tst_domain_metrics_refreshed_timestamp_seconds When the domain gauges were computed (Unix time; 0: not yet).
# TYPE tst_domain_metrics_refreshed_timestamp_seconds gauge
tst_domain_metrics_refreshed_timestamp_seconds 1.7643252e+09
# HELP tst_users User accounts, active or not.
# TYPE tst_users gauge
tst_users{active="false"} 1
tst_users{active="true"} 7
`
	names := []string{"tst_assessments", "tst_deliveries_pending", "tst_domain_metrics_refreshed_timestamp_seconds", "tst_users"}
	if err := testutil.GatherAndCompare(m.Gatherer(), strings.NewReader(want), names...); err != nil {
		t.Fatal(err)
	}
	read = func(context.Context) (assess.DomainMetrics, error) { return assess.DomainMetrics{}, errors.New("down") }
	if err := testutil.GatherAndCompare(m.Gatherer(), strings.NewReader(`
# HELP tst_domain_metrics_read_error 1 when the domain gauges could not be read at this scrape.
# TYPE tst_domain_metrics_read_error gauge
tst_domain_metrics_read_error 1
`), "tst_domain_metrics_read_error", "tst_assessments"); err != nil {
		t.Fatal(err)
	}
}
