package app_test

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

	"github.com/assay-dev/assay/pkg/app"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/pkg/postgres/work"
)

// attachmentFixture is the attachment flows with the database provider and one piece of
// evidence, on a database of their own.
func attachmentFixture(t *testing.T) (*pgxpool.Pool, *app.Attachments, string) {
	t.Helper()
	pool, err := postgres.OpenPool(context.Background(), pgtest.NewDatabase(t), postgres.PoolConfig{MaxConns: 8, ApplicationName: "test"})
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return attachmentFixtureOn(t, pool, app.StorageConfig{})
}

// attachmentFixtureOn is attachmentFixture on the given pool and storage (the database
// provider and the logger are filled in).
func attachmentFixtureOn(t *testing.T, pool *pgxpool.Pool, cfg app.StorageConfig) (*pgxpool.Pool, *app.Attachments, string) {
	t.Helper()
	ev := pgtest.NewEvidence(t, pool)
	db := postgres.New(pool, nil)
	cfg.Database, cfg.Logger = work.NewChunkStore(db), quiet
	files, err := app.NewAttachments(services.New(db).Attachments, cfg)
	require.NoError(t, err)
	return pool, files, ev
}

func count(t *testing.T, pool *pgxpool.Pool, sql string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, pool.QueryRow(context.Background(), sql, args...).Scan(&n))
	return n
}

func upload(ctx context.Context, files *app.Attachments, ev, name string, content io.Reader) (assess.Attachment, bool, error) {
	return files.AddAttachment(ctx, ev, assess.AttachmentUpload{Filename: name, Content: content}, assess.SystemActor)
}

func download(t *testing.T, files *app.Attachments, ev, id string) string {
	t.Helper()
	content, err := files.OpenAttachment(context.Background(), ev, id, assess.SystemActor)
	require.NoError(t, err)
	raw, err := io.ReadAll(content.Body)
	require.NoError(t, err)
	require.NoError(t, content.Body.Close())
	return string(raw)
}

// TestNewAttachmentsChecksTheProviders: the provider of new uploads must be configured.
func TestNewAttachmentsChecksTheProviders(t *testing.T) {
	t.Parallel()
	db := postgres.New(pgtest.NewPool(t), nil)
	store, blobs := services.New(db).Attachments, work.NewChunkStore(db)
	for _, cfg := range []app.StorageConfig{
		{Provider: assess.StorageS3, Database: blobs},
		{Provider: "ftp", Database: blobs},
		{},
	} {
		_, err := app.NewAttachments(store, cfg)
		require.Error(t, err, "%+v", cfg)
	}
	_, err := app.NewAttachments(store, app.StorageConfig{Database: blobs})
	require.NoError(t, err, "the database provider is the default")
}

// TestAttachmentUploadCutOff: a stream that fails half-way (the client went away) leaves
// no chunk and no queue entry behind.
func TestAttachmentUploadCutOff(t *testing.T) {
	t.Parallel()
	pool, files, ev := attachmentFixture(t)
	boom := errors.New("connection reset")
	content := io.MultiReader(bytes.NewReader(append([]byte("%PDF-1.7\n"), make([]byte, 3<<20)...)), iotest.ErrReader(boom))
	_, _, err := upload(context.Background(), files, ev, "a.pdf", content)
	require.ErrorIs(t, err, boom)
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_chunks"))
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM evidence_attachments"))
}

// TestAttachmentUploadWaitsWithoutAConnection: with database storage, an upload holds a
// pooled connection only while it stores a chunk, not while it waits for the client's
// next bytes — slow uploads cannot take the pool from every other request.
func TestAttachmentUploadWaitsWithoutAConnection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	one, err := postgres.OpenPool(ctx, pgtest.NewDatabase(t), postgres.PoolConfig{MaxConns: 1, ApplicationName: "test"})
	require.NoError(t, err)
	t.Cleanup(one.Close)
	pool, files, ev := attachmentFixtureOn(t, one, app.StorageConfig{})

	// The client sends two and a half chunks' worth, then stalls until released.
	first := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("a"), 5<<19)...)
	content := pgtest.NewStalledBody(t, first, "end")
	type outcome struct {
		att     assess.Attachment
		created bool
		err     error
	}
	done := make(chan outcome, 1)
	go func() {
		att, created, err := upload(ctx, files, ev, "slow.pdf", content)
		done <- outcome{att, created, err}
	}()
	<-content.Reached()

	// The one connection is free for another request while the upload waits.
	qctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var n int
	require.NoError(t, pool.QueryRow(qctx, "SELECT count(*)::int FROM blob_chunks").Scan(&n), "the stalled upload holds the pool's only connection")
	require.Equal(t, 2, n, "the full chunks are stored as they arrive")

	content.Release()
	res := <-done
	require.NoError(t, res.err)
	require.True(t, res.created)
	require.Equal(t, int64(len(first)+3), res.att.SizeBytes)
	require.Equal(t, 3, count(t, pool, "SELECT count(*)::int FROM blob_chunks"))
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))
}

// TestUploadOutlastingItsGrace: an upload still streaming when its key falls due is
// collected, and fails with 503 instead of recording a file whose bytes are gone; nothing
// of it stays behind.
func TestUploadOutlastingItsGrace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, files, ev := attachmentFixture(t)
	content := pgtest.NewStalledBody(t, append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("a"), 3<<19)...), "end")
	done := make(chan error, 1)
	go func() {
		_, _, err := upload(ctx, files, ev, "slow.pdf", content)
		done <- err
	}()
	<-content.Reached()
	_, err := pool.Exec(ctx, "UPDATE blob_garbage SET due_at = now() - interval '1 second'") // the grace has passed
	require.NoError(t, err)
	n, err := files.CollectBlobGarbage(ctx, 100)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	content.Release()
	requireCode(t, <-done, assess.ECodeUnavailable)
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM evidence_attachments"))
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_chunks"))
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))
}

// TestSameBytesAttachedAgain: the second upload answers the first file, and its own bytes
// are discarded at once.
func TestSameBytesAttachedAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, files, ev := attachmentFixture(t)
	first, created, err := upload(ctx, files, ev, "a.txt", bytes.NewReader([]byte("the report\n")))
	require.NoError(t, err)
	require.True(t, created)
	again, created, err := upload(ctx, files, ev, "b.txt", bytes.NewReader([]byte("the report\n")))
	require.NoError(t, err)
	require.False(t, created)
	require.Equal(t, first, again, "the first file, its first name kept")
	require.Equal(t, 1, count(t, pool, "SELECT count(DISTINCT blob_key)::int FROM blob_chunks"))
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))
	require.Equal(t, "the report\n", download(t, files, ev, first.ID))
}

// TestBlobCollector deletes what is due and unreferenced, only unqueues what an attachment
// still references, and keeps retrying what it cannot reach.
func TestBlobCollector(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, files, ev := attachmentFixture(t)
	att, created, err := upload(ctx, files, ev, "kept.txt", bytes.NewReader([]byte("kept")))
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

	n, err := files.CollectBlobGarbage(ctx, 100)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_chunks WHERE blob_key = 'orphan'"))
	require.Equal(t, 1, count(t, pool, "SELECT count(*)::int FROM blob_chunks WHERE blob_key = 'in-flight'"), "not due yet")
	require.Equal(t, 2, count(t, pool, "SELECT count(*)::int FROM blob_chunks"), "the referenced object is kept")
	require.Equal(t, 1, count(t, pool, "SELECT attempts FROM blob_garbage WHERE provider = 's3'"), "S3 is not configured: retried later")
	require.Equal(t, 1, count(t, pool, `SELECT count(*)::int FROM blob_garbage WHERE provider = 's3'
		AND due_at > now() + interval '59 minutes' AND last_error LIKE '%not configured%'`), "an hour later")
	require.Equal(t, 2, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))
	require.Equal(t, "kept", download(t, files, ev, att.ID))
}

// TestEvidenceFilesDoNotChangeInReview: while evidence is in review its files are what the
// reviewer judges — adding or deleting one is 409 in_review, for the reviewer too — and a
// file added or deleted otherwise bumps the evidence's version, so an approval made on the
// version read before the change is refused (issue 26 item 13).
func TestEvidenceFilesDoNotChangeInReview(t *testing.T) {
	t.Parallel()
	pool, files, ev := attachmentFixture(t)
	ctx := context.Background()
	add := func(name string) error {
		_, _, err := upload(ctx, files, ev, name, bytes.NewReader([]byte("report "+name+"\n")))
		return err
	}
	version := func() int { return count(t, pool, "SELECT version::int FROM evidence WHERE id = $1", ev) }
	before := version()
	require.NoError(t, add("a.txt"))
	require.Equal(t, before+1, version(), "a file added bumps the evidence's version")
	list, err := files.FindAttachments(ctx, ev, assess.SystemActor)
	require.NoError(t, err)

	_, err = pool.Exec(ctx, "UPDATE evidence SET state = 'in_review' WHERE id = $1", ev)
	require.NoError(t, err)
	requireCode(t, add("b.txt"), assess.ECodeConflict)
	requireCode(t, files.DeleteAttachment(ctx, ev, list[0].ID, assess.SystemActor), assess.ECodeConflict)
	list, err = files.FindAttachments(ctx, ev, assess.SystemActor)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, 1, count(t, pool, "SELECT count(DISTINCT blob_key)::int FROM blob_chunks"), "nothing of the refused upload is stored")
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))

	_, err = pool.Exec(ctx, "UPDATE evidence SET state = 'in_progress' WHERE id = $1", ev)
	require.NoError(t, err)
	at := version()
	require.NoError(t, files.DeleteAttachment(ctx, ev, list[0].ID, assess.SystemActor))
	require.Equal(t, at+1, version(), "a file deleted bumps the evidence's version")
}

// TestDownloadChecksIntegrity: a changed, shortened or lost object answers integrity_error,
// is audited, and sends nothing; a file whose provider is not configured is 503.
func TestDownloadChecksIntegrity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, files, ev := attachmentFixture(t)
	for _, c := range []struct {
		problem, sql string
	}{
		{"sha256", "UPDATE blob_chunks SET data = set_byte(data, 0, 65) WHERE blob_key = $1"},
		{"size", "UPDATE blob_chunks SET data = substring(data from 2) WHERE blob_key = $1"},
		{"missing", "DELETE FROM blob_chunks WHERE blob_key = $1"},
	} {
		att, _, err := upload(ctx, files, ev, c.problem+".txt", bytes.NewReader([]byte("report on "+c.problem+"\n")))
		require.NoError(t, err)
		var key string
		require.NoError(t, pool.QueryRow(ctx, "SELECT storage_key FROM evidence_attachments WHERE id = $1", att.ID).Scan(&key))
		_, err = pool.Exec(ctx, c.sql, key)
		require.NoError(t, err)
		_, err = files.OpenAttachment(ctx, ev, att.ID, assess.SystemActor)
		requireCode(t, err, assess.ECodeIntegrity)
		require.Equal(t, 1, count(t, pool, `SELECT count(*)::int FROM audit_log WHERE action = $1 AND target_id = $2
			AND details->>'problem' = $3 AND details->>'provider' = 'database'`,
			string(assess.ChangeEvidenceAttachmentCorrupt.Action), att.ID, c.problem), c.problem)
	}

	_, err := pool.Exec(ctx, `INSERT INTO evidence_attachments (id, evidence_id, filename, content_type, size_bytes, sha256, provider, storage_key)
		VALUES ($1, $2, 'far.txt', 'text/plain', 1, $3, 's3', 'evidence/far')`,
		assess.NewID(assess.PrefixAttachment, time.Now()), ev, "0000000000000000000000000000000000000000000000000000000000000000")
	require.NoError(t, err)
	list, err := files.FindAttachments(ctx, ev, assess.SystemActor)
	require.NoError(t, err)
	_, err = files.OpenAttachment(ctx, ev, list[len(list)-1].ID, assess.SystemActor)
	requireCode(t, err, assess.ECodeUnavailable)
}
