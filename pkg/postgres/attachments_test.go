package postgres_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/work"
)

// The store's side of evidence files: the records, the garbage queue and the database
// provider (ChunkStore). The flows that combine them — upload, download, the collector —
// are tested in pkg/app.

// attachmentFixture is a store with one piece of evidence, on a database of its own.
func attachmentFixture(t *testing.T) (*pgxpool.Pool, *postgres.DB, string) {
	t.Helper()
	pool := openPool(t, pgtest.NewDatabase(t))
	return pool, postgres.New(pool, nil), pgtest.NewEvidence(t, pool)
}

func count(t *testing.T, pool *pgxpool.Pool, sql string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, pool.QueryRow(context.Background(), sql, args...).Scan(&n))
	return n
}

// storeBytes puts content into the database provider under key, queued as an upload in
// flight, and returns the record to give RecordAttachment.
func storeBytes(t *testing.T, db *postgres.DB, ev, key, content string) assess.StoredAttachment {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, testServices(db).Attachments.QueueBlob(ctx, assess.StorageDatabase, key, time.Hour))
	info, err := work.NewChunkStore(db).Put(ctx, key, strings.NewReader(content))
	require.NoError(t, err)
	return assess.StoredAttachment{StorageKey: key, Attachment: assess.Attachment{EvidenceID: ev, Filename: key + ".txt",
		ContentType: "text/plain", SizeBytes: info.Size, SHA256: info.SHA256, Provider: assess.StorageDatabase}}
}

// TestRecordAttachment: recording a stored file gives it an id, takes its key off the
// queue, bumps the evidence's version and audits it; the same bytes again answer the
// existing file and leave the new key queued (the caller discards it); a key the collector
// took already is 503.
func TestRecordAttachment(t *testing.T) {
	t.Parallel()
	pool, db, ev := attachmentFixture(t)
	svc := testServices(db).Attachments
	ctx := context.Background()
	version := func() int {
		return count(t, pool, "SELECT version::int FROM evidence WHERE id = $1", ev)
	}
	before := version()

	att, created, err := svc.RecordAttachment(ctx, storeBytes(t, db, ev, "first", "report\n"), assess.SystemActor)
	require.NoError(t, err)
	require.True(t, created)
	require.True(t, assess.ValidID(assess.PrefixAttachment, att.ID), att.ID)
	require.Nil(t, att.UploadedBy, "the system is no user")
	require.Equal(t, before+1, version(), "a file added bumps the evidence's version")
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_garbage"), "off the queue")
	require.Equal(t, 1, count(t, pool, "SELECT count(*)::int FROM audit_log WHERE action = $1 AND target_id = $2",
		string(assess.ChangeEvidenceAttachmentAdded.Action), att.ID))
	stored, err := svc.FindStoredAttachment(ctx, ev, att.ID, assess.SystemActor)
	require.NoError(t, err)
	require.Equal(t, "first", stored.StorageKey)
	require.Equal(t, att, stored.Attachment)

	again, created, err := svc.RecordAttachment(ctx, storeBytes(t, db, ev, "second", "report\n"), assess.SystemActor)
	require.NoError(t, err)
	require.False(t, created, "the same bytes are attached already")
	require.Equal(t, att.ID, again.ID)
	require.Equal(t, before+1, version())
	require.Equal(t, 1, count(t, pool, "SELECT count(*)::int FROM blob_garbage WHERE storage_key = 'second'"), "left for the caller to discard")

	late := storeBytes(t, db, ev, "late", "other bytes\n")
	require.NoError(t, svc.UnqueueBlob(ctx, assess.StorageDatabase, "late")) // as the collector does
	_, _, err = svc.RecordAttachment(ctx, late, assess.SystemActor)
	requireCode(t, err, assess.ECodeUnavailable, "")
	require.Equal(t, 1, count(t, pool, "SELECT count(*)::int FROM evidence_attachments"))

	_, err = svc.FindStoredAttachment(ctx, ev, assess.NewID(assess.PrefixAttachment, time.Now()), assess.SystemActor)
	requireCode(t, err, assess.ECodeNotFound, "")
}

// TestFilesAddedAndRemovedAtOnceDoNotDeadlock: eight clients add files to one piece of
// evidence at the same time and remove some again, as a pipeline uploading its reports
// does. Each change checked the evidence under a shared lock and then bumped its version,
// so two of them each waited for the other's shared lock (make bench's upload-small: 503s
// and ~2 uploads a second at 32 clients). Every file is recorded, the version counts every
// change, and PostgreSQL counts no deadlock.
func TestFilesAddedAndRemovedAtOnceDoNotDeadlock(t *testing.T) {
	t.Parallel()
	pool, _, ev := attachmentFixture(t)
	workers, err := pgxpool.New(context.Background(), pool.Config().ConnString())
	require.NoError(t, err)
	db := postgres.New(workers, nil)
	svc := testServices(db).Attachments
	ctx := context.Background()
	versionBefore := count(t, pool, "SELECT version::int FROM evidence WHERE id = $1", ev)
	before := deadlocks(t, pool)
	const clients, files = 8, 6
	errs := make(chan error, clients)
	for c := range clients {
		go func() {
			for i := range files {
				key := fmt.Sprintf("c%d-f%d", c, i)
				att, _, err := svc.RecordAttachment(ctx, storeBytes(t, db, ev, key, key+"\n"), assess.SystemActor)
				if err == nil && i%3 == 2 {
					err = svc.DeleteAttachment(ctx, ev, att.ID, assess.SystemActor)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range clients {
		require.NoError(t, <-errs)
	}
	closeWorkers(t, pool, workers)
	require.Equal(t, before, deadlocks(t, pool), "deadlocks")
	require.Equal(t, clients*files*2/3, count(t, pool, "SELECT count(*)::int FROM evidence_attachments WHERE evidence_id = $1", ev))
	require.Equal(t, versionBefore+clients*files*4/3, count(t, pool, "SELECT version::int FROM evidence WHERE id = $1", ev),
		"each file added and removed bumps the version once")
}

// TestEvidenceFilesDoNotChangeInReview: while evidence is in review its files are what the
// reviewer judges — adding (checked before the bytes are stored and again when they are
// recorded) or deleting one is 409 in_review — and a file deleted otherwise bumps the
// evidence's version, so an approval made on the version read before is refused (issue 26
// item 13). The upload through pkg/app is tested there.
func TestEvidenceFilesDoNotChangeInReview(t *testing.T) {
	t.Parallel()
	pool, db, ev := attachmentFixture(t)
	svc := testServices(db).Attachments
	ctx := context.Background()
	att, _, err := svc.RecordAttachment(ctx, storeBytes(t, db, ev, "a", "report a\n"), assess.SystemActor)
	require.NoError(t, err)

	_, err = pool.Exec(ctx, "UPDATE evidence SET state = 'in_review' WHERE id = $1", ev)
	require.NoError(t, err)
	requireCode(t, svc.CheckAttachable(ctx, ev, assess.SystemActor), assess.ECodeConflict, "")
	_, _, err = svc.RecordAttachment(ctx, storeBytes(t, db, ev, "b", "report b\n"), assess.SystemActor)
	requireCode(t, err, assess.ECodeConflict, "")
	requireCode(t, svc.DeleteAttachment(ctx, ev, att.ID, assess.SystemActor), assess.ECodeConflict, "")
	require.Len(t, must(svc.FindAttachments(ctx, ev, assess.SystemActor)), 1)

	_, err = pool.Exec(ctx, "UPDATE evidence SET state = 'in_progress' WHERE id = $1", ev)
	require.NoError(t, err)
	require.NoError(t, svc.CheckAttachable(ctx, ev, assess.SystemActor))
	at := count(t, pool, "SELECT version::int FROM evidence WHERE id = $1", ev)
	require.NoError(t, svc.DeleteAttachment(ctx, ev, att.ID, assess.SystemActor))
	require.Equal(t, at+1, count(t, pool, "SELECT version::int FROM evidence WHERE id = $1", ev), "a file deleted bumps the evidence's version")
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_chunks WHERE blob_key = 'a'"), "the delete trigger removes database chunks")

	requireCode(t, svc.CheckAttachable(ctx, assess.NewID(assess.PrefixEvidence, time.Now()), assess.SystemActor), assess.ECodeNotFound, "")
}

// TestSweepBlobGarbage hands remove what is due and unreferenced, only unqueues what an
// attachment still references, keeps what remove fails for (due again after the retry,
// the attempt and the error recorded), and holds what it sweeps: a concurrent sweep takes
// other rows.
func TestSweepBlobGarbage(t *testing.T) {
	t.Parallel()
	pool, db, ev := attachmentFixture(t)
	svc := testServices(db).Attachments
	ctx := context.Background()
	_, _, err := svc.RecordAttachment(ctx, storeBytes(t, db, ev, "kept", "kept"), assess.SystemActor)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO blob_garbage (provider, storage_key, due_at) VALUES
			('database', 'orphan', now() - interval '1 minute'),
			('database', 'in-flight', now() + interval '1 hour'),
			('s3', 'evidence/x/unreachable', now() - interval '1 minute'),
			('database', 'kept', now() - interval '1 minute')`)
	require.NoError(t, err)

	var removed []string
	var concurrent int
	n, err := svc.SweepBlobGarbage(ctx, 100, 2*time.Hour, func(ctx context.Context, provider, key string) error {
		removed = append(removed, provider+":"+key)
		if concurrent == 0 { // the rows of this sweep are held: another one finds nothing of them
			other, err := svc.SweepBlobGarbage(ctx, 100, time.Hour, func(context.Context, string, string) error {
				concurrent++
				return nil
			})
			require.NoError(t, err)
			require.Zero(t, other)
			concurrent = -1
		}
		if provider == assess.StorageS3 {
			return errors.New("bucket unreachable")
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.ElementsMatch(t, []string{"database:orphan", "s3:evidence/x/unreachable"}, removed, "neither the referenced nor the not-yet-due")
	require.Equal(t, []string{"evidence/x/unreachable", "in-flight"}, keys(t, pool, "SELECT storage_key FROM blob_garbage ORDER BY storage_key"))
	require.Equal(t, 1, count(t, pool, "SELECT attempts FROM blob_garbage WHERE provider = 's3'"))
	require.Equal(t, 1, count(t, pool, `SELECT count(*)::int FROM blob_garbage WHERE provider = 's3' AND last_error = 'bucket unreachable'
		AND due_at > now() + interval '1 hour'`), "retried after the given delay")
}

func keys(t *testing.T, pool *pgxpool.Pool, sql string) []string {
	t.Helper()
	rows, err := pool.Query(context.Background(), sql)
	require.NoError(t, err)
	var out []string
	for rows.Next() {
		var k string
		require.NoError(t, rows.Scan(&k))
		out = append(out, k)
	}
	require.NoError(t, rows.Err())
	return out
}

// TestQueueBlob: queueing a queued object moves its due time (a discarded upload whose
// bytes could not be deleted becomes due at once); unqueueing removes it.
func TestQueueBlob(t *testing.T) {
	t.Parallel()
	pool, db, _ := attachmentFixture(t)
	svc := testServices(db).Attachments
	ctx := context.Background()
	require.NoError(t, svc.QueueBlob(ctx, assess.StorageS3, "evidence/e/k", 24*time.Hour))
	require.Equal(t, 1, count(t, pool, "SELECT count(*)::int FROM blob_garbage WHERE due_at > now() + interval '23 hours'"))
	require.NoError(t, svc.QueueBlob(ctx, assess.StorageS3, "evidence/e/k", 0))
	require.Equal(t, 1, count(t, pool, "SELECT count(*)::int FROM blob_garbage WHERE due_at <= now()"))
	require.NoError(t, svc.UnqueueBlob(ctx, assess.StorageS3, "evidence/e/k"))
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_garbage"))
}

// TestChunkStore: the database provider stores an object as 1 MiB rows and streams it
// back, measures what it stored, says when an object is missing, and removes what a
// failed upload stored.
func TestChunkStore(t *testing.T) {
	t.Parallel()
	pool, db, _ := attachmentFixture(t)
	blobs := work.NewChunkStore(db)
	ctx := context.Background()
	content := bytes.Repeat([]byte("0123456789abcdef"), (5<<20)/32) // 2.5 MiB
	info, err := blobs.Put(ctx, "big", bytes.NewReader(content))
	require.NoError(t, err)
	sum := sha256.Sum256(content)
	require.Equal(t, assess.BlobInfo{Size: int64(len(content)), SHA256: hex.EncodeToString(sum[:])}, info)
	require.Equal(t, 3, count(t, pool, "SELECT count(*)::int FROM blob_chunks WHERE blob_key = 'big'"))
	rc, err := blobs.Get(ctx, "big")
	require.NoError(t, err)
	raw, err := io.ReadAll(rc)
	require.NoError(t, err)
	require.NoError(t, rc.Close())
	require.Equal(t, content, raw)

	_, err = blobs.Put(ctx, "empty", bytes.NewReader(nil))
	require.NoError(t, err)
	rc, err = blobs.Get(ctx, "empty")
	require.NoError(t, err, "an empty object exists")
	raw, err = io.ReadAll(rc)
	require.NoError(t, err)
	require.Empty(t, raw)

	_, err = blobs.Get(ctx, "nothing")
	require.ErrorIs(t, err, assess.ErrBlobNotFound)

	boom := errors.New("connection reset")
	_, err = blobs.Put(ctx, "cut", io.MultiReader(bytes.NewReader(content), iotest.ErrReader(boom)))
	require.ErrorIs(t, err, boom)
	require.Zero(t, count(t, pool, "SELECT count(*)::int FROM blob_chunks WHERE blob_key = 'cut'"), "a failed upload leaves no chunk")

	require.NoError(t, blobs.Delete(ctx, "big"))
	require.NoError(t, blobs.Delete(ctx, "big"), "deleting what is not there succeeds")
	_, err = blobs.Get(ctx, "big")
	require.ErrorIs(t, err, assess.ErrBlobNotFound)
	require.NoError(t, blobs.CheckHealth(ctx))
}

// TestChunkStoreWaitsWithoutAConnection: the database provider holds a pooled connection
// only while it stores a chunk, not while it waits for the client's next bytes — slow
// uploads cannot take the pool from every other request.
func TestChunkStoreWaitsWithoutAConnection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	one, err := postgres.OpenPool(ctx, pgtest.NewDatabase(t), postgres.PoolConfig{MaxConns: 1, ApplicationName: "test"})
	require.NoError(t, err)
	t.Cleanup(one.Close)
	blobs := work.NewChunkStore(postgres.New(one, nil))

	content := pgtest.NewStalledBody(t, bytes.Repeat([]byte("a"), 5<<19), "end")
	done := make(chan error, 1)
	go func() {
		_, err := blobs.Put(ctx, "slow", content)
		done <- err
	}()
	<-content.Reached()

	qctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var n int
	require.NoError(t, one.QueryRow(qctx, "SELECT count(*)::int FROM blob_chunks").Scan(&n), "the stalled upload holds the pool's only connection")
	require.Equal(t, 2, n, "the full chunks are stored as they arrive")
	content.Release()
	require.NoError(t, <-done)
	require.Equal(t, 3, count(t, one, "SELECT count(*)::int FROM blob_chunks"))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
