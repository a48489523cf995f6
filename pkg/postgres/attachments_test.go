package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
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
	return attachmentFixtureOn(t, openPool(t, pgtest.NewDatabase(t)))
}

// attachmentFixtureOn is attachmentFixture on the given pool.
func attachmentFixtureOn(t *testing.T, pool *pgxpool.Pool) (*pgxpool.Pool, *postgres.Services, string) {
	t.Helper()
	ctx := context.Background()
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

// TestAttachmentUploadWaitsWithoutAConnection: with database storage, an upload holds a
// pooled connection only while it stores a chunk, not while it waits for the client's
// next bytes — slow uploads cannot take the pool from every other request.
func TestAttachmentUploadWaitsWithoutAConnection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	one, err := postgres.OpenPool(ctx, pgtest.NewDatabase(t), postgres.PoolConfig{MaxConns: 1, ApplicationName: "test"})
	require.NoError(t, err)
	t.Cleanup(one.Close)
	pool, svc, ev := attachmentFixtureOn(t, one)

	// The client sends two and a half chunks' worth, then stalls until released.
	release := make(chan struct{})
	var releaseOnce sync.Once
	unstall := func() { releaseOnce.Do(func() { close(release) }) }
	t.Cleanup(unstall) // before the pool closes, which waits for the upload's connection
	first := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("a"), 5<<19)...)
	reached := make(chan struct{})
	content := io.MultiReader(bytes.NewReader(first), &stalledReader{release: release, reached: reached, rest: bytes.NewReader([]byte("end"))})
	type outcome struct {
		att     assess.Attachment
		created bool
		err     error
	}
	done := make(chan outcome, 1)
	go func() {
		att, created, err := svc.Attachments.AddAttachment(ctx, ev, assess.AttachmentUpload{Filename: "slow.pdf", Content: content}, assess.SystemActor)
		done <- outcome{att, created, err}
	}()
	<-reached

	// The one connection is free for another request while the upload waits.
	qctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var n int
	require.NoError(t, pool.QueryRow(qctx, "SELECT count(*)::int FROM blob_chunks").Scan(&n), "the stalled upload holds the pool's only connection")
	require.Equal(t, 2, n, "the full chunks are stored as they arrive")

	unstall()
	res := <-done
	require.NoError(t, res.err)
	require.True(t, res.created)
	require.Equal(t, int64(len(first)+3), res.att.SizeBytes)
	require.Equal(t, 3, count(t, pool, "SELECT count(*)::int FROM blob_chunks"))
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))
}

// stalledReader blocks its first Read until release is closed, then reads rest; reached
// tells that a Read is waiting.
type stalledReader struct {
	release chan struct{}
	rest    io.Reader
	reached chan struct{}
}

func (r *stalledReader) Read(p []byte) (int, error) {
	if r.reached != nil {
		close(r.reached)
		r.reached = nil
	}
	<-r.release
	return r.rest.Read(p)
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

// TestEvidenceFilesDoNotChangeInReview: while evidence is in review its files are what the
// reviewer judges — adding or deleting one is 409 in_review, for the reviewer too — and a
// file added or deleted otherwise bumps the evidence's version, so an approval made on the
// version read before the change is refused (issue 26 item 13).
func TestEvidenceFilesDoNotChangeInReview(t *testing.T) {
	t.Parallel()
	pool, svc, ev := attachmentFixture(t)
	ctx := context.Background()
	upload := func(name string) error {
		_, _, err := svc.Attachments.AddAttachment(ctx, ev, assess.AttachmentUpload{Filename: name,
			Content: bytes.NewReader([]byte("report " + name + "\n"))}, assess.SystemActor)
		return err
	}
	version := func() int64 {
		var v int64
		require.NoError(t, pool.QueryRow(ctx, "SELECT version FROM evidence WHERE id = $1", ev).Scan(&v))
		return v
	}
	before := version()
	require.NoError(t, upload("a.txt"))
	require.Equal(t, before+1, version(), "a file added bumps the evidence's version")
	files, err := svc.Attachments.FindAttachments(ctx, ev, assess.SystemActor)
	require.NoError(t, err)

	_, err = pool.Exec(ctx, "UPDATE evidence SET state = 'in_review' WHERE id = $1", ev)
	require.NoError(t, err)
	requireCode(t, upload("b.txt"), assess.ECodeConflict, "")
	err = svc.Attachments.DeleteAttachment(ctx, ev, files[0].ID, assess.SystemActor)
	requireCode(t, err, assess.ECodeConflict, "")
	require.Len(t, must(svc.Attachments.FindAttachments(ctx, ev, assess.SystemActor)), 1)

	_, err = pool.Exec(ctx, "UPDATE evidence SET state = 'in_progress' WHERE id = $1", ev)
	require.NoError(t, err)
	at := version()
	require.NoError(t, svc.Attachments.DeleteAttachment(ctx, ev, files[0].ID, assess.SystemActor))
	require.Equal(t, at+1, version(), "a file deleted bumps the evidence's version")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
