package app

import (
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
	// Database is the database provider (pkg/postgres ChunkStore); always required.
	Database assess.BlobStore
	// S3 is the S3 provider when S3 is configured, nil otherwise. Files already in S3 stay
	// readable through it after Provider changes back to the database.
	S3 assess.BlobStore
	// UploadGrace is how long an upload may take before the blob collector deletes what it
	// stored so far (default 24 h): an upload still running then fails.
	UploadGrace time.Duration
	// Logger receives the failures of discarding uploads, of integrity checks and of the
	// blob collector (default slog.Default()).
	Logger *slog.Logger
}

// defaultUploadGrace is UploadGrace when unset.
const defaultUploadGrace = 24 * time.Hour

// check fills the defaults and refuses a provider of new uploads that is not configured.
func (cfg *StorageConfig) check() error {
	if cfg.Database == nil {
		return errors.New("storage: the database provider is required")
	}
	switch cfg.Provider {
	case "", assess.StorageDatabase:
		cfg.Provider = assess.StorageDatabase
	case assess.StorageS3:
		if cfg.S3 == nil {
			return errors.New("storage: STORAGE_PROVIDER is s3 but no S3 provider is configured")
		}
	default:
		return fmt.Errorf("storage: unknown provider %q", cfg.Provider)
	}
	if cfg.UploadGrace <= 0 {
		cfg.UploadGrace = defaultUploadGrace
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return nil
}

// provider returns the provider named name: 503 for one that is not configured (any
// more), such as S3 after the S3_* variables were removed.
func (cfg *StorageConfig) provider(name string) (assess.BlobStore, error) {
	switch {
	case name == assess.StorageDatabase:
		return cfg.Database, nil
	case name == assess.StorageS3 && cfg.S3 != nil:
		return cfg.S3, nil
	}
	return nil, &assess.Error{Code: assess.ECodeUnavailable,
		Message: "The storage holding this file (" + name + ") is not configured; set the S3_* variables again to reach it."}
}
