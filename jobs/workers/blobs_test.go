package workers

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/jobs"
	"github.com/assay-dev/assay/pkg/app"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/pkg/postgres/work"
)

// TestCollectBlobsDeletesQueuedObjects runs the blob collector against a real database:
// more due objects than one batch, all deleted, the run recorded; not-yet-due ones kept.
func TestCollectBlobsDeletesQueuedObjects(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	ctx := context.Background()
	for i := range collectBatch + 5 {
		key := fmt.Sprintf("orphan-%d", i)
		_, err := pool.Exec(ctx, `INSERT INTO blob_chunks (blob_key, seq, data) VALUES ($1, 0, 'x')`, key)
		require.NoError(t, err)
		_, err = pool.Exec(ctx, `INSERT INTO blob_garbage (provider, storage_key, due_at) VALUES ('database', $1, now() - interval '1 second')`, key)
		require.NoError(t, err)
	}
	_, err := pool.Exec(ctx, `INSERT INTO blob_chunks (blob_key, seq, data) VALUES ('uploading', 0, 'x');
		INSERT INTO blob_garbage (provider, storage_key, due_at) VALUES ('database', 'uploading', now() + interval '1 hour')`)
	require.NoError(t, err)
	db := postgres.New(pool, nil)
	files, err := app.NewAttachments(services.New(db).Attachments,
		app.StorageConfig{Database: work.NewChunkStore(db), Logger: quiet})
	require.NoError(t, err)
	w := &CollectBlobsWorker{Collector: files, Maintenance: db, Logger: quiet, Now: time.Now, WorkerName: "t"}
	job := &river.Job[jobs.CollectBlobsArgs]{JobRow: &rivertype.JobRow{ID: 1, Kind: jobs.CollectBlobsArgs{}.Kind()}}
	require.NoError(t, w.Work(ctx, job))
	require.NoError(t, w.Work(ctx, job)) // idempotent

	require.Equal(t, []string{"uploading"}, column(t, ctx, pool, "SELECT DISTINCT blob_key FROM blob_chunks"))
	var affected int64
	require.NoError(t, pool.QueryRow(ctx, "SELECT sum(affected) FROM maintenance_runs WHERE job = $1", job.Kind).Scan(&affected))
	require.Equal(t, int64(collectBatch+5), affected)
}
