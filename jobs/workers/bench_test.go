package workers

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/metrics"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// BenchmarkWebhookDeliveries measures how many webhook deliveries one worker process
// (one River client) completes per second against a local receiver: b.N deliveries are
// queued through the store (events fanned out to ten webhooks), then the client starts
// and the clock runs until the last one is recorded as succeeded. Run it with
// `make bench-deliveries`.
func BenchmarkWebhookDeliveries(b *testing.B) {
	for _, workers := range []int{10, 50} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) { benchmarkDeliveries(b, workers) })
	}
}

func benchmarkDeliveries(b *testing.B, maxWorkers int) {
	ctx := context.Background()
	db := deliveryStore(b)
	var hits atomic.Int64
	url := serve(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		hits.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	const destinations = 10
	for i := range destinations {
		_, _, err := services.New(db).Webhooks.CreateWebhook(ctx, assess.NewWebhook{Name: fmt.Sprintf("bench %d", i), URL: url, EventTypes: []string{string(assess.EventUserCreated)}}, assess.SystemActor)
		require.NoError(b, err)
	}
	for range (b.N + destinations - 1) / destinations {
		createUser(b, db)
	}
	var queued int
	require.NoError(b, db.PgxPool().QueryRow(ctx, "SELECT count(*) FROM deliveries WHERE channel = 'webhook' AND status = 'pending'").Scan(&queued))

	client, err := NewClient(db.PgxPool(), Config{
		RunWorkers: true, Maintenance: db, Deliveries: services.New(db).DeliveryStore, Logger: quiet, Name: "bench", MaxWorkers: maxWorkers,
		WebhooksEnabled: true, OutboundAllowNetworks: loopback, AppURL: "https://assay.example.com", Version: "bench",
		Metrics: metrics.NewJobMetrics(),
	})
	require.NoError(b, err)
	done, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
	defer cancel()

	b.ResetTimer()
	started := time.Now()
	require.NoError(b, client.Start(ctx))
	for completed := 0; completed < queued; {
		select {
		case ev := <-done:
			if ev.Job.Kind == "delivery.webhook" {
				require.Equal(b, river.EventKindJobCompleted, ev.Kind, "a delivery failed")
				completed++
			}
		case <-time.After(time.Minute):
			b.Fatalf("%d of %d deliveries after a minute", completed, queued)
		}
	}
	elapsed := time.Since(started)
	b.StopTimer()
	require.NoError(b, Stop(client, 10*time.Second))

	require.EqualValues(b, queued, hits.Load())
	var succeeded int
	require.NoError(b, db.PgxPool().QueryRow(ctx, "SELECT count(*) FROM deliveries WHERE status = 'succeeded'").Scan(&succeeded))
	require.Equal(b, queued, succeeded)
	b.ReportMetric(float64(queued)/elapsed.Seconds(), "deliveries/s")
	b.ReportMetric(0, "ns/op")
}
