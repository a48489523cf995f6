package boot

import (
	"context"
	"log/slog"

	"github.com/assay-dev/assay/pkg/app"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/blob"
	"github.com/assay-dev/assay/pkg/config"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/pkg/postgres/work"
)

// Attachments returns the evidence file flows (pkg/app) on store with their storage
// providers: the database provider always, and S3 whenever S3_BUCKET is set — also when
// STORAGE_PROVIDER is database, so files stored in S3 before a change of provider stay
// readable. It also returns the health check of storage: the bucket HEAD when S3 is
// configured, nil otherwise (the database check covers the database provider).
func Attachments(ctx context.Context, store *postgres.DB, cfg *config.Config, log *slog.Logger) (*app.Attachments, assess.HealthChecker, error) {
	sc := app.StorageConfig{Provider: string(cfg.StorageProvider), Database: work.NewChunkStore(store), Logger: log}
	var health assess.HealthChecker
	if cfg.S3Bucket != "" {
		s3, err := blob.NewS3(ctx, blob.S3Config{Bucket: cfg.S3Bucket, Region: cfg.S3Region, Endpoint: cfg.S3Endpoint,
			ForcePathStyle: cfg.S3ForcePathStyle, AccessKeyID: cfg.S3AccessKeyID, SecretAccessKey: cfg.S3SecretAccessKey})
		if err != nil {
			return nil, nil, err
		}
		sc.S3, health = s3, s3
	}
	files, err := app.NewAttachments(services.New(store).Attachments, sc)
	if err != nil {
		return nil, nil, err
	}
	return files, health, nil
}
