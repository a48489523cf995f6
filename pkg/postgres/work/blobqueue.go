package work

import (
	"context"
	"time"

	"github.com/assay-dev/assay/pkg/postgres"
)

// The garbage queue of stored objects (blob_garbage, migration 0013): what the blob
// collector of pkg/app deletes from its provider once it is due. Uploads in flight are
// queued here before their first byte is stored and taken off by the transaction that
// records the attachment (RecordAttachment); the delete trigger of evidence_attachments
// queues the S3 objects of deleted files. The store only keeps the queue: which provider
// holds an object, and deleting it there, is the application layer's business.

// QueueBlob queues the object key of provider, due after delay; an object queued already
// is due after delay from now instead (an upload whose bytes could not be deleted at once
// is made due now).
func (s *AttachmentService) QueueBlob(ctx context.Context, provider, key string, delay time.Duration) error {
	_, err := s.db.Pool.Exec(ctx, `INSERT INTO blob_garbage (provider, storage_key, due_at) VALUES ($1, $2, $3)
		ON CONFLICT (provider, storage_key) DO UPDATE SET due_at = EXCLUDED.due_at`, provider, key, s.db.Now().Add(delay))
	return postgres.DBError(err)
}

// UnqueueBlob takes the object key of provider off the queue (it was deleted).
func (s *AttachmentService) UnqueueBlob(ctx context.Context, provider, key string) error {
	_, err := s.db.Pool.Exec(ctx, "DELETE FROM blob_garbage WHERE provider = $1 AND storage_key = $2", provider, key)
	return postgres.DBError(err)
}

// SweepBlobGarbage takes up to limit due objects off the queue, in one transaction that
// holds their queue rows (FOR UPDATE SKIP LOCKED, so concurrent sweeps take different
// objects) while remove deletes each from its provider. An object an attachment still
// references is only taken off the queue, without remove; one remove fails for stays
// queued, due again after retry, with the attempt and the error recorded. It returns how
// many objects remove deleted.
func (s *AttachmentService) SweepBlobGarbage(ctx context.Context, limit int, retry time.Duration,
	remove func(ctx context.Context, provider, key string) error) (int, error) {
	tx, err := s.db.Pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	now := s.db.Now()
	rows, err := tx.Query(ctx, `SELECT g.provider, g.storage_key,
			EXISTS (SELECT 1 FROM evidence_attachments a WHERE a.provider = g.provider AND a.storage_key = g.storage_key)
		FROM blob_garbage g WHERE g.due_at <= $1 ORDER BY g.due_at LIMIT $2 FOR UPDATE SKIP LOCKED`, now, limit)
	if err != nil {
		return 0, err
	}
	type item struct {
		provider, key string
		referenced    bool
	}
	var items []item
	for rows.Next() {
		var it item
		if err := rows.Scan(&it.provider, &it.key, &it.referenced); err != nil {
			rows.Close()
			return 0, err
		}
		items = append(items, it)
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	deleted := 0
	for _, it := range items {
		if !it.referenced {
			if err := remove(ctx, it.provider, it.key); err != nil {
				if _, err := tx.Exec(ctx, `UPDATE blob_garbage SET attempts = attempts + 1, due_at = $3, last_error = $4
					WHERE provider = $1 AND storage_key = $2`, it.provider, it.key, now.Add(retry), postgres.TruncateUTF8(err.Error(), 500)); err != nil {
					return deleted, err
				}
				continue
			}
			deleted++
		}
		if _, err := tx.Exec(ctx, "DELETE FROM blob_garbage WHERE provider = $1 AND storage_key = $2", it.provider, it.key); err != nil {
			return deleted, err
		}
	}
	return deleted, tx.Commit(ctx)
}
