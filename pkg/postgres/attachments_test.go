package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"testing/iotest"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// attachmentFixture is a store with one piece of evidence, on a database of its own.
func attachmentFixture(t *testing.T) (*pgxpool.Pool, *postgres.Services, string) {
	t.Helper()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewDatabase(t))
	_, err := pool.Exec(ctx, "INSERT INTO users (id, username, email) VALUES ('u_author', 'author', 'author@example.com')")
	require.NoError(t, err)
	ev := assess.NewID(assess.PrefixEvidence, time.Now())
	_, err = pool.Exec(ctx, "INSERT INTO evidence (id, name, author_id) VALUES ($1, 'E', 'u_author')", ev)
	require.NoError(t, err)
	db, err := postgres.New(pool, nil).ConfigureStorage(postgres.StorageConfig{Logger: quiet})
	require.NoError(t, err)
	return pool, postgres.NewServices(db), ev
}

func count(t *testing.T, pool *pgxpool.Pool, sql string) int {
	t.Helper()
	var n int
	require.NoError(t, pool.QueryRow(context.Background(), sql).Scan(&n))
	return n
}

// TestAttachmentUploadCutOff: a stream that fails half-way (the client went away) leaves
// no chunk and no queue entry behind.
func TestAttachmentUploadCutOff(t *testing.T) {
	t.Parallel()
	pool, svc, ev := attachmentFixture(t)
	boom := errors.New("connection reset")
	content := io.MultiReader(bytes.NewReader(append([]byte("%PDF-1.7\n"), make([]byte, 3<<20)...)), iotest.ErrReader(boom))
	_, _, err := svc.Attachments.AddAttachment(context.Background(), ev,
		assess.AttachmentUpload{Filename: "a.pdf", Content: content}, assess.SystemActor)
	require.ErrorIs(t, err, boom)
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_chunks"))
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM evidence_attachments"))
}

// TestBlobCollector deletes what is due and unreferenced, only unqueues what an attachment
// still references, and keeps retrying what it cannot reach.
func TestBlobCollector(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, svc, ev := attachmentFixture(t)
	att, created, err := svc.Attachments.AddAttachment(ctx, ev,
		assess.AttachmentUpload{Filename: "kept.txt", Content: bytes.NewReader([]byte("kept"))}, assess.SystemActor)
	require.NoError(t, err)
	require.True(t, created)
	require.Nil(t, att.UploadedBy, "the system is no user")
	_, err = pool.Exec(ctx, `INSERT INTO blob_chunks (blob_key, seq, data) VALUES ('orphan', 0, 'x'), ('orphan', 1, 'y'), ('in-flight', 0, 'z');
		INSERT INTO blob_garbage (provider, storage_key, due_at) VALUES
			('database', 'orphan', now() - interval '1 minute'),
			('database', 'in-flight', now() + interval '1 hour'),
			('s3', 'evidence/x/unreachable', now() - interval '1 minute');
		INSERT INTO blob_garbage (provider, storage_key, due_at)
			SELECT provider, storage_key, now() - interval '1 minute' FROM evidence_attachments`)
	require.NoError(t, err)

	n, err := svc.Attachments.CollectBlobGarbage(ctx, 100)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_chunks WHERE blob_key = 'orphan'"))
	require.Equal(t, 1, count(t, pool, "SELECT count(*)::int FROM blob_chunks WHERE blob_key = 'in-flight'"), "not due yet")
	require.Equal(t, 2, count(t, pool, "SELECT count(*)::int FROM blob_chunks"), "the referenced object is kept")
	require.Equal(t, 1, count(t, pool, "SELECT attempts FROM blob_garbage WHERE provider = 's3'"), "S3 is not configured: retried later")
	require.Equal(t, 2, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))

	content, err := svc.Attachments.OpenAttachment(ctx, ev, att.ID, assess.SystemActor)
	require.NoError(t, err)
	raw, err := io.ReadAll(content.Body)
	require.NoError(t, err)
	require.NoError(t, content.Body.Close())
	require.Equal(t, "kept", string(raw))
}
