package boot

import (
	"context"
	"log/slog"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/blob"
	"github.com/assay-dev/assay/pkg/config"
	"github.com/assay-dev/assay/pkg/postgres"
)

// ConfigureStorage gives store its evidence storage providers: the database provider
// always, and S3 whenever S3_BUCKET is set — also when STORAGE_PROVIDER is database, so
// files stored in S3 before a change of provider stay readable. It returns the health
// check of storage: the bucket HEAD when S3 is configured, nil otherwise (the database
// check covers the database provider).
func ConfigureStorage(ctx context.Context, store *postgres.DB, cfg *config.Config, log *slog.Logger) (assess.HealthChecker, error) {
	sc := postgres.StorageConfig{Provider: string(cfg.StorageProvider), Logger: log}
	var health assess.HealthChecker
	if cfg.S3Bucket != "" {
		s3, err := blob.NewS3(ctx, blob.S3Config{Bucket: cfg.S3Bucket, Region: cfg.S3Region, Endpoint: cfg.S3Endpoint,
			ForcePathStyle: cfg.S3ForcePathStyle, AccessKeyID: cfg.S3AccessKeyID, SecretAccessKey: cfg.S3SecretAccessKey})
		if err != nil {
			return nil, err
		}
		sc.S3, health = s3, s3
	}
	if _, err := store.ConfigureStorage(sc); err != nil {
		return nil, err
	}
	return health, nil
}
