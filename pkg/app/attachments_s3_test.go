package app_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/app"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/blob"
	"github.com/assay-dev/assay/pkg/blob/blobtest"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/pkg/postgres/work"
)

// TestAttachmentsOnS3 runs the flows against a real S3 server: a multipart upload, the
// same bytes again (the second object discarded at once), a cut-off upload (nothing left
// in the bucket), reading S3 files after STORAGE_PROVIDER went back to the database (and
// 503 once S3 is no longer configured), and a deleted file collected from the bucket.
func TestAttachmentsOnS3(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gw := blobtest.StartVersityGW(t)
	s3, err := blob.NewS3(ctx, blob.S3Config{Bucket: gw.Bucket, Region: gw.Region, Endpoint: gw.Endpoint, ForcePathStyle: true,
		AccessKeyID: gw.AccessKey, SecretAccessKey: gw.SecretKey})
	require.NoError(t, err)
	pool, err := postgres.OpenPool(ctx, pgtest.NewDatabase(t), postgres.PoolConfig{MaxConns: 8, ApplicationName: "test"})
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	pool, files, ev := attachmentFixtureOn(t, pool, app.StorageConfig{Provider: assess.StorageS3, S3: s3})

	content := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("0123456789abcdef"), (6<<20)/16)...) // two parts
	att, created, err := upload(ctx, files, ev, "big.pdf", bytes.NewReader(content))
	require.NoError(t, err)
	require.True(t, created)
	require.Equal(t, assess.StorageS3, att.Provider)
	require.Len(t, gw.Objects(t), 1)
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_chunks"))
	require.Equal(t, string(content), download(t, files, ev, att.ID))

	again, created, err := upload(ctx, files, ev, "again.pdf", bytes.NewReader(content))
	require.NoError(t, err)
	require.False(t, created)
	require.Equal(t, att.ID, again.ID)
	require.Len(t, gw.Objects(t), 1, "the second copy is discarded")

	boom := errors.New("connection reset")
	_, _, err = upload(ctx, files, ev, "cut.pdf", io.MultiReader(bytes.NewReader(content), iotest.ErrReader(boom)))
	require.ErrorIs(t, err, boom)
	require.Len(t, gw.Objects(t), 1, "nothing of a cut-off upload stays in the bucket")
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))

	// Back to the database for new files: the S3 file stays readable while S3 is
	// configured, and is 503 once it is not.
	db := postgres.New(pool, nil)
	store := services.New(db).Attachments
	back, err := app.NewAttachments(store, app.StorageConfig{Database: work.NewChunkStore(db), S3: s3, Logger: quiet})
	require.NoError(t, err)
	require.Equal(t, string(content), download(t, back, ev, att.ID))
	local, _, err := upload(ctx, back, ev, "local.txt", bytes.NewReader([]byte("in the database\n")))
	require.NoError(t, err)
	require.Equal(t, assess.StorageDatabase, local.Provider)
	without, err := app.NewAttachments(store, app.StorageConfig{Database: work.NewChunkStore(db), Logger: quiet})
	require.NoError(t, err)
	_, err = without.OpenAttachment(ctx, ev, att.ID, assess.SystemActor)
	requireCode(t, err, assess.ECodeUnavailable)

	require.NoError(t, files.DeleteAttachment(ctx, ev, att.ID, assess.SystemActor))
	require.Len(t, gw.Objects(t), 1, "deleted by the collector, not at once")
	n, err := without.CollectBlobGarbage(ctx, 100)
	require.NoError(t, err)
	require.Zero(t, n, "S3 is not configured: kept for later")
	_, err = pool.Exec(ctx, "UPDATE blob_garbage SET due_at = now()")
	require.NoError(t, err)
	n, err = files.CollectBlobGarbage(ctx, 100)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Empty(t, gw.Objects(t))
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))
}
