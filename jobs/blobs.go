package jobs

import "github.com/riverqueue/river"

// CollectBlobsArgs asks the blob collector to delete the stored bytes no attachment
// references any more (deleted attachments and evidence, interrupted uploads).
type CollectBlobsArgs struct{}

// Kind implements river.JobArgs.
func (CollectBlobsArgs) Kind() string { return "maintenance.collect_blobs" }

// InsertOpts implements river.JobArgsWithInsertOpts: the maintenance queue, few attempts,
// since the next period collects again anyway.
func (CollectBlobsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMaintenance, MaxAttempts: 3}
}
