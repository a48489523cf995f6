package metrics

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestJobMetricsAreExposedWithThePrefix(t *testing.T) {
	t.Parallel()
	m := New("assay_")
	jm := NewJobMetrics()
	require.NoError(t, m.Register(jm))
	jm.ObserveJob("delivery.webhook", JobRetried, 150*time.Millisecond)
	jm.ObserveJob("delivery.webhook", JobCompleted, 20*time.Millisecond)
	jm.ObserveDeliveryAttempt("webhook", DeliveryFailed, 140*time.Millisecond)
	jm.ObserveDeliveryAttempt("webhook", DeliverySucceeded, 10*time.Millisecond)
	jm.ObserveDelivery("webhook", DeliverySucceeded)
	jm.ObserveDelivery("slack", DeliverySkipped)
	var none *JobMetrics
	none.ObserveJob("x", JobFailed, time.Second) // a nil collector ignores observations

	rec := httptest.NewRecorder()
	m.Handler("tok").ServeHTTP(rec, authorized(httptest.NewRequest(http.MethodGet, "/metrics", nil), "tok"))
	require.Equal(t, http.StatusOK, rec.Code)
	body, _ := io.ReadAll(rec.Body)
	for _, line := range []string{
		`assay_jobs_total{kind="delivery.webhook",outcome="retried"} 1`,
		`assay_jobs_total{kind="delivery.webhook",outcome="completed"} 1`,
		`assay_job_duration_seconds_count{kind="delivery.webhook"} 2`,
		`assay_delivery_attempts_total{channel="webhook",outcome="failed"} 1`,
		`assay_delivery_duration_seconds_count{channel="webhook"} 2`,
		`assay_deliveries_total{channel="webhook",outcome="succeeded"} 1`,
		`assay_deliveries_total{channel="slack",outcome="skipped"} 1`,
	} {
		require.Contains(t, string(body), line)
	}
}

func authorized(r *http.Request, token string) *http.Request {
	r.Header.Set("Authorization", "Bearer "+token)
	return r
}
