package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// StorageConfig says where the bytes of evidence files go (docs/assessments.md
// "Attachments and storage").
type StorageConfig struct {
	// Provider receives new uploads: assess.StorageDatabase (the default) or
	// assess.StorageS3 (STORAGE_PROVIDER).
	Provider string
	// S3 is the S3 provider when S3 is configured, nil otherwise. Files already in S3 stay
	// readable through it after Provider changes back to the database.
	S3 assess.BlobStore
	// UploadGrace is how long an upload may take before the blob collector deletes what it
	// stored so far (default 24 h): an upload still running then fails.
	UploadGrace time.Duration
	// Logger receives the blob collector's failures (default slog.Default()).
	Logger *slog.Logger
}

// ConfigureStorage sets the storage providers of evidence files. The database provider is
// always available; S3 must be given when it is the provider of new uploads.
func (db *DB) ConfigureStorage(cfg StorageConfig) (*DB, error) {
	switch cfg.Provider {
	case "", assess.StorageDatabase:
		cfg.Provider = assess.StorageDatabase
	case assess.StorageS3:
		if cfg.S3 == nil {
			return nil, errors.New("storage: STORAGE_PROVIDER is s3 but no S3 provider is configured")
		}
	default:
		return nil, fmt.Errorf("storage: unknown provider %q", cfg.Provider)
	}
	if cfg.UploadGrace <= 0 {
		cfg.UploadGrace = 24 * time.Hour
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	db.storage = cfg
	return db, nil
}

// uploadProvider is the provider of new uploads.
func (db *DB) uploadProvider() string {
	if db.storage.Provider == "" {
		return assess.StorageDatabase
	}
	return db.storage.Provider
}

// errStorageMissing answers for a file whose provider is not configured (any more).
func errStorageMissing(provider string) error {
	return &assess.Error{Code: assess.ECodeUnavailable,
		Message: "The storage holding this file (" + provider + ") is not configured; set the S3_* variables again to reach it."}
}

// blobStore returns the provider named provider.
func (db *DB) blobStore(provider string) (assess.BlobStore, error) {
	switch {
	case provider == assess.StorageDatabase:
		return chunkStore{db: db}, nil
	case provider == assess.StorageS3 && db.storage.S3 != nil:
		return db.storage.S3, nil
	}
	return nil, errStorageMissing(provider)
}

// queueUpload marks key as an upload in flight: should the attachment never be recorded,
// the blob collector deletes what was stored once UploadGrace has passed.
func (db *DB) queueUpload(ctx context.Context, provider, key string) error {
	grace := db.storage.UploadGrace
	if grace <= 0 {
		grace = 24 * time.Hour
	}
	_, err := db.pool.Exec(ctx, "INSERT INTO blob_garbage (provider, storage_key, due_at) VALUES ($1, $2, $3)",
		provider, key, db.now().Add(grace))
	return err
}

// discardUpload deletes what an upload stored and its queue entry, now; what fails here
// stays queued for the collector.
func (db *DB) discardUpload(ctx context.Context, store assess.BlobStore, provider, key string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := store.Delete(ctx, key); err != nil {
		db.storageLogger().WarnContext(ctx, "discarding an upload failed; the blob collector retries",
			slog.String("provider", provider), slog.String("key", key), slog.String("error", err.Error()))
		_, _ = db.pool.Exec(ctx, "UPDATE blob_garbage SET due_at = $3 WHERE provider = $1 AND storage_key = $2", provider, key, db.now())
		return
	}
	_, _ = db.pool.Exec(ctx, "DELETE FROM blob_garbage WHERE provider = $1 AND storage_key = $2", provider, key)
}

func (db *DB) storageLogger() *slog.Logger {
	if db.storage.Logger == nil {
		return slog.Default()
	}
	return db.storage.Logger
}

// collectorRetry is how long the collector waits before retrying an object it could not
// delete.
const collectorRetry = time.Hour

// CollectBlobGarbage implements assess.BlobCollector: it deletes up to limit due objects
// from their providers. An object an attachment still references is only taken off the
// queue; one that cannot be deleted (provider down or not configured) is retried later.
func (s *AttachmentService) CollectBlobGarbage(ctx context.Context, limit int) (int, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	now := s.now()
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
			if err := s.deleteBlob(ctx, it.provider, it.key); err != nil {
				s.storageLogger().WarnContext(ctx, "blob collector: delete failed, retrying later",
					slog.String("provider", it.provider), slog.String("key", it.key), slog.String("error", err.Error()))
				if _, err := tx.Exec(ctx, `UPDATE blob_garbage SET attempts = attempts + 1, due_at = $3, last_error = $4
					WHERE provider = $1 AND storage_key = $2`, it.provider, it.key, now.Add(collectorRetry), truncateUTF8(err.Error(), 500)); err != nil {
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

func (s *AttachmentService) deleteBlob(ctx context.Context, provider, key string) error {
	store, err := s.blobStore(provider)
	if err != nil {
		return err
	}
	return store.Delete(ctx, key)
}

var _ assess.BlobCollector = (*AttachmentService)(nil)
