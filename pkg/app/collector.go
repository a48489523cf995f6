package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// collectorRetry is how long the collector waits before retrying an object it could not
// delete.
const collectorRetry = time.Hour

// CollectBlobGarbage implements assess.BlobCollector: it deletes up to limit due objects
// from their providers. An object an attachment still references is only taken off the
// queue; one that cannot be deleted (provider down or not configured) is retried later.
func (a *Attachments) CollectBlobGarbage(ctx context.Context, limit int) (int, error) {
	return a.store.SweepBlobGarbage(ctx, limit, collectorRetry, func(ctx context.Context, provider, key string) error {
		err := a.deleteBlob(ctx, provider, key)
		if err != nil {
			a.cfg.Logger.WarnContext(ctx, "blob collector: delete failed, retrying later",
				slog.String("provider", provider), slog.String("key", key), slog.String("error", err.Error()))
		}
		return err
	})
}

func (a *Attachments) deleteBlob(ctx context.Context, provider, key string) error {
	blobs, err := a.cfg.provider(provider)
	if err != nil {
		return err
	}
	return blobs.Delete(ctx, key)
}

var _ assess.BlobCollector = (*Attachments)(nil)
